// Binding any OData Atom feed to entity rows (the generic entity dataset),
// with the event protocol of binder.hpp; Binder<EntityRow> forwards to it.
//
// Rows: every atom:entry at any depth is a row, in document order of their
// start tags, so the entries of expanded feeds (link/m:inline/feed/entry)
// are rows too, each after the entry that expands them (the real-payload
// corpus counts entries that way: "85 entries in all (8 + 77)";
// tests/real_payloads_test.cpp). A root atom:entry (a
// single-entity response) is one row.
// Properties: the children of the entry's m:properties (inside atom:content,
// or beside it in media-link entries) in the data-services namespace, in
// order: local name, m:type (Edm.String when absent), text. m:null="true":
// Value "" and Type "Null(T)". A value with child elements (complex type,
// collection) becomes compact JSON text (codecs/common/entity.hpp): children
// as members, d:element children as array items, leaf text as strings,
// null leaves as null; its Type is m:type, else Complex or Collection.
// Values mapped to Atom elements by friendly feeds (atom:title, ...) are not
// in m:properties and are not properties.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/xml/atom_page.hpp"
#include "generators/model.hpp"

namespace wb::xml {

class EntityBinder {
 public:
  // atom false: a format that does not define entity rows (throws).
  // page: where the feed's next link and count go, or nullptr.
  EntityBinder(bool atom, std::vector<EntityRow>& rows, FeedPage* page);
  bool start(std::string_view uri, std::string_view local);
  bool wants_attributes() const { return attrs_wanted_; }
  void attribute(std::string_view uri, std::string_view local, std::string_view value);
  void text(std::string_view chunk) {
    if (frames_.empty()) return;
    if (frames_.back() == Frame::value) values_.back().text.append(chunk);
    if (frames_.back() == Frame::page) page_.text(chunk);
  }
  void end();
  void finish() const;

 private:
  enum class Frame {
    transparent,  // looking for entries and m:properties below
    entry,        // an atom:entry: its row is rows_[open_rows_.back()]
    properties,   // m:properties: children are properties
    value,        // a property or an element inside its value
    page,         // the root feed's next link or count (page_)
    skip          // nothing of interest below
  };
  // An open property value element (values_[0] is the property itself).
  struct Value {
    std::string name, type, text, json;
    bool null = false;
    bool array = false;  // its children are d:element items
    int children = 0;    // child elements ended so far
  };
  bool push(Frame f) {
    frames_.push_back(f);
    return f != Frame::skip;
  }
  void end_value();

  std::vector<EntityRow>& rows_;
  std::vector<Frame> frames_;
  std::vector<std::size_t> open_rows_;
  std::vector<Value> values_;
  bool attrs_wanted_ = false;
  bool saw_root_ = false;
  bool root_feed_ = false;
  AtomPageReader page_;
};

}  // namespace wb::xml
