// SHA-256 of a payload file, for the result's context: it names a user's file
// by its content without the content itself. OpenSSL's libcrypto computes it
// (Debian's libssl-dev, which cpp-httplib's package brings too), outside the
// timed loops.
#pragma once

#include <string>
#include <string_view>

namespace wb::bench {

// The digest of bytes as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace wb::bench
