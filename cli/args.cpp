#include "cli/args.hpp"

#include <algorithm>
#include <charconv>

namespace wb::cli {

std::optional<std::string_view> ParsedArgs::value(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string_view ParsedArgs::required(std::string_view name) const {
  auto v = value(name);
  if (!v) throw UsageError("missing required option --" + std::string(name));
  return *v;
}

ParsedArgs parse_args(std::span<const std::string_view> args,
                      std::initializer_list<OptionSpec> spec) {
  ParsedArgs out;
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    // "-" alone is a file name (stdin), not an option.
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      out.positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      out.help = true;
      continue;
    }
    if (arg.substr(0, 2) != "--") throw UsageError("unknown option '" + std::string(arg) + "'");
    std::string_view name = arg.substr(2);
    std::optional<std::string_view> inline_value;
    if (auto eq = name.find('='); eq != std::string_view::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    auto it =
        std::find_if(spec.begin(), spec.end(), [&](const OptionSpec& s) { return s.name == name; });
    if (it == spec.end()) throw UsageError("unknown option '--" + std::string(name) + "'");
    if (out.values_.count(name))
      throw UsageError("option --" + std::string(name) + " given more than once");
    std::string_view value;
    if (!it->takes_value) {
      if (inline_value) throw UsageError("option --" + std::string(name) + " takes no value");
    } else if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw UsageError("option --" + std::string(name) + " needs a value");
    }
    if (it->takes_value && value.empty())
      throw UsageError("option --" + std::string(name) + " needs a non-empty value");
    out.values_.emplace(it->name, value);
  }
  return out;
}

namespace {

template <class Int>
Int parse_decimal(std::string_view option, std::string_view text, Int max) {
  Int v{};
  // A leading '-' is refused here so that signed and unsigned read alike.
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || text[0] == '-' || ec != std::errc() || end != text.data() + text.size() ||
      v > max)
    throw UsageError("option --" + std::string(option) + ": '" + std::string(text) +
                     "' is not a number from 0 to " + std::to_string(max));
  return v;
}

}  // namespace

int parse_row_count(std::string_view option, std::string_view text) {
  // Enough for any scaling run, small enough that a typo cannot exhaust memory.
  constexpr int kMaxRows = 10'000'000;
  return parse_decimal<int>(option, text, kMaxRows);
}

uint64_t parse_seed(std::string_view option, std::string_view text) {
  return parse_decimal<uint64_t>(option, text, UINT64_MAX);
}

}  // namespace wb::cli
