// RapidXML: an in-situ DOM. The decoder parses a NUL-terminated copy of the
// input (a reused member buffer) without changing it (non-destructive mode)
// and walks the DOM through PrefixScope, since RapidXML has no namespace
// support and binding is by namespace URI; text and attribute values are
// translated by char_data.hpp, and whitespace-only text RapidXML drops is
// taken from the source (RapidDom below).
// The encoder builds nodes in the document's memory pool and prints them.
//
// RapidXML is lax by design; the adapter closes the gaps that would change
// what a payload means: closing tags are checked; before the parse, the
// pre-scan (prescan.hpp) rejects bad references, control characters, a NUL
// byte (which RapidXML takes as the end of the data), '<' in attribute
// values, a DOCTYPE and nesting deeper than 10,000 (RapidXML recurses per
// level); after it, a second top-level element. So parse_only() checks what
// decoding checks, bar prefixes (resolved while walking). It still accepts
// bad name characters, invalid UTF-8 and duplicate attributes. It never
// reads a DTD.
#include <rapidxml/rapidxml.hpp>
#include <rapidxml/rapidxml_print.hpp>

#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/char_data.hpp"
#include "codecs/xml/prefix_scope.hpp"
#include "codecs/xml/prescan.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

using Doc = rapidxml::xml_document<char>;
using XmlNode = rapidxml::xml_node<char>;

std::string_view name_of(const rapidxml::xml_base<char>* n) {
  return {n->name(), n->name_size()};
}
std::string_view value_of(const rapidxml::xml_base<char>* n) {
  return {n->value(), n->value_size()};
}

class RapidSink {
 public:
  explicit RapidSink(Doc& doc) : doc_(doc), node_(&doc) {}
  void declaration(bool standalone) {
    XmlNode* d = doc_.allocate_node(rapidxml::node_declaration);
    node_->append_node(d);
    add_attribute(d, "version", "1.0");
    add_attribute(d, "encoding", "utf-8");
    if (standalone) add_attribute(d, "standalone", "yes");
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    XmlNode* e = doc_.allocate_node(rapidxml::node_element);
    set_name(e, prefix, local);
    node_->append_node(e);
    node_ = e;
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    auto* a = doc_.allocate_attribute();
    if (prefix.empty())
      set_name(a, {}, "xmlns");
    else
      set_name(a, "xmlns", prefix);
    a->value(copy(uri), uri.size());
    node_->append_attribute(a);
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    auto* a = doc_.allocate_attribute();
    set_name(a, prefix, local);
    a->value(copy(value), value.size());
    node_->append_attribute(a);
  }
  // The printer escapes & < > ' " but has no way to write a character
  // reference, and a parser turns a literal CR into LF: refuse it rather
  // than write a different string.
  void text(std::string_view v) {
    if (v.find('\r') != std::string_view::npos)
      throw std::invalid_argument("rapidxml: the printer cannot write a carriage return");
    XmlNode* t = doc_.allocate_node(rapidxml::node_data);
    t->value(copy(v), v.size());
    node_->append_node(t);
  }
  void end() { node_ = node_->parent(); }

 private:
  // Names and values are not copied by RapidXML; the Sink's views may be
  // temporaries, so they go into the document's pool.
  char* copy(std::string_view v) {
    return v.empty() ? nullptr : doc_.allocate_string(v.data(), v.size());
  }
  void add_attribute(XmlNode* n, std::string_view name, std::string_view value) {
    n->append_attribute(
        doc_.allocate_attribute(name.data(), value.data(), name.size(), value.size()));
  }
  void set_name(rapidxml::xml_base<char>* n, std::string_view prefix, std::string_view local) {
    const std::size_t size = prefix.empty() ? local.size() : prefix.size() + 1 + local.size();
    char* s = doc_.allocate_string(nullptr, size);
    char* p = std::copy(prefix.begin(), prefix.end(), s);
    if (!prefix.empty()) *p++ = ':';
    std::copy(local.begin(), local.end(), p);
    n->name(s, size);
  }
  Doc& doc_;
  XmlNode* node_;
};

template <class Shape>
class RapidxmlEncoder : public EncoderFor<RapidxmlEncoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    doc_.clear();  // also frees the pool of the previous document
    RapidSink sink(doc_);
    Shape::write(sink, rows, this->page());
    out.clear();
    rapidxml::print(std::back_inserter(out), doc_, rapidxml::print_no_indenting);
  }

 private:
  Doc doc_;
};

