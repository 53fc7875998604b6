// pugixml has no namespace support: PugiPolicy is the shared prefix-resolving
// walk_dom policy (prefix_scope.hpp) over pugixml's nodes. Shared with tests
// that inspect the real corpus.
#pragma once

#include <pugixml.hpp>

#include <string_view>

#include "codecs/xml/prefix_scope.hpp"

namespace wb::xml {

inline constexpr std::string_view kPugixmlDom = "pugixml-dom";

struct PugiDom {
  using Node = pugi::xml_node;
  static constexpr std::string_view kLibrary = kPugixmlDom;
  static bool is_element(Node n) { return n.type() == pugi::node_element; }
  static bool is_text(Node n) {
    return n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata;
  }
  static Node first_child(Node n) { return n.first_child(); }
  static Node next_sibling(Node n) { return n.next_sibling(); }
  static std::string_view value(Node n) { return n.value(); }
  static const char* name(Node n) { return n.name(); }
  // pugixml's names and values are NUL-terminated: PrefixScope measures only
  // those it uses (attribute values mostly go unread).
  template <class F>
  static void for_each_attribute(Node n, F f) {
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute())
      f(a.name(), a.value());
  }
  static long long offset(Node n) { return n.offset_debug(); }
};

using PugiPolicy = PrefixScope<PugiDom>;

}  // namespace wb::xml
