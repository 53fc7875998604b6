// What every XML decoder and router checks before its parser sees a payload:
// that the document is UTF-8 and that its prolog has no DOCTYPE.
//
// Why here and not in each parser's options: the parsers disagree. Given a
// DTD, libxml2 and expat drop an external entity's reference from the text,
// pugixml keeps "&ext;" as text and libxml2's SAX2 reports an undefined
// entity. The pre-scan that refuses the DOCTYPE for Xerces and RapidXML
// (prescan.hpp) looks for ASCII bytes, so on its own it misses the same
// DOCTYPE in UTF-16, where Xerces then expands its entities.
// SOAP 1.1 forbids a DTD in a message and OData writers emit none, so every
// XML decoder refuses one. Other encodings would be transcoded by some
// parsers and read as raw bytes by others (RapidXML); our payloads are UTF-8
// (or ASCII declared as something else: Netflix's iso-8859-1 feeds).
#pragma once

#include <string_view>

namespace wb::xml {

inline constexpr std::string_view kDoctypeRefused =
    "a DOCTYPE: DTDs are not accepted (SOAP 1.1 and OData have none)";

struct Document {
  std::string_view body;  // the input after a UTF-8 byte order mark
  long long skipped;      // the bytes before body (the BOM), for error offsets
};

// Throws DecodeError(library, ...) at the offending byte for a payload in
// another encoding (a UTF-16 or UTF-32 byte order mark, a zero byte among
// the first four, a byte above 0x7F in a document whose XML declaration
// names another encoding than UTF-8: an ASCII document reads the same in
// both) or a DOCTYPE before the root element. Reads the prolog only (a few
// dozen bytes) unless another encoding is declared. Syntax errors are left
// to the parser.
Document open_document(std::string_view library, std::string_view input);

}  // namespace wb::xml