// RapidXML's nodes for PrefixScope, over the untouched source (non-
// destructive parse: names and values are views into it, references not
// replaced). RapidXML drops whitespace-only text that ends at markup, so
// `<v> </v>` has no child and `&amp; <![CDATA[x]]>` only gets its space
// because the data node runs to the '<'. The dropped text sits in the source
// right before the next node's '<' (after markup, which ends in '>'), or
// before the closing tag: an Item is a RapidXML node or such a gap. Not
// recovered: a gap after a child element's end tag (it would take finding the
// end tag; no binder reads the text of an element that has element children).
struct Item {
  const XmlNode* node = nullptr;  // the node, or the one the gap precedes (null: at the end)
  std::string_view gap;           // dropped whitespace, before node
  explicit operator bool() const { return node || !gap.empty(); }
};

struct RapidDom {
  using Node = Item;
  static constexpr std::string_view kLibrary = token::decoder_atom_rapidxml;
  static bool is_element(Item i) {
    return i.gap.empty() && i.node->type() == rapidxml::node_element;
  }
  static bool is_text(Item i) {
    return !i.gap.empty() || i.node->type() == rapidxml::node_data ||
           i.node->type() == rapidxml::node_cdata;
  }
  static Item first_child(Item e) {
    const XmlNode* c = e.node->first_node();
    return c ? with_gap(nullptr, c) : end_gap(content_start(e.node));
  }
  // Element children only (walk_dom, where text is not wanted): no gaps.
  static Item first_element(Item e) { return element_from(e.node->first_node()); }
  static Item next_element(Item i) { return element_from(i.node->next_sibling()); }
  static Item next_sibling(Item i) {
    if (!i.gap.empty()) return {i.node, {}};  // the node after its gap (none: the end)
    if (const XmlNode* n = i.node->next_sibling()) return with_gap(i.node, n);
    // After the last child: data runs to the end tag, an element's end is unknown.
    const auto t = i.node->type();
    if (t == rapidxml::node_data || t == rapidxml::node_element) return {};
    return end_gap(value_of(i.node).data() + value_of(i.node).size() +
                   (t == rapidxml::node_pi ? 2 : 3));  // ?> or ]]> or -->
  }
  std::string_view value(Item i) {
    const bool cdata = i.gap.empty() && i.node->type() == rapidxml::node_cdata;
    const std::string_view raw = i.gap.empty() ? value_of(i.node) : i.gap;
    if (specials.unchanged(raw)) return raw;
    return char_data(raw, cdata ? CharData::cdata : CharData::text, text, kLibrary, at(raw));
  }
  static std::string_view name(Item i) { return name_of(i.node); }
  // An attribute's value, translated only when read: the pre-scan checked
  // every value, and most are never read (an Atom entry's m:etag, with two
  // &quot;). Values live as long as the document (PrefixScope keeps xmlns
  // values): a translated one is copied into its pool.
  struct Value {
    std::string_view raw;
    const RapidDom* dom = nullptr;  // set by for_each_attribute: only those are read
    operator std::string_view() const { return dom->translated(raw); }  // NOLINT: implicit
  };
  using AttributeName = std::string_view;
  using AttributeValue = Value;
  static constexpr bool kCheapAttributes = true;  // PrefixScope reads them again
  static bool same(Item a, Item b) { return a.node == b.node; }
  template <class F>
  void for_each_attribute(Item i, F f) const {
    for (auto* a = i.node->first_attribute(); a; a = a->next_attribute())
      f(name_of(a), Value{value_of(a), this});
  }
  long long offset(Item i) const { return i.node->name() - 1 - buffer; }  // at its '<'
  std::string_view translated(std::string_view v) const {
    if (specials.unchanged(v)) return v;
    const std::string_view got = char_data(v, CharData::attribute, attr, kLibrary, at(v));
    return {doc->allocate_string(got.data(), got.size()), got.size()};
  }
  long long at(std::string_view v) const { return base + (v.data() - buffer); }

  const char* buffer = nullptr;  // the parsed copy
  long long base = 0;            // bytes before it (a BOM)
  Doc* doc = nullptr;
  SpecialBytes specials;  // of the parsed copy (reject_unbounded's)
  std::string text;
  mutable std::string attr;

