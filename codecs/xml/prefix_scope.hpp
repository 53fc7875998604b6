// For DOM libraries without namespace support (pugixml, RapidXML): element and
// attribute names are the raw qualified names. PrefixScope<Dom> is a walk_dom
// policy (binder.hpp) that keeps the in-scope xmlns declarations itself and
// resolves prefixes to URIs, so those decoders feed the binder the same
// (uri, local) names as the namespace-aware libraries. One copy of the
// scoping rules, whatever the DOM.
//
// Dom, the library's node access, provides:
//   Node; static is_element(Node), is_text(Node), first_child(Node),
//   next_sibling(Node), value(Node) (text); name(Node) (qualified name, a
//   std::string_view or a NUL-terminated const char*);
//   template <class F> for_each_attribute(Node, F f)  // f(qname, value), each a
//       std::string_view or a NUL-terminated const char* (qname), or any type
//       that converts to std::string_view (value: read only if used);
//   AttributeName, AttributeValue: the types for_each_attribute passes;
//   static same(Node, Node): the same node;
//   offset(Node): byte offset of the node in the parsed buffer, < 0 unknown;
//   static constexpr std::string_view kLibrary (the decoder's token);
//   optionally kCheapAttributes = true: reading the attributes again costs
//   no more than replaying them (RapidXML: a pointer walk, values lazy).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/xml/vocabulary.hpp"

namespace wb::xml {

// Element names resolved once, on entering the element.
struct QNames {
  std::string_view uri, local;
};

template <class Dom>
class PrefixScope : public Dom {
 public:
  using Node = typename Dom::Node;
  // base: bytes before the parsed buffer (a skipped BOM), for error offsets.
  void reset(long long base = 0) {
    bindings_.clear();
    depth_ = 0;
    base_ = base;
  }
  std::string_view local(Node n) const { return split(this->name(n)).second; }
  std::string_view uri(Node n) const { return resolve(split(this->name(n)).first, n); }
  // Opens n: binds its xmlns declarations and returns its resolved names,
  // so that walk_dom splits and resolves each element name once. One pass
  // over the attributes; a binding remembers its depth, so leave() pops
  // with one compare and elements without declarations cost no mark.
  QNames enter(Node n) {
    ++depth_;
    if constexpr (kReplay) {
      seen_node_ = n;
      seen_count_ = 0;
    }
    this->for_each_attribute(n, [&](auto qname, auto value) {
      if constexpr (kReplay) {
        if (seen_count_ < kSeen) seen_[seen_count_] = {qname, value};
        ++seen_count_;
      }
      if (!is_xmlns(qname)) return;
      const std::string_view name(qname);
      bindings_.push_back(
          {name.size() == 5 ? std::string_view() : name.substr(6), known_uri(value), depth_});
    });
    const auto [prefix, local] = split(this->name(n));
    return {resolve(prefix, n), local};
  }
  void leave() {
    while (!bindings_.empty() && bindings_.back().depth == depth_) bindings_.pop_back();
    --depth_;
  }
  // Called right after enter(n), it replays the attributes enter() read
  // rather than ask the DOM for them again (calls into pugixml), unless the
  // Dom's are cheap to read again (kCheapAttributes).
  // keep(local) first, if given: the attributes it refuses are passed over
  // without resolving their prefix or reading their value.
  template <class F, class Keep = bool (*)(std::string_view)>
  void attributes(
      Node n, F f, Keep keep = [](std::string_view) { return true; }) const {
    const auto each = [&](auto qname, auto value) {
      if (is_xmlns(qname)) return;
      const auto [prefix, local] = split(qname);
      if (!keep(local)) return;
      // An unprefixed attribute is in no namespace, whatever the default is.
      f(prefix.empty() ? std::string_view() : resolve(prefix, n), local, std::string_view(value));
    };
    if (!kReplay || !Dom::same(seen_node_, n) || seen_count_ > kSeen)
      return this->for_each_attribute(n, each);
    for (int i = 0; i < seen_count_; ++i) each(seen_[i].name, seen_[i].value);
  }

 private:
  struct Binding {
    std::string_view prefix, uri;
    int depth;
  };
  // "xmlns" or "xmlns:p". A Dom may pass NUL-terminated names (no strlen
  // for the attributes that are not declarations: most of them).
  static bool is_xmlns(std::string_view q) {
    return q.size() >= 5 && q.substr(0, 5) == "xmlns" && (q.size() == 5 || q[5] == ':');
  }
  static bool is_xmlns(const char* q) {
    return q[0] == 'x' && q[1] == 'm' && q[2] == 'l' && q[3] == 'n' && q[4] == 's' &&
           (q[5] == '\0' || q[5] == ':');
  }
  // A NUL-terminated name. Prefixes are a letter or two: look for the colon
  // there first, then measure the local name with one pass (no strlen and
  // memchr calls for names of a dozen characters).
  static std::pair<std::string_view, std::string_view> split(const char* qname) {
    const char* colon = nullptr;
    if (qname[0] != '\0' && qname[1] == ':')
      colon = qname + 1;
    else if (qname[0] != '\0' && qname[1] != '\0' && qname[2] == ':')
      colon = qname + 2;
    if (colon) {
      const char* p = colon + 1;
      while (*p) ++p;
      return {{qname, static_cast<std::size_t>(colon - qname)},
              {colon + 1, static_cast<std::size_t>(p - colon - 1)}};
    }
    const char* p = qname;
    for (; *p; ++p)
      if (*p == ':' && !colon) colon = p;
    if (!colon) return {{}, {qname, static_cast<std::size_t>(p - qname)}};
    return {{qname, static_cast<std::size_t>(colon - qname)},
            {colon + 1, static_cast<std::size_t>(p - colon - 1)}};
  }
  // A measured name (RapidXML): a loop, which meets a prefix's colon in a
  // step or two, rather than a call to memchr.
  static std::pair<std::string_view, std::string_view> split(std::string_view qname) {
    std::size_t colon = 0;
    while (colon < qname.size() && qname[colon] != ':') ++colon;
    if (colon == qname.size()) return {{}, qname};
    return {qname.substr(0, colon), qname.substr(colon + 1)};
  }
  std::string_view resolve(std::string_view prefix, Node n) const {
    // Prefixes are a letter or two: same_name, not a call to memcmp.
    if (same_name(prefix, "xml")) return kXmlNs;
    for (auto b = bindings_.rbegin(); b != bindings_.rend(); ++b)
      if (same_name(b->prefix, prefix)) return b->uri;
    if (prefix.empty()) return {};  // no default namespace in scope
    undeclared(prefix, n);
  }
  // Out of line, so that resolve() stays a small function.
  [[noreturn, gnu::noinline, gnu::cold]] void undeclared(std::string_view prefix, Node n) const {
    const long long at = this->offset(n);
    throw DecodeError(Dom::kLibrary, "undeclared namespace prefix '" + std::string(prefix) + "'",
                      at < 0 ? -1 : base_ + at);
  }
  struct Seen {
    typename Dom::AttributeName name{};
    typename Dom::AttributeValue value{};
  };
  static constexpr int kSeen = 8;  // more attributes (rare): read them again
  static constexpr bool kReplay = !requires { requires Dom::kCheapAttributes; };
  std::vector<Binding> bindings_;
  int depth_ = 0;
  Node seen_node_{};  // the element enter() last read the attributes of
  int seen_count_ = 0;
  Seen seen_[kSeen];
  long long base_ = 0;
};

}  // namespace wb::xml
