// The OData JSON feed shapes (codecs/json/dialect.hpp: v2 verbose, v3
// light, v4), written and read once for every JSON library:
//  - write_feed drives any writer "sink" through a feed (write_feed.hpp);
//  - SaxBinder turns any library's SAX events into records;
//  - DomBinder walks any library's DOM through a small accessor policy
//    (dom_binder.hpp).
// Adapters only translate between their library and these three. A JSON
// adapter serves the three dialects (docs/adding-a-library.md): an encoder
// derives from JsonEncoderFor and passes envelope() to write_feed; a decoder
// passes page_out() to its binder; each ends with WB_DEFINE_JSON_ENCODER or
// WB_DEFINE_JSON_DECODER and takes a WB_JSON_ENCODER or WB_JSON_DECODER line
// in codecs/registry.def.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/common/binding.hpp"
#include "codecs/common/entity.hpp"
#include "codecs/json/canonical.hpp"
#include "codecs/json/dialect.hpp"
#include "codecs/json/write_feed.hpp"
#include "generators/datasets.hpp"

namespace wb::json {

// The base of a JSON encoder: one class writes the three dialects, each
// factory giving it its own (WB_DEFINE_JSON_ENCODER).
template <class Impl>
class JsonEncoderFor : public EncoderFor<Impl> {
 public:
  static constexpr bool kEntityRows = true;
  void set_dialect(Dialect d) { dialect_ = d; }

 protected:
  // write_feed's envelope: the dialect, and the page encode_page() gives.
  Envelope envelope() const { return {dialect_, &this->page()}; }

 private:
  Dialect dialect_ = Dialect::light;
};

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
// is not a feed of T in one of the dialects, and records the feed's next
// link and count into page. Unknown members of any shape are skipped. For
// entity rows every member of a row object that is not an annotation becomes
// a property (codecs/common/entity.hpp).
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
  SaxBinderBase(void* rows, void* (*append_row)(void*), const RecordTable& (*table)(Dialect),
                bool entity, FeedPage* page, std::string_view format)
      : rows_(rows),
        append_row_(append_row),
        tables_(table),
        format_(format),
        entity_rows_(entity),
        feed_(page) {}

 private:
  // verbose: v2's {"d": {...}}; results: v2's {"results": [...]} around a
  // list member's records.
  enum class Frame { envelope, verbose, feed, record, records, results };
  struct Level {
    Frame frame;
    void* target;  // record, or vector for records
    const RecordTable* table;
    const FieldSlot* slot = nullptr;  // records: the slot; record: pending member
    std::size_t hint = 0;
    int bound = 0;  // record: members seen
  };
  bool skipping_value();  // consumes a scalar inside a skipped value
  // The value of the envelope member last seen (expect_), a scalar here.
  bool envelope_scalar(const EntityProperty& value);
  // An array of rows opens (the member last seen said so).
  void start_rows();
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
  const RecordTable& (*tables_)(Dialect);
  const RecordTable* row_table_ = nullptr;  // the dialect's, once the rows start
  std::string_view format_;  // in errors: "json", or the binary format read (map layout)
  std::vector<Level> stack_;
  int skip_depth_ = -1;  // -1: not skipping; >= 0: nesting inside a skipped value
  // The envelope member whose value comes next (FeedReader::Member::other:
  // none), and inside a results frame whether it is "results".
  FeedReader::Member expect_ = FeedReader::Member::other;
  bool results_pending_ = false;
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
  FeedReader feed_;
};

template <class T>
class SaxBinder : public SaxBinderBase {
 public:
  // page: the decoder's (Decoder::page_out()), or nullptr; format: the
  // format named in errors (a binary format's map layout reads as a feed).
  SaxBinder(std::vector<T>& rows, FeedPage* page, std::string_view format = kFormat)
      : SaxBinderBase(
            &rows,
            [](void* v) -> void* { return &static_cast<std::vector<T>*>(v)->emplace_back(); },
            &dialect_table<T>, std::is_same_v<T, EntityRow>, page, format) {}
};

// A decoder whose library reads a document as events: Impl::walk(input,
// target) sends them to a SaxBinderBase (decode: one walk for every T) or to
// IgnoreEvents (parse-only). format: "json", whose feed page reaches page(),
// or a binary format whose map layout reads as a feed without one, named in
// the binder's errors.
template <class Impl>
class EventDecoderFor : public DecoderFor<Impl> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    SaxBinder<T> binder(rows, format_ == kFormat ? this->page_out() : nullptr, format_);
    static_cast<Impl*>(this)->walk(input, static_cast<SaxBinderBase&>(binder));
    binder.finish();
  }
  std::size_t parse_only(std::string_view input) final {
    IgnoreEvents ignore;
    static_cast<Impl*>(this)->walk(input, ignore);
    return ignore.events;
  }
  bool canonical(std::string_view input, std::string& out) final {
    CanonicalJson sink(out);
    static_cast<Impl*>(this)->walk(input, sink);
    return true;
  }

 protected:
  explicit EventDecoderFor(std::string_view format = kFormat) : format_(format) {}

 private:
  std::string_view format_;
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

}  // namespace wb::json

#include "codecs/json/dom_binder.hpp"

// An adapter file ends with WB_DEFINE_JSON_ENCODER(rapidjson, Class) or
// WB_DEFINE_JSON_DECODER(rapidjson_sax, Class): the factories of its
// WB_JSON_ENCODER / WB_JSON_DECODER registry line, one per dialect.
#define WB_DEFINE_JSON_ENCODER_AS(format, ident, Class, dialect)      \
  std::unique_ptr<wb::Encoder> wb_make_encoder_##format##_##ident() { \
    auto encoder = std::make_unique<Class>();                         \
    encoder->set_dialect(wb::json::Dialect::dialect);                 \
    return encoder;                                                   \
  }
#define WB_DEFINE_JSON_ENCODER(ident, Class)                     \
  WB_DEFINE_JSON_ENCODER_AS(json, ident, Class, light)           \
  WB_DEFINE_JSON_ENCODER_AS(json_verbose, ident, Class, verbose) \
  WB_DEFINE_JSON_ENCODER_AS(json_v4, ident, Class, v4)
// A decoder reads every dialect: the three factories make the same class.
#define WB_DEFINE_JSON_DECODER(ident, Class)                            \
  std::unique_ptr<wb::Decoder> wb_make_decoder_json_##ident() {         \
    return std::make_unique<Class>();                                   \
  }                                                                     \
  std::unique_ptr<wb::Decoder> wb_make_decoder_json_verbose_##ident() { \
    return std::make_unique<Class>();                                   \
  }                                                                     \
  std::unique_ptr<wb::Decoder> wb_make_decoder_json_v4_##ident() {      \
    return std::make_unique<Class>();                                   \
  }
