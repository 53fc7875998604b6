// Runtime field tables built from the compile-time Schema<T>: what streaming
// and DOM decoders of every format use to find a member by name and store a
// value into it, without one hand-written binder per dataset.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "generators/model.hpp"

namespace wb {

// property: an EntityProperty (the record pointer points at it) that takes
// any JSON scalar with its inferred type (codecs/common/entity.hpp).
enum class ValueKind { int32, float64, string, datetime, records, property };

struct RecordTable;

struct FieldSlot {
  std::string_view name;
  ValueKind kind;
  std::size_t offset;             // of the member inside the record
  void* (*append)(void* member);  // records: push_back an element, return it
  const RecordTable* element;     // records: the element's table
  // JSON forms an OData dialect allows beside the plain one (with_json_forms):
  // a number as a JSON string of it (v2 verbose JSON; v4 with
  // IEEE754Compatible=true), a list as {"results": [...]} (v2 verbose JSON).
  bool number_as_text = false;
  bool results_object = false;
  template <class M>
  M& member(void* record) const {
    return *reinterpret_cast<M*>(static_cast<char*>(record) + offset);
  }
};

struct RecordTable {
  std::string_view type_name;
  std::vector<FieldSlot> fields;  // schema order

  // The slot named key, or nullptr. hint is the index after the last match:
  // members usually arrive in schema order, so that one is tried first.
  const FieldSlot* find(std::string_view key, std::size_t& hint) const {
    const std::size_t n = fields.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = hint + i < n ? hint + i : hint + i - n;
      if (fields[k].name == key) {
        hint = k + 1 == n ? 0 : k + 1;
        return &fields[k];
      }
    }
    return nullptr;
  }
};

template <class M>
constexpr ValueKind kind_of() {
  if constexpr (std::is_same_v<M, int32_t>)
    return ValueKind::int32;
  else if constexpr (std::is_same_v<M, double>)
    return ValueKind::float64;
  else if constexpr (std::is_same_v<M, std::string>)
    return ValueKind::string;
  else if constexpr (std::is_same_v<M, DateTime>)
    return ValueKind::datetime;
  else
    return ValueKind::records;
}

template <class T>
const RecordTable& table_of();

namespace detail {
template <class M>
struct Element {
  using type = void;
};
template <class E>
struct Element<std::vector<E>> {
  using type = E;
};

template <class T>
RecordTable make_table() {
  RecordTable t{Schema<T>::type_name, {}};
  T probe{};
  for_each_field(probe, [&](std::string_view name, auto& m) {
    using M = std::remove_reference_t<decltype(m)>;
    FieldSlot s{
        name, kind_of<M>(),
        static_cast<std::size_t>(reinterpret_cast<char*>(&m) - reinterpret_cast<char*>(&probe)),
        nullptr, nullptr};
    if constexpr (kind_of<M>() == ValueKind::records) {
      using E = typename Element<M>::type;
      s.append = [](void* v) -> void* { return &static_cast<M*>(v)->emplace_back(); };
      s.element = &table_of<E>();
    }
    t.fields.push_back(s);
  });
  return t;
}
}  // namespace detail

template <class T>
const RecordTable& table_of() {
  static const RecordTable table = detail::make_table<T>();
  return table;
}

// A table and its element tables with the JSON forms of FieldSlot set on
// every slot; lives as long as the program.
const RecordTable& with_json_forms(const RecordTable& table, bool number_as_text,
                                   bool results_object);

// Storing values. The format name goes into the error ("json: ...").
// A JSON integer/float/string into a slot, checking the JSON type fits.
void store_int(std::string_view format, const FieldSlot& s, void* record, int64_t v);
void store_double(std::string_view format, const FieldSlot& s, void* record, double v);
void store_string(std::string_view format, const FieldSlot& s, void* record, std::string_view v);
void store_bool(std::string_view format, const FieldSlot& s, void* record, bool v);
void store_null(std::string_view format, const FieldSlot& s, void* record);
// The slot DOM decoders store an entity property's scalar value through.
inline const FieldSlot& property_slot() {
  static const FieldSlot slot{"(property)", ValueKind::property, 0, nullptr, nullptr};
  return slot;
}
// A JSON string into a slot: text for a string or date-time, or for a number
// where the slot takes number_as_text; anything else is a wrong type.
// XML text (or any untyped text) into a scalar slot, parsed by the slot kind.
void store_text(std::string_view format, const FieldSlot& s, void* record, std::string_view v);
// A record in which none of the table's members appeared: almost surely a
// payload of another dataset (unknown members are skipped, so without this
// an airport feed "decodes" as messages full of defaults).
inline void require_members(std::string_view format, const RecordTable& t, int bound) {
  if (bound == 0)
    throw RowError(format, "a record with none of the members of " + std::string(t.type_name) +
                               " (a payload of another dataset?)");
}

// An error in member s of the record being bound: "member " + name + what, as
// a RowError (the decoder adds the row).
[[noreturn]] void member_error(std::string_view format, const FieldSlot& s,
                               const std::string& what);
// A value the slot cannot take (an object for a string, null, ...).
[[noreturn]] void wrong_type(std::string_view format, const FieldSlot& s, std::string_view got);
// What wrong_type says a number read as a double is, for an Int32 slot: "an
// integer out of its range" (whole and beyond Int32) or "a floating-point
// number".
std::string_view number_kind(double v);

}  // namespace wb
