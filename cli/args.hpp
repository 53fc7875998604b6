// The CLI's tiny flag parser: "--name value", "--name=value", boolean flags,
// positionals, "-" as a positional (stdin) and "--" to end the options.
// Every mistake is a UsageError, which main turns into one line and exit 2.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wb::cli {

// Exit statuses of every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the work failed (bad payload, write error)
inline constexpr int kExitUsage = 2;    // the request was wrong (flags, names, files)

// A mistake in the request: unknown flag or value, unreadable file.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string_view name;  // without the leading "--"
  bool takes_value;
};

class ParsedArgs {
 public:
  bool help = false;  // --help / -h was given: print the command's help, nothing else
  std::vector<std::string_view> positionals;

  bool has(std::string_view name) const { return values_.count(name) != 0; }
  std::optional<std::string_view> value(std::string_view name) const;
  // The value of a required option; UsageError if it is missing.
  std::string_view required(std::string_view name) const;

 private:
  friend ParsedArgs parse_args(std::span<const std::string_view>,
                               std::initializer_list<OptionSpec>);
  std::map<std::string_view, std::string_view, std::less<>> values_;  // flags map to ""
};

// Parses args (the words after the command name) against the allowed options.
ParsedArgs parse_args(std::span<const std::string_view> args,
                      std::initializer_list<OptionSpec> spec);

// Decimal numbers of options; UsageError names the option when text is not one.
int parse_row_count(std::string_view option, std::string_view text);
uint64_t parse_seed(std::string_view option, std::string_view text);

}  // namespace wb::cli
