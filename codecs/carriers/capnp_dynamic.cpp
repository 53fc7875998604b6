// A feed's entity rows in Cap'n Proto (plain and packed) with no generated
// code: a schema text written at run time from the feed's schema
// (entity_schema.hpp), parsed by capnp::SchemaParser from an in-memory
// directory, and messages built and read through the dynamic API:
//
//   struct Row { c1 :union { null @0 :Void; v @1 :<kind>; } c2 :union {...} ... }
//   struct Feed { value @0 :List(Row); }
//
// A column is a union with Void: Cap'n Proto's scalars have no presence, and
// the union says null. Kinds: Text, Int32, Int64 (Edm.DateTime as Int64
// ticks), Float64, Bool. The decoder reads only payloads its encoder wrote in
// the same run, checked before timing, with the reader's limits set.
#include <capnp/dynamic.h>
#include <capnp/message.h>
#include <capnp/schema-parser.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/filesystem.h>

#include <memory>

#include "codecs/carriers/carriers.hpp"

namespace wb::carry {
namespace {

constexpr std::string_view kLibrary = "capnp-dynamic";

const char* capnp_type(Kind kind) {
  switch (kind) {
    case Kind::string:
      return "Text";
    case Kind::int32:
      return "Int32";
    case Kind::int64:
    case Kind::ticks:
      return "Int64";
    case Kind::float64:
      return "Float64";
    case Kind::boolean:
      return "Bool";
  }
  return "Text";
}

std::string schema_text(const std::vector<Column>& columns) {
  std::string text = "@0xd1f3c4a5b6e7f809;\nstruct Row {\n";
  for (std::size_t i = 0; i < columns.size(); ++i)
    text += "  c" + std::to_string(i + 1) + " :union { null @" + std::to_string(2 * i) +
            " :Void; v @" + std::to_string(2 * i + 1) + " :" + capnp_type(columns[i].kind) +
            "; }\n";
  return text + "}\nstruct Feed { value @0 :List(Row); }\n";
}

// The parsed schema and each column's fields, made once per codec.
class Schema {
 public:
  explicit Schema(const EntitySchema& schema) : columns_(schema.columns) {
    const auto path = kj::Path::parse("feed.capnp");
    dir_->openFile(path, kj::WriteMode::CREATE)->writeAll(schema_text(columns_));
    const capnp::ParsedSchema file = parser_.parseFromDirectory(*dir_, path.clone(), nullptr);
    feed_ = file.getNested("Feed").asStruct();
    row_ = file.getNested("Row").asStruct();
    value_ = feed_.getFieldByName("value");
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      const auto group = row_.getFieldByName(("c" + std::to_string(i + 1)).c_str());
      const auto union_ = group.getType().asStruct();
      fields_.push_back({group, union_.getFieldByName("null"), union_.getFieldByName("v")});
    }
  }
  struct Fields {
    capnp::StructSchema::Field group, null, v;
  };
  capnp::StructSchema feed() const { return feed_; }
  capnp::StructSchema::Field value() const { return value_; }
  const std::vector<Fields>& fields() const { return fields_; }
  const std::vector<Column>& columns() const { return columns_; }

 private:
  std::vector<Column> columns_;
  kj::Own<kj::Directory> dir_ = kj::newInMemoryDirectory(kj::nullClock());
  capnp::SchemaParser parser_;
  capnp::StructSchema feed_, row_;
  capnp::StructSchema::Field value_;
  std::vector<Fields> fields_;
};

void set(capnp::DynamicStruct::Builder group, const Schema::Fields& f, const Column& c,
         const EntityProperty& p) {
  if (is_null(p)) return group.set(f.null, capnp::VOID);
  switch (c.kind) {
    case Kind::string:
      return group.set(f.v, capnp::Text::Reader(p.Value.data(), p.Value.size()));
    case Kind::int32:
      return group.set(f.v, static_cast<int32_t>(to_int(p)));
    case Kind::int64:
      return group.set(f.v, to_int(p));
    case Kind::ticks:
      return group.set(f.v, to_ticks(p));
    case Kind::float64:
      return group.set(f.v, to_double(p));
    case Kind::boolean:
      return group.set(f.v, p.Value == "true");
  }
}

void get(EntityRow& row, capnp::DynamicStruct::Reader group, const Schema::Fields& f,
         const Column& c) {
  KJ_IF_MAYBE (which, group.which()) {
    if (*which == f.null) return put_null(row, c);
  }
  const capnp::DynamicValue::Reader v = group.get(f.v);
  switch (c.kind) {
    case Kind::string: {
      const capnp::Text::Reader t = v.as<capnp::Text>();
      return put_string(row, c, std::string_view(t.begin(), t.size()));
    }
    case Kind::int32:
    case Kind::int64:
      return put_int(row, c, v.as<int64_t>());
    case Kind::ticks:
      return put_ticks(row, c, v.as<int64_t>());
    case Kind::float64:
      return put_double(row, c, v.as<double>());
    case Kind::boolean:
      return put_bool(row, c, v.as<bool>());
  }
}

template <bool kPacked>
class DynamicEncoder : public Encoder {
 public:
  explicit DynamicEncoder(const EntitySchema& schema) : held_(std::make_unique<Schema>(schema)) {}
  void encode(const Records& records, std::string& out) override {
    const auto& rows = std::get<std::vector<EntityRow>>(records);
    capnp::MallocMessageBuilder message;
    auto feed = message.initRoot<capnp::DynamicStruct>(s_.feed());
    auto list = feed.init(s_.value(), static_cast<unsigned>(rows.size())).as<capnp::DynamicList>();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      auto row = list[static_cast<unsigned>(k)].as<capnp::DynamicStruct>();
      for (std::size_t i = 0; i < s_.fields().size(); ++i) {
        const auto& f = s_.fields()[i];
        set(row.get(f.group).as<capnp::DynamicStruct>(), f, s_.columns()[i], rows[k].Properties[i]);
      }
    }
    kj::VectorOutputStream stream;
    if constexpr (kPacked)
      capnp::writePackedMessage(stream, message);
    else
      capnp::writeMessage(stream, message);
    const auto bytes = stream.getArray();
    out.assign(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
  }

