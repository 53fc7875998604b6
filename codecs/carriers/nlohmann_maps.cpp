// A feed's entity rows in MessagePack, CBOR and BSON through nlohmann/json,
// as a REST service sends them: {"value": [row, ...]}, each row a map of its
// properties by name with native values (entity_schema.hpp's kinds: a
// string, an integer, a double, a boolean, Edm.DateTime as int64 ticks, nil
// for null). The wire carries no EDM type: the decoder takes each back from
// the schema made from the feed, as a client knows it from $metadata.
#include <nlohmann/json.hpp>

#include "codecs/carriers/carriers.hpp"

namespace wb::carry {
namespace {

using Json = nlohmann::ordered_json;

struct Msgpack {
  static constexpr std::string_view kFormat = "msgpack";
  static void write(const Json& j, std::string& out) { Json::to_msgpack(j, out); }
  static Json read(std::string_view in) { return Json::from_msgpack(in.begin(), in.end()); }
};
struct Cbor {
  static constexpr std::string_view kFormat = "cbor";
  static void write(const Json& j, std::string& out) { Json::to_cbor(j, out); }
  static Json read(std::string_view in) { return Json::from_cbor(in.begin(), in.end()); }
};
// BSON's top level is a document, which {"value": [...]} is.
struct Bson {
  static constexpr std::string_view kFormat = "bson";
  static void write(const Json& j, std::string& out) { Json::to_bson(j, out); }
  static Json read(std::string_view in) { return Json::from_bson(in.begin(), in.end()); }
};

Json native(const Column& c, const EntityProperty& p) {
  if (is_null(p)) return nullptr;
  switch (c.kind) {
    case Kind::string:
      return p.Value;
    case Kind::int32:
    case Kind::int64:
      return to_int(p);
    case Kind::float64:
      return to_double(p);
    case Kind::boolean:
      return p.Value == "true";
    case Kind::ticks:
      return to_ticks(p);
  }
  return nullptr;
}

template <class Format>
class MapEncoder : public Encoder {
 public:
  explicit MapEncoder(const EntitySchema& schema) : schema_(schema) {}
  void encode(const Records& records, std::string& out) override {
    const auto& rows = std::get<std::vector<EntityRow>>(records);
    Json feed = Json::object();
    Json& value = feed["value"] = Json::array();
    for (const EntityRow& row : rows) {
      Json& item = value.emplace_back(Json::object());
      for (std::size_t i = 0; i < schema_.columns.size(); ++i)
        item.emplace(schema_.columns[i].name, native(schema_.columns[i], row.Properties[i]));
    }
    out.clear();
    Format::write(feed, out);
  }

 private:
  EntitySchema schema_;
};

template <class Format>
class MapDecoder : public Decoder {
 public:
  explicit MapDecoder(const EntitySchema& schema) : schema_(schema) {}
  void decode(std::string_view input, Records& out) override {
    auto* rows = std::get_if<std::vector<EntityRow>>(&out);
    if (!rows) throw DecodeError(Format::kFormat, "decodes entity rows only");
    rows->clear();
    const Json doc = parse(input);
    try {
      for (const Json& item : doc.at("value")) {
        if (!item.is_object() || item.size() != schema_.columns.size())
          throw DecodeError(Format::kFormat,
                            "row " + std::to_string(rows->size()) + ": not a map of the schema's " +
                                std::to_string(schema_.columns.size()) + " columns");
        EntityRow& row = rows->emplace_back();
        row.Properties.reserve(schema_.columns.size());
        std::size_t i = 0;
        for (const auto& [name, v] : item.items()) bind(row, schema_.columns[i++], name, v);
      }
    } catch (const nlohmann::json::exception& e) {
      throw DecodeError(Format::kFormat, e.what());
    }
  }
  std::size_t parse_only(std::string_view input) override { return parse(input).size(); }

 private:
  static Json parse(std::string_view input) {
    try {
      return Format::read(input);
    } catch (const nlohmann::json::parse_error& e) {
      throw DecodeError(Format::kFormat, e.what(), static_cast<long long>(e.byte));
    } catch (const nlohmann::json::exception& e) {
      throw DecodeError(Format::kFormat, e.what());
    }
  }
  static void bind(EntityRow& row, const Column& c, const std::string& name, const Json& v) {
    if (name != c.name)
      throw DecodeError(Format::kFormat, "member '" + name + "' where the schema has " + c.name);
    if (v.is_null()) return put_null(row, c);
    switch (c.kind) {
      case Kind::string:
        return put_string(row, c, v.get_ref<const std::string&>());
      case Kind::int32:
      case Kind::int64:
      case Kind::ticks:
        if (!v.is_number_integer()) break;
        if (c.kind == Kind::ticks) return put_ticks(row, c, v.get<int64_t>());
        return put_int(row, c, v.get<int64_t>());
      case Kind::float64:
        if (!v.is_number()) break;
        return put_double(row, c, v.get<double>());
      case Kind::boolean:
        if (!v.is_boolean()) break;
        return put_bool(row, c, v.get<bool>());
    }
    throw DecodeError(Format::kFormat, c.name + ": a " + std::string(v.type_name()) +
                                           " where the schema has " + c.type);
  }
  EntitySchema schema_;
};

template <class Format>
Carrier map_carrier() {
  CarrierCodec codec{"nlohmann", true,
                     [](const EntitySchema& s) { return std::make_unique<MapEncoder<Format>>(s); },
                     [](const EntitySchema& s) { return std::make_unique<MapDecoder<Format>>(s); }};
  return {Format::kFormat, {codec}, {codec}, [](const Records& rows) {
            return why_not(Format::kFormat, rows);
          }};
}

}  // namespace

void add_nlohmann_maps(std::vector<Carrier>& out) {
  out.push_back(map_carrier<Msgpack>());
  out.push_back(map_carrier<Cbor>());
  out.push_back(map_carrier<Bson>());
}

}  // namespace wb::carry
