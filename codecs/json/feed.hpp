// The OData v3 JSON light feed shape, written once for every JSON library:
//  - write_feed drives any writer "sink" through the feed;
//  - SaxBinder turns any library's SAX events into records;
//  - bind_feed walks any library's DOM (through a small accessor policy).
// Adapters only translate between their library and these three.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/common/binding.hpp"
#include "codecs/common/entity.hpp"
#include "generators/datasets.hpp"
#include "generators/text.hpp"

namespace wb::json {

inline constexpr std::string_view kFormat = "json";

// "{service root}$metadata#{entity set}"
template <class T>
const std::string& metadata_url() {
  static const std::string url = [] {
    const DatasetInfo& d = dataset_info(dataset_of<T>());
    return std::string(d.service_root) + "$metadata#" + std::string(d.entity_set);
  }();
  return url;
}

// ---------------------------------------------------------------- writing
// A Sink has: start_object() end_object() start_array() end_array()
// key(string_view) string(string_view) int32(int32_t) number(double)
// boolean(bool) null() (the last two for entity rows only)

template <class Sink>
void write_value(Sink& w, int32_t v) {
  w.int32(v);
}
template <class Sink>
void write_value(Sink& w, double v) {
  w.number(v);
}
template <class Sink>
void write_value(Sink& w, const std::string& v) {
  w.string(v);
}
template <class Sink>
void write_value(Sink& w, DateTime v) {
  char buf[text::kDateTimeChars + 1];
  w.string(std::string_view(buf, text::write_datetime(buf, v) - buf));
}
// Sinks of the formats whose containers are headed by their size (msgpack,
// CBOR) take it: start_object(n), start_array(n).
template <class Sink>
void open_object(Sink& w, std::size_t members) {
  if constexpr (requires { w.start_object(members); })
    w.start_object(members);
  else
    w.start_object();
}
template <class Sink>
void open_array(Sink& w, std::size_t elements) {
  if constexpr (requires { w.start_array(elements); })
    w.start_array(elements);
  else
    w.start_array();
}

template <class Sink, class T>
void write_record(Sink& w, const T& r);
template <class Sink, class E>
void write_value(Sink& w, const std::vector<E>& items) {
  open_array(w, items.size());
  for (const E& e : items) write_record(w, e);
  w.end_array();
}

template <class Sink, class T>
void write_record(Sink& w, const T& r) {
  // Rows carry no annotations (no per-row odata.etag, as with Azure's
  // nometadata rows): the members are the data. Decoders skip annotations.
  open_object(w, field_count<T>);
  for_each_field(r, [&](std::string_view name, const auto& v) {
    w.key(name);
    write_value(w, v);
  });
  w.end_object();
}

// An entity row: properties in order, with a "Name@odata.type" annotation
// before the ones whose type a reader would not infer from the JSON value
// (codecs/common/entity.hpp). Edm.Int32, Edm.Double and Edm.Boolean values
// are JSON numbers and literals; every other value, Edm.Int64 included (as
// OData V3 writes it), is a string. Nested values (Complex, Collection, ...)
// hold JSON text, which is written as a string: the row round-trips, but
// the payload does not re-expand the nested value.
template <class Sink>
void write_record(Sink& w, const EntityRow& row) {
  w.start_object();
  for (const EntityProperty& p : row.Properties) {
    const std::string_view null_of = entity::null_of(p.Type);
    const std::string_view declared = null_of.empty() ? std::string_view(p.Type) : null_of;
    std::optional<double> number;
    std::optional<int32_t> int32;
    if (null_of.empty() && declared == entity::kDouble) number = text::parse_double(p.Value);
    if (null_of.empty() && declared == entity::kInt32) int32 = text::parse_int32(p.Value);
    const bool boolean = null_of.empty() && declared == entity::kBoolean &&
                         (p.Value == "true" || p.Value == "false");
    // A whole double is written without a fraction by some writers: say so.
    const bool inferable = declared == entity::kString || int32 || boolean ||
                           (number && std::isfinite(*number) && *number != std::trunc(*number));
    if (!inferable) {
      w.key(p.Name + "@odata.type");
      w.string(declared);
    }
    w.key(p.Name);
    if (!null_of.empty())
      w.null();
    else if (int32)
      w.int32(*int32);
    else if (number && std::isfinite(*number))
      w.number(*number);
    else if (boolean)
      w.boolean(p.Value == "true");
    else
      w.string(p.Value);
  }
  w.end_object();
}

// The map layout of the binary formats that carry member names (msgpack,
// CBOR, BSON): the feed without its metadata URL, {"value": [rows]}, each row
// a map of the model's members as write_record writes them (Timestamp as
// ISO 8601 text, as in JSON). Decoders bind it with SaxBinder or DomBinder.
template <class Sink, class T>
void write_map_feed(Sink& w, const std::vector<T>& rows) {
  open_object(w, 1);
  w.key("value");
  open_array(w, rows.size());
  for (const T& r : rows) write_record(w, r);
  w.end_array();
  w.end_object();
}

template <class Sink, class T>
void write_feed(Sink& w, const std::vector<T>& rows) {
  w.start_object();
  w.key("odata.metadata");
  w.string(metadata_url<T>());
  w.key("value");
  w.start_array();
  for (const T& r : rows) write_record(w, r);
  w.end_array();
  w.end_object();
}

// ---------------------------------------------------------------- SAX
// parse_only's target for a streaming reader: takes every event of any of our
// readers' event sets (nlohmann's, and Boost.JSON's with the number text) and
// does nothing.
struct IgnoreEvents {
  std::size_t events = 0;  // parse_only()'s figure
  void start_object() { ++events; }
  void end_object() { ++events; }
  void start_array() { ++events; }
  void end_array() { ++events; }
  void key(std::string_view) { ++events; }
  void string(std::string_view) { ++events; }
  void boolean(bool) { ++events; }
  void null() { ++events; }
  void integer(int64_t) { ++events; }
  void unsigned_integer(uint64_t) { ++events; }
  void number(double) { ++events; }
  void int64(int64_t, std::string_view) { ++events; }
  void uint64(uint64_t, std::string_view) { ++events; }
  void floating(double, std::string_view) { ++events; }
};

// Feed the events of a streaming parser; throws DecodeError on a shape that
// is not a feed of T. Unknown members of any shape are skipped. For entity
// rows every member of a row object that is not an annotation becomes a
// property (codecs/common/entity.hpp).
class SaxBinderBase {
 public:
  void start_object();
  void end_object();
  void start_array();
  void end_array();
  void key(std::string_view k);
  void string(std::string_view v);
  void integer(int64_t v);
  // A non-negative integer the parser read as unsigned: one beyond int64 can
  // only be a Double (the parser rounded it to nearest, as text would be).
  void unsigned_integer(uint64_t v) {
    if (v <= INT64_MAX) return integer(static_cast<int64_t>(v));
    number(static_cast<double>(v));
  }
  void number(double v);
  void boolean(bool v);
  void null();
  // Throws unless a complete feed was seen.
  void finish() const;

