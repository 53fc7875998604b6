// Records as canonical JSON lines: the text that `wirebench decode` prints, so
// that the output of any two decoders can be compared with diff.
//
// One record per line, compact (no spaces), members in schema (model) order:
//  - int32: decimal;
//  - double: shortest round-trip text of std::to_chars, so whole numbers have
//    no ".0" ("12", "-0", "1e+22"); NaN and infinities, which JSON cannot
//    spell, as the strings "NaN", "INF", "-INF" (OData's spelling);
//  - DateTime: a string, ISO-8601 with 7 fractional digits and "Z";
//  - string: quoted, with \" \\ \b \f \n \r \t and other control characters
//    as \u00xx (lowercase hex); all other bytes, UTF-8 included, as is;
//  - nested records (Contacts): arrays of objects in the same form.
#pragma once

#include <string>
#include <string_view>

#include "generators/model.hpp"

namespace wb::cli {

// Appends every record of records, each followed by '\n'.
void append_json_lines(std::string& out, const Records& records);

// Appends text as a JSON string, escaped as the lines' strings are (for the
// other JSON the CLI writes, such as the verdict file).
void append_json_string(std::string& out, std::string_view text);

}  // namespace wb::cli