 private:
  static Item element_from(const XmlNode* n) {
    while (n && n->type() != rapidxml::node_element) n = n->next_sibling();
    return {n, {}};
  }
  // Where a node's markup starts: <name, <![CDATA[, <!--, <?target.
  static const char* markup_start(const XmlNode* n) {
    switch (n->type()) {
      case rapidxml::node_cdata:
        return n->value() - 9;
      case rapidxml::node_comment:
        return n->value() - 4;
      case rapidxml::node_pi:
        return n->name() - 2;
      default:
        return n->name() - 1;
    }
  }
  // n after prev (null: the first child), with the whitespace dropped before
  // it. Data keeps its leading whitespace; after data that reaches n's '<'
  // nothing was dropped; otherwise markup ended in '>' before the run.
  static Item with_gap(const XmlNode* prev, const XmlNode* n) {
    if (n->type() == rapidxml::node_data) return {n, {}};
    const char* at = markup_start(n);
    if (prev && prev->type() == rapidxml::node_data &&
        value_of(prev).data() + value_of(prev).size() == at)
      return {n, {}};
    const char* from = at;
    while (is_xml_space(from[-1])) --from;
    return {n, {from, static_cast<std::size_t>(at - from)}};
  }
  // The whitespace from p to the end tag; p null: none.
  static Item end_gap(const char* p) {
    if (!p) return {};
    const char* to = p;
    while (is_xml_space(*to)) ++to;
    return {nullptr, {p, static_cast<std::size_t>(to - p)}};
  }
  // After the start tag's '>' (null for <e/>): RapidXML checked its syntax.
  static const char* content_start(const XmlNode* e) {
    const char* p = e->name() + e->name_size();
    if (const auto* a = e->last_attribute()) p = a->value() + a->value_size() + 1;  // quote
    while (is_xml_space(*p)) ++p;
    return *p == '>' ? p + 1 : nullptr;
  }
};

// Non-destructive (see RapidDom); closing tag names checked; comments and PIs
// kept as nodes, since they end where dropped whitespace starts.
constexpr int kParseFlags =
    rapidxml::parse_non_destructive | rapidxml::parse_validate_closing_tags |
    rapidxml::parse_no_element_values | rapidxml::parse_comment_nodes | rapidxml::parse_pi_nodes;

template <class Shape>
class RapidxmlDecoder : public XmlDecoderFor<RapidxmlDecoder<Shape>, Shape> {
 public:
  // The document element's name length.
  std::size_t parse_only(std::string_view input) final { return load(input)->name_size(); }

 private:
  friend XmlDecoderFor<RapidxmlDecoder, Shape>;
  template <class B>
  void parse(std::string_view input, B* sink) {
    const XmlNode* root = load(input);
    walk_dom(dom_, Item{root, {}}, *sink);
  }
  const XmlNode* load(std::string_view input) {
    const auto [body, skipped] = open_document(RapidDom::kLibrary, input);
    buffer_.assign(body);
    buffer_ += '\0';  // RapidXML stops at the terminator, never at a length
    // DOCTYPE; depth, as RapidXML recurses; characters, which it does not
    // check (a NUL byte too: RapidXML takes it for the end of the data).
    // Leaves the copy's marks for the walk.
    reject_unbounded(RapidDom::kLibrary, body_of_buffer(), dom_.specials, skipped,
                     Characters::scan_checks);
    doc_.clear();
    try {
      doc_.parse<kParseFlags>(buffer_.data());
    } catch (const rapidxml::parse_error& e) {
      throw DecodeError(RapidDom::kLibrary, e.what(), skipped + (e.where<char>() - buffer_.data()));
    }
    dom_.reset(skipped);
    dom_.buffer = buffer_.data();
    dom_.base = skipped;
    dom_.doc = &doc_;
    // Top-level text is a parse error and a DOCTYPE was refused: besides
    // comments and PIs there must be one element.
    const XmlNode* root = nullptr;
    for (const XmlNode* n = doc_.first_node(); n; n = n->next_sibling()) {
      if (n->type() != rapidxml::node_element) continue;
      if (root)
        throw DecodeError(RapidDom::kLibrary, "content after the document element",
                          skipped + dom_.offset(Item{n, {}}));
      root = n;
    }
    if (!root) throw DecodeError(RapidDom::kLibrary, "no document element", skipped);
    return root;
  }
  std::string_view body_of_buffer() const { return {buffer_.data(), buffer_.size() - 1}; }
  std::string buffer_;  // the input after any BOM, and a terminator
  Doc doc_;
  PrefixScope<RapidDom> dom_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, rapidxml, wb::xml::RapidxmlEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, rapidxml, wb::xml::RapidxmlEncoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, rapidxml, wb::xml::RapidxmlEncoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, rapidxml, wb::xml::RapidxmlDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, rapidxml, wb::xml::RapidxmlDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, rapidxml, wb::xml::RapidxmlDecoder<wb::xml::Soap>)
