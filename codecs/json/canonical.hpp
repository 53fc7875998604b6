// A JSON decoder's canonical text (Decoder::canonical): the value the library
// parsed, written one way for every library so that two libraries that read
// a document differently give different text, and the same text otherwise.
//  - objects: members sorted by name (as written), stable, so that duplicate names
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

// Appends to one string as the events come; an object whose members came
// out of order is put in order in place when it closes (its members' extents
// are known by then), so a document that needs no reordering costs one pass.
class CanonicalJson {
 public:
  // Writes into out (cleared first).
  explicit CanonicalJson(std::string& out) : out_(out) { out_.clear(); }

  void start_object() { open(true); }
  void end_object() {
    std::vector<Member>& members = members_[open_.size() - 1];
    if (!members.empty()) sort_members(members);
    members.clear();
    open_.pop_back();
    out_ += '}';
  }
  void start_array() { open(false); }
  void end_array() {
    open_.pop_back();
    out_ += ']';
  }
  void key(std::string_view k) {
    if (open_.back().count++) out_ += ',';
    const std::size_t begin = out_.size();
    append_canonical_string(out_, k);
    members_[open_.size() - 1].push_back({begin, out_.size()});
    out_ += ':';
  }
  void string(std::string_view v) { append_canonical_string(next(), v); }
  void integer(int64_t v) { next() += std::to_string(v); }
  void unsigned_integer(uint64_t v) { next() += std::to_string(v); }
  void number(double v) { append_canonical_double(next(), v); }
  void boolean(bool v) { next() += v ? "true" : "false"; }
  void null() { next() += "null"; }
  void int32(int32_t v) { integer(v); }  // write_feed's (tests make a reference with it)
  // Boost.JSON's events (boostjson_events.hpp): the value as Boost read it.
  void int64(int64_t v, std::string_view) { integer(v); }
  void uint64(uint64_t v, std::string_view) { unsigned_integer(v); }
  void floating(double v, std::string_view) { number(v); }

 private:
  struct Open {
    bool object;
    std::size_t count = 0;  // values (arrays) or members (objects) so far
  };
  // A member of an open object: where its quoted name starts and ends in
  // out_ (its value runs up to the next member's comma, or the end).
  struct Member {
    std::size_t begin, name_end;
  };

  void open(bool object) {
    if (open_.size() >= kCanonicalDepth)
      throw std::length_error("deeper than " + std::to_string(kCanonicalDepth) +
                              " levels: no canonical form");
    next() += object ? '{' : '[';
    open_.push_back({object});
    if (members_.size() < open_.size()) members_.resize(open_.size());
  }
  // out_, after the comma a value in an array needs.
  std::string& next() {
    if (!open_.empty() && !open_.back().object && open_.back().count++) out_ += ',';
    return out_;
  }
  // The name as written, without its quotes.
  std::string_view name(const Member& m) const {
    return std::string_view(out_).substr(m.begin + 1, m.name_end - m.begin - 2);
  }
  void sort_members(const std::vector<Member>& members) {
    const auto by_name = [&](const Member& a, const Member& b) { return name(a) < name(b); };
    if (std::is_sorted(members.begin(), members.end(), by_name)) return;
    const std::size_t begin = members.front().begin;
    std::vector<std::string_view> texts;  // each member's "name":value
    for (std::size_t i = 0; i < members.size(); ++i) {
      const std::size_t end = i + 1 < members.size() ? members[i + 1].begin - 1 : out_.size();
      texts.push_back(std::string_view(out_).substr(members[i].begin, end - members[i].begin));
    }
    std::vector<std::size_t> order(members.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return by_name(members[a], members[b]); });
    std::string sorted;
    sorted.reserve(out_.size() - begin);
    for (std::size_t i : order) {
      if (!sorted.empty()) sorted += ',';
      sorted += texts[i];
    }
    out_.replace(begin, std::string::npos, sorted);
  }

  std::string& out_;
  std::vector<Open> open_;
  std::vector<std::vector<Member>> members_;  // per depth, reused
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
