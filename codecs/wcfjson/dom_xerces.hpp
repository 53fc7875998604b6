// The infoset in a Xerces-C DOMDocument (createElementNS with no namespace,
// setAttributeNS, text nodes), built through the Sink interface and walked
// with a walk_dom policy whose nodes carry the UTF-8 buffers (Xerces is UTF-16).
#pragma once

#include <xercesc/dom/DOM.hpp>

#include <memory>
#include <string_view>

#include "codecs/xml/adapters/xerces_common.hpp"

namespace wb::wcfjson {

class XercesInfoset {
 public:
  struct Node {
    const xercesc::DOMNode* node;
    xml::xerces::Utf8Views* utf8;
    explicit operator bool() const { return node != nullptr; }
  };
  static constexpr std::string_view kName = "xerces";

  XercesInfoset() : impl_(xercesc::DOMImplementation::getImplementation()) {}
  // A Xerces document cannot be reset cheaply: a new one per payload.
  void reset() {
    doc_.reset(impl_->createDocument());
    open_ = doc_.get();
    utf8_.uri.clear();
  }
  Node root() { return {doc_->getDocumentElement(), &utf8_}; }

  // Sink
  void start(std::string_view prefix, std::string_view local, std::string_view ns) {
    open_ = open_->appendChild(
        doc_->createElementNS(prefix.empty() ? nullptr : uri_(ns), name_.qname(prefix, local)));
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    element().setAttributeNS(u"http://www.w3.org/2000/xmlns/", name_.qname("xmlns", prefix),
                             value_(uri));
  }
  void attribute(std::string_view, std::string_view local, std::string_view,
                 std::string_view value) {
    element().setAttributeNS(nullptr, name_(local), value_(value));
  }
  void text(std::string_view v) { open_->appendChild(doc_->createTextNode(value_(v))); }
  void end() { open_ = open_->getParentNode(); }

  // walk_dom policy
  static bool is_element(Node n) { return n.node->getNodeType() == xercesc::DOMNode::ELEMENT_NODE; }
  static bool is_text(Node n) { return n.node->getNodeType() == xercesc::DOMNode::TEXT_NODE; }
  static Node first_child(Node n) { return {n.node->getFirstChild(), n.utf8}; }
  static Node next_sibling(Node n) { return {n.node->getNextSibling(), n.utf8}; }
  static std::string_view uri(Node n) { return n.utf8->uri(n.node->getNamespaceURI()); }
  static std::string_view local(Node n) { return n.utf8->local(n.node->getLocalName()); }
  static std::string_view value(Node n) {
    const auto* text = static_cast<const xercesc::DOMCharacterData*>(n.node);
    return n.utf8->value(text->getData(), text->getLength());
  }
  template <class F>
  static void attributes(Node n, F f) {
    const xercesc::DOMNamedNodeMap* attrs = n.node->getAttributes();
    for (XMLSize_t i = 0, count = attrs->getLength(); i < count; ++i) {
      const auto* a = static_cast<const xercesc::DOMAttr*>(attrs->item(i));
      if (a->getNamespaceURI()) continue;  // xmlns:a
      f(std::string_view(), n.utf8->local(a->getLocalName()), n.utf8->value(a->getValue()));
    }
  }

 private:
  struct Release {
    void operator()(xercesc::DOMDocument* d) const { d->release(); }
  };
  xercesc::DOMElement& element() { return *static_cast<xercesc::DOMElement*>(open_); }

  xml::xerces::Initialized init_;
  xercesc::DOMImplementation* impl_;
  std::unique_ptr<xercesc::DOMDocument, Release> doc_;
  xercesc::DOMNode* open_ = nullptr;
  xml::xerces::XmlChBuffer uri_, name_, value_;
  xml::xerces::Utf8Views utf8_;
};

}  // namespace wb::wcfjson
