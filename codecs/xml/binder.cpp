#include "codecs/xml/binder.hpp"

#include "generators/text.hpp"

namespace wb::xml {

namespace {

std::string_view format_name(Shape shape) {
  return shape == Shape::atom ? "atom" : shape == Shape::soap ? "soap" : "wcfjson";
}
std::string_view field_namespace(Shape shape, DatasetKind kind) {
  if (shape == Shape::infoset) return {};  // the mapping uses no namespace
  return shape == Shape::atom ? kDataNs : std::string_view(data_contract_ns(kind));
}
std::string_view item_name(Shape shape) {
  return shape == Shape::atom ? "element" : shape == Shape::soap ? "" : "item";
}

}  // namespace

BinderBase::BinderBase(Shape shape, DatasetKind kind, void* rows, void* (*append_row)(void*),
                       const RecordTable& table, FeedPage* page)
    : shape_(shape),
      format_(format_name(shape)),
      field_ns_(field_namespace(shape, kind)),
      item_local_(item_name(shape)),
      row_local_(shape == Shape::infoset ? std::string_view("item") : table.type_name),
      null_ns_(shape == Shape::atom   ? kMetadataNs
               : shape == Shape::soap ? kXsiNs
                                      : ""),
      null_local_(shape == Shape::atom   ? "null"
                  : shape == Shape::soap ? "nil"
                                         : "type"),
      rows_(rows),
      append_row_(append_row),
      row_table_(table),
      page_(page) {
  stack_.resize(16);
}

void BinderBase::fail(const std::string& what) const {
  throw DecodeError(format_, what);
}

// stack_ grows and never shrinks; depth_ is its used part. (vector's own
// push_back is an out-of-line call per element: its growth path is big.)
inline bool BinderBase::push(const Level& level) {
  if (depth_ == stack_.size()) [[unlikely]]
    stack_.resize(2 * depth_);
  stack_[depth_++] = level;
  return level.frame != Frame::skip;
}

// Above the records. Atom: an entry anywhere inside the feed (entries of
// expanded feeds sit inside entries and are skipped there). Soap:
// Envelope / Body / {Op}Response / {Op}Result / a:{Type}.
BinderBase::Level BinderBase::child_of_outside(std::string_view uri, std::string_view local,
                                               std::size_t depth) {
  if (shape_ == Shape::atom) {
    if (depth == 0) {
      if (!same_uri(uri, kAtomNs) || local != "feed") fail("the root element is not an Atom feed");
      saw_container_ = true;
      return {Frame::outside};
    }
    if (same_uri(uri, kAtomNs) && same_name(local, "entry"))
      return {Frame::entry, append_row_(rows_), &row_table_};
    if (depth == 1 && page_.start(uri, local)) {
      in_page_ = attrs_wanted_ = true;
      return {Frame::page};
    }
    return {Frame::skip};
  }
  if (shape_ == Shape::infoset) {
    // <root type="array"> holds nothing but the list's <item type="object">s.
    if (depth == 0) {
      if (!uri.empty() || local != "root") fail("the root element is not the JSON infoset <root>");
      saw_container_ = true;
      return {Frame::outside};
    }
    if (uri.empty() && local == row_local_) return {Frame::record, append_row_(rows_), &row_table_};
    fail("unexpected element " + std::string(local) + " in the list: expected <item>");
  }
  switch (depth) {
    case 0:
      if (!same_uri(uri, kSoapEnvNs) || local != "Envelope")
        fail("the root element is not a SOAP 1.1 Envelope");
      return {Frame::outside};
    case 1:
      return {same_uri(uri, kSoapEnvNs) && local == "Body" ? Frame::outside : Frame::skip};
    case 2:
      return {Frame::outside};  // {Op}Response
    case 3:
      saw_container_ = true;
      return {Frame::outside};  // {Op}Result
    default:
      break;
  }
  if (same_uri(uri, field_ns_) && local == row_local_)
    return {Frame::record, append_row_(rows_), &row_table_};
  // DataContractSerializer writes nothing but the items into a list result.
  fail("unexpected element " + std::string(local) + " in the result: expected " +
       std::string(row_local_) + " items of " + std::string(field_ns_));
}

bool BinderBase::start(std::string_view uri, std::string_view local) {
  if (entity_) return entity_->start(uri, local);
  attrs_wanted_ = false;
  if (depth_ == 0) return push(child_of_outside(uri, local, 0));
  Level& top = stack_[depth_ - 1];
  switch (top.frame) {
    case Frame::skip:
    case Frame::page:
      return push({Frame::skip});
    case Frame::outside:
      return push(child_of_outside(uri, local, depth_));
    case Frame::entry:
      if (same_uri(uri, kMetadataNs) && same_name(local, "properties"))
        return push({Frame::record, top.target, top.table});
      if (same_uri(uri, kAtomNs) && same_name(local, "content"))
        return push({Frame::content, top.target, top.table});
      return push({Frame::skip});
    case Frame::content:
      if (same_uri(uri, kMetadataNs) && local == "properties")
        return push({Frame::record, top.target, top.table});
      return push({Frame::skip});
    case Frame::record: {
      if (!same_uri(uri, field_ns_)) return push({Frame::skip});
      const FieldSlot* s = top.table->find(local, top.hint);
      if (!s) return push({Frame::skip});  // a member we do not bind
      ++top.bound;
      attrs_wanted_ = true;  // m:null / i:nil
      if (s->kind == ValueKind::records)
        return push({Frame::collection, static_cast<char*>(top.target) + s->offset, s->element, s});
      collecting_ = true;
      text_.clear();
      return push({Frame::scalar, top.target, top.table, s});
    }
    case Frame::collection: {
      const std::string_view item = item_local_.empty() ? top.table->type_name : item_local_;
      if (!same_uri(uri, field_ns_) || local != item) return push({Frame::skip});
      return push({Frame::record, top.slot->append(top.target), top.table});
    }
    case Frame::scalar:
      break;
  }
  member_error(format_, *top.slot, ": an element inside a scalar value");
}

void BinderBase::attribute(std::string_view uri, std::string_view local, std::string_view value) {
  if (entity_) return entity_->attribute(uri, local, value);
  if (in_page_) return page_.attribute(uri, local, value);
  if (!same_uri(uri, null_ns_) || !same_name(local, null_local_)) return;
  const FieldSlot& slot = *stack_[depth_ - 1].slot;
  if (shape_ != Shape::infoset) {
    if (value == "true" || value == "1")
      member_error(format_, slot, " is null; the model has no nulls");
    return;
  }
  // The infoset's type="..." of a member: the JSON type it was written as.
  if (value == "null") member_error(format_, slot, " is null; the model has no nulls");
  const bool records = slot.kind == ValueKind::records;
  if (records ? value != "array" : value == "object" || value == "array")
    wrong_type(format_, slot,
               value == "object"  ? "an object"
               : value == "array" ? "an array"
                                  : "a scalar");
}

void BinderBase::end() {
  if (entity_) return entity_->end();
  const Level& top = stack_[--depth_];
  attrs_wanted_ = false;
  if (top.frame == Frame::scalar) {
    collecting_ = false;
    store_text(format_, *top.slot, top.target, text_);
  } else if (top.frame == Frame::record) {
    require_members(format_, *top.table, top.bound);
  } else if (top.frame == Frame::page) {
    in_page_ = false;
    page_.end();
  }
}

// held_ is only ever set inside a scalar member (collecting_).
void BinderBase::end_stable() {
  if (held_.data() == nullptr) return end();
  const std::string_view held = held_;
  held_ = {};
  const Level& top = stack_[--depth_];
  attrs_wanted_ = false;
  collecting_ = false;
  store_text(format_, *top.slot, top.target, held);
}

void BinderBase::finish() const {
  if (entity_) return entity_->finish();
  if (depth_ != 0) fail("incomplete document");
  if (!saw_container_)
    fail(shape_ == Shape::atom   ? "no Atom feed"
         : shape_ == Shape::soap ? "no {Op}Result element in the SOAP body"
                                 : "no <root> element");
}

}  // namespace wb::xml
