// nlohmann/json errors as DecodeError, for both nlohmann decoders.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

#include "codecs/codec.hpp"

namespace wb::json {

// nlohmann reports how many characters it had read (the offending one
// included); bom is what was skipped before the parser's input.
[[noreturn]] inline void throw_nlohmann_error(std::string_view library,
                                              const nlohmann::json::exception& e,
                                              std::size_t chars_read, std::size_t bom) {
  const std::size_t at = chars_read == 0 ? 0 : chars_read - 1;
  throw DecodeError(library, e.what(), static_cast<long long>(at + bom));
}

// nlohmann's lexer takes a NUL byte for the end of the input, so "{...}\0x"
// would pass. A raw NUL is never valid JSON text; one memchr is noise next to
// nlohmann's own parse.
inline void reject_nul(std::string_view library, std::string_view json, std::size_t bom) {
  if (const std::size_t at = json.find('\0'); at != std::string_view::npos)
    throw DecodeError(library, "a NUL byte in the JSON text", static_cast<long long>(at + bom));
}

}  // namespace wb::json
