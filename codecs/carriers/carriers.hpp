// The formats a user's feed can be re-encoded in (`bench --payload FILE
// --as-formats`, benchmarks/as_formats.hpp): for each, the codecs that
// write and read entity rows, and whether the format can carry a given set
// of rows. The OData dialects carry any entity row (every one of them is
// text with EDM types); a binary format carries rows through a schema made
// at run time from the rows' EDM types (entity_schema.hpp), and only the
// types it has.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/carriers/entity_schema.hpp"
#include "codecs/registry.hpp"

namespace wb {

// A codec of a carrier, made for the feed's schema (the OData dialects'
// registry codecs take none).
struct CarrierCodec {
  std::string_view library;
  bool exact = true;  // decoders: the rows come back equal, doubles included
  std::function<std::unique_ptr<Encoder>(const carry::EntitySchema&)> make_encoder;
  std::function<std::unique_ptr<Decoder>(const carry::EntitySchema&)> make_decoder;
};

struct Carrier {
  std::string_view format;
  std::vector<CarrierCodec> encoders;
  std::vector<CarrierCodec> decoders;
  // "" when the format carries these entity rows, else which type (or
  // shape) it lacks and why: "Edm.Decimal (Price): protobuf has no decimal type ...".
  std::function<std::string(const Records&)> why_not;
};

// Every format that carries entity rows in this build: the OData dialects,
// then the binary formats, in registry order.
const std::vector<Carrier>& carriers();

// The binary formats of the registry that carry no entity rows yet, joined
// by ", " ("" when every one does).
std::string not_carried_yet();

namespace carry {
// Each schema adapter file's carriers (one function per file), which
// carriers() lists. Weak: a library left out of the build
// (cmake/optional_libraries.cmake) leaves its function null, and its
// format among those not carried yet.
[[gnu::weak]] void add_flatbuffers_tables(std::vector<Carrier>& out);
[[gnu::weak]] void add_capnp_dynamic(std::vector<Carrier>& out);
[[gnu::weak]] void add_nlohmann_maps(std::vector<Carrier>& out);
[[gnu::weak]] void add_libprotobuf_dynamic(std::vector<Carrier>& out);
[[gnu::weak]] void add_thrift_protocol(std::vector<Carrier>& out);
[[gnu::weak]] void add_avro_c_generic(std::vector<Carrier>& out);
}  // namespace carry

}  // namespace wb
