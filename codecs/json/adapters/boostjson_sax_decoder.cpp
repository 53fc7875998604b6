// Boost.JSON's streaming basic_parser: events go straight into SaxBinder, no
// value is built. Doubles are read from their text: Boost 1.81 converts
// numbers with an approximate algorithm (about one double in ten off by an
// ulp), and the binder wants the exact value.
#include "codecs/json/adapters/boostjson_events.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/json/number_text.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_boostjson_sax;

class BinderTarget {
 public:
  explicit BinderTarget(SaxBinderBase& b) : b_(b) {}
  void start_object() { b_.start_object(); }
  void end_object() { b_.end_object(); }
  void start_array() { b_.start_array(); }
  void end_array() { b_.end_array(); }
  void key(std::string_view k) { b_.key(k); }
  void string(std::string_view v) { b_.string(v); }
  void boolean(bool v) { b_.boolean(v); }
  void null() { b_.null(); }
  void int64(int64_t v, std::string_view) { b_.integer(v); }
  void uint64(uint64_t v, std::string_view) { b_.unsigned_integer(v); }
  // Boost reads an overflow (1e400) as infinity; exact_double rejects it.
  void floating(double, std::string_view text) { b_.number(exact_double(kLibrary, text)); }

 private:
  SaxBinderBase& b_;
};

class BoostjsonSaxDecoder : public DecoderFor<BoostjsonSaxDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    SaxBinder<T> binder(rows, this->page_out());
    BinderTarget target(binder);
    parser_.handler().attach(target);
    boostjson_parse(kLibrary, parser_, input);
    binder.finish();
  }
  std::size_t parse_only(std::string_view input) final {
    IgnoreEvents ignore;
    ignore_.handler().attach(ignore);
    boostjson_parse(kLibrary, ignore_, input);
    return ignore.events;
  }
  // The values as Boost read them (1e400 as infinity), as parse_only's
  // parse leaves them.
  bool canonical(std::string_view input, std::string& out) final {
    CanonicalJson sink(out);
    boost::json::basic_parser<BoostjsonEvents<CanonicalJson>> parser{boostjson_options()};
    parser.handler().attach(sink);
    boostjson_parse(kLibrary, parser, input);
    return true;
  }

 private:
  // Reused: each keeps its stack and part buffer across calls.
  boost::json::basic_parser<BoostjsonEvents<BinderTarget>> parser_{boostjson_options()};
  boost::json::basic_parser<BoostjsonEvents<IgnoreEvents>> ignore_{boostjson_options()};
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(boostjson_sax, wb::json::BoostjsonSaxDecoder)
