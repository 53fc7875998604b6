// A one-pass scan before parsers that bound neither nesting depth nor the
// bytes an internal entity expands to: Xerces (100,000 nested elements take
// minutes; its SecurityManager counts references, not bytes, and 3.2 cannot
// forbid a DOCTYPE on its SAX2/DOM parsers) and RapidXML (one C++ stack frame
// per nesting level, so deep input overflows the stack). SOAP 1.1 forbids DTDs
// and OData writers never emit one, so the scan rejects any DOCTYPE and
// nesting deeper than kMaxDepth before the parser sees the bytes. Cost: one
// memchr pass, under 2 % of a Xerces parse.
#pragma once

#include <string_view>

namespace wb::xml {

inline constexpr int kMaxDepth = 10'000;

// Throws DecodeError(library, ..., offset). A truncated tag ends the scan:
// the parser reports it.
void reject_unbounded(std::string_view library, std::string_view input);

}  // namespace wb::xml
