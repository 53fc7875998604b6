// SaxBinderBase: a small stack machine over JSON events.
#include <utility>

#include "codecs/json/feed.hpp"

namespace wb::json {
namespace {

// One JSON scalar into a nested value's text or a property.
void entity_set(entity::JsonText& out, std::string_view v) {
  out.string(v);
}
void entity_set(entity::JsonText& out, int64_t v) {
  out.integer(v);
}
void entity_set(entity::JsonText& out, double v) {
  out.number(v);
}
void entity_set(entity::JsonText& out, bool v) {
  out.boolean(v);
}
void entity_set(entity::JsonText& out, std::nullptr_t) {
  out.null();
}
void entity_set(EntityProperty& p, std::string_view v) {
  entity::set_string(p, v);
}
void entity_set(EntityProperty& p, int64_t v) {
  entity::set_integer(p, v);
}
void entity_set(EntityProperty& p, double v) {
  entity::set_number(p, v);
}
void entity_set(EntityProperty& p, bool v) {
  entity::set_boolean(p, v);
}
void entity_set(EntityProperty& p, std::nullptr_t) {
  entity::set_null(p);
}

}  // namespace

bool SaxBinderBase::envelope_scalar(const EntityProperty& value) {
  if (expect_ == FeedReader::Member::other) return false;
  const FeedReader::Member m = std::exchange(expect_, FeedReader::Member::other);
  if (m == FeedReader::Member::rows || m == FeedReader::Member::verbose) feed_.wrong_shape(m);
  feed_.scalar(m, value);
  return true;
}

void SaxBinderBase::start_rows() {
  const FeedReader::Member m = std::exchange(expect_, FeedReader::Member::other);
  if (m != FeedReader::Member::rows && m != FeedReader::Member::verbose) feed_.wrong_shape(m);
  row_table_ = &tables_(feed_.start_rows(m));
  stack_.push_back({Frame::feed, nullptr, nullptr});
}

void SaxBinderBase::unexpected(std::string_view what) const {
  throw DecodeError(format_, "unexpected " + std::string(what) + " in a feed");
}

// While a value is being skipped, structural events only move the depth.
bool SaxBinderBase::skipping_value() {
  if (skip_depth_ < 0) return false;
  if (skip_depth_ == 0) skip_depth_ = -1;  // a scalar: the whole skipped value
  return true;
}

const FieldSlot* SaxBinderBase::take_pending() {
  if (stack_.empty() || stack_.back().frame != Frame::record || !stack_.back().slot) return nullptr;
  return std::exchange(stack_.back().slot, nullptr);
}

EntityProperty* SaxBinderBase::take_property() {
  if (annotation_pending_)
    throw DecodeError(format_, "the type annotation of " + annotated_ + " is not a string");
  return std::exchange(property_, nullptr);
}

// A nested value of an entity property: written out as JSON text until its
// closing bracket (nested_.depth() counts the open ones).
void SaxBinderBase::start_nested(bool object) {
  if (nested_.depth() == 0) {
    EntityProperty* p = take_property();
    if (!p) unexpected(object ? "object" : "array");
    p->Type = object ? entity::kComplex : entity::kCollection;
    nested_.reset(p->Value);
  }
  object ? nested_.start_object() : nested_.start_array();
}

void SaxBinderBase::end_nested(bool object) {
  object ? nested_.end_object() : nested_.end_array();
}

// Inside a row of entities: set(JsonText&) writes a scalar into a nested
// value, set(EntityProperty&) makes it a property's value.
template <class Set>
bool SaxBinderBase::entity_scalar(Set set) {
  if (!row_) return false;
  if (nested_.depth() > 0) {
    set(nested_);
  } else if (EntityProperty* p = take_property()) {
    set(*p);
  } else {
    unexpected("value");
  }
  return true;
}

void SaxBinderBase::start_object() {
  if (skip_depth_ >= 0) return void(++skip_depth_);
  if (row_) return start_nested(true);
  if (stack_.empty()) {
    if (done_) unexpected("second document");
    return stack_.push_back({Frame::envelope, nullptr, nullptr});
  }
  Level& top = stack_.back();
  if (expect_ == FeedReader::Member::verbose) {  // v2's {"d": {...}}
    expect_ = FeedReader::Member::other;
    return stack_.push_back({Frame::verbose, nullptr, nullptr});
  }
  if (expect_ != FeedReader::Member::other) feed_.wrong_shape(expect_);
  if (top.frame == Frame::feed && entity_rows_) {
    row_ = static_cast<EntityRow*>(append_row_(rows_));
    annotations_.clear();
    return;  // the row's members are handled by the row_ branches
  }
  if (top.frame == Frame::feed)
    return stack_.push_back({Frame::record, append_row_(rows_), row_table_});
  if (top.frame == Frame::records)
    return stack_.push_back({Frame::record, top.slot->append(top.target), top.slot->element});
  if (results_pending_) member_error(format_, *top.slot, ": 'results' is not an array");
  if (const FieldSlot* s = take_pending()) {
    if (s->kind != ValueKind::records || !s->results_object) wrong_type(format_, *s, "an object");
    return stack_.push_back(
        {Frame::results, static_cast<char*>(top.target) + s->offset, s->element, s});
  }
  unexpected("object");
}

void SaxBinderBase::end_object() {
  if (skip_depth_ >= 0) {
    if (--skip_depth_ == 0) skip_depth_ = -1;
    return;
  }
  if (row_) {
    if (nested_.depth() > 0) return end_nested(true);
    entity::finish_json_row(format_, *row_, annotations_, feed_.dialect() == Dialect::verbose);
    row_ = nullptr;
    return;
  }
  const Level& top = stack_.back();
  if (top.frame == Frame::envelope) done_ = true;
  if (top.frame == Frame::record) require_members(format_, *top.table, top.bound);
  if (top.frame == Frame::results && top.bound == 0)
    member_error(format_, *top.slot, ": an object without 'results'");
  stack_.pop_back();
}

void SaxBinderBase::start_array() {
  if (skip_depth_ >= 0) return void(++skip_depth_);
  if (row_) return start_nested(false);
  if (stack_.empty()) throw DecodeError(format_, "the payload is not an object (a map)");
  Level& top = stack_.back();
  if (expect_ != FeedReader::Member::other) return start_rows();
  if (results_pending_) {  // {"results": [...]} of a list member
    results_pending_ = false;
    ++top.bound;
    return stack_.push_back({Frame::records, top.target, top.table, top.slot});
  }
  if (const FieldSlot* s = take_pending()) {
    if (s->kind != ValueKind::records) wrong_type(format_, *s, "an array");
    return stack_.push_back(
        {Frame::records, static_cast<char*>(top.target) + s->offset, s->element, s});
  }
  unexpected("array");
}

void SaxBinderBase::end_array() {
  if (skip_depth_ >= 0) {
    if (--skip_depth_ == 0) skip_depth_ = -1;
    return;
  }
  if (row_) return end_nested(false);
  stack_.pop_back();
}

void SaxBinderBase::key(std::string_view k) {
  if (skip_depth_ >= 0) return;
  if (row_ && nested_.depth() > 0) return nested_.key(k);
  if (row_) {
    if (const std::string_view name = entity::type_annotation_target(k); !name.empty()) {
      annotated_.assign(name);
      annotation_pending_ = true;
    } else if (entity::is_annotation(k)) {
      skip_depth_ = 0;
    } else {
      property_ = &row_->Properties.emplace_back();
      property_->Name.assign(k);
    }
    return;
  }
  Level& top = stack_.back();
  if (top.frame == Frame::envelope || top.frame == Frame::verbose) {
    expect_ = top.frame == Frame::envelope ? feed_.root_member(k) : feed_.verbose_member(k);
    if (expect_ == FeedReader::Member::other) skip_depth_ = 0;
    return;
  }
  if (top.frame == Frame::results) {
    if (k != "results") return void(skip_depth_ = 0);  // __metadata and the like
    if (top.bound > 0) member_error(format_, *top.slot, ": a second 'results'");
    results_pending_ = true;
    return;
  }
  top.slot = top.table->find(k, top.hint);
  if (!top.slot)
    skip_depth_ = 0;  // an annotation or a member we do not bind
  else
    ++top.bound;
}

void SaxBinderBase::string(std::string_view v) {
  if (skipping_value()) return;
  if (expect_ != FeedReader::Member::other) {
    EntityProperty value;
    entity::set_string(value, v);
    return void(envelope_scalar(value));
  }
  if (row_ && annotation_pending_ && nested_.depth() == 0) {
    annotation_pending_ = false;
    return annotations_.push_back({annotated_, std::string(v)});
  }
  if (entity_scalar([&](auto& to) { entity_set(to, v); })) return;
  if (const FieldSlot* s = take_pending())
    return store_string(format_, *s, stack_.back().target, v);
  unexpected("string");
}

void SaxBinderBase::integer(int64_t v) {
  if (skipping_value()) return;
  if (expect_ != FeedReader::Member::other) {
    EntityProperty value;
    entity::set_integer(value, v);
    return void(envelope_scalar(value));
  }
  if (entity_scalar([&](auto& to) { entity_set(to, v); })) return;
  if (const FieldSlot* s = take_pending()) return store_int(format_, *s, stack_.back().target, v);
  unexpected("number");
}

void SaxBinderBase::number(double v) {
  if (skipping_value()) return;
  if (expect_ != FeedReader::Member::other) {
    EntityProperty value;
    entity::set_number(value, v);
    return void(envelope_scalar(value));
  }
  if (entity_scalar([&](auto& to) { entity_set(to, v); })) return;
  if (const FieldSlot* s = take_pending())
    return store_double(format_, *s, stack_.back().target, v);
  unexpected("number");
}

void SaxBinderBase::boolean(bool v) {
  if (skipping_value()) return;
  if (expect_ != FeedReader::Member::other) {
    EntityProperty value;
    entity::set_boolean(value, v);
    return void(envelope_scalar(value));
  }
  if (entity_scalar([&](auto& to) { entity_set(to, v); })) return;
  if (const FieldSlot* s = take_pending()) wrong_type(format_, *s, "a boolean");
  unexpected("boolean");
}

void SaxBinderBase::null() {
  if (skipping_value()) return;
  if (expect_ != FeedReader::Member::other) {
    EntityProperty value;
    entity::set_null(value);
    return void(envelope_scalar(value));
  }
  if (entity_scalar([&](auto& to) { entity_set(to, nullptr); })) return;
  if (const FieldSlot* s = take_pending()) wrong_type(format_, *s, "null");
  unexpected("null");
}

void SaxBinderBase::finish() const {
  if (!done_ || !stack_.empty()) throw DecodeError(format_, "incomplete document");
  feed_.finish();
}

}  // namespace wb::json
