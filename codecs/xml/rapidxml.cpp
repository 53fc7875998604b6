// RapidXML: an in-situ DOM. The decoder parses a NUL-terminated mutable copy of
// the input (a reused member buffer) and walks the DOM through PrefixScope,
// since RapidXML has no namespace support and binding is by namespace URI.
// The encoder builds nodes in the document's memory pool and prints them.
//
// RapidXML is lax by design; the adapter closes the gaps that would change
// what a payload means: closing tags are checked, a NUL byte (which RapidXML
// takes as the end of the data) and a second top-level element are rejected.
// It still accepts some malformed input (bad name characters, invalid UTF-8,
// duplicate attributes, a bare '&'), and it never reads a DTD or expands an
// entity other than the predefined ones and character references.
#include <rapidxml/rapidxml.hpp>
#include <rapidxml/rapidxml_print.hpp>

#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "codecs/registry.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/prefix_scope.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

using Doc = rapidxml::xml_document<char>;
using XmlNode = rapidxml::xml_node<char>;

// Entity and character references translated (the default), closing tag
// names checked, no copy of the first text child into the element's value.
constexpr int kParseFlags =
    rapidxml::parse_validate_closing_tags | rapidxml::parse_no_element_values;

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
  static constexpr bool kEntityRows = Shape::kFormat == "atom";
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    doc_.clear();  // also frees the pool of the previous document
    RapidSink sink(doc_);
    Shape::write(sink, rows);
    out.clear();
    rapidxml::print(std::back_inserter(out), doc_, rapidxml::print_no_indenting);
  }

 private:
  Doc doc_;
};

// RapidXML's nodes for PrefixScope: offsets come from the in-situ names,
// which point into the parsed buffer.
struct RapidDom {
  using Node = const XmlNode*;
  static constexpr std::string_view kLibrary = "rapidxml";
  static bool is_element(Node n) { return n->type() == rapidxml::node_element; }
  static bool is_text(Node n) {
    return n->type() == rapidxml::node_data || n->type() == rapidxml::node_cdata;
  }
  static Node first_child(Node n) { return n->first_node(); }
  static Node next_sibling(Node n) { return n->next_sibling(); }
  static std::string_view value(Node n) { return value_of(n); }
  static std::string_view name(Node n) { return name_of(n); }
  template <class F>
  static void for_each_attribute(Node n, F f) {
    for (auto* a = n->first_attribute(); a; a = a->next_attribute()) f(name_of(a), value_of(a));
  }
  long long offset(Node n) const { return n->name() - 1 - buffer; }  // at its '<'
  const char* buffer = nullptr;
};

template <class Shape>
class RapidxmlDecoder : public DecoderFor<RapidxmlDecoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kFormat == "atom";
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    const XmlNode* root = load(input);
    Binder<T> binder(shape_of(Shape::kFormat), rows);
    walk_dom(dom_, root, binder);
    binder.finish();
  }
  void parse_only(std::string_view input) final { load(input); }

 private:
  const XmlNode* load(std::string_view input) {
    const std::string_view body = skip_bom(input);
    const long long skipped = static_cast<long long>(input.size() - body.size());
    if (const void* nul = std::memchr(body.data(), 0, body.size()))
      throw DecodeError(RapidDom::kLibrary, "NUL byte in the document",
                        skipped + (static_cast<const char*>(nul) - body.data()));
    buffer_.assign(body);
    buffer_ += '\0';  // RapidXML stops at the terminator, never at a length
    doc_.clear();
    try {
      doc_.parse<kParseFlags>(buffer_.data());
    } catch (const rapidxml::parse_error& e) {
      throw DecodeError(RapidDom::kLibrary, e.what(), skipped + (e.where<char>() - buffer_.data()));
    }
    dom_.reset(skipped);
    dom_.buffer = buffer_.data();
    // Declarations, comments and DOCTYPEs make no nodes with these flags, and
    // top-level text is a parse error: any second node is a second element.
    const XmlNode* root = doc_.first_node();
    if (!root) throw DecodeError(RapidDom::kLibrary, "no document element", skipped);
    if (const XmlNode* extra = root->next_sibling())
      throw DecodeError(RapidDom::kLibrary, "content after the document element",
                        skipped + dom_.offset(extra));
    return root;
  }
  std::string buffer_;
  Doc doc_;
  PrefixScope<RapidDom> dom_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, rapidxml, wb::xml::RapidxmlEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(soap, rapidxml, wb::xml::RapidxmlEncoder<wb::xml::Soap>)
// The decoder is NOT registered: RapidXML 1.13 drops whitespace-only text
// between markup ("&amp; <![CDATA[<b>]]>" loses its space, a value of " " reads
// as empty) and has no flag to keep it, so it fails the spelling tests.
WB_DEFINE_DECODER(atom, rapidxml, wb::xml::RapidxmlDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, rapidxml, wb::xml::RapidxmlDecoder<wb::xml::Soap>)
