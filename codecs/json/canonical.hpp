// A JSON decoder's canonical text (Decoder::canonical): the value the library
// parsed, written one way for every library so that two libraries that read
// a document differently give different text, and the same text otherwise.
//  - objects: members sorted by name (bytes), stable, so that duplicate names
//    stay as the library kept them (the last, the first, or every one, in
//    its order): member order is no part of a JSON value, and nlohmann's
//    std::map and JsonCpp sort theirs;
//  - strings: the bytes the library produced, quoted as json::append_quoted
//    does; a byte that is not part of well-formed UTF-8 (a lone surrogate
//    kept as its three bytes) as \xNN, so U+FFFD, '?' and a kept surrogate
//    each read as what they are;
//  - numbers as the library holds them: an integer in decimal, a double as
//    its shortest round-trip text with ".0" on whole ones, "inf", "-inf" and
//    "nan" spelled out (a library that reads 1e400 as infinity says so);
//  - true, false, null; no white space.
// CanonicalJson takes the events of any of our streaming readers (the
// SaxBinderBase names, and Boost.JSON's with the number text); a DOM adapter
// walks its tree into it with canonical_walk and its policy's scalar().
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/common/json_escape.hpp"
#include "codecs/common/utf8.hpp"

namespace wb::json {

// Deeper documents are not compared: DOM walks recurse per level, and a
// library that accepts a million levels must not crash the verdict's child.
inline constexpr std::size_t kCanonicalDepth = 4096;

// Appends v quoted, its ill-formed UTF-8 bytes as \xNN (not a JSON escape:
// the backslash of the text itself is written \\, so the two never mix).
inline void append_canonical_string(std::string& out, std::string_view v) {
  out += '"';
  std::string quoted;
  while (true) {
    const std::size_t bad = first_invalid_utf8(v);
    quoted.clear();
    append_quoted(quoted, v.substr(0, bad));
    out.append(quoted, 1, quoted.size() - 2);
    if (bad == v.size()) break;
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(v[bad]));
    out += hex;
    v.remove_prefix(bad + 1);
  }
  out += '"';
}

inline void append_canonical_double(std::string& out, double v) {
  if (std::isnan(v))
    out += "nan";
  else if (std::isinf(v))
    out += v < 0 ? "-inf" : "inf";
  else
    append_double(out, v);
}

class CanonicalJson {
 public:
  // Writes into out (cleared first).
  explicit CanonicalJson(std::string& out) : out_(out) { out_.clear(); }

  void start_object() { open(true); }
  void end_object() {
    Open top = std::move(open_.back());
    open_.pop_back();
    std::stable_sort(top.members.begin(), top.members.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string& text = slot();
    text += '{';
    for (std::size_t i = 0; i < top.members.size(); ++i) {
      if (i) text += ',';
      append_canonical_string(text, top.members[i].first);
      text += ':';
      text += top.members[i].second;
    }
    text += '}';
  }
  void start_array() { open(false); }
  void end_array() {
    std::string text = std::move(open_.back().text);
    open_.pop_back();
    text += ']';
    slot() += text;
  }
  void key(std::string_view k) { open_.back().key.assign(k); }
  void string(std::string_view v) { append_canonical_string(slot(), v); }
  void integer(int64_t v) { slot() += std::to_string(v); }
  void unsigned_integer(uint64_t v) { slot() += std::to_string(v); }
  void number(double v) { append_canonical_double(slot(), v); }
  void boolean(bool v) { slot() += v ? "true" : "false"; }
  void null() { slot() += "null"; }
  // Boost.JSON's events (boostjson_events.hpp): the value as Boost read it.
  void int64(int64_t v, std::string_view) { integer(v); }
  void uint64(uint64_t v, std::string_view) { unsigned_integer(v); }
  void floating(double v, std::string_view) { number(v); }

 private:
  struct Open {
    bool object;
    std::string text;  // an array's text so far
    std::size_t count = 0;
    std::string key;  // an object's pending member name
    std::vector<std::pair<std::string, std::string>> members;
  };
  void open(bool object) {
    if (open_.size() >= kCanonicalDepth)
      throw std::length_error("deeper than " + std::to_string(kCanonicalDepth) +
                              " levels: no canonical form");
    open_.push_back({object, object ? "" : "[", 0, {}, {}});
  }
  // Where the next value's text goes.
  std::string& slot() {
    if (open_.empty()) return out_;
    Open& top = open_.back();
    if (top.object) return top.members.emplace_back(std::move(top.key), std::string()).second;
    if (top.count++) top.text += ',';
    return top.text;
  }

  std::string& out_;
  std::vector<Open> open_;
};

// Walks a DOM into sink through a DomBinder policy (dom_binder.hpp) that also
// has `template <class Sink> static void scalar(Value, Sink&)`: the value's
// event as the library holds it.
template <class Dom, class Sink>
void canonical_walk(typename Dom::Value v, Sink& sink) {
  if (Dom::is_object(v)) {
    sink.start_object();
    Dom::members(v, [&](std::string_view key, auto&& child) {
      sink.key(key);
      canonical_walk<Dom>(child, sink);
    });
    sink.end_object();
  } else if (Dom::is_array(v)) {
    sink.start_array();
    Dom::elements(v, [&](auto&& child) { canonical_walk<Dom>(child, sink); });
    sink.end_array();
  } else {
    Dom::scalar(v, sink);
  }
}

// Decoder::canonical of a DOM adapter: root walked through Dom into out.
template <class Dom>
bool write_canonical(typename Dom::Value root, std::string& out) {
  CanonicalJson sink(out);
  canonical_walk<Dom>(root, sink);
  return true;
}

}  // namespace wb::json
