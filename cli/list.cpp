// `list`: the registry, one codec per line.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "cli/choose.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"
#include "codecs/registry.hpp"

namespace wb::cli {
namespace {

constexpr const char kHelp[] = R"txt(usage: wirebench list [--verbose]

Prints the codec registry in registry order, one codec per line:
  FORMAT ROLE LIBRARY
separated by single spaces, where ROLE is "encode" or "decode" and LIBRARY is
the token that --library of encode/decode takes.

  --verbose   pad the columns to line up and add, after a "#", two more:
              FLAGS, "default" for the codec encode/decode/sizes use without
              --library and "inexact-doubles" for a decoder whose doubles may
              not round-trip exactly ("-" for neither); then LABELS, what the
              codec does. The content routers of the routing benchmark follow
              the codecs, with ROLE "route".

LABELS are items joined by ", ", each word possibly followed by a detail in
parentheses (the same text is in every result file's context, as
codec.FORMAT.ROLE.LIBRARY, and in the report):
  decoders  the API: "DOM" (a tree, then walked), "SAX" (pushed events),
            "pull" (a reader the adapter advances), "on-demand" (values read
            from the input when asked); wcfjson "SAX + DOM" or
            "on-demand + DOM" (the JSON reader into an XML infoset tree);
            then where values live: "in situ" (the parse leaves strings in a
            buffer holding the payload), "copying" (into the library's own
            nodes), "no tree" (handed over as read, nothing kept);
            then "validates UTF-8" or "no UTF-8 check", what else is or is
            not checked, and for JSON "exact doubles" or "inexact doubles".
  encoders  "streaming writer" (text written as the records are walked) or
            "tree then serialized" (a document built, then written out).
  routers   "XPath over a DOM" (the whole payload parsed first) or
            "streaming sniff" (the parse stops once the key is read).
)txt";

std::string flags(const CodecEntry& c) {
  std::string out;
  if (default_codec(c.format, c.role) == &c) out += "default";
  if (c.role == Role::decode && !c.exact)
    out += out.empty() ? "inexact-doubles" : " inexact-doubles";
  return out.empty() ? "-" : out;
}

// One --verbose line, before its columns are padded.
struct Row {
  std::string_view format, role, library;
  std::string flags;
  std::string_view labels;
};

}  // namespace

int run_list(Args args) {
  const ParsedArgs a = parse_args(args, {{"verbose", false}});
  if (a.help) {
    write_stdout(kHelp);
    return kExitOk;
  }
  if (!a.positionals.empty())
    throw UsageError("unexpected argument '" + std::string(a.positionals.front()) + "'");
  std::string out;
  if (!a.has("verbose")) {
    for (const CodecEntry& c : codecs()) {
      out += std::string(c.format) + (c.role == Role::encode ? " encode " : " decode ");
      out += c.library;
      out += '\n';
    }
    write_stdout(out);
    return kExitOk;
  }
  std::vector<Row> rows;
  for (const CodecEntry& c : codecs())
    rows.push_back(
        {c.format, c.role == Role::encode ? "encode" : "decode", c.library, flags(c), c.labels});
  for (const RouterEntry& r : routers())
    rows.push_back({r.format, "route", r.library, "-", r.labels});
  std::size_t widths[4] = {};
  for (const Row& r : rows) {
    widths[0] = std::max(widths[0], r.format.size());
    widths[1] = std::max(widths[1], r.role.size());
    widths[2] = std::max(widths[2], r.library.size());
    widths[3] = std::max(widths[3], r.flags.size());
  }
  const auto padded = [](std::string_view text, std::size_t width) {
    return std::string(text) + std::string(width - text.size() + 1, ' ');
  };
  for (const Row& r : rows) {
    out += padded(r.format, widths[0]) + padded(r.role, widths[1]) + padded(r.library, widths[2]) +
           "# " + padded(r.flags, widths[3]);
    out += r.labels;
    out += '\n';
  }
  write_stdout(out);
  return kExitOk;
}

}  // namespace wb::cli
