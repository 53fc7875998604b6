// Binding XML to records, once for every XML library. Streaming parsers feed
// their events straight in; DOM parsers walk their tree and feed the same
// events (walk_dom below), so a pairing's binding cost is the same code.
//
// Event protocol (names are namespace URI + local name, never prefixes):
//   bool start(uri, local)   an element opens; returns false when its subtree
//                            is of no interest (a DOM walker may skip it, but
//                            must still call end(); a SAX parser just keeps
//                            feeding events, which are ignored)
//   wants_attributes()       true right after a start() whose attributes matter:
//                            then call attribute(uri, local, value) for each
//   may_use_attribute(local) false for an attribute attribute() ignores,
//                            whatever its namespace (checked before resolving)
//   wants_text()             false when text() would ignore what it is given
//                            (outside scalar members): a DOM walker may skip
//                            the text nodes then
//   text(chunk)              character data (CDATA and resolved references too)
//   stable_text(chunk)       the same, for text readable until end_stable()
//                            (a DOM's own copy): then end with end_stable()
//   end()                    the element closes
//   finish()                 end of document: throws unless records were found
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/common/binding.hpp"
#include "codecs/xml/atom_page.hpp"
#include "codecs/xml/canonical.hpp"
#include "codecs/xml/entity_binder.hpp"
#include "codecs/xml/vocabulary.hpp"

namespace wb::xml {

// infoset: the WCF JSON<->XML mapping of a DataContractJsonSerializer list
// (codecs/wcfjson/): <root type="array"><item type="object"><Name type=
// "string">..., no namespaces; null is type="null".
enum class Shape { atom, soap, infoset };

class BinderBase {
 public:
  bool start(std::string_view uri, std::string_view local);
  bool wants_attributes() const { return entity_ ? entity_->wants_attributes() : attrs_wanted_; }
  // Whether attribute() may use an attribute of this local name (a DOM walker
  // that resolves prefixes itself passes over the others unresolved).
  bool may_use_attribute(std::string_view local) const {
    return entity_ != nullptr || same_name(local, null_local_) ||
           (in_page_ && AtomPageReader::may_use_attribute(local));
  }
  void attribute(std::string_view uri, std::string_view local, std::string_view value);
  bool wants_text() const { return collecting_ || entity_ != nullptr || in_page_; }
  void text(std::string_view chunk) {
    if (collecting_)
      text_.append(chunk);
    else if (entity_)
      entity_->text(chunk);
    else if (in_page_)
      page_.text(chunk);
  }
  // Text that stays readable until the element's end_stable() (a DOM's own
  // copy): a member's only chunk is kept as a view and parsed in place, not
  // copied. Separate calls, so that start() and end() of the streaming
  // decoders do no extra work for it.
  void stable_text(std::string_view chunk) {
    if (!collecting_) return text(chunk);
    if (held_.data() == nullptr && text_.empty()) {
      held_ = chunk.data() ? chunk : std::string_view("");
      return;
    }
    text_.append(held_);
    held_ = {};
    text_.append(chunk);
  }
  void end();
  void end_stable();
  void finish() const;

 protected:
  // page: the decoder's (Decoder::page_out()), or nullptr.
  BinderBase(Shape shape, DatasetKind kind, void* rows, void* (*append_row)(void*),
             const RecordTable& table, FeedPage* page);
  // Entity rows: every event goes to e (Binder<EntityRow> below).
  void forward_to(EntityBinder& e) { entity_ = &e; }

 private:
  // What the open element is, for the element that opens inside it.
  enum class Frame {
    outside,     // above the records: feed, Envelope, Body, wrappers
    entry,       // atom entry: looking for m:properties (possibly in content)
    content,     // atom content
    record,      // a record: children are members
    scalar,      // a scalar member: collecting text
    collection,  // a list member: children are records
    page,        // atom: the feed's next link or count (page_)
    skip         // nothing of interest below
  };
  struct Level {
    Frame frame;
    void* target = nullptr;  // record, or vector for a collection
    const RecordTable* table = nullptr;
    const FieldSlot* slot = nullptr;  // scalar / collection member
    std::size_t hint = 0;
    int bound = 0;  // record: members seen
  };
  bool push(const Level& level);
  Level child_of_outside(std::string_view uri, std::string_view local, std::size_t depth);
  [[noreturn]] void fail(const std::string& what) const;

