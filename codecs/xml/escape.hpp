// XML character escaping for the hand-written writer.
#pragma once

#include <string>
#include <string_view>

namespace wb::xml {

// Text content: & < > (and \r, which a parser would otherwise normalise away).
// Attribute values additionally escape the quote and \t \n.
inline void append_escaped(std::string& out, std::string_view v, bool attribute) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    const char* rep = nullptr;
    switch (c) {
      case '&':
        rep = "&amp;";
        break;
      case '<':
        rep = "&lt;";
        break;
      case '>':
        rep = "&gt;";
        break;
      case '\r':
        rep = "&#xD;";
        break;
      case '"':
        rep = attribute ? "&quot;" : nullptr;
        break;
      case '\n':
        rep = attribute ? "&#xA;" : nullptr;
        break;
      case '\t':
        rep = attribute ? "&#x9;" : nullptr;
        break;
      default:
        break;
    }
    if (!rep) continue;
    out.append(v.data() + run, i - run);
    out += rep;
    run = i + 1;
  }
  out.append(v.data() + run, v.size() - run);
}

}  // namespace wb::xml
