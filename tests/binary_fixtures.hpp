// The binary formats' hostile fixtures, crafted byte by byte: length and
// count fields that claim 2^32 bytes or elements, negative and overlong
// varints, nesting as deep as the format allows, shared offsets that make a
// verifier or reader do more work than the payload's size, invalid UTF-8,
// wrong wire types. Each format has its own builder (a format without one
// gets the generic fixtures only); each payload that must decode is built
// the same way as its hostile variants, so the layout they damage is known
// to be right. hostile_test.cpp runs them like every other fixture.
#pragma once

#include <string_view>
#include <vector>

#include "tests/hostile_fixtures.hpp"

namespace wb::test {

// Every crafted fixture of format (a binary format) into out.
void binary_built(std::string_view format, std::vector<Fixture>& out);

}  // namespace wb::test
