// nlohmann/json's three binary formats in the map layout (msgpack, CBOR,
// BSON; codecs/json/adapters/nlohmann_binary.hpp). One translation unit for the three:
// nlohmann's headers are most of what each costs to compile.
#include "codecs/json/adapters/nlohmann_binary.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

struct Msgpack {
  static constexpr std::string_view kName = "msgpack";
  static constexpr std::string_view kLibrary = token::decoder_msgpack_nlohmann;
  static constexpr auto kInput = nlohmann::detail::input_format_t::msgpack;
  // Doubles that a float32 holds exactly are written as float32 (nlohmann's
  // write_compact_float): the value, sign of zero and NaN-ness survive.
  static void write(const NlohmannBuilder::Json& j, std::string& out) {
    NlohmannBuilder::Json::to_msgpack(j, out);
  }
};

struct Cbor {
  static constexpr std::string_view kName = "cbor";
  static constexpr std::string_view kLibrary = token::decoder_cbor_nlohmann;
  static constexpr auto kInput = nlohmann::detail::input_format_t::cbor;
  // Doubles that a float32 holds exactly are written as float32, NaN and the
  // infinities as half floats (nlohmann's write_compact_float): the value and
  // sign survive, a NaN's payload does not.
  static void write(const NlohmannBuilder::Json& j, std::string& out) {
    NlohmannBuilder::Json::to_cbor(j, out);
  }
};

struct Bson {
  static constexpr std::string_view kName = "bson";
  static constexpr std::string_view kLibrary = token::decoder_bson_nlohmann;
  static constexpr auto kInput = nlohmann::detail::input_format_t::bson;
  // Doubles are always BSON doubles (0x01), Int32 members int32 (0x10).
  static void write(const NlohmannBuilder::Json& j, std::string& out) {
    NlohmannBuilder::Json::to_bson(j, out);
  }
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_ENCODER(msgpack, nlohmann, wb::json::NlohmannBinaryEncoder<wb::json::Msgpack>)
WB_DEFINE_DECODER(msgpack, nlohmann, wb::json::NlohmannBinaryDecoder<wb::json::Msgpack>)
WB_DEFINE_ENCODER(cbor, nlohmann, wb::json::NlohmannBinaryEncoder<wb::json::Cbor>)
WB_DEFINE_DECODER(cbor, nlohmann, wb::json::NlohmannBinaryDecoder<wb::json::Cbor>)
WB_DEFINE_ENCODER(bson, nlohmann, wb::json::NlohmannBinaryEncoder<wb::json::Bson>)
WB_DEFINE_DECODER(bson, nlohmann, wb::json::NlohmannBinaryDecoder<wb::json::Bson>)
