// SaxBinderBase: a small stack machine over JSON events.
#include <utility>

#include "codecs/json/feed.hpp"

namespace wb::json {

void SaxBinderBase::unexpected(std::string_view what) const {
  throw DecodeError(kFormat, "unexpected " + std::string(what) + " in an OData feed");
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

void SaxBinderBase::start_object() {
  if (skip_depth_ >= 0) return void(++skip_depth_);
  if (stack_.empty()) {
    if (done_) unexpected("second document");
    return stack_.push_back({Frame::envelope, nullptr, nullptr});
  }
  Level& top = stack_.back();
  if (top.frame == Frame::feed)
    return stack_.push_back({Frame::record, append_row_(rows_), &row_table_});
  if (top.frame == Frame::records)
    return stack_.push_back({Frame::record, top.slot->append(top.target), top.slot->element});
  if (const FieldSlot* s = take_pending()) wrong_type(kFormat, *s, "an object");
  unexpected("object");
}

void SaxBinderBase::end_object() {
  if (skip_depth_ >= 0) {
    if (--skip_depth_ == 0) skip_depth_ = -1;
    return;
  }
  const Level& top = stack_.back();
  if (top.frame == Frame::envelope) done_ = true;
  if (top.frame == Frame::record) require_members(kFormat, *top.table, top.bound);
  stack_.pop_back();
}

void SaxBinderBase::start_array() {
  if (skip_depth_ >= 0) return void(++skip_depth_);
  if (stack_.empty()) throw DecodeError(kFormat, "the payload is not a JSON object");
  Level& top = stack_.back();
  if (top.frame == Frame::envelope && value_pending_) {
    value_pending_ = false;
    seen_feed_ = true;
    return stack_.push_back({Frame::feed, nullptr, nullptr});
  }
  if (const FieldSlot* s = take_pending()) {
    if (s->kind != ValueKind::records) wrong_type(kFormat, *s, "an array");
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
  stack_.pop_back();
}

void SaxBinderBase::key(std::string_view k) {
  if (skip_depth_ >= 0) return;
  Level& top = stack_.back();
  if (top.frame == Frame::envelope) {
    if (k == "value") {
      if (seen_feed_) throw DecodeError(kFormat, "a second 'value' member");
      value_pending_ = true;
    } else {
      skip_depth_ = 0;
    }
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
  if (const FieldSlot* s = take_pending())
    return store_string(kFormat, *s, stack_.back().target, v);
  unexpected("string");
}

void SaxBinderBase::integer(int64_t v) {
  if (skipping_value()) return;
  if (const FieldSlot* s = take_pending()) return store_int(kFormat, *s, stack_.back().target, v);
  unexpected("number");
}

void SaxBinderBase::number(double v) {
  if (skipping_value()) return;
  if (const FieldSlot* s = take_pending())
    return store_double(kFormat, *s, stack_.back().target, v);
  unexpected("number");
}

void SaxBinderBase::boolean(bool) {
  if (skipping_value()) return;
  if (const FieldSlot* s = take_pending()) wrong_type(kFormat, *s, "a boolean");
  unexpected("boolean");
}

void SaxBinderBase::null() {
  if (skipping_value()) return;
  if (const FieldSlot* s = take_pending()) wrong_type(kFormat, *s, "null");
  unexpected("null");
}

void SaxBinderBase::finish() const {
  if (!done_ || !stack_.empty()) throw DecodeError(kFormat, "incomplete document");
  if (!seen_feed_) throw DecodeError(kFormat, "no 'value' array: not an OData feed");
}

}  // namespace wb::json
