// A feed's entity rows in Avro's binary datum through Avro C's generic
// value, its schema a JSON text made at run time from the feed's schema
// (entity_schema.hpp), no generated code:
//
//   {"type": "record", "name": "Feed", "fields": [{"name": "value", "type":
//     {"type": "array", "items": {"type": "record", "name": "Row", "fields":
//       [{"name": "f1", "type": ["null", <kind>]}, ...]}}}]}
//
// Every column is a union with null (a property's name need not be an Avro
// name: fields go by position). Kinds: string, int, long (Edm.DateTime as
// long ticks), double, boolean. The decoder reads only payloads its encoder
// wrote in the same run, checked before timing: never a user's bytes, so
// the length checks of codecs/avro/avro_c.cpp are not repeated here.
#include <avro.h>

#include <stdexcept>
#include <string>

#include "codecs/avro/write_value.hpp"
#include "codecs/carriers/carriers.hpp"

namespace wb::carry {
namespace {

constexpr std::string_view kLibrary = "avro-c-generic";

[[noreturn]] void fail(const char* what) {
  throw DecodeError(kLibrary, std::string(what) + ": " + avro_strerror());
}
void check(int rc, const char* what) {
  if (rc != 0) fail(what);
}

const char* avro_type(Kind kind) {
  switch (kind) {
    case Kind::string:
      return "string";
    case Kind::int32:
      return "int";
    case Kind::int64:
    case Kind::ticks:
      return "long";
    case Kind::float64:
      return "double";
    case Kind::boolean:
      return "boolean";
  }
  return "string";
}

std::string schema_json(const EntitySchema& schema) {
  std::string fields;
  for (std::size_t i = 0; i < schema.columns.size(); ++i)
    fields += std::string(i ? "," : "") + R"({"name":"f)" + std::to_string(i + 1) +
              R"(","type":["null",")" + avro_type(schema.columns[i].kind) + R"("]})";
  return R"({"type":"record","name":"Feed","fields":[{"name":"value","type":{"type":"array",)"
         R"("items":{"type":"record","name":"Row","fields":[)" +
         fields + "]}}}]}";
}

// The schema, its generic class and one reused value of it.
class Datum {
 public:
  explicit Datum(const EntitySchema& schema) : columns_(schema.columns) {
    const std::string text = schema_json(schema);
    avro_schema_error_t error;
    if (avro_schema_from_json(text.data(), static_cast<int32_t>(text.size()), &schema_, &error))
      throw std::invalid_argument(std::string(kLibrary) + ": schema: " + avro_strerror());
    iface_ = avro_generic_class_from_schema(schema_);
    if (!iface_ || avro_generic_value_new(iface_, &value_)) fail("generic value");
  }
  ~Datum() {
    avro_value_decref(&value_);
    avro_value_iface_decref(iface_);
    avro_schema_decref(schema_);
  }
  Datum(const Datum&) = delete;
  Datum& operator=(const Datum&) = delete;
  avro_value_t& value() { return value_; }
  const std::vector<Column>& columns() const { return columns_; }

 private:
  std::vector<Column> columns_;
  avro_schema_t schema_ = nullptr;
  avro_value_iface_t* iface_ = nullptr;
  avro_value_t value_{};
};

void set(avro_value_t& field, const Column& c, const EntityProperty& p) {
  avro_value_t branch;
  if (is_null(p)) {
    check(avro_value_set_branch(&field, 0, &branch), "null branch");
    check(avro_value_set_null(&branch), "set null");
    return;
  }
  check(avro_value_set_branch(&field, 1, &branch), "branch");
  switch (c.kind) {
    case Kind::string:
      // Avro C's string sizes count a NUL after the bytes.
      return check(avro_value_set_string_len(&branch, p.Value.c_str(), p.Value.size() + 1),
                   "set string");
    case Kind::int32:
      return check(avro_value_set_int(&branch, static_cast<int32_t>(to_int(p))), "set int");
    case Kind::int64:
      return check(avro_value_set_long(&branch, to_int(p)), "set long");
    case Kind::ticks:
      return check(avro_value_set_long(&branch, to_ticks(p)), "set long");
    case Kind::float64:
      return check(avro_value_set_double(&branch, to_double(p)), "set double");
    case Kind::boolean:
      return check(avro_value_set_boolean(&branch, p.Value == "true"), "set boolean");
  }
}

