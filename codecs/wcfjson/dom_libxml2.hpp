// The infoset in a libxml2 tree (xmlNewDocNode / xmlNewProp / text nodes),
// built through the Sink interface and walked with a walk_dom policy.
#pragma once

#include <libxml/tree.h>

#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "codecs/xml/adapters/libxml2_common.hpp"

namespace wb::wcfjson {

// The walk_dom policy is the DOM decoder's (libxml2::TreePolicy).
class Libxml2Infoset : public xml::libxml2::TreePolicy {
 public:
  static constexpr std::string_view kName = "libxml2";

  Libxml2Infoset() { xml::libxml2::prepare_thread(); }
  // libxml2 has no document reset: a new document per payload.
  void reset() {
    doc_.reset(xmlNewDoc(BAD_CAST "1.0"));
    if (!doc_) throw std::bad_alloc();
    node_ = nullptr;
  }
  Node root() const { return xmlDocGetRootElement(doc_.get()); }

  // Sink
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    Node n = xmlNewDocNode(doc_.get(), nullptr, z(local), nullptr);
    if (!n) throw std::bad_alloc();
    if (node_)
      xmlAddChild(node_, n);
    else
      xmlDocSetRootElement(doc_.get(), n);
    node_ = n;
    prefixed_ = !prefix.empty();
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    value_.assign(uri);
    xmlNsPtr ns = xmlNewNs(node_, BAD_CAST value_.c_str(), z(prefix));
    if (prefixed_) xmlSetNs(node_, ns);  // a:item is in the namespace it declares
  }
  void attribute(std::string_view, std::string_view local, std::string_view,
                 std::string_view value) {
    value_.assign(value);
    xmlNewProp(node_, z(local), BAD_CAST value_.c_str());  // literal value, no entity parsing
  }
  void text(std::string_view v) {
    xmlAddChild(node_, xmlNewDocTextLen(doc_.get(), BAD_CAST v.data(), static_cast<int>(v.size())));
  }
  void end() {
    node_ = node_->parent && node_->parent->type == XML_ELEMENT_NODE ? node_->parent : nullptr;
  }

 private:
  const xmlChar* z(std::string_view v) {
    name_.assign(v);
    return BAD_CAST name_.c_str();
  }
  struct FreeDoc {
    void operator()(xmlDocPtr d) const { xmlFreeDoc(d); }
  };
  std::unique_ptr<xmlDoc, FreeDoc> doc_;
  Node node_ = nullptr;
  bool prefixed_ = false;
  std::string name_, value_;
};

}  // namespace wb::wcfjson
