#include "codecs/common/utf8.hpp"

#include <simdjson.h>

#include "codecs/codec.hpp"

namespace wb {

std::size_t first_invalid_utf8(std::string_view input) {
  const auto* s = reinterpret_cast<const unsigned char*>(input.data());
  const std::size_t n = input.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    // The lead byte gives the length and the range of the second byte.
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;   // overlong
      if (c == 0xED) high = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;   // overlong
      if (c == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (n - i < length || s[i + 1] < low || s[i + 1] > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    i += length;
  }
  return n;
}

void check_utf8(std::string_view library, std::string_view input, long long offset) {
  if (simdjson::validate_utf8(input.data(), input.size())) return;
  const std::size_t bad = first_invalid_utf8(input);
  throw DecodeError(library, "invalid UTF-8", offset + static_cast<long long>(bad));
}

}  // namespace wb
