// nlohmann/json errors as DecodeError, for both nlohmann decoders.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "codecs/codec.hpp"
#include "codecs/json/input_checks.hpp"

namespace wb::json {

// nlohmann quotes the input it stopped on ("last read: '...'", "number
// overflow parsing '...'"), the whole token however long: a number of 5,000
// digits made a one-line error of 5,093 characters. A quote longer than
// kMaxQuote keeps its start and says how long it was.
inline std::string shorten_quotes(std::string_view what) {
  constexpr std::size_t kMaxQuote = 40;
  std::string out;
  for (std::size_t at = 0; at < what.size();) {
    const std::size_t open = what.find('\'', at);
    const std::size_t close = open == what.npos ? what.npos : what.find('\'', open + 1);
    if (close == what.npos) {
      out += what.substr(at);
      break;
    }
    const std::string_view quoted = what.substr(open + 1, close - open - 1);
    out += what.substr(at, open + 1 - at);
    if (quoted.size() <= kMaxQuote) {
      out += quoted;
    } else {
      out += quoted.substr(0, kMaxQuote);
      out += "...' (" + std::to_string(quoted.size()) + " characters)";
      at = close + 1;
      continue;
    }
    out += '\'';
    at = close + 1;
  }
  return out;
}

// nlohmann reports how many characters it had read (the offending one
// included); bom is what was skipped before the parser's input.
[[noreturn]] inline void throw_nlohmann_error(std::string_view library,
                                              const nlohmann::json::exception& e,
                                              std::size_t chars_read, std::size_t bom) {
  const std::size_t at = chars_read == 0 ? 0 : chars_read - 1;
  throw DecodeError(library, shorten_quotes(e.what()), static_cast<long long>(at + bom));
}

}  // namespace wb::json
