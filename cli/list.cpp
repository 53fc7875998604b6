// `list`: the registry, one codec per line.
#include <algorithm>
#include <string>

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

  --verbose   add a fourth column, a comment starting with "#": "default" for
              the codec encode/decode/sizes use without --library, and
              "inexact-doubles" for a decoder whose doubles may not round-trip
              exactly; columns are then padded to line up.
)txt";

std::string comment(const CodecEntry& c) {
  std::string out;
  if (default_codec(c.format, c.role) == &c) out += " default";
  if (c.role == Role::decode && !c.exact) out += " inexact-doubles";
  return out.empty() ? "" : "#" + out;
}

}  // namespace

int run_list(Args args) {
  const ParsedArgs a = parse_args(args, {{"verbose", false}});
  if (a.help) {
    write_stdout(kHelp);
    return kExitOk;
  }
  if (!a.positionals.empty())
    throw UsageError("unexpected argument '" + std::string(a.positionals.front()) + "'");
  const bool verbose = a.has("verbose");
  std::size_t format_width = 0, library_width = 0;
  for (const CodecEntry& c : codecs()) {
    format_width = std::max(format_width, c.format.size());
    library_width = std::max(library_width, c.library.size());
  }
  std::string out;
  for (const CodecEntry& c : codecs()) {
    std::string line = std::string(c.format) + ' ' + (c.role == Role::encode ? "encode" : "decode");
    if (!verbose) {
      line += ' ';
      line += c.library;
    } else {
      line.insert(c.format.size(), format_width - c.format.size(), ' ');
      line += ' ';
      line += c.library;
      line.append(library_width - c.library.size(), ' ');
      line += ' ';
      line += comment(c);
      while (line.back() == ' ') line.pop_back();
    }
    out += line;
    out += '\n';
  }
  write_stdout(out);
  return kExitOk;
}

}  // namespace wb::cli
