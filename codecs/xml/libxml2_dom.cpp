// libxml2 DOM: xmlCtxtReadMemory with one reused parser context builds the
// tree, walk_dom feeds the shared binder, xmlFreeDoc drops the tree.
#include <memory>

#include "codecs/registry.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/libxml2_common.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kLibrary = "libxml2-dom";

using libxml2::view;

// walk_dom's view of libxml2's tree. Entity reference nodes (only user
// entities of an internal DTD, which stay unexpanded) are neither: skipped.
struct Libxml2Policy {
  using Node = xmlNodePtr;
  static bool is_element(Node n) { return n->type == XML_ELEMENT_NODE; }
  static bool is_text(Node n) {
    return n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE;
  }
  static Node first_child(Node n) { return n->children; }
  static Node next_sibling(Node n) { return n->next; }
  static std::string_view uri(Node n) { return n->ns ? view(n->ns->href) : std::string_view(); }
  static std::string_view local(Node n) { return view(n->name); }
  static std::string_view value(Node n) { return view(n->content); }
  template <class F>
  static void attributes(Node n, F f) {
    for (xmlAttrPtr a = n->properties; a; a = a->next) {
      const std::string_view uri = a->ns ? view(a->ns->href) : std::string_view();
      const xmlNode* t = a->children;
      if (!t || (t->type == XML_TEXT_NODE && !t->next)) {  // the usual single text child
        f(uri, view(a->name), t ? view(t->content) : std::string_view());
        continue;
      }
      const std::unique_ptr<xmlChar, decltype(xmlFree)> joined(
          xmlNodeListGetString(n->doc, a->children, 1), xmlFree);
      f(uri, view(a->name), view(joined.get()));
    }
  }
};

template <class Shape>
class Libxml2DomDecoder : public DecoderFor<Libxml2DomDecoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kFormat == "atom";
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    const DocPtr doc = read(input);
    Binder<T> binder(shape_of(Shape::kFormat), rows);
    walk_dom<Libxml2Policy>(xmlDocGetRootElement(doc.get()), binder);
    binder.finish();
  }
  void parse_only(std::string_view input) final { read(input); }

 private:
  struct FreeDoc {
    void operator()(xmlDocPtr d) const { xmlFreeDoc(d); }
  };
  using DocPtr = std::unique_ptr<xmlDoc, FreeDoc>;

  DocPtr read(std::string_view input) {
    const std::string_view xml = skip_bom(input);
    const std::size_t bom = input.size() - xml.size();
    DocPtr doc(ctxt_.parse(kLibrary, xml));
    ctxt_.check(kLibrary, bom);
    if (!doc || !xmlDocGetRootElement(doc.get())) ctxt_.raise(kLibrary, bom);
    return doc;
  }

  libxml2::ReusedContext ctxt_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_DECODER(atom, libxml2_dom, wb::xml::Libxml2DomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, libxml2_dom, wb::xml::Libxml2DomDecoder<wb::xml::Soap>)
