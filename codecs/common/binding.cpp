#include "codecs/common/binding.hpp"

#include <cmath>
#include <deque>
#include <map>
#include <mutex>
#include <tuple>

#include "codecs/common/entity.hpp"
#include "generators/text.hpp"

namespace wb {
namespace {

std::string_view kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::int32:
      return "an Int32";
    case ValueKind::float64:
      return "a Double";
    case ValueKind::string:
      return "a String";
    case ValueKind::datetime:
      return "a DateTime";
    case ValueKind::property:
      return "a property value";
    case ValueKind::records:
      break;
  }
  return "a collection";
}

[[noreturn]] void bad_value(std::string_view format, const FieldSlot& s, std::string_view v) {
  std::string shown(v.substr(0, 40));
  member_error(format, s, ": '" + shown + "' is not " + std::string(kind_name(s.kind)));
}

}  // namespace

void member_error(std::string_view format, const FieldSlot& s, const std::string& what) {
  throw RowError(format, "member " + std::string(s.name) + what);
}

void wrong_type(std::string_view format, const FieldSlot& s, std::string_view got) {
  member_error(format, s,
               ": expected " + std::string(kind_name(s.kind)) + ", got " + std::string(got));
}

void store_int(std::string_view format, const FieldSlot& s, void* record, int64_t v) {
  if (s.kind == ValueKind::property)
    return entity::set_integer(s.member<EntityProperty>(record), v);
  if (s.kind == ValueKind::int32) {
    if (v < INT32_MIN || v > INT32_MAX) bad_value(format, s, std::to_string(v));
    s.member<int32_t>(record) = static_cast<int32_t>(v);
  } else if (s.kind == ValueKind::float64) {
    s.member<double>(record) = static_cast<double>(v);
  } else {
    wrong_type(format, s, "a number");
  }
}

void store_double(std::string_view format, const FieldSlot& s, void* record, double v) {
  if (s.kind == ValueKind::property) return entity::set_number(s.member<EntityProperty>(record), v);
  if (s.kind != ValueKind::float64) wrong_type(format, s, number_kind(v));
  s.member<double>(record) = v;
}

std::string_view number_kind(double v) {
  // The parsers hand an integer beyond 64 bits (18446744073709551616) over as
  // a double: for an Int32 it is out of range, not a fraction.
  const bool whole = std::isfinite(v) && v == std::trunc(v);
  return whole && (v < INT32_MIN || v > INT32_MAX) ? "an integer out of its range"
                                                   : "a floating-point number";
}

void store_string(std::string_view format, const FieldSlot& s, void* record, std::string_view v) {
  if (s.kind == ValueKind::property) return entity::set_string(s.member<EntityProperty>(record), v);
  if (s.number_as_text && (s.kind == ValueKind::int32 || s.kind == ValueKind::float64))
    return store_text(format, s, record, v);
  if (s.kind == ValueKind::string) {
    s.member<std::string>(record).assign(v);
  } else if (s.kind == ValueKind::datetime) {
    auto t = text::parse_datetime(v);
    if (!t) t = text::parse_wcf_date(v);
    if (!t) bad_value(format, s, v);
    s.member<DateTime>(record) = *t;
  } else {
    wrong_type(format, s, "a string");
  }
}

void store_bool(std::string_view format, const FieldSlot& s, void* record, bool v) {
  if (s.kind != ValueKind::property) wrong_type(format, s, "a boolean");
  entity::set_boolean(s.member<EntityProperty>(record), v);
}

void store_null(std::string_view format, const FieldSlot& s, void* record) {
  if (s.kind != ValueKind::property) wrong_type(format, s, "null");
  entity::set_null(s.member<EntityProperty>(record));
}

void store_text(std::string_view format, const FieldSlot& s, void* record, std::string_view v) {
  switch (s.kind) {
    case ValueKind::int32: {
      auto i = text::parse_int32(v);
      if (!i) bad_value(format, s, v);
      s.member<int32_t>(record) = *i;
      return;
    }
    case ValueKind::float64: {
      auto d = text::parse_double(v);
      if (!d) bad_value(format, s, v);
      s.member<double>(record) = *d;
      return;
    }
    case ValueKind::string:
    case ValueKind::datetime:
    case ValueKind::property:
      store_string(format, s, record, v);
      return;
    case ValueKind::records:
      break;
  }
  wrong_type(format, s, "text");
}

const RecordTable& with_json_forms(const RecordTable& table, bool number_as_text,
                                   bool results_object) {
  if (!number_as_text && !results_object) return table;
  // Made once per table and forms, under a lock (decoders run in threads);
  // a deque keeps the addresses that slots point at.
  static std::mutex mutex;
  static std::deque<RecordTable> made;
  static std::map<std::tuple<const RecordTable*, bool, bool>, const RecordTable*> index;
  std::lock_guard<std::mutex> lock(mutex);
  const auto build = [&](const auto& self, const RecordTable& t) -> const RecordTable* {
    const auto key = std::make_tuple(&t, number_as_text, results_object);
    if (auto it = index.find(key); it != index.end()) return it->second;
    RecordTable& copy = made.emplace_back(t);
    for (FieldSlot& s : copy.fields) {
      s.number_as_text = number_as_text;
      s.results_object = results_object;
      if (s.element) s.element = self(self, *s.element);
    }
    return index[key] = &copy;
  };
  return *build(build, table);
}

}  // namespace wb
