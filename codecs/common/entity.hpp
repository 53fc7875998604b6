// The generic entity dataset's conventions, shared by every format that
// defines it (atom, json), so that all decoders give the same rows:
//  - a property's Type is the declared EDM type when the payload gives one
//    (atom m:type, JSON "Name@odata.type"); otherwise atom says Edm.String and
//    JSON infers it from the JSON value: string -> Edm.String, integer ->
//    Edm.Int32 (Edm.Int64 beyond its range), other number -> Edm.Double,
//    true/false -> Edm.Boolean, object -> Complex, array -> Collection;
//  - Value is the text: strings as they are, numbers as the shortest
//    round-trip decimal of the parsed value ("12", "0.5", "1e+22"), booleans
//    "true"/"false";
//  - null: Value "" and Type "Null(T)", T the declared type or Edm.String;
//  - a nested (complex or collection) value: Value is compact JSON text
//    (JsonText below). Atom's nested values become the same JSON shape:
//    child properties as members, d:element children as array items, leaf
//    text as strings, m:null leaves as null.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "generators/model.hpp"

namespace wb::entity {

inline constexpr std::string_view kString = "Edm.String";
inline constexpr std::string_view kInt32 = "Edm.Int32";
inline constexpr std::string_view kInt64 = "Edm.Int64";
inline constexpr std::string_view kDouble = "Edm.Double";
inline constexpr std::string_view kBoolean = "Edm.Boolean";
inline constexpr std::string_view kComplex = "Complex";
inline constexpr std::string_view kCollection = "Collection";

// "Null(T)"; an empty declared type is Edm.String.
std::string null_type(std::string_view declared);
// For "Null(T)": T; otherwise empty.
std::string_view null_of(std::string_view type);

// A JSON scalar as a property value, typed by inference.
void set_string(EntityProperty& p, std::string_view v);
void set_integer(EntityProperty& p, int64_t v);
void set_unsigned(EntityProperty& p, uint64_t v);
void set_number(EntityProperty& p, double v);
void set_boolean(EntityProperty& p, bool v);
void set_null(EntityProperty& p);

// JSON property annotations: "Name@odata.type" gives Name's type; anything
// else with '@', starting with "odata." (V3 entity annotations such as
// odata.etag), with '#' (advertised actions and functions) or with "__" (V2's
// __metadata), is metadata, not a property.
bool is_annotation(std::string_view key);
// OData v4 spells a type in an annotation "#Int64" (built-in types without
// their "Edm." namespace) or "#NS.Type"; the rows hold the V2/V3 names.
std::string type_from_v4(std::string_view annotation);
std::string type_to_v4(std::string_view type);
// "Name" for "Name@odata.type", else empty.
std::string_view type_annotation_target(std::string_view key);
struct TypeAnnotation {
  std::string name, type;
};
// Repeated names, read as a JSON object model reads them (nlohmann and
// Boost.JSON keep one member per name): a name given twice keeps its first
// place and takes the last value, among a row's properties and inside nested
// values. Streaming decoders and Atom see every occurrence; every entity
// decoder ends its rows with these, so that all of them give the same rows.
//
// A nested value's JSON text (JsonText's) with its objects' repeated names
// merged. Deeper than kMaxNestedDepth is a DecodeError (format: the name it
// gives), which bounds the recursion.
inline constexpr int kMaxNestedDepth = 512;
std::string merged_names(std::string_view format, std::string_view property,
                         std::string_view json_text);
// A JSON row: V2's deferred navigation properties ({"__deferred": ...}, a
// link, not data) dropped, its repeated properties merged, the names inside
// its nested values (typed Complex or Collection) merged, then the
// annotations seen in the row object (before or after their property)
// applied: the declared type replaces the inferred one. V2 verbose JSON
// (wcf_dates) has no type annotations but spells Edm.DateTime "/Date(ms)/":
// such a string is read as that Edm.DateTime.
void finish_json_row(std::string_view format, EntityRow& row,
                     const std::vector<TypeAnnotation>& annotations, bool wcf_dates = false);
// A row's repeated properties merged (Atom: all a row needs, its nested
// values having been merged as they ended; their types are the payload's,
// which cannot tell a nested value from text).
void merge_repeated_properties(EntityRow& row);

// Compact JSON text of a nested value, written from parser events in order.
// Numbers use the same text as property values.
class JsonText {
 public:
  JsonText() = default;
  explicit JsonText(std::string& out) : out_(&out) {}
  // Starts writing a new value into out.
  void reset(std::string& out) {
    out_ = &out;
    depth_ = 0;
    comma_ = false;
  }
  void start_object() { open('{'); }
  void end_object() { close('}'); }
  void start_array() { open('['); }
  void end_array() { close(']'); }
  void key(std::string_view k);
  void string(std::string_view v);
  void integer(int64_t v);
  void unsigned_integer(uint64_t v);
  void number(double v);
  void boolean(bool v) { scalar(v ? "true" : "false"); }
  void null() { scalar("null"); }
  // A scalar property value (set_* above) as the JSON value it came from.
  void property(const EntityProperty& p);
  int depth() const { return depth_; }

 private:
  void separate();
  void open(char c);
  void close(char c);
  void scalar(std::string_view literal);
  std::string* out_ = nullptr;
  int depth_ = 0;
  bool comma_ = false;
};

}  // namespace wb::entity
