// RapidJSON in-situ DOM (Document::ParseInsitu): strings are unescaped in
// place, so the payload is first copied into a buffer the parser may change;
// that copy is part of what is measured.
#include <string>

#include "codecs/json/rapidjson_dom.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = "rapidjson-insitu";

class RapidjsonInsituDecoder : public DecoderFor<RapidjsonInsituDecoder> {
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
    buffer_.assign(json);  // keeps its capacity; std::string adds the NUL ParseInsitu needs
    rapidjson::InsituStringStream stream(buffer_.data());
    doc_.ParseStream<kRapidjsonExact | rapidjson::kParseInsituFlag>(stream);
    if (doc_.HasParseError())
      throw_parse_error(kLibrary, doc_.GetParseError(), doc_.GetErrorOffset(), bom);
    check_consumed(kLibrary, stream.Tell(), json.size(), bom);
  }

  rapidjson::Document doc_;
  std::string buffer_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_DECODER(json, rapidjson_insitu, wb::json::RapidjsonInsituDecoder)
