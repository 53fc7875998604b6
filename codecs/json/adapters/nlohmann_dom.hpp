// DomBinder's policy over nlohmann/json values, for the JSON DOM decoder and
// for the binary formats nlohmann reads into the same values (msgpack, CBOR,
// BSON: Format names the format in errors).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "codecs/json/feed.hpp"

namespace wb::json {

// DomBinder's policy over a nlohmann value. Json: nlohmann::json, or
// ordered_json for entity rows (json's objects
// are std::maps, which sort members; a row's properties are in wire order).
template <class Json, const std::string_view* Format = &kFormat>
struct NlohmannDom {
  static constexpr std::string_view kFormat = *Format;
  using Value = const Json&;
  static bool is_object(Value v) { return v.is_object(); }
  static bool is_array(Value v) { return v.is_array(); }
  static std::size_t size(Value v) { return v.is_structured() ? v.size() : 0; }
  template <class F>
  static void members(Value v, F f) {
    for (const auto& [key, child] : v.template get_ref<const typename Json::object_t&>())
      f(key, child);
  }
  template <class F>
  static void elements(Value v, F f) {
    for (const auto& e : v.template get_ref<const typename Json::array_t&>()) f(e);
  }
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    using Type = typename Json::value_t;
    switch (v.type()) {
      case Type::string:
        return sink.string(v.template get_ref<const std::string&>());
      case Type::number_integer:
        return sink.integer(v.template get<int64_t>());
      case Type::number_unsigned:
        return sink.unsigned_integer(v.template get<uint64_t>());
      case Type::number_float:
        return sink.number(v.template get<double>());
      case Type::boolean:
        return sink.boolean(v.template get<bool>());
      default:  // null; binary values come from binary formats only
        return sink.null();
    }
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    using Type = typename Json::value_t;
    switch (v.type()) {
      case Type::string:
        return store_string(kFormat, s, record, v.template get_ref<const std::string&>());
      case Type::number_integer:
        return store_int(kFormat, s, record, v.template get<int64_t>());
      case Type::number_unsigned:  // nlohmann reads every non-negative integer as unsigned
        return store_unsigned(s, record, v.template get<uint64_t>(), kFormat);
      case Type::number_float:
        return store_double(kFormat, s, record, v.template get<double>());
      case Type::boolean:
        return store_bool(kFormat, s, record, v.template get<bool>());
      case Type::null:
        return store_null(kFormat, s, record);
      default:
        wrong_type(kFormat, s, std::string("a ") + v.type_name());
    }
  }
};

}  // namespace wb::json
