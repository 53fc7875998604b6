// Checks that JSON decoders add where their library's parse leaves a gap
// that the other decoders close: a raw NUL byte taken for the end of the
// input, a number read as infinity.
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "codecs/codec.hpp"

namespace wb::json {

// nlohmann's and JsonCpp's lexers take a NUL byte for the end of the input,
// so "{...}\0x" would pass. A raw NUL is never valid JSON text; one memchr is
// noise next to those parses. bom: bytes skipped before json.
inline void reject_nul(std::string_view library, std::string_view json, std::size_t bom) {
  if (const std::size_t at = json.find('\0'); at != std::string_view::npos)
    throw DecodeError(library, "a NUL byte in the JSON text", static_cast<long long>(at + bom));
}

// Libraries that convert with strtod and keep its infinity for 1e400 (JsonCpp,
// json-c, cJSON, Poco): every other decoder here rejects such a number.
inline double finite_double(std::string_view library, double v) {
  if (!std::isfinite(v)) throw DecodeError(library, "a number beyond the double range");
  return v;
}

// A library's message cut to kMaxMessage characters: some quote the input
// they stopped on whole, a 5,000-digit number included.
inline std::string brief(std::string what) {
  constexpr std::size_t kMaxMessage = 160;
  if (what.size() > kMaxMessage)
    what = what.substr(0, kMaxMessage) + "... (" + std::to_string(what.size()) + " characters)";
  return what;
}

}  // namespace wb::json
