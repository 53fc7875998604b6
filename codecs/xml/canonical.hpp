// An XML decoder's canonical text (Decoder::canonical): the infoset the
// library parsed, written one way for every library, so that two libraries
// that read a document differently give different text.
//  - an element as <{uri}local ...>...</{uri}local> ("{uri}" left out for no
//    namespace): namespace URI and local name, never the prefix;
//  - its attributes sorted by URI and local name, namespace declarations
//    left out (they are in the names already), values escaped as C14N does
//    (xml::append_escaped);
//  - text as the library reported it, adjacent chunks joined (CDATA and
//    references resolved), white space kept: a library that drops some
//    shows it;
//  - a byte that is not part of well-formed UTF-8 as &#xDCnn; (a lone
//    surrogate, which no XML text can hold, so it reads as no real text);
//  - no comments, processing instructions or prolog.
// CanonicalXml speaks the binder's event protocol (binder.hpp): streaming
// adapters feed it as they feed a binder, DOM adapters through walk_dom.
#pragma once

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/common/utf8.hpp"
#include "codecs/xml/escape.hpp"

namespace wb::xml {

// Deeper documents are not compared: DOM walks recurse per level.
inline constexpr std::size_t kCanonicalDepth = 4096;

// append_escaped over well-formed UTF-8, &#xDCnn; for each other byte.
inline void append_canonical_text(std::string& out, std::string_view v, bool attribute) {
  while (true) {
    const std::size_t bad = first_invalid_utf8(v);
    append_escaped(out, v.substr(0, bad), attribute);
    if (bad == v.size()) return;
    char ref[16];
    std::snprintf(ref, sizeof ref, "&#xDC%02X;", static_cast<unsigned char>(v[bad]));
    out += ref;
    v.remove_prefix(bad + 1);
  }
}

class CanonicalXml {
 public:
  // Writes into out (cleared first).
  explicit CanonicalXml(std::string& out) : out_(out) { out_.clear(); }

  bool start(std::string_view uri, std::string_view local) {
    flush();
    if (open_.size() >= kCanonicalDepth)
      throw std::length_error("deeper than " + std::to_string(kCanonicalDepth) +
                              " levels: no canonical form");
    std::string name;
    if (!uri.empty()) (name += '{') += uri, name += '}';
    name += local;
    open_.push_back(std::move(name));
    tag_open_ = true;
    return true;
  }
  bool wants_attributes() const { return true; }
  bool may_use_attribute(std::string_view) const { return true; }
  bool wants_text() const { return true; }
  void attribute(std::string_view uri, std::string_view local, std::string_view value) {
    if (uri == "http://www.w3.org/2000/xmlns/" ||
        (uri.empty() && (local == "xmlns" || local.starts_with("xmlns:"))))
      return;
    std::string name;
    if (!uri.empty()) (name += '{') += uri, name += '}';
    name += local;
    attributes_.push_back({std::move(name), std::string(value)});
  }
  void text(std::string_view chunk) { text_.append(chunk); }
  void stable_text(std::string_view chunk) { text(chunk); }
  void end_stable() { end(); }  // the end of an element whose text was stable_text
  void end() {
    flush();
    (out_ += "</") += open_.back();
    out_ += '>';
    open_.pop_back();
  }
  void finish() { flush(); }

 private:
  // Writes the open start tag with its attributes, then the text so far.
  void flush() {
    if (tag_open_) {
      (out_ += '<') += open_.back();
      std::stable_sort(attributes_.begin(), attributes_.end());
      for (const auto& [name, value] : attributes_) {
        ((out_ += ' ') += name) += "=\"";
        append_canonical_text(out_, value, true);
        out_ += '"';
      }
      out_ += '>';
      attributes_.clear();
      tag_open_ = false;
    }
    if (!open_.empty()) append_canonical_text(out_, text_, false);
    text_.clear();
  }

  std::string& out_;
  std::vector<std::string> open_;  // the open elements' names
  std::vector<std::pair<std::string, std::string>> attributes_;
  std::string text_;
  bool tag_open_ = false;
};

}  // namespace wb::xml
