// A one-pass scan before parsers that bound neither nesting depth nor the
// bytes an internal entity expands to: Xerces (100,000 nested elements take
// minutes; its SecurityManager counts references, not bytes, and 3.2 cannot
// forbid a DOCTYPE on its SAX2/DOM parsers) and RapidXML (one C++ stack frame
// per nesting level, so deep input overflows the stack). SOAP 1.1 forbids DTDs
// and OData writers never emit one, so the scan rejects any DOCTYPE and
// nesting deeper than kMaxDepth before the parser sees the bytes. Cost: one
// SIMD pass that marks the markup bytes (char_data.hpp's SpecialBytes, which
// the RapidXML decoder then reuses for its values) and a step per mark.
#pragma once

#include <string_view>

#include "codecs/xml/char_data.hpp"

namespace wb::xml {

inline constexpr int kMaxDepth = 10'000;

// Throws DecodeError(library, ..., base + offset in input). A truncated tag
// is left to the parser to report. marks: scanned from input here, and left
// for the caller.
void reject_unbounded(std::string_view library, std::string_view input, SpecialBytes& marks,
                      long long base = 0);

}  // namespace wb::xml
