// nlohmann/json errors as DecodeError, for both nlohmann decoders.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

#include "codecs/codec.hpp"

namespace wb::json {

// nlohmann reports how many characters it had read (the offending one
// included); bom is what was skipped before the parser's input.
[[noreturn]] inline void throw_nlohmann_error(std::string_view library,
                                              const nlohmann::json::exception& e,
                                              std::size_t chars_read, std::size_t bom) {
  const std::size_t at = chars_read == 0 ? 0 : chars_read - 1;
  throw DecodeError(library, e.what(), static_cast<long long>(at + bom));
}

}  // namespace wb::json
