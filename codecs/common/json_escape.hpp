// JSON string escaping and number text shared by the hand-written writers.
#pragma once

#include <string>
#include <string_view>

#include "generators/text.hpp"

namespace wb::json {

// Appends "v" with the escapes RFC 8259 requires (quote, backslash, control
// characters); UTF-8 passes through as the other writers do.
inline void append_quoted(std::string& out, std::string_view v) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(v[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(v.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        out += "\\u00", out += kHex[c >> 4], out += kHex[c & 15];
    }
  }
  out.append(v.data() + run, v.size() - run);
  out += '"';
}

// Shortest round-trip text, with ".0" on whole numbers as the library
// writers (and ODataLib) do, so that every writer's doubles look alike.
inline void append_double(std::string& out, double v) {
  char buf[text::kMaxNumberChars + 2];
  char* end = text::write_double(buf, v);
  bool plain = true;
  for (char* p = buf; p != end; ++p) plain &= (*p == '-' || (*p >= '0' && *p <= '9'));
  if (plain) *end++ = '.', *end++ = '0';
  out.append(buf, end);
}

}  // namespace wb::json
