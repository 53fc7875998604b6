// Crafted hostile inputs for the binary formats of the map layout (msgpack,
// CBOR, BSON) and of the schema formats (Thrift, Avro): counts and lengths
// that claim 2^32 items or bytes, deep nesting, wrong types, invalid UTF-8,
// bytes after the end, plus one valid payload built the same way so that a
// builder mistake shows as a failed decode. Bytes are written by hand here,
// not by an encoder under test.
#pragma once

#include <string_view>
#include <vector>

#include "tests/hostile_fixtures.hpp"

namespace wb::test {

// Appends the crafted fixtures of format (none for a format this file does not
// know); binary_built (binary_fixtures.hpp) calls it beside its own.
void map_fixtures(std::string_view format, std::vector<Fixture>& out);

}  // namespace wb::test
