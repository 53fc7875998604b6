// RapidJSON's SAX Reader as an infoset source: numbers come as their text
// (kParseNumbersAsStringsFlag), which is what the mapping keeps.
#pragma once

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <string_view>

#include "codecs/json/adapters/rapidjson_dom.hpp"

namespace wb::wcfjson {

class RapidjsonReader {
 public:
  static constexpr std::string_view kName = "rapidjson";

  template <class Target>
  void parse(std::string_view input, Target& target) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    rapidjson::MemoryStream stream(json.data(), json.size());
    Handler<Target> handler{target};
    constexpr unsigned kFlags = json::kRapidjsonFast | rapidjson::kParseNumbersAsStringsFlag;
    if (!reader_.Parse<kFlags>(stream, handler))
      json::throw_parse_error(kName, reader_.GetParseErrorCode(), reader_.GetErrorOffset(), bom);
    json::check_consumed(kName, stream.Tell(), json.size(), bom);
  }

 private:
  // Returning true always: the mapping and the binder throw DecodeError.
  template <class Target>
  struct Handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler<Target>> {
    explicit Handler(Target& t) : t(t) {}
    bool Null() { return t.null(), true; }
    bool Bool(bool v) { return t.boolean(v), true; }
    bool RawNumber(const char* s, rapidjson::SizeType n, bool) { return t.number({s, n}), true; }
    bool String(const char* s, rapidjson::SizeType n, bool) { return t.string({s, n}), true; }
    bool Key(const char* s, rapidjson::SizeType n, bool) { return t.key({s, n}), true; }
    bool StartObject() { return t.start_object(), true; }
    bool EndObject(rapidjson::SizeType) { return t.end_object(), true; }
    bool StartArray() { return t.start_array(), true; }
    bool EndArray(rapidjson::SizeType) { return t.end_array(), true; }
    Target& t;
  };

  rapidjson::Reader reader_;
};

}  // namespace wb::wcfjson
