#include "codecs/xml/entity_binder.hpp"

#include "codecs/codec.hpp"
#include "codecs/common/entity.hpp"
#include "codecs/common/json_escape.hpp"
#include "codecs/xml/vocabulary.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kFormat = "atom";

}  // namespace

EntityBinder::EntityBinder(bool atom, std::vector<EntityRow>& rows, FeedPage* page)
    : rows_(rows), page_(page) {
  if (!atom) throw DecodeError("entity", std::string(kNoEntityRows));
  frames_.reserve(16);
}

bool EntityBinder::start(std::string_view uri, std::string_view local) {
  attrs_wanted_ = false;
  const bool entry = uri == kAtomNs && local == "entry";
  if (frames_.empty()) {
    if (uri != kAtomNs || (local != "feed" && !entry))
      throw DecodeError(kFormat, "the root element is not an Atom feed or entry");
    saw_root_ = true;
    root_feed_ = !entry;
  }
  if (frames_.size() == 1 && root_feed_ && page_.start(uri, local)) {
    attrs_wanted_ = true;
    return push(Frame::page);
  }
  const Frame top = frames_.empty() ? Frame::transparent : frames_.back();
  switch (top) {
    case Frame::transparent:
    case Frame::entry:
      if (entry) {
        open_rows_.push_back(rows_.size());
        rows_.emplace_back();
        return push(Frame::entry);
      }
      if (uri == kMetadataNs && local == "properties" && !open_rows_.empty())
        return push(Frame::properties);
      return push(Frame::transparent);
    case Frame::properties:
      if (uri != kDataNs) return push(Frame::skip);
      rows_[open_rows_.back()].Properties.push_back({std::string(local), {}, {}});
      break;
    case Frame::value:
      if (uri != kDataNs) return push(Frame::skip);
      if (Value& parent = values_.back(); parent.children == 0) parent.array = local == "element";
      break;
    case Frame::page:
    case Frame::skip:
      return push(Frame::skip);
  }
  values_.push_back({std::string(local), {}, {}, {}});
  attrs_wanted_ = true;  // m:type, m:null
  return push(Frame::value);
}

void EntityBinder::attribute(std::string_view uri, std::string_view local, std::string_view value) {
  if (frames_.back() == Frame::page) return page_.attribute(uri, local, value);
  if (uri != kMetadataNs) return;
  if (local == "type") values_.back().type.assign(value);
  if (local == "null") values_.back().null = value == "true" || value == "1";
}

void EntityBinder::end() {
  const Frame top = frames_.back();
  frames_.pop_back();
  attrs_wanted_ = false;
  if (top == Frame::entry) {
    entity::merge_repeated_properties(rows_[open_rows_.back()]);
    open_rows_.pop_back();
  }
  if (top == Frame::value) end_value();
  if (top == Frame::page) page_.end();
}

void EntityBinder::end_value() {
  Value v = std::move(values_.back());
  values_.pop_back();
  const bool nested = v.children > 0;
  if (nested) v.json += v.array ? ']' : '}';
  if (values_.empty()) {  // the property itself
    EntityProperty& p = rows_[open_rows_.back()].Properties.back();
    if (v.null) {
      p.Type = entity::null_type(v.type);
    } else {
      p.Type = !v.type.empty() ? std::move(v.type)
               : !nested       ? entity::kString
               : v.array       ? entity::kCollection
                               : entity::kComplex;
      p.Value = nested ? entity::merged_names(kFormat, p.Name, v.json) : std::move(v.text);
    }
    return;
  }
  Value& parent = values_.back();
  parent.json += parent.children++ == 0 ? (parent.array ? '[' : '{') : ',';
  if (!parent.array) {
    json::append_quoted(parent.json, v.name);
    parent.json += ':';
  }
  if (nested)
    parent.json += v.json;
  else if (v.null)
    parent.json += "null";
  else
    json::append_quoted(parent.json, v.text);
}

void EntityBinder::finish() const {
  if (!frames_.empty()) throw DecodeError(kFormat, "incomplete document");
  if (!saw_root_) throw DecodeError(kFormat, "no Atom feed");
}

}  // namespace wb::xml
