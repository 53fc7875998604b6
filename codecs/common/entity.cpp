#include "codecs/common/entity.hpp"

#include "codecs/common/text.hpp"
#include "codecs/json/escape.hpp"

namespace wb::entity {
namespace {

void assign_double(std::string& out, double v) {
  char buf[text::kMaxNumberChars];
  out.assign(buf, text::write_double(buf, v));
}

}  // namespace

std::string null_type(std::string_view declared) {
  std::string out = "Null(";
  out += declared.empty() ? kString : declared;
  return out += ')';
}

std::string_view null_of(std::string_view type) {
  if (type.size() < 6 || !type.starts_with("Null(") || !type.ends_with(')')) return {};
  return type.substr(5, type.size() - 6);
}

void set_string(EntityProperty& p, std::string_view v) {
  p.Type = kString;
  p.Value.assign(v);
}

void set_integer(EntityProperty& p, int64_t v) {
  p.Type = v >= INT32_MIN && v <= INT32_MAX ? kInt32 : kInt64;
  p.Value = std::to_string(v);
}

// Beyond int64 the parsers round the value to a double, as text would be.
void set_unsigned(EntityProperty& p, uint64_t v) {
  if (v <= INT64_MAX) return set_integer(p, static_cast<int64_t>(v));
  set_number(p, static_cast<double>(v));
}

void set_number(EntityProperty& p, double v) {
  p.Type = kDouble;
  assign_double(p.Value, v);
}

void set_boolean(EntityProperty& p, bool v) {
  p.Type = kBoolean;
  p.Value = v ? "true" : "false";
}

void set_null(EntityProperty& p) {
  p.Type = null_type({});
  p.Value.clear();
}

bool is_annotation(std::string_view key) {
  return key.find('@') != std::string_view::npos || key.starts_with("odata.");
}

std::string_view type_annotation_target(std::string_view key) {
  constexpr std::string_view kSuffix = "@odata.type";
  if (key.size() <= kSuffix.size() || !key.ends_with(kSuffix)) return {};
  return key.substr(0, key.size() - kSuffix.size());
}

void apply_annotations(EntityRow& row, const std::vector<TypeAnnotation>& annotations) {
  for (const TypeAnnotation& a : annotations)
    for (EntityProperty& p : row.Properties) {
      if (p.Name != a.name) continue;
      p.Type = null_of(p.Type).empty() ? a.type : null_type(a.type);
      break;
    }
}

void JsonText::key(std::string_view k) {
  separate();
  json::append_quoted(*out_, k);
  *out_ += ':';
  comma_ = false;
}

void JsonText::string(std::string_view v) {
  separate();
  json::append_quoted(*out_, v);
}

void JsonText::integer(int64_t v) {
  separate();
  *out_ += std::to_string(v);
}

void JsonText::unsigned_integer(uint64_t v) {
  if (v <= INT64_MAX) return integer(static_cast<int64_t>(v));
  number(static_cast<double>(v));
}

void JsonText::number(double v) {
  separate();
  char buf[text::kMaxNumberChars];
  out_->append(buf, text::write_double(buf, v));
}

void JsonText::property(const EntityProperty& p) {
  if (p.Type == kString) return string(p.Value);
  if (!null_of(p.Type).empty()) return null();
  scalar(p.Value);  // numbers and booleans: their text is their JSON
}

void JsonText::separate() {
  if (comma_) *out_ += ',';
  comma_ = true;
}

void JsonText::open(char c) {
  separate();
  *out_ += c;
  comma_ = false;
  ++depth_;
}

void JsonText::close(char c) {
  *out_ += c;
  comma_ = true;
  --depth_;
}

void JsonText::scalar(std::string_view literal) {
  separate();
  *out_ += literal;
}

}  // namespace wb::entity