void get(EntityRow& row, const Column& c, avro_value_t& field) {
  int which = 0;
  check(avro_value_get_discriminant(&field, &which), "discriminant");
  if (which == 0) return put_null(row, c);
  avro_value_t branch;
  check(avro_value_get_current_branch(&field, &branch), "branch");
  switch (c.kind) {
    case Kind::string: {
      const char* s = nullptr;
      size_t n = 0;
      check(avro_value_get_string(&branch, &s, &n), "get string");
      return put_string(row, c, std::string_view(s, n ? n - 1 : 0));
    }
    case Kind::int32: {
      int32_t v = 0;
      check(avro_value_get_int(&branch, &v), "get int");
      return put_int(row, c, v);
    }
    case Kind::int64:
    case Kind::ticks: {
      int64_t v = 0;
      check(avro_value_get_long(&branch, &v), "get long");
      return c.kind == Kind::ticks ? put_ticks(row, c, v) : put_int(row, c, v);
    }
    case Kind::float64: {
      double v = 0;
      check(avro_value_get_double(&branch, &v), "get double");
      return put_double(row, c, v);
    }
    case Kind::boolean: {
      int v = 0;
      check(avro_value_get_boolean(&branch, &v), "get boolean");
      return put_bool(row, c, v != 0);
    }
  }
}

class GenericEncoder : public Encoder {
 public:
  explicit GenericEncoder(const EntitySchema& schema)
      : datum_(schema), writer_(avro_writer_memory(nullptr, 0)) {}
  ~GenericEncoder() override { avro_writer_free(writer_); }
  GenericEncoder(const GenericEncoder&) = delete;
  GenericEncoder& operator=(const GenericEncoder&) = delete;

  void encode(const Records& records, std::string& out) override {
    avro_value_t& feed = datum_.value();
    check(avro_value_reset(&feed), "reset");
    avro_value_t value;
    check(avro_value_get_by_index(&feed, 0, &value, nullptr), "field value");
    for (const EntityRow& row : std::get<std::vector<EntityRow>>(records)) {
      avro_value_t record;
      check(avro_value_append(&value, &record, nullptr), "append");
      for (std::size_t i = 0; i < datum_.columns().size(); ++i) {
        avro_value_t field;
        check(avro_value_get_by_index(&record, i, &field, nullptr), "field");
        set(field, datum_.columns()[i], row.Properties[i]);
      }
    }
    avro::write_value(kLibrary, writer_, feed, out);
  }

 private:
  Datum datum_;
  avro_writer_t writer_;
};

class GenericDecoder : public Decoder {
 public:
  explicit GenericDecoder(const EntitySchema& schema)
      : datum_(schema), reader_(avro_reader_memory(nullptr, 0)) {}
  ~GenericDecoder() override { avro_reader_free(reader_); }
  GenericDecoder(const GenericDecoder&) = delete;
  GenericDecoder& operator=(const GenericDecoder&) = delete;

  void decode(std::string_view input, Records& out) override {
    auto* rows = std::get_if<std::vector<EntityRow>>(&out);
    if (!rows) throw DecodeError(kLibrary, "decodes entity rows only");
    rows->clear();
    avro_value_t value;
    const std::size_t n = read(input, value);
    rows->reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
      avro_value_t record;
      check(avro_value_get_by_index(&value, k, &record, nullptr), "element");
      EntityRow& row = rows->emplace_back();
      row.Properties.reserve(datum_.columns().size());
      for (std::size_t i = 0; i < datum_.columns().size(); ++i) {
        avro_value_t field;
        check(avro_value_get_by_index(&record, i, &field, nullptr), "field");
        get(row, datum_.columns()[i], field);
      }
    }
  }
  std::size_t parse_only(std::string_view input) override {
    avro_value_t value;
    return read(input, value) + 1;
  }

 private:
  // Reads the feed; value is its array of rows. Returns the rows.
  std::size_t read(std::string_view input, avro_value_t& value) {
    avro_value_t& feed = datum_.value();
    check(avro_value_reset(&feed), "reset");
    avro_reader_memory_set_source(reader_, input.data(), static_cast<int64_t>(input.size()));
    if (avro_value_read(reader_, &feed) != 0) fail("read");
    check(avro_value_get_by_index(&feed, 0, &value, nullptr), "field value");
    std::size_t n = 0;
    check(avro_value_get_size(&value, &n), "array size");
    return n;
  }
  Datum datum_;
  avro_reader_t reader_;
};

}  // namespace

void add_avro_c_generic(std::vector<Carrier>& out) {
  CarrierCodec codec{kLibrary, true,
                     [](const EntitySchema& s) { return std::make_unique<GenericEncoder>(s); },
                     [](const EntitySchema& s) { return std::make_unique<GenericDecoder>(s); }};
  out.push_back(
      {"avro", {codec}, {codec}, [](const Records& rows) { return why_not("avro", rows); }});
}

}  // namespace wb::carry
