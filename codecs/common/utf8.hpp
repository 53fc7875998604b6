// A UTF-8 check for decoders whose library has none (pugixml): simdjson's
// validator over the whole input, the same check simdjson's own parsers make
// first, so that a decoder behind it rejects what the validating parsers
// reject, at a cost of a fraction of a millisecond per megabyte.
#pragma once

#include <cstddef>
#include <string_view>

namespace wb {

// The offset of the first byte that is not part of well-formed UTF-8 (the
// Unicode standard's table 3-7: no overlong forms, no surrogates, nothing
// above U+10FFFF), or input.size() when all of it is. A byte-by-byte scan:
// for the error message, after the fast check has failed.
std::size_t first_invalid_utf8(std::string_view input);

// Throws DecodeError(library, ..., offset + first bad byte) unless input is
// well-formed UTF-8.
void check_utf8(std::string_view library, std::string_view input, long long offset = 0);

}  // namespace wb
