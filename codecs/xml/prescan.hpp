// A one-pass scan before parsers that bound neither nesting depth nor the
// bytes an internal entity expands to: Xerces (100,000 nested elements take
// minutes; its SecurityManager counts references, not bytes, and 3.2 cannot
// forbid a DOCTYPE on its SAX2/DOM parsers) and RapidXML (one C++ stack frame
// per nesting level, so deep input overflows the stack). SOAP 1.1 forbids DTDs
// and OData writers never emit one, so the scan rejects any DOCTYPE and
// nesting deeper than kMaxDepth before the parser sees the bytes (and, for
// RapidXML, bad characters: Characters below). Cost: one
// SIMD pass that marks the markup bytes (char_data.hpp's SpecialBytes, which
// the RapidXML decoder then reuses for its values) and a step per mark.
#pragma once

#include <string_view>

#include "codecs/xml/char_data.hpp"

namespace wb::xml {

inline constexpr int kMaxDepth = 10'000;

// What else the scan rejects, for a parser that checks no characters
// (RapidXML): what char_data() would reject in any text or attribute value,
// anywhere in the document (a bare '&', a reference to an undeclared entity
// or a non-character, a C0 control byte, '<' in an attribute value), so that
// the parse alone accepts only well-formed characters and values need
// char_data() only to be translated, when they are read.
enum class Characters { parser_checks, scan_checks };

// Throws DecodeError(library, ..., base + offset in input). A truncated tag
// is left to the parser to report. marks: scanned from input here, and left
// for the caller.
void reject_unbounded(std::string_view library, std::string_view input, SpecialBytes& marks,
                      long long base = 0, Characters characters = Characters::parser_checks);

}  // namespace wb::xml
