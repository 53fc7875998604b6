// simdjson On-Demand as an infoset source: a forward walk over every value
// (the infoset needs all of them), numbers as their raw token text.
#pragma once

#include <simdjson.h>

#include <string_view>
#include <type_traits>

#include "codecs/codec.hpp"

namespace wb::wcfjson {

class SimdjsonReader {
 public:
  static constexpr std::string_view kName = "simdjson";
  static_assert(kInputPadding >= simdjson::SIMDJSON_PADDING);

  template <class Target>
  void parse(std::string_view input, Target& target) {
    base_ = input.data();
    const std::string_view json = skip_bom(input);
    if (auto e = parser_
                     .iterate(simdjson::padded_string_view(json.data(), json.size(),
                                                           json.size() + kInputPadding))
                     .get(doc_))
      throw DecodeError(kName, simdjson::error_message(e));
    visit(doc_, target);
    // On-Demand reads lazily: trailing content is only found by asking.
    const char* at;
    if (!doc_.current_location().get(at))
      throw DecodeError(kName, "trailing content after the document", at - base_);
  }

 private:
  using Value = simdjson::ondemand::value;

  // V is the document (root) or a value. Depth is bounded by the mapping
  // (kMaxDepth), which throws before this recursion gets deep.
  template <class V, class Target>
  void visit(V&& v, Target& t) {
    simdjson::ondemand::json_type type;
    check(v.type().get(type));
    switch (type) {
      case simdjson::ondemand::json_type::array: {
        simdjson::ondemand::array array;
        check(v.get_array().get(array));
        t.start_array();
        for (auto element : array) {
          Value item;
          check(std::move(element).get(item));
          visit(item, t);
        }
        return t.end_array();
      }
      case simdjson::ondemand::json_type::object: {
        simdjson::ondemand::object object;
        check(v.get_object().get(object));
        t.start_object();
        for (auto member : object) {
          simdjson::ondemand::field field;
          check(std::move(member).get(field));
          std::string_view key;
          check(field.unescaped_key().get(key));
          t.key(key);
          visit(field.value(), t);
        }
        return t.end_object();
      }
      case simdjson::ondemand::json_type::number: {
        std::string_view token;
        auto raw = v.raw_json_token();  // a plain view for a value, a result for the root
        if constexpr (std::is_same_v<decltype(raw), std::string_view>)
          token = raw;
        else
          check(std::move(raw).get(token));
        check(v.get_number().error());  // validates it
        const std::size_t end = token.find_last_not_of(" \t\r\n");
        return t.number(token.substr(0, end + 1));
      }
      case simdjson::ondemand::json_type::string: {
        std::string_view s;
        check(v.get_string().get(s));
        return t.string(s);
      }
      case simdjson::ondemand::json_type::boolean: {
        bool b = false;  // set by get() when it succeeds (GCC cannot tell)
        check(v.get_bool().get(b));
        return t.boolean(b);
      }
      case simdjson::ondemand::json_type::null: {
        bool null = false;
        check(v.is_null().get(null));
        if (!null) check(simdjson::N_ATOM_ERROR);
        return t.null();
      }
    }
  }

  void check(simdjson::error_code e) {
    if (!e) return;
    const char* at;
    throw DecodeError(kName, simdjson::error_message(e),
                      doc_.current_location().get(at) ? -1 : at - base_);
  }

  simdjson::ondemand::parser parser_;
  simdjson::ondemand::document doc_;
  const char* base_ = nullptr;
};

}  // namespace wb::wcfjson
