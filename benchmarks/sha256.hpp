// SHA-256 (FIPS 180-4) of a payload file, for the result's context: it names
// a user's file by its content without the content itself. The project links
// no crypto library into the benchmarks, and one digest per file outside the
// timed loops needs no fast one.
#pragma once

#include <string>
#include <string_view>

namespace wb::bench {

// The digest of bytes as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace wb::bench
