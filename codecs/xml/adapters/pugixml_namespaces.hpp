// pugixml has no namespace support: PugiPolicy is the shared prefix-resolving
// walk_dom policy (prefix_scope.hpp) over pugixml's nodes. Shared with tests
// that inspect the real corpus.
#pragma once

#include <pugixml.hpp>

#include <string_view>

#include "codecs/tokens.hpp"
#include "codecs/xml/prefix_scope.hpp"

namespace wb::xml {

inline constexpr std::string_view kPugixmlDom = token::decoder_atom_pugixml_dom;

// pugixml's accessors are all out of line (calls into the library):
// a node that tests its own pointer (pugixml's protected member) saves one
// call per node and per sibling step of the walk.
class PugiNode : public pugi::xml_node {
 public:
  PugiNode() = default;
  PugiNode(pugi::xml_node n) : pugi::xml_node(n) {}  // NOLINT: implicit, as walk_dom's argument
  explicit operator bool() const { return _root != nullptr; }
  bool is(const PugiNode& other) const { return _root == other._root; }
};

struct PugiDom {
  using Node = PugiNode;
  static constexpr std::string_view kLibrary = kPugixmlDom;
  static bool is_element(Node n) { return n.type() == pugi::node_element; }
  static bool is_text(Node n) {
    const pugi::xml_node_type type = n.type();
    return type == pugi::node_pcdata || type == pugi::node_cdata;
  }
  static Node first_child(Node n) { return n.first_child(); }
  static Node next_sibling(Node n) { return n.next_sibling(); }
  static std::string_view value(Node n) { return n.value(); }
  static const char* name(Node n) { return n.name(); }
  // The value of an attribute, fetched only when PrefixScope reads it (the
  // xmlns declarations and the attributes the binder wants): most go unread.
  struct Value {
    pugi::xml_attribute a;
    operator std::string_view() const { return a.value(); }  // NOLINT: implicit on purpose
  };
  // pugixml's names and values are NUL-terminated: PrefixScope measures only
  // those it uses.
  using AttributeName = const char*;
  using AttributeValue = Value;
  template <class F>
  static void for_each_attribute(Node n, F f) {
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute())
      f(a.name(), Value{a});
  }
  static bool same(Node a, Node b) { return a.is(b); }
  static long long offset(Node n) { return n.offset_debug(); }
};

using PugiPolicy = PrefixScope<PugiDom>;

}  // namespace wb::xml
