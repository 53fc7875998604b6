// Turning command-line names into registry entries and datasets, with the
// defaults every command shares. Unknown names are UsageErrors that list the
// names that would have worked.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "codecs/registry.hpp"
#include "generators/datasets.hpp"

namespace wb::cli {

// The format as spelled in the registry; UsageError if no codec has it.
std::string_view choose_format(std::string_view name);
const DatasetInfo& choose_dataset(std::string_view name);

// The codec of format/role named library or, without a library, the default:
// for encoders "reference" when registered, else the first in registry order;
// for decoders the fastest whose labels say "validates UTF-8" (choose.cpp),
// else the first in registry order. UsageError if there is none.
const CodecEntry& choose_codec(std::string_view format, Role role,
                               std::optional<std::string_view> library);

// For help texts, from the dataset table: "message | airport | science" and
// "message 10, airport 101, science 1000" (each dataset's first default size).
std::string dataset_names();
std::string default_row_counts();

// The default codec, or nullptr when the format has none of that role.
const CodecEntry* default_codec(std::string_view format, Role role);

}  // namespace wb::cli
