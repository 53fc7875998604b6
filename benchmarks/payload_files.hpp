// A user's own files as payloads (`./wirebench bench --payload FILE...`):
// each file is a case of its own, named {format}/file:{name}/{bytes}/..., the
// file standing in for a dataset at a size. tools/commands/bench.sh has told
// each file's kind from its content (wirebench_cli payload-kind) and passes
// it as --wirebench_payload=KIND:PATH.
//
// A JSON file is parsed (parse-only) by every decoder of format json, an XML
// file by every decoder of atom: the parse is the library's own, with no
// binding, so any document goes. An OData feed (KIND odata:FORMAT) is also
// decoded through the entity dataset by every decoder of its format. Every
// file goes through every compressor both ways. Each case is one unit of
// rounds whose probe is the byte scan of the file.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace wb::bench {

struct PayloadSpec {
  std::string kind;  // "json", "xml" or "odata:FORMAT" (codecs/payload_kind.hpp)
  std::string path;
  // --as-formats: the feed's rows in every other format (as_formats.hpp).
  bool as_formats = false;
};

// From the text after --wirebench_payload=, "KIND:PATH"; false when KIND is
// no kind of codecs/payload_kind.hpp.
bool parse_payload_spec(std::string_view text, PayloadSpec& spec, std::string& why);

// Reads every file, registers its benchmarks and records what identifies it
// in the result's context (its name, bytes, SHA-256 and kind, never its
// content). Returns "" or why a file cannot be used (unreadable, or past
// kMaxPayloadBytes of codecs/payload_kind.hpp, or asked for as_formats and
// no OData feed).
// crashed: "LIBRARY:PATH" of each parser that crashed on a file in the
// verdict's sandbox (wirebench_cli verdict): its benchmarks of that file are
// skipped with that error, never run in this process.
std::string register_payload_benchmarks(const std::vector<PayloadSpec>& specs,
                                        const std::set<std::string>& crashed);

}  // namespace wb::bench
