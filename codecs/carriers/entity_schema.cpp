#include "codecs/carriers/entity_schema.hpp"

#include <charconv>
#include <optional>
#include <stdexcept>

#include "codecs/common/entity.hpp"
#include "generators/text.hpp"

namespace wb::carry {
namespace {

std::optional<Kind> kind_of(std::string_view type) {
  if (type == "Edm.String" || type == "Edm.Guid") return Kind::string;
  if (type == "Edm.Int32" || type == "Edm.Int16" || type == "Edm.Byte" || type == "Edm.SByte")
    return Kind::int32;
  if (type == "Edm.Int64") return Kind::int64;
  if (type == "Edm.Double") return Kind::float64;
  if (type == "Edm.Boolean") return Kind::boolean;
  if (type == "Edm.DateTime") return Kind::ticks;
  return std::nullopt;
}

// Why format has no kind for an EDM type.
std::string lacks(std::string_view format, std::string_view type) {
  const std::string f(format);
  if (type == "Edm.Decimal")
    return f + " has no decimal type (a double would round it, a string is no number)";
  if (type == "Edm.DateTimeOffset")
    return f + "'s schema here has no timestamp that keeps an offset";
  if (type == "Edm.Single") return "not mapped yet (a float32 column would need float text)";
  if (type == entity::kComplex || type.starts_with("Collection") || type.find('.') == type.npos ||
      !type.starts_with("Edm."))
    return "a nested value (complex or collection): no run-time schema for nested types yet";
  return "not mapped to " + f + " yet";
}

std::string at(std::size_t row, const std::string& name) {
  return "row " + std::to_string(row) + ", " + name;
}

// The text a value's native form gives back, or nullopt when the text is no
// value of the kind.
std::optional<std::string> canonical(Kind kind, const std::string& v) {
  switch (kind) {
    case Kind::string:
      return v;
    case Kind::int32:
      if (auto n = text::parse_int32(v)) return std::to_string(*n);
      return std::nullopt;
    case Kind::int64:
      if (auto n = text::parse_int64(v)) return std::to_string(*n);
      return std::nullopt;
    case Kind::float64:
      if (auto d = text::parse_double(v)) return text::double_string(*d);
      return std::nullopt;
    case Kind::boolean:
      if (v == "true" || v == "false") return v;
      return std::nullopt;
    case Kind::ticks:
      if (auto t = text::parse_datetime(v)) return text::datetime_string(*t);
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::string schema_of(std::string_view format, const std::vector<EntityRow>& rows,
                      EntitySchema& schema) {
  schema.columns.clear();
  if (rows.empty()) return {};
  for (const EntityProperty& p : rows.front().Properties)
    schema.columns.push_back({p.Name, std::string(), std::string(), Kind::string});
  std::vector<bool> typed(schema.columns.size(), false);  // a value has set the type
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& props = rows[r].Properties;
    if (props.size() != schema.columns.size())
      return "row " + std::to_string(r) + " has " + std::to_string(props.size()) +
             " properties where row 0 has " + std::to_string(schema.columns.size()) +
             ": a schema of columns holds rows of one shape";
    for (std::size_t i = 0; i < props.size(); ++i) {
      Column& c = schema.columns[i];
      if (props[i].Name != c.name)
        return at(r, props[i].Name) + ": where row 0 has " + c.name +
               ": a schema of columns holds rows of one shape";
      // The first value decides the column's type; a column of nulls only
      // takes the type its first null declares.
      const std::string_view null_of = entity::null_of(props[i].Type);
      if (null_of.empty() && !typed[i]) {
        c.type = props[i].Type;
        typed[i] = true;
      } else if (c.type.empty()) {
        c.type = null_of;
      }
    }
  }
  for (Column& c : schema.columns) {
    const auto kind = kind_of(c.type);
    if (!kind) return c.type + " (" + c.name + "): " + lacks(format, c.type);
    c.kind = *kind;
    c.null_type = entity::null_type(c.type);
  }
  // Every value of its column's type, every null the column's null.
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t i = 0; i < rows[r].Properties.size(); ++i) {
      const EntityProperty& p = rows[r].Properties[i];
      const Column& c = schema.columns[i];
      if (p.Type != c.type && p.Type != c.null_type)
        return at(r, c.name) + " is " + p.Type + " where the column is " + c.type +
               ": a schema gives each column one type";
    }
  return {};
}

std::string why_not(std::string_view format, const Records& records) {
  const auto* rows = std::get_if<std::vector<EntityRow>>(&records);
  if (!rows) return "not entity rows";
  EntitySchema schema;
  if (std::string why = schema_of(format, *rows, schema); !why.empty()) return why;
  for (std::size_t r = 0; r < rows->size(); ++r)
    for (std::size_t i = 0; i < schema.columns.size(); ++i) {
      const EntityProperty& p = (*rows)[r].Properties[i];
      const Column& c = schema.columns[i];
      if (is_null(p)) continue;
      const auto back = canonical(c.kind, p.Value);
      if (!back) return at(r, c.name) + ": '" + p.Value + "' is no " + c.type + " value";
      if (*back != p.Value)
        return at(r, c.name) + ": " + c.type + " '" + p.Value + "' would read back as '" + *back +
               "' (the feed's text is not the value's canonical form)";
    }
  return {};
}

int64_t to_int(const EntityProperty& p) {
  if (auto n = text::parse_int64(p.Value)) return *n;
  throw std::invalid_argument(p.Name + ": '" + p.Value + "' is no integer");
}

double to_double(const EntityProperty& p) {
  if (auto d = text::parse_double(p.Value)) return *d;
  throw std::invalid_argument(p.Name + ": '" + p.Value + "' is no number");
}

int64_t to_ticks(const EntityProperty& p) {
  if (auto t = text::parse_datetime(p.Value)) return t->ticks;
  throw std::invalid_argument(p.Name + ": '" + p.Value + "' is no Edm.DateTime");
}

namespace {
EntityProperty& add(EntityRow& row, const Column& c, const std::string& type) {
  EntityProperty& p = row.Properties.emplace_back();
  p.Name = c.name;
  p.Type = type;
  return p;
}
}  // namespace

void put_int(EntityRow& row, const Column& c, int64_t v) {
  char buf[text::kMaxNumberChars];
  add(row, c, c.type).Value.assign(buf, text::write_int(buf, v));
}

void put_double(EntityRow& row, const Column& c, double v) {
  char buf[text::kMaxNumberChars];
  add(row, c, c.type).Value.assign(buf, text::write_double(buf, v));
}

void put_bool(EntityRow& row, const Column& c, bool v) {
  add(row, c, c.type).Value = v ? "true" : "false";
}

void put_ticks(EntityRow& row, const Column& c, int64_t ticks) {
  char buf[text::kDateTimeChars + 1];
  add(row, c, c.type).Value.assign(buf, text::write_datetime(buf, DateTime{ticks}));
}

void put_string(EntityRow& row, const Column& c, std::string_view v) {
  add(row, c, c.type).Value.assign(v);
}

void put_null(EntityRow& row, const Column& c) {
  add(row, c, c.null_type);
}

}  // namespace wb::carry