  Shape shape_;
  std::string_view format_;
  std::string_view field_ns_;    // members' namespace
  std::string_view item_local_;  // a collection item: d:element / a:{Type}
  std::string_view row_local_;   // soap: a:{Type}
  std::string_view null_ns_, null_local_;
  void* rows_;
  void* (*append_row_)(void*);
  const RecordTable& row_table_;
  std::vector<Level> stack_;  // open elements: [0, depth_)
  std::size_t depth_ = 0;
  std::string text_;
  std::string_view held_;  // stable_text's chunk, not yet copied into text_
  bool collecting_ = false;
  bool attrs_wanted_ = false;
  bool saw_container_ = false;  // atom feed / soap Result
  AtomPageReader page_;
  bool in_page_ = false;
  EntityBinder* entity_ = nullptr;
};

template <class T>
class Binder : public BinderBase {
 public:
  // page: the decoder's (Decoder::page_out()) for a feed's next link and
  // count, or nullptr.
  Binder(Shape shape, std::vector<T>& rows, FeedPage* page)
      : BinderBase(
            shape, dataset_of<T>(), &rows,
            [](void* v) -> void* { return &static_cast<std::vector<T>*>(v)->emplace_back(); },
            table_of<T>(), page) {}
};

// The generic entity dataset binds through EntityBinder; this is a
// BinderBase too, so that adapters holding a BinderBase* take it like any
// other. (The base is built as atom: it only forwards.)
template <>
class Binder<EntityRow> : public BinderBase {
 public:
  Binder(Shape shape, std::vector<EntityRow>& rows, FeedPage* page)
      : BinderBase(Shape::atom, DatasetKind::entity, &rows, nullptr, table_of<EntityRow>(),
                   nullptr),
        entity_binder_(shape == Shape::atom, rows, page) {
    forward_to(entity_binder_);
  }

 private:
  EntityBinder entity_binder_;
};

// Shape descriptors for adapters: Atom/AtomV2/Soap writers live in
// writer_shapes.hpp; both Atom formats read as atom.
inline Shape shape_of(std::string_view format) {
  if (format == "wcfjson") return Shape::infoset;
  return format == "soap" ? Shape::soap : Shape::atom;
}

// A decoder of an XML shape: Impl::parse<B>(input, B* sink) sends the
// library's events into a binder (B = BinderBase) or the canonical form
// (B = CanonicalXml): a streaming parser as it reads, and with a null sink
// it only parses (its parse_only); a DOM parser by parsing, then walking its
// tree (walk_dom). Impl befriends this base, which holds decode_rows and
// canonical.
template <class Impl, class Shape>
class XmlDecoderFor : public DecoderFor<Impl> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    Binder<T> binder(shape_of(Shape::kFormat), rows, this->page_out());
    static_cast<Impl*>(this)->parse(input, static_cast<BinderBase*>(&binder));
    binder.finish();
  }
  bool canonical(std::string_view input, std::string& out) final {
    CanonicalXml sink(out);
    static_cast<Impl*>(this)->parse(input, &sink);
    sink.finish();
    return true;
  }
};

// Walks a DOM with a policy and feeds the binder. Dom provides:
//   Node; static bool is_element(Node), is_text(Node) (text or CDATA);
//   static Node first_child(Node), next_sibling(Node) (null Node is falsy);
//   optionally first_element(Node), next_element(Node): the same over element
//   children only, for elements whose text the binder does not want (when
//   finding text takes work: RapidXML's dropped whitespace);
//   static std::string_view uri(Node), local(Node), value(Node) (text);
//   template <class F> static void attributes(Node, F f)  // f(uri, local, value)
// A DOM without namespace support (pugixml) cannot answer uri() from the node
// alone: it passes a policy object to walk_dom(policy, element, binder) whose
// enter(Node) pushes the element's xmlns declarations and returns its names
// (.uri, .local), and whose leave() is called after its end(); its members
// may then be non-static.
template <class Dom, class B>
void walk_dom(Dom& dom, typename Dom::Node element, B& binder) {
  constexpr bool scoped = requires(Dom & d, typename Dom::Node n) {
    d.enter(n).uri;
    d.leave();
  };
  bool open;
  if constexpr (scoped) {
    const auto names = dom.enter(element);
    open = binder.start(names.uri, names.local);
  } else {
    open = binder.start(dom.uri(element), dom.local(element));
  }
  if (open) {
    if (binder.wants_attributes()) {
      const auto f = [&](std::string_view u, std::string_view l, std::string_view v) {
        binder.attribute(u, l, v);
      };
      if constexpr (scoped)
        dom.attributes(element, f, [&](std::string_view l) { return binder.may_use_attribute(l); });
      else
        dom.attributes(element, f);
    }
    constexpr bool elements_only = requires(Dom & d, typename Dom::Node n) {
      d.first_element(n);
      d.next_element(n);
    };
    bool all = true;
    if constexpr (elements_only) all = binder.wants_text();
    if (all) {
      for (auto child = dom.first_child(element); child; child = dom.next_sibling(child)) {
        if (dom.is_element(child))
          walk_dom(dom, child, binder);
        else if (dom.is_text(child))
          binder.text(dom.value(child));
      }
    } else if constexpr (elements_only) {
      for (auto child = dom.first_element(element); child; child = dom.next_element(child))
        walk_dom(dom, child, binder);
    }
  }
  binder.end();
  if constexpr (scoped) dom.leave();
}

template <class Dom, class B>
void walk_dom(typename Dom::Node element, B& binder) {
  Dom dom;
  walk_dom(dom, element, binder);
}

}  // namespace wb::xml
