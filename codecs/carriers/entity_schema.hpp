// The schema a binary format carries a user's entity rows through
// (`bench --payload FEED --as-formats`): columns made at run time from the
// rows' EDM types, no generated code. Every row must hold the same
// properties in the same order (a feed of one entity type does), each of
// its column's type or null; each column's EDM type maps to one of the
// value kinds below, which every binary format has natively. A type with no
// kind (Edm.Decimal, Edm.DateTimeOffset, nested values, ...) is a type the
// formats here cannot carry, and why_not() says which and why.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "generators/model.hpp"

namespace wb::carry {

// Edm.Int16, Edm.Byte and Edm.SByte travel as int32, Edm.Guid as its text,
// Edm.DateTime as int64 ticks (100 ns since the Unix epoch, the model's unit):
// the column's EDM type gives each back its name.
enum class Kind { string, int32, int64, float64, boolean, ticks };

struct Column {
  std::string name;
  std::string type;       // the EDM type, never "Null(...)"
  std::string null_type;  // "Null(type)": what a null of the column reads back as
  Kind kind = Kind::string;
};

struct EntitySchema {
  std::vector<Column> columns;
};

// The schema of rows, or why none holds them: "" on success. format names
// the carrier in the reason ("protobuf has no decimal type").
std::string schema_of(std::string_view format, const std::vector<EntityRow>& rows,
                      EntitySchema& schema);

// Why rows cannot go through format's schema, or "": schema_of's reasons,
// then a value whose text its native value would not give back ("Edm.Double
// '1.50' ...": the rows would not read back equal).
std::string why_not(std::string_view format, const Records& records);

// A value's native form and back. The text was checked by why_not; a
// value that is not of its kind throws std::invalid_argument.
int64_t to_int(const EntityProperty& p);
double to_double(const EntityProperty& p);
int64_t to_ticks(const EntityProperty& p);
// Appends a property of column c with the value's text.
void put_int(EntityRow& row, const Column& c, int64_t v);
void put_double(EntityRow& row, const Column& c, double v);
void put_bool(EntityRow& row, const Column& c, bool v);
void put_ticks(EntityRow& row, const Column& c, int64_t ticks);
void put_string(EntityRow& row, const Column& c, std::string_view v);
void put_null(EntityRow& row, const Column& c);
inline bool is_null(const EntityProperty& p) {
  return p.Type.starts_with("Null(");
}

}  // namespace wb::carry
