#include "codecs/common/entity.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "codecs/codec.hpp"
#include "codecs/common/json_escape.hpp"
#include "generators/text.hpp"

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
  return key.find('@') != std::string_view::npos || key.starts_with("odata.") ||
         key.starts_with('#') || key.starts_with("__");
}

namespace {

// Type names inside Collection(...) convert as the type itself.
template <class Convert>
std::string convert_collection(std::string_view type, Convert convert) {
  constexpr std::string_view kOpen = "Collection(";
  if (type.starts_with(kOpen) && type.ends_with(')'))
    return std::string(kOpen) + convert(type.substr(kOpen.size(), type.size() - kOpen.size() - 1)) +
           ")";
  return convert(type);
}

}  // namespace

std::string type_from_v4(std::string_view annotation) {
  if (!annotation.starts_with('#')) return std::string(annotation);
  return convert_collection(annotation.substr(1), [](std::string_view t) {
    return t.find('.') == std::string_view::npos ? "Edm." + std::string(t) : std::string(t);
  });
}

std::string type_to_v4(std::string_view type) {
  return "#" + convert_collection(type, [](std::string_view t) {
           return std::string(t.starts_with("Edm.") ? t.substr(4) : t);
         });
}

std::string_view type_annotation_target(std::string_view key) {
  constexpr std::string_view kSuffix = "@odata.type";
  if (key.size() <= kSuffix.size() || !key.ends_with(kSuffix)) return {};
  return key.substr(0, key.size() - kSuffix.size());
}

namespace {

// JsonText's compact text of a nested value, rewritten with each object's
// repeated member names merged (first place, last value). Scalars are copied
// as written; keys compare as written, which JsonText's one spelling of each
// string makes a comparison of the names.
class MergeNames {
 public:
  MergeNames(std::string_view format, std::string_view property, std::string_view text)
      : format_(format), property_(property), in_(text) {}
  std::string run() {
    std::string out;
    value(out, 1);
    return out;
  }

 private:
  void value(std::string& out, int depth) {
    if (depth > kMaxNestedDepth)
      throw DecodeError(format_, "property " + std::string(property_) +
                                     ": a value nested deeper than " +
                                     std::to_string(kMaxNestedDepth) + " levels");
    const char c = peek();
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    out += c == '"' ? string() : scalar();
  }
  void object(std::string& out, int depth) {
    ++at_;
    std::vector<std::pair<std::string_view, std::string>> members;
    std::unordered_map<std::string_view, std::size_t> index;  // keys view in_
    while (peek() != '}') {
      const std::string_view key = string();
      ++at_;  // ':'
      std::string v;
      value(v, depth + 1);
      if (const auto [same, added] = index.try_emplace(key, members.size()); !added)
        members[same->second].second = std::move(v);
      else
        members.emplace_back(key, std::move(v));
      if (peek() == ',') ++at_;
    }
    ++at_;
    out += '{';
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i) out += ',';
      out += members[i].first;
      out += ':';
      out += members[i].second;
    }
    out += '}';
  }
  void array(std::string& out, int depth) {
    ++at_;
    out += '[';
    while (peek() != ']') {
      value(out, depth + 1);
      if (peek() == ',') out += in_[at_++];
    }
    ++at_;
    out += ']';
  }
  std::string_view string() {  // at its opening quote
    const std::size_t from = at_++;
    while (at_ < in_.size() && in_[at_] != '"') at_ += in_[at_] == '\\' ? 2 : 1;
    ++at_;
    return in_.substr(from, std::min(at_, in_.size()) - from);
  }
  std::string_view scalar() {
    const std::size_t from = at_;
    while (at_ < in_.size() && in_[at_] != ',' && in_[at_] != ']' && in_[at_] != '}') ++at_;
    return in_.substr(from, at_ - from);
  }
  // Text JsonText did not write would end the loops here rather than run on.
  char peek() const { return at_ < in_.size() ? in_[at_] : '}'; }

  std::string_view format_, property_, in_;
  std::size_t at_ = 0;
};

}  // namespace

std::string merged_names(std::string_view format, std::string_view property,
                         std::string_view json_text) {
  return MergeNames(format, property, json_text).run();
}

namespace {

// Names to their property's index, the row's repeated properties merged on
// the way: one hashed pass, not a scan per property (a row of 200,000
// properties takes 32 s with a scan). The views are the kept properties'
// own names, which nothing moves after the merge.
using NameIndex = std::unordered_map<std::string_view, std::size_t>;

NameIndex merge_properties(std::vector<EntityProperty>& ps) {
  NameIndex index;
  std::size_t kept = 0;
  for (std::size_t j = 0; j < ps.size(); ++j) {
    if (const auto same = index.find(ps[j].Name); same != index.end()) {
      ps[same->second].Type = std::move(ps[j].Type);
      ps[same->second].Value = std::move(ps[j].Value);
      continue;
    }
    if (kept != j) ps[kept] = std::move(ps[j]);
    index.emplace(ps[kept].Name, kept);  // after the move: a short name lives in the string
    ++kept;
  }
  ps.erase(ps.begin() + static_cast<std::ptrdiff_t>(kept), ps.end());
  return index;
}

}  // namespace

void merge_repeated_properties(EntityRow& row) {
  merge_properties(row.Properties);
}

void finish_json_row(std::string_view format, EntityRow& row,
                     const std::vector<TypeAnnotation>& annotations, bool wcf_dates) {
  std::erase_if(row.Properties, [](const EntityProperty& p) {
    return p.Type == kComplex && p.Value.starts_with(R"({"__deferred":)");
  });
  if (wcf_dates)
    for (EntityProperty& p : row.Properties)
      if (p.Type == kString)
        if (const auto t = text::parse_wcf_date(p.Value)) {
          p.Type = "Edm.DateTime";
          p.Value = text::datetime_string(*t);
        }
  const NameIndex index = merge_properties(row.Properties);
  for (EntityProperty& p : row.Properties)
    if (p.Type == kComplex || p.Type == kCollection)
      p.Value = merged_names(format, p.Name, p.Value);
  for (const TypeAnnotation& a : annotations)
    if (const auto named = index.find(a.name); named != index.end()) {
      EntityProperty& p = row.Properties[named->second];
      const std::string type = type_from_v4(a.type);
      p.Type = null_of(p.Type).empty() ? type : null_type(type);
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