 protected:
  SaxBinderBase(void* rows, void* (*append_row)(void*), const RecordTable& table, bool entity,
                std::string_view format)
      : rows_(rows),
        append_row_(append_row),
        row_table_(table),
        format_(format),
        entity_rows_(entity) {}

 private:
  enum class Frame { envelope, feed, record, records };
  struct Level {
    Frame frame;
    void* target;  // record, or vector for records
    const RecordTable* table;
    const FieldSlot* slot = nullptr;  // records: the slot; record: pending member
    std::size_t hint = 0;
    int bound = 0;  // record: members seen
  };
  bool skipping_value();  // consumes a scalar inside a skipped value
  [[noreturn]] void unexpected(std::string_view what) const;
  const FieldSlot* take_pending();
  // Entity rows: the property whose value comes next, or nullptr.
  EntityProperty* take_property();
  void start_nested(bool object);
  void end_nested(bool object);
  template <class Set>
  bool entity_scalar(Set set);

  void* rows_;
  void* (*append_row_)(void*);
  const RecordTable& row_table_;
  std::string_view format_;  // in errors: "json", or the binary format read
  std::vector<Level> stack_;
  int skip_depth_ = -1;  // -1: not skipping; >= 0: nesting inside a skipped value
  bool value_pending_ = false;
  bool seen_feed_ = false;
  bool done_ = false;
  // Entity rows (entity_rows_): the open row, its pending property or type
  // annotation, and the writer of a nested value while one is open.
  bool entity_rows_;
  EntityRow* row_ = nullptr;
  EntityProperty* property_ = nullptr;
  std::string annotated_;  // "Name" while "Name@odata.type"'s value is pending
  bool annotation_pending_ = false;
  std::vector<entity::TypeAnnotation> annotations_;
  entity::JsonText nested_;
};

template <class T>
class SaxBinder : public SaxBinderBase {
 public:
  explicit SaxBinder(std::vector<T>& rows, std::string_view format = kFormat)
      : SaxBinderBase(
            &rows,
            [](void* v) -> void* { return &static_cast<std::vector<T>*>(v)->emplace_back(); },
            table_of<T>(), std::is_same_v<T, EntityRow>, format) {}
};

// The DOM counterpart of SaxBinderBase::unsigned_integer.
inline void store_unsigned(const FieldSlot& s, void* record, uint64_t v,
                           std::string_view format = kFormat) {
  if (v <= INT64_MAX) return store_int(format, s, record, static_cast<int64_t>(v));
  store_double(format, s, record, static_cast<double>(v));
}

// The format a DOM policy reads, for errors: Dom::kFormat, or "json".
template <class Dom>
inline constexpr std::string_view format_of = [] {
  if constexpr (requires { Dom::kFormat; })
    return std::string_view(Dom::kFormat);
  else
    return kFormat;
}();

// ---------------------------------------------------------------- DOM
// Dom is a policy with a Value type and:
//   static bool is_object(Value); static bool is_array(Value);
//   template <class F> static void members(Value, F f);   // f(string_view key, Value)
//   template <class F> static void elements(Value, F f);  // f(Value)
//   static void store(const FieldSlot&, void* record, Value);  // a scalar:
//     store_string/int/unsigned/double/bool/null by its JSON type
// Value is passed by value (a handle or a reference type).
template <class Dom>
struct DomBinder {
  using Value = typename Dom::Value;
  static constexpr std::string_view kFormat = format_of<Dom>;