 private:
  // Held by pointer: SchemaParser's destructor may throw, an Encoder's may not.
  std::unique_ptr<Schema> held_;
  Schema& s_ = *held_;
};

template <bool kPacked>
class DynamicDecoder : public Decoder {
 public:
  explicit DynamicDecoder(const EntitySchema& schema) : held_(std::make_unique<Schema>(schema)) {}
  void decode(std::string_view input, Records& out) override {
    auto* rows = std::get_if<std::vector<EntityRow>>(&out);
    if (!rows) throw DecodeError(kLibrary, "decodes entity rows only");
    rows->clear();
    read(input, [&](capnp::DynamicList::Reader list) {
      rows->reserve(list.size());
      for (const capnp::DynamicValue::Reader item : list) {
        const auto r = item.as<capnp::DynamicStruct>();
        EntityRow& row = rows->emplace_back();
        row.Properties.reserve(s_.fields().size());
        for (std::size_t i = 0; i < s_.fields().size(); ++i) {
          const auto& f = s_.fields()[i];
          get(row, r.get(f.group).as<capnp::DynamicStruct>(), f, s_.columns()[i]);
        }
      }
    });
  }
  std::size_t parse_only(std::string_view input) override {
    std::size_t n = 0;
    read(input, [&](capnp::DynamicList::Reader list) { n = list.size(); });
    return n + 1;
  }

 private:
  template <class F>
  void read(std::string_view input, F&& f) {
    capnp::ReaderOptions options;
    options.traversalLimitInWords = 8 * (input.size() / sizeof(capnp::word) + 1);
    try {
      if constexpr (kPacked) {
        kj::ArrayInputStream stream(
            kj::arrayPtr(reinterpret_cast<const kj::byte*>(input.data()), input.size()));
        capnp::PackedMessageReader reader(stream, options);
        f(reader.getRoot<capnp::DynamicStruct>(s_.feed()).get(s_.value()).as<capnp::DynamicList>());
      } else {
        if (input.size() % sizeof(capnp::word) != 0)
          throw DecodeError(kLibrary, "not a whole number of 8-byte words");
        capnp::FlatArrayMessageReader reader(
            kj::arrayPtr(reinterpret_cast<const capnp::word*>(input.data()),
                         input.size() / sizeof(capnp::word)),
            options);
        f(reader.getRoot<capnp::DynamicStruct>(s_.feed()).get(s_.value()).as<capnp::DynamicList>());
      }
    } catch (const kj::Exception& e) {
      throw DecodeError(kLibrary, e.getDescription().cStr());
    }
  }
  std::unique_ptr<Schema> held_;
  Schema& s_ = *held_;
};

template <bool kPacked>
Carrier dynamic_carrier(std::string_view format) {
  CarrierCodec codec{
      kLibrary, true,
      [](const EntitySchema& s) { return std::make_unique<DynamicEncoder<kPacked>>(s); },
      [](const EntitySchema& s) { return std::make_unique<DynamicDecoder<kPacked>>(s); }};
  return {
      format, {codec}, {codec}, [format](const Records& rows) { return why_not(format, rows); }};
}

}  // namespace

void add_capnp_dynamic(std::vector<Carrier>& out) {
  out.push_back(dynamic_carrier<false>("capnp"));
  out.push_back(dynamic_carrier<true>("capnp-packed"));
}

}  // namespace wb::carry
