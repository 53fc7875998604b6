// Character data as it stands in a document -> its value, for parsers that
// hand out raw text (RapidXML in non-destructive mode) (XML 1.0): line ends
// normalised (2.11: CR LF and a lone CR -> LF), the five predefined entities
// and character references replaced (4.6, 4.1) and, in attribute values,
// tab / LF / CR -> space (3.3.3). It rejects what a conforming parser must:
// any other entity (no DTD is read, so none is declared), a bare '&', a
// malformed reference or one to a non-character, '<' in an attribute value,
// a C0 control character. UTF-8 is not validated.
#pragma once

#include <string>
#include <string_view>

namespace wb::xml {

enum class CharData {
  text,      // between markup
  cdata,     // inside <![CDATA[...]]>: only line ends change
  attribute  // an attribute value without its quotes
};

// Returns raw itself when nothing changes, else the value built in scratch.
// Throws DecodeError(library, ..., offset + index of the fault in raw).
std::string_view char_data(std::string_view raw, CharData kind, std::string& scratch,
                           std::string_view library, long long offset);

}  // namespace wb::xml
