// RapidJSON DOM (Document::Parse), in two modes: full-precision numbers
// (exact) and RapidJSON's default fast number parsing (not exact).
#include <rapidjson/memorystream.h>

#include "codecs/json/rapidjson_dom.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

struct FullPrecision {
  static constexpr unsigned flags = kRapidjsonExact;
  static constexpr std::string_view library = "rapidjson-dom";
};
struct FastNumbers {
  static constexpr unsigned flags = kRapidjsonFast;
  static constexpr std::string_view library = "rapidjson-dom-fast";
};

template <class Mode>
class RapidjsonDomDecoder : public DecoderFor<RapidjsonDomDecoder<Mode>> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    parse(input);
    DomBinder<RapidjsonDom>::bind_feed(doc_, rows);
  }
  void parse_only(std::string_view input) final { parse(input); }

 private:
  void parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    reset_document(doc_);
    // A bounded stream (what Parse(str, length) uses) so that Tell() shows
    // where parsing stopped.
    rapidjson::MemoryStream stream(json.data(), json.size());
    doc_.ParseStream<Mode::flags, rapidjson::UTF8<>>(stream);
    if (doc_.HasParseError())
      throw_parse_error(Mode::library, doc_.GetParseError(), doc_.GetErrorOffset(), bom);
    check_consumed(Mode::library, stream.Tell(), json.size(), bom);
  }

  rapidjson::Document doc_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_DECODER(json, rapidjson_dom, wb::json::RapidjsonDomDecoder<wb::json::FullPrecision>)
WB_DEFINE_DECODER(json, rapidjson_dom_fast, wb::json::RapidjsonDomDecoder<wb::json::FastNumbers>)
