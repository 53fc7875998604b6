// The OData v3 JSON light feed shape, written once for every JSON library:
//  - write_feed drives any writer "sink" through the feed;
//  - SaxBinder turns any library's SAX events into records;
//  - bind_feed walks any library's DOM (through a small accessor policy).
// Adapters only translate between their library and these three.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/common/binding.hpp"
#include "codecs/common/text.hpp"
#include "generators/datasets.hpp"

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
template <class Sink, class T>
void write_record(Sink& w, const T& r);
template <class Sink, class E>
void write_value(Sink& w, const std::vector<E>& items) {
  w.start_array();
  for (const E& e : items) write_record(w, e);
  w.end_array();
}

template <class Sink, class T>
void write_record(Sink& w, const T& r) {
  // Rows carry no annotations (no per-row odata.etag, as with Azure's
  // nometadata rows): the members are the data. Decoders skip annotations.
  w.start_object();
  for_each_field(r, [&](std::string_view name, const auto& v) {
    w.key(name);
    write_value(w, v);
  });
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
// Feed the events of a streaming parser; throws DecodeError on a shape that
// is not a feed of T. Unknown members of any shape are skipped.
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
  SaxBinderBase(void* rows, void* (*append_row)(void*), const RecordTable& table)
      : rows_(rows), append_row_(append_row), row_table_(table) {}

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

  void* rows_;
  void* (*append_row_)(void*);
  const RecordTable& row_table_;
  std::vector<Level> stack_;
  int skip_depth_ = -1;  // -1: not skipping; >= 0: nesting inside a skipped value
  bool value_pending_ = false;
  bool seen_feed_ = false;
  bool done_ = false;
};

template <class T>
class SaxBinder : public SaxBinderBase {
 public:
  explicit SaxBinder(std::vector<T>& rows)
      : SaxBinderBase(
            &rows,
            [](void* v) -> void* { return &static_cast<std::vector<T>*>(v)->emplace_back(); },
            table_of<T>()) {}
};

// The DOM counterpart of SaxBinderBase::unsigned_integer.
inline void store_unsigned(const FieldSlot& s, void* record, uint64_t v) {
  if (v <= INT64_MAX) return store_int(kFormat, s, record, static_cast<int64_t>(v));
  store_double(kFormat, s, record, static_cast<double>(v));
}

// ---------------------------------------------------------------- DOM
// Dom is a policy with a Value type and:
//   static bool is_object(Value); static bool is_array(Value);
//   template <class F> static void members(Value, F f);   // f(string_view key, Value)
//   template <class F> static void elements(Value, F f);  // f(Value)
//   static void store(const FieldSlot&, void* record, Value);  // a scalar
// Value is passed by value (a handle or a reference type).
template <class Dom>
struct DomBinder {
  using Value = typename Dom::Value;

  static void bind_record(Value v, void* record, const RecordTable& t) {
    if (!Dom::is_object(v)) throw DecodeError(kFormat, "a row is not a JSON object");
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

  template <class T>
  static void bind_feed(Value root, std::vector<T>& rows) {
    if (!Dom::is_object(root)) throw DecodeError(kFormat, "the payload is not a JSON object");
    bool found = false;
    Dom::members(root, [&](std::string_view key, Value child) {
      if (key != "value") return;
      if (found) throw DecodeError(kFormat, "a second 'value' member");
      if (!Dom::is_array(child)) throw DecodeError(kFormat, "'value' is not an array");
      found = true;
      Dom::elements(child, [&](Value e) { bind_record(e, &rows.emplace_back(), table_of<T>()); });
    });
    if (!found) throw DecodeError(kFormat, "no 'value' array: not an OData feed");
  }
};

}  // namespace wb::json
