// msgpack through nlohmann/json: to_msgpack of the map-layout tree, and
// from_msgpack's DOM behind a nesting limit (codecs/json/nlohmann_binary.hpp).
#include "codecs/json/nlohmann_binary.hpp"
#include "codecs/registry.hpp"

namespace wb::msgpack {
namespace {

struct Msgpack {
  static constexpr std::string_view kName = "msgpack";
  static constexpr std::string_view kLibrary = "nlohmann-msgpack";
  static constexpr auto kInput = nlohmann::detail::input_format_t::msgpack;
  // Doubles that a float32 holds exactly are written as float32 (nlohmann's
  // write_compact_float): the value, sign of zero and NaN-ness survive.
  static void write(const json::NlohmannBuilder::Json& j, std::string& out) {
    json::NlohmannBuilder::Json::to_msgpack(j, out);
  }
};

}  // namespace
}  // namespace wb::msgpack

WB_DEFINE_ENCODER(msgpack, nlohmann, wb::json::NlohmannBinaryEncoder<wb::msgpack::Msgpack>)
WB_DEFINE_DECODER(msgpack, nlohmann, wb::json::NlohmannBinaryDecoder<wb::msgpack::Msgpack>)
