// RapidJSON SAX (rapidjson::Reader): events go straight into SaxBinder,
// no DOM is built.
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "codecs/json/adapters/rapidjson_dom.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_rapidjson_sax;

// A binder (or the canonical form) under RapidJSON's handler names, for
// ExactNumbers. Returning true always: the binder reports a bad shape by
// throwing DecodeError.
template <class Target>
class BinderHandler {
 public:
  explicit BinderHandler(Target& b) : b_(b) {}
  bool Null() { return b_.null(), true; }
  bool Bool(bool v) { return b_.boolean(v), true; }
  bool Int64(int64_t v) { return b_.integer(v), true; }
  bool Uint64(uint64_t v) { return b_.unsigned_integer(v), true; }
  bool Double(double v) { return b_.number(v), true; }
  bool String(const char* s, rapidjson::SizeType n, bool) { return b_.string({s, n}), true; }
  bool Key(const char* s, rapidjson::SizeType n, bool) { return b_.key({s, n}), true; }
  bool StartObject() { return b_.start_object(), true; }
  bool EndObject(rapidjson::SizeType) { return b_.end_object(), true; }
  bool StartArray() { return b_.start_array(), true; }
  bool EndArray(rapidjson::SizeType) { return b_.end_array(), true; }

 private:
  Target& b_;
};

// RapidJSON's do-nothing handler (every event goes to Default()), counting.
struct CountEvents : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, CountEvents> {
  std::size_t events = 0;
  bool Default() {
    ++events;
    return true;
  }
};

class RapidjsonSaxDecoder : public DecoderFor<RapidjsonSaxDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    SaxBinder<T> binder(rows, this->page_out());
    BinderHandler<SaxBinderBase> target(binder);
    ExactNumbers handler(kLibrary, target);
    parse(input, handler);
    binder.finish();
  }
  std::size_t parse_only(std::string_view input) final {
    // RapidJSON's own do-nothing handler, counting its events, after the
    // number conversion that is part of parsing here.
    CountEvents count;
    ExactNumbers handler(kLibrary, count);
    parse(input, handler);
    return count.events;
  }
  bool canonical(std::string_view input, std::string& out) final {
    CanonicalJson sink(out);
    BinderHandler<CanonicalJson> target(sink);
    ExactNumbers handler(kLibrary, target);
    parse(input, handler);
    return true;
  }

 private:
  template <class Handler>
  void parse(std::string_view input, Handler& handler) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    rapidjson::MemoryStream stream(json.data(), json.size());
    if (!reader_.Parse<kRapidjsonExact>(stream, handler))
      throw_parse_error(kLibrary, reader_.GetParseErrorCode(), reader_.GetErrorOffset(), bom);
    check_consumed(kLibrary, stream.Tell(), json.size(), bom);
  }

  rapidjson::Reader reader_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(rapidjson_sax, wb::json::RapidjsonSaxDecoder)
