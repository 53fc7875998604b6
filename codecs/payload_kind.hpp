// What a user's own file is (`./wirebench bench --payload`): JSON or XML
// text, or an OData feed in a format the project reads, told from its first
// bytes; and whose decoders read it. The CLI sniffs (payload-kind) and runs
// the verdict, the benchmarks time; both name a file's kind the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace wb {

// The largest file a payload run takes (1 GiB): in rounds every DOM of a file
// is held at once, and a case's bytes stand in for its rows, a 32-bit int.
inline constexpr std::uintmax_t kMaxPayloadBytes = std::uintmax_t{1} << 30;
// How much of a file sniff_payload reads: the envelope of a feed and the
// root of an XML document come first, and a binary file shows in its first
// bytes. A sparse 2 GiB file is never read whole.
inline constexpr std::size_t kSniffBytes = 64 * 1024;

// A kind: "json", "xml", or "odata:FORMAT" for a feed of an OData format
// (json, json-verbose, json-v4, atom, atom-v2).
struct Sniffed {
  std::string kind;  // empty when the file is not a payload
  std::string why;   // then: "empty file", "binary (a NUL byte at byte 12)", ...
};

// The kind of a file of `size` bytes whose first bytes are head (at most
// kSniffBytes of them): past kMaxPayloadBytes, empty (or only white space),
// binary (a NUL byte, or bytes that are not UTF-8), or text that starts as
// neither JSON nor XML are no kind. A JSON object whose first member is "d"
// is an OData v2 verbose feed; one with "odata.metadata" a v3 JSON light
// feed, with "@odata.context" a v4 one; an XML document whose root is an
// Atom feed, an Atom feed (the atom decoders read v2 and v3).
Sniffed sniff_payload(std::string_view head, std::uintmax_t size);

// The kind a --format token asks for: json, xml, odata:FORMAT, or a feed
// format's own name other than json (json-verbose, json-v4, atom, atom-v2);
// "" when the token is none of them.
std::string kind_of_format(std::string_view token);

// The format whose decoders read a file of kind: json's for JSON, atom's for
// XML (their parse-only is the library's own parse of any document), the
// feed's own; "" for a string that is no kind.
std::string decoders_format(std::string_view kind);

// Splits "KIND:PATH", the form the CLI prints a file's kind in and the
// benchmarks take it: a kind holds at most one ':' (odata:FORMAT), the path
// is the rest. false when no path follows a kind.
bool split_kind_path(std::string_view text, std::string& kind, std::string& path);

// A library's message about a user's file with each byte that is not part of
// well-formed UTF-8 written as "\xNN": a message may quote the bytes the library
// stopped at (Poco's "unexpected byte"), and it goes into JSON (the result
// file, the verdict file), which is UTF-8.
std::string utf8_message(std::string_view text);

// Whether kind is an OData feed, which also decodes into entity rows.
inline bool is_feed(std::string_view kind) {
  return kind.starts_with("odata:");
}

}  // namespace wb
