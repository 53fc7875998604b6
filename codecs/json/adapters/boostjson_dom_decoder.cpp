// Boost.JSON DOM: a reused boost::json::parser builds a value in a monotonic
// arena, then the shared DomBinder walks it. Not exact: Boost 1.81 converts
// numbers with an approximate algorithm and the value keeps no number text
// (parse_options gained a precise mode only in 1.83).
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <optional>

#include "codecs/json/adapters/boostjson_events.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_boostjson_dom;

std::string_view view(boost::json::string_view s) {
  return {s.data(), s.size()};
}

struct BoostjsonDom {
  using Value = const boost::json::value&;
  static bool is_object(Value v) { return v.is_object(); }
  static bool is_array(Value v) { return v.is_array(); }
  static std::size_t size(Value v) {
    return v.is_object() ? v.get_object().size() : v.is_array() ? v.get_array().size() : 0;
  }
  template <class F>
  static void members(Value v, F f) {
    for (const auto& m : v.get_object()) f(view(m.key()), m.value());
  }
  template <class F>
  static void elements(Value v, F f) {
    for (const auto& e : v.get_array()) f(e);
  }
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    switch (v.kind()) {
      case boost::json::kind::string:
        return sink.string(view(v.get_string()));
      case boost::json::kind::int64:
        return sink.integer(v.get_int64());
      case boost::json::kind::uint64:
        return sink.unsigned_integer(v.get_uint64());
      case boost::json::kind::double_:
        return sink.number(v.get_double());
      case boost::json::kind::bool_:
        return sink.boolean(v.get_bool());
      default:
        return sink.null();
    }
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    switch (v.kind()) {
      case boost::json::kind::string:
        return store_string(kFormat, s, record, view(v.get_string()));
      case boost::json::kind::int64:
        return store_int(kFormat, s, record, v.get_int64());
      case boost::json::kind::uint64:  // only integers above INT64_MAX
        return store_unsigned(s, record, v.get_uint64());
      case boost::json::kind::double_:  // Boost reads 1e400 as infinity
        if (!std::isfinite(v.get_double()))
          throw DecodeError(kLibrary, "a number beyond the double range");
        return store_double(kFormat, s, record, v.get_double());
      case boost::json::kind::bool_:
        return store_bool(kFormat, s, record, v.get_bool());
      case boost::json::kind::null:
        return store_null(kFormat, s, record);
      default:
        wrong_type(kFormat, s, v.is_object() ? "an object" : "an array");
    }
  }
};

class BoostjsonDomDecoder : public DecoderFor<BoostjsonDomDecoder> {
 public:
  static constexpr bool kEntityRows = true;  // objects keep their members' order
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    const boost::json::value doc = parse(input);
    DomBinder<BoostjsonDom>::bind_feed(doc, rows, this->page_out());
  }
  std::size_t parse_only(std::string_view input) final {
    return DomBinder<BoostjsonDom>::figure(parse(input));
  }
  bool canonical(std::string_view input, std::string& out) final {
    return write_canonical<BoostjsonDom>(parse(input), out);
  }

 private:
  // The value lives in arena_ until the next parse; destroying it is free
  // (a monotonic resource does not deallocate).
  boost::json::value parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    // A fresh arena, not arena_->release(): in 1.81 a released arena can
    // throw bad_alloc after a parse that failed inside a string.
    parser_.reset();  // drops what a failed parse left, while the arena holds it
    arena_.emplace();
    parser_.reset(&*arena_);
    boost::json::error_code ec;
    const std::size_t used = parser_.write(json.data(), json.size(), ec);  // all, or an error
    if (ec) throw_boostjson_error(kLibrary, ec, used + (input.size() - json.size()));
    return parser_.release();
  }

  std::optional<boost::json::monotonic_resource> arena_;
  boost::json::parser parser_{{}, boostjson_options()};  // keeps its value stack
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(boostjson_dom, wb::json::BoostjsonDomDecoder)
