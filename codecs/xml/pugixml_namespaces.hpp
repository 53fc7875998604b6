// pugixml has no namespace support: element and attribute names are the raw
// qualified names. PugiPolicy is a walk_dom policy (binder.hpp) that keeps the
// in-scope xmlns declarations itself and resolves prefixes to URIs, so the
// pugixml decoder feeds the binder the same (uri, local) names as the
// namespace-aware libraries. Shared with tests that inspect the real corpus.
#pragma once

#include <pugixml.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/xml/vocabulary.hpp"

namespace wb::xml {

inline constexpr std::string_view kPugixmlDom = "pugixml-dom";

// walk_dom policy with a namespace scope: (prefix, uri) views into the DOM's
// own strings, pushed per element by enter() and popped by leave().
class PugiPolicy {
 public:
  using Node = pugi::xml_node;
  // base: bytes before the parsed buffer (a skipped BOM), for error offsets.
  void reset(long long base = 0) {
    bindings_.clear();
    marks_.clear();
    base_ = base;
  }
  static bool is_element(Node n) { return n.type() == pugi::node_element; }
  static bool is_text(Node n) {
    return n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata;
  }
  static Node first_child(Node n) { return n.first_child(); }
  static Node next_sibling(Node n) { return n.next_sibling(); }
  static std::string_view value(Node n) { return n.value(); }
  static std::string_view local(Node n) { return split(n.name()).second; }
  std::string_view uri(Node n) const { return resolve(split(n.name()).first, n); }
  void enter(Node n) {
    marks_.push_back(bindings_.size());
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
      const auto [prefix, local] = split(a.name());
      if (prefix.empty() && local == "xmlns")
        bindings_.emplace_back(std::string_view(), a.value());
      else if (prefix == "xmlns")
        bindings_.emplace_back(local, a.value());
    }
  }
  void leave() {
    bindings_.resize(marks_.back());
    marks_.pop_back();
  }
  template <class F>
  void attributes(Node n, F f) const {
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
      const auto [prefix, local] = split(a.name());
      if (prefix == "xmlns" || (prefix.empty() && local == "xmlns")) continue;
      // An unprefixed attribute is in no namespace, whatever the default is.
      f(prefix.empty() ? std::string_view() : resolve(prefix, n), local, a.value());
    }
  }

 private:
  static std::pair<std::string_view, std::string_view> split(std::string_view qname) {
    const std::size_t colon = qname.find(':');
    if (colon == std::string_view::npos) return {{}, qname};
    return {qname.substr(0, colon), qname.substr(colon + 1)};
  }
  std::string_view resolve(std::string_view prefix, Node n) const {
    if (prefix == "xml") return kXmlNs;
    for (auto b = bindings_.rbegin(); b != bindings_.rend(); ++b)
      if (b->first == prefix) return b->second;
    if (prefix.empty()) return {};  // no default namespace in scope
    const ptrdiff_t at = n.offset_debug();
    throw DecodeError(kPugixmlDom, "undeclared namespace prefix '" + std::string(prefix) + "'",
                      at < 0 ? -1 : base_ + at);
  }
  std::vector<std::pair<std::string_view, std::string_view>> bindings_;
  std::vector<std::size_t> marks_;
  long long base_ = 0;
};

}  // namespace wb::xml
