// A JSON number read from its text, for parsers that hand numbers over as
// text (RapidJSON with kParseNumbersAsStringsFlag, Boost.JSON's number parts).
// The parser has already checked the grammar; this only converts, exactly:
// integers stay integers while int64/uint64 hold them, everything else is the
// correctly rounded double (std::from_chars).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "codecs/codec.hpp"
#include "generators/text.hpp"

namespace wb::json {

// An underflow (1e-400) reads as 0 or the nearest subnormal, as the
// libraries' own conversions give; an overflow (1e400) is rejected, as every
// other decoder here rejects it.
inline double exact_double(std::string_view library, std::string_view text) {
  if (const auto v = text::parse_double(text)) return *v;
  // Out of range (parse_double leaves those to the caller): strtod (C
  // locale) tells an underflow from an overflow. Rare, so the copy for its
  // NUL does not matter.
  const double v = std::strtod(std::string(text).c_str(), nullptr);
  if (std::isinf(v)) throw DecodeError(library, "a number beyond the double range");
  return v;
}

// Sink: integer(int64_t), unsigned_integer(uint64_t), number(double) —
// SaxBinderBase's number events.
template <class Sink>
void read_number(std::string_view library, std::string_view text, Sink& sink) {
  bool integer = true;  // a plain loop: find_first_of calls memchr per character
  for (const char c : text) integer &= c != '.' && c != 'e' && c != 'E';
  if (integer) {
    const char* const first = text.data();
    const char* const last = first + text.size();
    int64_t i = 0;
    if (auto r = std::from_chars(first, last, i); r.ec == std::errc() && r.ptr == last)
      return sink.integer(i);
    uint64_t u = 0;
    if (auto r = std::from_chars(first, last, u); r.ec == std::errc() && r.ptr == last)
      return sink.unsigned_integer(u);
    // Beyond 64 bits an integer can only be a double, as the parsers read it.
  }
  sink.number(exact_double(library, text));
}

}  // namespace wb::json
