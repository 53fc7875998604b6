// libcbor has no limits of its own: cbor_load allocates a definite array's
// or map's item table from the count in its head before reading a single
// element (an 8-byte head claiming 2^32 elements asks for 32 GiB), and frees
// a tree recursively (cbor_decref), so 100,000 nested arrays overflow the
// stack. check_cbor_shape walks the heads once, without recursion, before
// cbor_load sees the input: every count must fit in the bytes left (an
// element takes at least one byte) and nesting stops at kCborMaxDepth.
#pragma once

#include <cstddef>
#include <string_view>

namespace wb::cbor {

// The map layout nests 5 deep (feed, value, row, Contacts, contact).
inline constexpr std::size_t kCborMaxDepth = 64;

// Throws DecodeError(library, ..., offset) on a head that breaks those rules
// or a truncated head; everything else is left to libcbor.
void check_cbor_shape(std::string_view library, std::string_view input);

}  // namespace wb::cbor
