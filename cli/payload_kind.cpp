// `payload-kind`: what each of a user's files is, for `./wirebench bench
// --payload` (codecs/payload_kind.hpp), or one line per file that is none.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"
#include "codecs/payload_kind.hpp"

namespace wb::cli {
namespace {

constexpr const char kHelp[] =
    R"txt(usage: wirebench payload-kind [--format KIND] FILE...

Prints KIND:FILE for each file, its kind told from its first 64 KiB:
  json                  JSON text (parse-only through every JSON parser)
  xml                   XML (parse-only through every XML parser)
  odata:json-verbose    an OData v2 verbose JSON feed ({"d": ...})
  odata:json            an OData v3 JSON light feed ("odata.metadata")
  odata:json-v4         an OData v4 JSON feed ("@odata.context")
  odata:atom            an Atom feed (v2 or v3)
A feed is also decoded into entity rows by every decoder of its format.

A file that is empty, binary (a NUL byte), over 1 GiB, or starts as
neither JSON nor XML gets one line on stderr naming it and why.

  --format KIND  take every file as KIND (json, xml, odata:FORMAT, or a
                 feed format's name: json-verbose, json-v4, atom, atom-v2);
                 the limits above still hold

Exit status: 0 when every file is a payload; 2 when one is not, or on a bad
request.
)txt";

// The kind of one file, or "" after its line on stderr.
std::string kind_of_file(const std::string& path, const std::string& forced) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    print_error("payload-kind", path + ": not a regular file");
    return {};
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  std::string head(static_cast<std::size_t>(std::min<std::uintmax_t>(size, kSniffBytes)), '\0');
  std::ifstream in(path, std::ios::binary);
  if (ec || !in.read(head.data(), static_cast<std::streamsize>(head.size()))) {
    print_error("payload-kind", path + ": cannot read");
    return {};
  }
  Sniffed sniffed = sniff_payload(head, size);
  // --format overrides the syntax, never the limits.
  if (!forced.empty() && (sniffed.why.empty() || sniffed.why.starts_with("neither")))
    sniffed = {forced, ""};
  if (sniffed.kind.empty()) print_error("payload-kind", path + ": " + sniffed.why);
  return sniffed.kind;
}

}  // namespace

int run_payload_kind(Args args) {
  const ParsedArgs a = parse_args(args, {{"format", true}});
  if (a.help) {
    write_stdout(kHelp);
    return kExitOk;
  }
  std::string forced;
  if (a.has("format") && (forced = kind_of_format(*a.value("format"))).empty())
    throw UsageError("unknown --format '" + std::string(*a.value("format")) +
                     "' (json, xml, odata:FORMAT, json-verbose, json-v4, atom, atom-v2)");
  if (a.positionals.empty()) throw UsageError("missing FILE");
  std::string out;
  bool all = true;
  for (std::string_view file : a.positionals) {
    const std::string path(file);
    const std::string kind = kind_of_file(path, forced);
    all = all && !kind.empty();
    out += kind + ":" + path + "\n";
  }
  if (!all) return kExitUsage;
  write_stdout(out);
  return kExitOk;
}

}  // namespace wb::cli