  // parse_only()'s figure of a parsed document: 1 + the root's members or
  // elements, read in O(1) from every library's tree.
  static std::size_t figure(Value root) { return 1 + Dom::size(root); }

  static void bind_record(Value v, void* record, const RecordTable& t) {
    if (!Dom::is_object(v)) throw RowError(kFormat, "a row is not an object (a map)");
    std::size_t hint = 0;
    int bound = 0;
    Dom::members(v, [&](std::string_view key, Value child) {
      const FieldSlot* s = t.find(key, hint);
      if (!s) return;  // annotations and unknown members
      ++bound;
      if (s->kind != ValueKind::records) return Dom::store(*s, record, child);
      if (!Dom::is_array(child)) wrong_type(kFormat, *s, "a non-array");
      void* vec = static_cast<char*>(record) + s->offset;
      Dom::elements(child, [&](Value e) { bind_record(e, s->append(vec), *s->element); });
    });
    require_members(kFormat, t, bound);
  }

  // A scalar, object or array as JSON text (a nested entity property value).
  static void render(Value v, entity::JsonText& out) {
    if (Dom::is_object(v)) {
      out.start_object();
      Dom::members(v, [&](std::string_view key, Value child) {
        out.key(key);
        render(child, out);
      });
      return out.end_object();
    }
    if (Dom::is_array(v)) {
      out.start_array();
      Dom::elements(v, [&](Value e) { render(e, out); });
      return out.end_array();
    }
    EntityProperty scalar;
    Dom::store(property_slot(), &scalar, v);
    out.property(scalar);
  }

  static void bind_entity(Value v, EntityRow& row) {
    if (!Dom::is_object(v)) throw RowError(kFormat, "a row is not an object (a map)");
    std::vector<entity::TypeAnnotation> annotations;
    Dom::members(v, [&](std::string_view key, Value child) {
      if (const std::string_view name = entity::type_annotation_target(key); !name.empty()) {
        static const FieldSlot type_slot{"@odata.type", ValueKind::string, 0, nullptr, nullptr};
        auto& a = annotations.emplace_back(entity::TypeAnnotation{std::string(name), {}});
        return Dom::store(type_slot, &a.type, child);
      }
      if (entity::is_annotation(key)) return;
      EntityProperty& p = row.Properties.emplace_back();
      p.Name.assign(key);
      const bool object = Dom::is_object(child);
      if (!object && !Dom::is_array(child)) return Dom::store(property_slot(), &p, child);
      p.Type = object ? entity::kComplex : entity::kCollection;
      entity::JsonText out(p.Value);
      render(child, out);
    });
    entity::finish_json_row(kFormat, row, annotations);
  }

  template <class T>
  static void bind_feed(Value root, std::vector<T>& rows) {
    if (!Dom::is_object(root)) throw DecodeError(kFormat, "the payload is not an object (a map)");
    bool found = false;
    Dom::members(root, [&](std::string_view key, Value child) {
      if (key != "value") return;
      if (found) throw DecodeError(kFormat, "a second 'value' member");
      if (!Dom::is_array(child)) throw DecodeError(kFormat, "'value' is not an array");
      found = true;
      Dom::elements(child, [&](Value e) {
        if constexpr (std::is_same_v<T, EntityRow>)
          bind_entity(e, rows.emplace_back());
        else
          bind_record(e, &rows.emplace_back(), table_of<T>());
      });
    });
    if (!found) throw DecodeError(kFormat, "no 'value' array: not a feed");
  }
};

}  // namespace wb::json
