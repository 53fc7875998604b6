// The infoset in a pugixml document: built through the Sink interface,
// walked with a walk_dom policy. pugixml has no namespaces; the only prefix an
// infoset has is the mapping's a:item (xmlns:a="item"), so that is resolved here.
#pragma once

#include <pugixml.hpp>

#include <string>
#include <string_view>

namespace wb::wcfjson {

class PugixmlInfoset {
 public:
  using Node = pugi::xml_node;
  static constexpr std::string_view kName = "pugixml";

  void reset() {
    doc_.reset();
    node_ = doc_;
  }
  Node root() const { return doc_.document_element(); }

  // Sink
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    name_.assign(prefix);
    if (!prefix.empty()) name_ += ':';
    name_ += local;
    node_ = node_.append_child(name_.c_str());
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    name_.assign("xmlns:").append(prefix);
    set(node_.append_attribute(name_.c_str()), uri);
  }
  void attribute(std::string_view, std::string_view local, std::string_view,
                 std::string_view value) {
    name_.assign(local);  // infoset attributes carry no prefix
    set(node_.append_attribute(name_.c_str()), value);
  }
  void text(std::string_view v) {
    node_.append_child(pugi::node_pcdata).set_value(v.data(), v.size());
  }
  void end() { node_ = node_.parent(); }

  // walk_dom policy
  static bool is_element(Node n) { return n.type() == pugi::node_element; }
  static bool is_text(Node n) { return n.type() == pugi::node_pcdata; }
  static Node first_child(Node n) { return n.first_child(); }
  static Node next_sibling(Node n) { return n.next_sibling(); }
  static std::string_view uri(Node n) { return mapped(n) ? "item" : ""; }
  static std::string_view local(Node n) {
    return mapped(n) ? std::string_view("item") : std::string_view(n.name());
  }
  static std::string_view value(Node n) { return n.value(); }
  template <class F>
  static void attributes(Node n, F f) {
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
      const std::string_view name = a.name();
      if (name.substr(0, 6) != "xmlns:") f(std::string_view(), name, std::string_view(a.value()));
    }
  }

 private:
  static bool mapped(Node n) { return std::string_view(n.name()) == "a:item"; }
  static void set(pugi::xml_attribute a, std::string_view v) { a.set_value(v.data(), v.size()); }

  pugi::xml_document doc_;
  Node node_;
  std::string name_;
};

}  // namespace wb::wcfjson
