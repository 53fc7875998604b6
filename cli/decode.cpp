// `decode`: a payload file to canonical JSON lines, or one line saying why not.
#include <string>

#include "cli/args.hpp"
#include "cli/canonical_json.hpp"
#include "cli/choose.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"

namespace wb::cli {
namespace {

std::string help() {
  return R"txt(usage: wirebench decode --format F --dataset D [--library L] FILE

Decodes FILE ("-" for stdin) as format F holding rows of dataset D and prints
the records as canonical JSON lines, so that any two decoders can be compared
with diff:
  - one record per line, compact (no spaces), members in model order;
  - integers in decimal; doubles in the shortest text that reads back exactly
    (std::to_chars), so whole numbers have no ".0": 12, -0, 1e+22; NaN and
    infinities as the strings "NaN", "INF", "-INF";
  - dates as strings: ISO-8601, 7 fractional digits, "Z"
    ("2026-01-01T00:00:00.0000000Z");
  - strings quoted, with \" \\ \b \f \n \r \t and other control characters
    as \u00xx (lowercase hex); all other bytes, UTF-8 included, as is;
  - nested records (an airport's Contacts) as arrays of objects.
Nothing is printed to stdout unless the whole payload decodes.

Every JSON format's decoders (json, json-verbose, json-v4) read any OData
JSON dialect, telling them apart by the envelope: {"d": ...} is v1/v2
verbose JSON, "value" after an "@odata." annotation is v4, any other "value"
is v3 JSON light; the Atom formats' decoders read v2 and v3 Atom. With
--dataset entity any OData feed decodes, whatever its entity type.

  --format F    a format of `wirebench list`
  --dataset D   )txt" +
         dataset_names() + R"txt(
  --library L   the decoder (default: one that validates UTF-8, the fastest
                of those measured; `wirebench list --verbose` marks it)

Exit status: 0 on success; 1 if the payload does not decode, with one line on
stderr: "wirebench decode: LIBRARY: MESSAGE (at byte N)", where LIBRARY is the
--library token (a second name may follow when shared code raised the error)
and the byte offset is there only when the library tells it; 2 on a bad
request or an unreadable FILE.
)txt";
}

}  // namespace

int run_decode(Args args) {
  const ParsedArgs a = parse_args(args, {{"format", true}, {"dataset", true}, {"library", true}});
  if (a.help) {
    write_stdout(help());
    return kExitOk;
  }
  const std::string_view format = choose_format(a.required("format"));
  const DatasetInfo& dataset = choose_dataset(a.required("dataset"));
  const CodecEntry& codec = choose_codec(format, Role::decode, a.value("library"));
  if (a.positionals.empty()) throw UsageError("missing FILE (use - for stdin)");
  if (a.positionals.size() > 1)
    throw UsageError("unexpected argument '" + std::string(a.positionals[1]) + "'");

  // Decoders may read kInputPadding bytes past the end (simdjson does).
  const std::string input = padded_copy(read_input(a.positionals.front()));
  Records records = empty_records(dataset.kind);
  // Whatever a library throws is a failed decode, never a crash of the tool.
  try {
    codec.make_decoder()->decode(input, records);
  } catch (const DecodeError& e) {
    // Shared binding code reports under the format's name ("json: member
    // Latitude: ..."); the line must still start with the decoder chosen.
    const std::string prefix =
        e.library() == codec.library ? "" : std::string(codec.library) + ": ";
    print_error("decode", prefix + e.describe());
    return kExitFailure;
  } catch (const std::exception& e) {
    print_error("decode", std::string(codec.library) + ": " + e.what());
    return kExitFailure;
  } catch (...) {
    print_error("decode", std::string(codec.library) + ": unknown exception");
    return kExitFailure;
  }
  std::string out;
  append_json_lines(out, records);
  write_stdout(out);
  return kExitOk;
}

}  // namespace wb::cli
