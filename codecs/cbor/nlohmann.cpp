// CBOR through nlohmann/json: to_cbor of the map-layout tree, and from_cbor's
// DOM behind a nesting limit (codecs/json/nlohmann_binary.hpp).
#include "codecs/json/nlohmann_binary.hpp"
#include "codecs/registry.hpp"

namespace wb::cbor {
namespace {

struct Cbor {
  static constexpr std::string_view kName = "cbor";
  static constexpr std::string_view kLibrary = "nlohmann-cbor";
  static constexpr auto kInput = nlohmann::detail::input_format_t::cbor;
  // Doubles that a float32 holds exactly are written as float32, NaN and the
  // infinities as half floats (nlohmann's write_compact_float): the value and
  // sign survive, a NaN's payload does not.
  static void write(const json::NlohmannBuilder::Json& j, std::string& out) {
    json::NlohmannBuilder::Json::to_cbor(j, out);
  }
};

}  // namespace
}  // namespace wb::cbor

WB_DEFINE_ENCODER(cbor, nlohmann, wb::json::NlohmannBinaryEncoder<wb::cbor::Cbor>)
WB_DEFINE_DECODER(cbor, nlohmann, wb::json::NlohmannBinaryDecoder<wb::cbor::Cbor>)
