// Xerces-C DOM: XercesDOMParser (reused) builds the document, walk_dom binds
// it, resetDocumentPool() frees it: the library's documented idiom.
// The build, not the scan or our walk, is most of a decode: Xerces 3.2 links
// every node through dynamic_cast cross-casts (dom/impl/DOMCasts.hpp; with
// GCC's runtime, which compares type names with strcmp, over half of the
// instructions of a parse of atom/science/8100) and pools up to four names per
// element. Its SAX2 reader does neither.
#include <xercesc/dom/DOM.hpp>
#include <xercesc/parsers/XercesDOMParser.hpp>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/xerces_common.hpp"
#include "codecs/xml/binder.hpp"

namespace wb::xml {
namespace {

using namespace xercesc;
constexpr std::string_view kLibrary = token::decoder_atom_xerces_dom;

// walk_dom's policy. A node carries the decoder's UTF-8 buffers, since the
// DOM hands out UTF-16 and the binder takes UTF-8 views.
struct XercesPolicy {
  struct Node {
    const DOMNode* node;
    xerces::Utf8Views* utf8;
    explicit operator bool() const { return node != nullptr; }
  };
  static bool is_element(Node n) { return n.node->getNodeType() == DOMNode::ELEMENT_NODE; }
  static bool is_text(Node n) {
    const auto type = n.node->getNodeType();
    return type == DOMNode::TEXT_NODE || type == DOMNode::CDATA_SECTION_NODE;
  }
  static Node first_child(Node n) { return {n.node->getFirstChild(), n.utf8}; }
  static Node next_sibling(Node n) { return {n.node->getNextSibling(), n.utf8}; }
  static std::string_view uri(Node n) { return n.utf8->uri(n.node->getNamespaceURI()); }
  static std::string_view local(Node n) { return n.utf8->local(n.node->getLocalName()); }
  static std::string_view value(Node n) {
    const auto* text = static_cast<const DOMCharacterData*>(n.node);
    return n.utf8->value(text->getData(), text->getLength());
  }
  template <class F>
  static void attributes(Node n, F f) {
    const DOMNamedNodeMap* attrs = n.node->getAttributes();
    for (XMLSize_t i = 0, count = attrs->getLength(); i < count; ++i) {
      const auto* a = static_cast<const DOMAttr*>(attrs->item(i));
      f(n.utf8->uri(a->getNamespaceURI()), n.utf8->local(a->getLocalName()),
        attribute_value(a, *n.utf8));
    }
  }

 private:
  // The parser stores each attribute's value as one text child. Read from it
  // directly: DOMAttr::getValue reaches it through a dynamic_cast (Xerces
  // 3.2's DOMCasts) and drops its length. Any other shape goes through
  // getValue.
  static std::string_view attribute_value(const DOMAttr* a, xerces::Utf8Views& utf8) {
    const DOMNode* child = a->getFirstChild();
    if (child && child->getNodeType() == DOMNode::TEXT_NODE && !child->getNextSibling()) {
      const auto* text = static_cast<const DOMText*>(child);
      return utf8.value(text->getData(), text->getLength());
    }
    return utf8.value(a->getValue());
  }
};

template <Shape kShape>
class XercesDomDecoder : public DecoderFor<XercesDomDecoder<kShape>> {
 public:
  static constexpr bool kEntityRows = kShape == Shape::atom;
  XercesDomDecoder() {
    parser_.setDoNamespaces(true);
    parser_.setValidationScheme(XercesDOMParser::Val_Never);
    parser_.setLoadExternalDTD(false);
    parser_.setDisableDefaultEntityResolution(true);
    parser_.setCreateEntityReferenceNodes(false);  // references become text
    parser_.setSecurityManager(&xerces_.limit);
    parser_.setErrorHandler(&xerces_.errors);
  }

  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    Binder<T> binder(kShape, rows, this->page_out());
    walk(input, binder);
    binder.finish();
  }
  bool canonical(std::string_view input, std::string& out) final {
    CanonicalXml sink(out);
    walk(input, sink);
    sink.finish();
    return true;
  }
  // The document element's name length.
  std::size_t parse_only(std::string_view input) final {
    std::size_t figure = 0;
    with_document(input, [&](const DOMDocument* doc) {
      figure = XMLString::stringLen(doc->getDocumentElement()->getTagName());
    });
    return figure;
  }

 private:
  template <class B>
  void walk(std::string_view input, B& sink) {
    with_document(input, [&](const DOMDocument* doc) {
      xerces_.utf8.uri.clear();
      walk_dom<XercesPolicy>(XercesPolicy::Node{doc->getDocumentElement(), &xerces_.utf8}, sink);
    });
  }
  // The document lives in the parser's pool until use() returns, then is
  // freed, on errors too.
  template <class Use>
  void with_document(std::string_view input, Use&& use) {
    struct FreeDocument {
      XercesDOMParser& parser;
      ~FreeDocument() { parser.resetDocumentPool(); }
    } free_document{parser_};
    xerces_.parse(kLibrary, input, [&](const InputSource& in) { parser_.parse(in); });
    use(parser_.getDocument());
  }

  xerces::DecoderParts xerces_;  // first: Xerces is initialised before the parser
  XercesDOMParser parser_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_DECODER(atom, xerces_dom, wb::xml::XercesDomDecoder<wb::xml::Shape::atom>)
WB_DEFINE_DECODER(atom_v2, xerces_dom, wb::xml::XercesDomDecoder<wb::xml::Shape::atom>)
WB_DEFINE_DECODER(soap, xerces_dom, wb::xml::XercesDomDecoder<wb::xml::Shape::soap>)
