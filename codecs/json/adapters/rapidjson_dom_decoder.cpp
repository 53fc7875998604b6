// RapidJSON DOM in three modes: exact numbers (read from their text, see
// kRapidjsonExact), RapidJSON's default fast number parsing (not exact), and
// in situ with exact numbers (strings unescaped in place, in a copy of the
// payload the parser may change; that copy is part of what is measured).
#include <string>

#include <rapidjson/memorystream.h>

#include "codecs/json/adapters/rapidjson_dom.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

// A bounded stream (what Parse(str, length) uses) so that Tell() shows where
// parsing stopped.
struct FullPrecision {
  static constexpr unsigned flags = kRapidjsonExact;
  static constexpr std::string_view library = token::decoder_json_rapidjson_dom;
  rapidjson::MemoryStream stream(std::string_view json) { return {json.data(), json.size()}; }
};
struct FastNumbers {
  static constexpr unsigned flags = kRapidjsonFast;
  static constexpr std::string_view library = token::decoder_json_rapidjson_dom_fast;
  rapidjson::MemoryStream stream(std::string_view json) { return {json.data(), json.size()}; }
};
struct Insitu {
  static constexpr unsigned flags = kRapidjsonExact | rapidjson::kParseInsituFlag;
  static constexpr std::string_view library = token::decoder_json_rapidjson_insitu;
  rapidjson::InsituStringStream stream(std::string_view json) {
    buffer.assign(json);  // keeps its capacity; std::string adds the NUL ParseInsitu needs
    return rapidjson::InsituStringStream(buffer.data());
  }
  std::string buffer;
};

template <class Mode>
class RapidjsonDomDecoder : public DecoderFor<RapidjsonDomDecoder<Mode>> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    parse(input);
    DomBinder<RapidjsonDom>::bind_feed(doc_, rows, this->page_out());
  }
  std::size_t parse_only(std::string_view input) final {
    parse(input);
    return DomBinder<RapidjsonDom>::figure(doc_);
  }
  bool canonical(std::string_view input, std::string& out) final {
    parse(input);
    return write_canonical<RapidjsonDom>(doc_, out);
  }

 private:
  void parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    reset_document(doc_);
    auto stream = mode_.stream(json);
    if constexpr (Mode::flags & rapidjson::kParseNumbersAsStringsFlag) {
      // What Document::ParseStream does, with numbers read by ExactNumbers.
      auto parse = [&](rapidjson::Document& doc) {
        ExactNumbers<rapidjson::Document> handler(Mode::library, doc);
        return !reader_.Parse<Mode::flags>(stream, handler).IsError();
      };
      doc_.Populate(parse);
      if (reader_.HasParseError())
        throw_parse_error(Mode::library, reader_.GetParseErrorCode(), reader_.GetErrorOffset(),
                          bom);
    } else {
      doc_.ParseStream<Mode::flags, rapidjson::UTF8<>>(stream);
      if (doc_.HasParseError())
        throw_parse_error(Mode::library, doc_.GetParseError(), doc_.GetErrorOffset(), bom);
    }
    check_consumed(Mode::library, stream.Tell(), json.size(), bom);
  }

  Mode mode_;
  rapidjson::Reader reader_;  // for the exact modes; keeps its stack across calls
  rapidjson::Document doc_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(rapidjson_dom, wb::json::RapidjsonDomDecoder<wb::json::FullPrecision>)
WB_DEFINE_JSON_DECODER(rapidjson_dom_fast, wb::json::RapidjsonDomDecoder<wb::json::FastNumbers>)
WB_DEFINE_JSON_DECODER(rapidjson_insitu, wb::json::RapidjsonDomDecoder<wb::json::Insitu>)
