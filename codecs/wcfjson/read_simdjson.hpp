// simdjson On-Demand as an infoset source: a forward walk over every value
// (the infoset needs all of them), numbers as their raw token text.
#pragma once

#include <simdjson.h>

#include <string_view>
#include <type_traits>

#include "codecs/codec.hpp"
#include "codecs/json/adapters/simdjson_ondemand_input.hpp"

namespace wb::wcfjson {

class SimdjsonReader {
 public:
  static constexpr std::string_view kName = "simdjson";

  template <class Target>
  void parse(std::string_view input, Target& target) {
    visit(in_.start(input), target);
    in_.check_end();
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
        return t.number(json::OndemandInput::token_text(token));
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

  void check(simdjson::error_code e) { in_.check(e); }

  json::OndemandInput in_{kName};
};

}  // namespace wb::wcfjson
