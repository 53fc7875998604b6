// pugixml: the encoder builds a DOM through the Sink and saves it; the decoder
// loads a DOM and walks it with PugiPolicy, which resolves the namespace
// prefixes that pugixml itself does not know about.
#include <pugixml.hpp>

#include <string>
#include <vector>

#include "codecs/common/utf8.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/pugixml_namespaces.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

// parse_default keeps CDATA, resolves character and the five predefined entity
// references, and never reads a DTD. parse_ws_pcdata keeps whitespace-only
// text: without it "&amp; <![CDATA[<b>]]>" loses its space (and with
// parse_ws_pcdata_single too, since the text is not an only child). The
// indentation text nodes it adds cost nothing on our unindented payloads.
// parse_embed_pcdata stores an element's leading text in the element's own
// value instead of a child node: a member's value then costs no node to build
// or to visit (about a third of the nodes of an Atom feed). Only text before
// any child node is embedded, so the value, when there is one, comes first in
// document order (see walk).
constexpr unsigned kParseOptions =
    pugi::parse_default | pugi::parse_ws_pcdata | pugi::parse_embed_pcdata;

class PugiSink {
 public:
  PugiSink(pugi::xml_document& doc, std::string& name) : node_(doc), name_(name) {}
  void declaration(bool standalone) {
    pugi::xml_node d = node_.append_child(pugi::node_declaration);
    d.append_attribute("version").set_value("1.0");
    d.append_attribute("encoding").set_value("utf-8");
    if (standalone) d.append_attribute("standalone").set_value("yes");
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    node_ = node_.append_child(qname(prefix, local));
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    set(node_.append_attribute(prefix.empty() ? "xmlns" : qname("xmlns", prefix)), uri);
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    set(node_.append_attribute(qname(prefix, local)), value);
  }
  void text(std::string_view v) {
    node_.append_child(pugi::node_pcdata).set_value(v.data(), v.size());
  }
  void end() { node_ = node_.parent(); }

 private:
  static void set(pugi::xml_attribute a, std::string_view v) { a.set_value(v.data(), v.size()); }
  // pugixml takes NUL-terminated names: one reused buffer, no allocation per element.
  const char* qname(std::string_view prefix, std::string_view local) {
    name_.assign(prefix);
    if (!prefix.empty()) name_ += ':';
    name_ += local;
    return name_.c_str();
  }
  pugi::xml_node node_;
  std::string& name_;
};

class StringWriter : public pugi::xml_writer {
 public:
  explicit StringWriter(std::string& out) : out_(out) {}
  void write(const void* data, size_t size) override {
    out_.append(static_cast<const char*>(data), size);
  }

 private:
  std::string& out_;
};

template <class Shape>
class PugixmlEncoder : public EncoderFor<PugixmlEncoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    doc_.reset();
    PugiSink sink(doc_, name_);
    Shape::write(sink, rows, this->page());
    out.clear();
    StringWriter writer(out);
    // The declaration, when the shape has one, is a node of the document;
    // pugixml must not add its own to soap.
    doc_.save(writer, "", pugi::format_raw | pugi::format_no_declaration, pugi::encoding_utf8);
  }

 private:
  pugi::xml_document doc_;
  std::string name_;
};

// What the decoder checks before pugixml parses: nothing (pugixml as it is),
// or UTF-8 (pugixml-dom-utf8, like for like with the validating parsers on
// encoding; XML character ranges are still not checked).
struct AsIs {
  static constexpr std::string_view library = kPugixmlDom;
  static void check(std::string_view, long long) {}
};
struct Utf8Checked {
  static constexpr std::string_view library = token::decoder_atom_pugixml_dom_utf8;
  static void check(std::string_view body, long long skipped) {
    check_utf8(library, body, skipped);
  }
};

template <class Shape, class Check = AsIs>
class PugixmlDomDecoder : public XmlDecoderFor<PugixmlDomDecoder<Shape, Check>, Shape> {
 public:
  // The document element's name length.
  std::size_t parse_only(std::string_view input) override {
    load(input);
    return std::char_traits<char>::length(doc_.document_element().name());
  }

 private:
  friend XmlDecoderFor<PugixmlDomDecoder, Shape>;
  template <class B>
  void parse(std::string_view input, B* sink) {
    policy_.reset(load(input));
    walk(doc_.document_element(), *sink);
  }
  // walk_dom's walk with one call into pugixml for a child's type (is_element
  // then is_text would make two per text node).
  template <class B>
  void walk(PugiNode element, B& binder) {
    const QNames names = policy_.enter(element);
    if (binder.start(names.uri, names.local)) {
      if (binder.wants_attributes())
        policy_.attributes(
            element,
            [&](std::string_view u, std::string_view l, std::string_view v) {
              binder.attribute(u, l, v);
            },
            [&](std::string_view l) { return binder.may_use_attribute(l); });
      // Embedded text (kParseOptions): the element's first text, if any.
      if (const char* embedded = element.value(); *embedded) binder.stable_text(embedded);
      for (PugiNode child = element.first_child(); child; child = child.next_sibling()) {
        const pugi::xml_node_type type = child.type();
        if (type == pugi::node_element)
          walk(child, binder);
        else if (type == pugi::node_pcdata || type == pugi::node_cdata)
          binder.stable_text(child.value());
      }
    }
    binder.end_stable();  // text values live in the document
    policy_.leave();
  }
  // load_buffer copies the input (load_buffer_inplace would need a mutable
  // copy made by us, the same cost); returns the bytes skipped before it.
  long long load(std::string_view input) {
    const auto [body, skipped] = open_document(Check::library, input);
    Check::check(body, skipped);
    const pugi::xml_parse_result r = doc_.load_buffer(body.data(), body.size(), kParseOptions);
    if (!r) throw DecodeError(Check::library, r.description(), skipped + r.offset);
    check_single_root(skipped);
    return skipped;
  }
  // pugixml is lenient at the top level: it keeps text and a second element
  // after the root. XML allows one root and only whitespace, comments and PIs.
  void check_single_root(long long skipped) const {
    int elements = 0;
    for (pugi::xml_node n : doc_.children()) {
      const auto type = n.type();
      if (type == pugi::node_element && ++elements == 1) continue;
      if (type == pugi::node_pcdata &&
          std::string_view(n.value()).find_first_not_of(" \t\r\n") == std::string_view::npos)
        continue;
      if (type == pugi::node_comment || type == pugi::node_pi || type == pugi::node_declaration ||
          type == pugi::node_doctype)
        continue;
      throw DecodeError(Check::library, "content after the document element",
                        skipped + n.offset_debug());
    }
    if (elements == 0) throw DecodeError(Check::library, "no document element", skipped);
  }
  pugi::xml_document doc_;
  PugiPolicy policy_;
};

template <class Shape>
using PugixmlUtf8Decoder = PugixmlDomDecoder<Shape, Utf8Checked>;

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, pugixml, wb::xml::PugixmlEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, pugixml, wb::xml::PugixmlEncoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, pugixml, wb::xml::PugixmlEncoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, pugixml_dom, wb::xml::PugixmlDomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, pugixml_dom, wb::xml::PugixmlDomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, pugixml_dom, wb::xml::PugixmlDomDecoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, pugixml_dom_utf8, wb::xml::PugixmlUtf8Decoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, pugixml_dom_utf8, wb::xml::PugixmlUtf8Decoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, pugixml_dom_utf8, wb::xml::PugixmlUtf8Decoder<wb::xml::Soap>)
