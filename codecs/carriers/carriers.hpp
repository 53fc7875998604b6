// The formats a user's feed can be re-encoded in (`bench --payload FILE
// --as-formats`, benchmarks/as_formats.hpp): for each, the codecs that
// write and read entity rows, and whether the format can carry a given set
// of rows. The OData dialects carry any entity row (every one of them is
// text with EDM types); a binary format carries rows through a schema made
// at run time from the rows' EDM types, and only the types it has.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/registry.hpp"

namespace wb {

struct Carrier {
  std::string_view format;
  std::vector<const CodecEntry*> encoders;
  std::vector<const CodecEntry*> decoders;
  // "" when the format carries these entity rows, else which type (or
  // shape) it lacks and why: "Edm.Decimal: protobuf has no decimal type".
  std::function<std::string(const Records&)> why_not;
};

// Every format that carries entity rows in this build, the OData dialects
// first, in registry order.
const std::vector<Carrier>& carriers();

// The binary formats of the registry that carry no entity rows yet, joined
// by ", " ("" when every one does).
std::string not_carried_yet();

}  // namespace wb
