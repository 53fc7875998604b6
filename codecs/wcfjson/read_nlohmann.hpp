// nlohmann/json's SAX parser as an infoset source. Floats come with the text
// as written; integers only as values, so they are written back with
// to_chars (the same text, JSON integers having one spelling; "-0" reads as 0).
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

#include "codecs/json/adapters/nlohmann_error.hpp"
#include "generators/text.hpp"

namespace wb::wcfjson {

class NlohmannReader {
 public:
  static constexpr std::string_view kName = "nlohmann";

  template <class Target>
  void parse(std::string_view input, Target& target) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    json::reject_nul(kName, json, bom);
    Forwarder<Target> sax{target, bom};
    nlohmann::json::sax_parse(json.begin(), json.end(), &sax);  // strict: one value
  }

 private:
  using Json = nlohmann::json;
  template <class Target>
  struct Forwarder {
    Target& t;
    std::size_t bom;
    bool null() { return t.null(), true; }
    bool boolean(bool v) { return t.boolean(v), true; }
    bool number_integer(Json::number_integer_t v) { return integer(v); }
    bool number_unsigned(Json::number_unsigned_t v) { return integer(v); }
    bool number_float(Json::number_float_t, const Json::string_t& s) { return t.number(s), true; }
    bool string(Json::string_t& v) { return t.string(v), true; }
    bool binary(Json::binary_t&) { return false; }  // only from binary formats
    bool start_object(std::size_t) { return t.start_object(), true; }
    bool key(Json::string_t& k) { return t.key(k), true; }
    bool end_object() { return t.end_object(), true; }
    bool start_array(std::size_t) { return t.start_array(), true; }
    bool end_array() { return t.end_array(), true; }
    bool parse_error(std::size_t chars_read, const std::string&,
                     const nlohmann::detail::exception& e) {
      json::throw_nlohmann_error(kName, e, chars_read, bom);
    }
    template <class Int>
    bool integer(Int v) {
      char buf[text::kMaxNumberChars];
      t.number({buf, static_cast<std::size_t>(text::write_int(buf, v) - buf)});
      return true;
    }
  };
};

}  // namespace wb::wcfjson
