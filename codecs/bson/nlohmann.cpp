// BSON through nlohmann/json: to_bson of the map-layout tree (a document at
// the top, as BSON requires; arrays as documents keyed "0", "1", ...), and
// from_bson's DOM behind a nesting limit (codecs/json/nlohmann_binary.hpp).
#include "codecs/json/nlohmann_binary.hpp"
#include "codecs/registry.hpp"

namespace wb::bson {
namespace {

struct Bson {
  static constexpr std::string_view kName = "bson";
  static constexpr std::string_view kLibrary = "nlohmann-bson";
  static constexpr auto kInput = nlohmann::detail::input_format_t::bson;
  // Doubles are always BSON doubles (0x01), Int32 members int32 (0x10).
  static void write(const json::NlohmannBuilder::Json& j, std::string& out) {
    json::NlohmannBuilder::Json::to_bson(j, out);
  }
};

}  // namespace
}  // namespace wb::bson

WB_DEFINE_ENCODER(bson, nlohmann, wb::json::NlohmannBinaryEncoder<wb::bson::Bson>)
WB_DEFINE_DECODER(bson, nlohmann, wb::json::NlohmannBinaryDecoder<wb::bson::Bson>)
