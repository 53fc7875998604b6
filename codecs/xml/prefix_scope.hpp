// For DOM libraries without namespace support (pugixml, RapidXML): element and
// attribute names are the raw qualified names. PrefixScope<Dom> is a walk_dom
// policy (binder.hpp) that keeps the in-scope xmlns declarations itself and
// resolves prefixes to URIs, so those decoders feed the binder the same
// (uri, local) names as the namespace-aware libraries. One copy of the
// scoping rules, whatever the DOM.
//
// Dom, the library's node access, provides:
//   Node; static is_element(Node), is_text(Node), first_child(Node),
//   next_sibling(Node), value(Node) (text); name(Node) (qualified name);
//   template <class F> for_each_attribute(Node, F f)  // f(qname, value)
//   offset(Node): byte offset of the node in the parsed buffer, < 0 unknown;
//   static constexpr std::string_view kLibrary (the decoder's token).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/xml/vocabulary.hpp"

namespace wb::xml {

template <class Dom>
class PrefixScope : public Dom {
 public:
  using Node = typename Dom::Node;
  // base: bytes before the parsed buffer (a skipped BOM), for error offsets.
  void reset(long long base = 0) {
    bindings_.clear();
    marks_.clear();
    base_ = base;
  }
  std::string_view local(Node n) const { return split(this->name(n)).second; }
  std::string_view uri(Node n) const { return resolve(split(this->name(n)).first, n); }
  void enter(Node n) {
    marks_.push_back(bindings_.size());
    this->for_each_attribute(n, [&](std::string_view qname, std::string_view value) {
      const auto [prefix, local] = split(qname);
      if (prefix.empty() && local == "xmlns")
        bindings_.emplace_back(std::string_view(), value);
      else if (prefix == "xmlns")
        bindings_.emplace_back(local, value);
    });
  }
  void leave() {
    bindings_.resize(marks_.back());
    marks_.pop_back();
  }
  template <class F>
  void attributes(Node n, F f) const {
    this->for_each_attribute(n, [&](std::string_view qname, std::string_view value) {
      const auto [prefix, local] = split(qname);
      if (prefix == "xmlns" || (prefix.empty() && local == "xmlns")) return;
      // An unprefixed attribute is in no namespace, whatever the default is.
      f(prefix.empty() ? std::string_view() : resolve(prefix, n), local, value);
    });
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
    const long long at = this->offset(n);
    throw DecodeError(Dom::kLibrary, "undeclared namespace prefix '" + std::string(prefix) + "'",
                      at < 0 ? -1 : base_ + at);
  }
  std::vector<std::pair<std::string_view, std::string_view>> bindings_;
  std::vector<std::size_t> marks_;
  long long base_ = 0;
};

}  // namespace wb::xml
