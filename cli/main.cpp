// wirebench_cli: the tools behind `./wirebench list|encode|decode|sizes`.
// Everything it knows comes from the codec registry and the dataset table.
#include <cstdio>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"

namespace {

struct Command {
  std::string_view name;
  int (*run)(wb::cli::Args);
};

constexpr Command kCommands[] = {
    {"list", &wb::cli::run_list},
    {"encode", &wb::cli::run_encode},
    {"decode", &wb::cli::run_decode},
    {"sizes", &wb::cli::run_sizes},
    {"infoset", &wb::cli::run_infoset},
    {"conformance", &wb::cli::run_conformance},
    {"payload-kind", &wb::cli::run_payload_kind},
    {"verdict", &wb::cli::run_verdict},
};

constexpr const char kUsage[] = R"txt(usage: wirebench COMMAND [OPTIONS]

Commands (each takes --help):
  list     the codec registry, one codec per line: FORMAT encode|decode LIBRARY
  encode   write a generated payload to stdout
             encode --format F --dataset D [--rows N] [--seed N] [--library L]
  decode   decode a file and print its records as canonical JSON lines
             decode --format F --dataset D [--library L] FILE
  sizes    payload size of every format x dataset x default size [--markdown]
  infoset  the WCF JSON<->XML infoset of any JSON file, as XML
             infoset [--compact] FILE
  conformance
           every JSON decoder over the conformance corpus: accepted/rejected/crashed
             conformance [--corpus DIR] [--json OUT]
  payload-kind
           what each of a user's files is (json, xml, odata:FORMAT), or why none
             payload-kind [--format KIND] FILE...
  verdict  every parser of each file's kind over it, sandboxed: accepted or
           rejected, the error and offset, and who reads it differently
             verdict [--json OUT] KIND:FILE...
  help     this text; help COMMAND is COMMAND --help

Exit status: 0 success, 1 failure (e.g. a payload that does not decode),
2 a bad request (unknown command, option, value or an unreadable file).
)txt";

}  // namespace

int main(int argc, char** argv) {
  using namespace wb::cli;
  const std::vector<std::string_view> words(argv + 1, argv + argc);
  if (words.empty()) {
    print_error("", "no command given (see 'wirebench help')");
    return kExitUsage;
  }
  std::string_view name = words.front();
  std::vector<std::string_view> rest(words.begin() + 1, words.end());
  if (name == "help" || name == "--help" || name == "-h") {
    // "help encode" is "encode --help"; "help" alone, this text.
    if (rest.empty()) {
      std::fputs(kUsage, stdout);
      return kExitOk;
    }
    name = rest.front();
    rest = {"--help"};
  }
  for (const Command& command : kCommands) {
    if (command.name != name) continue;
    try {
      return command.run(Args(rest));
    } catch (const UsageError& e) {
      print_error(name,
                  std::string(e.what()) + " (see 'wirebench " + std::string(name) + " --help')");
      return kExitUsage;
    } catch (const std::bad_alloc&) {
      print_error(name, "out of memory (the request needs more than this machine can give)");
      return kExitFailure;
    } catch (const std::exception& e) {
      print_error(name, e.what());
      return kExitFailure;
    }
  }
  print_error("", "unknown command '" + std::string(name) + "' (see 'wirebench help')");
  return kExitUsage;
}
