// thrift and thrift-binary: Thrift's compact and binary protocols over the
// generated C++ (adapter.hpp), in one translation unit: the generated
// headers and the protocol templates are most of what it costs to compile.
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>

#include "codecs/registry.hpp"
#include "codecs/thrift/adapter.hpp"
#include "codecs/tokens.hpp"

namespace wb::thrift {
namespace {

struct Compact {
  static constexpr std::string_view kFormat = "thrift";
  static constexpr std::string_view kLibrary = token::decoder_thrift_thrift;
  using Type = apache::thrift::protocol::TCompactProtocolT<TMemoryBuffer>;
  // limit 0: none (the encoder's own records).
  static std::unique_ptr<Type> make(std::shared_ptr<TMemoryBuffer> buffer, int32_t limit) {
    return std::make_unique<Type>(std::move(buffer), limit, limit);
  }
};

struct Binary {
  static constexpr std::string_view kFormat = "thrift-binary";
  static constexpr std::string_view kLibrary = token::decoder_thrift_binary_thrift;
  using Type = apache::thrift::protocol::TBinaryProtocolT<TMemoryBuffer>;
  // limit 0: none (the encoder's own records). Strict reads and writes (the
  // protocol's defaults): only matters for message headers, which a feed has not.
  static std::unique_ptr<Type> make(std::shared_ptr<TMemoryBuffer> buffer, int32_t limit) {
    return std::make_unique<Type>(std::move(buffer), limit, limit, true, true);
  }
};

}  // namespace
}  // namespace wb::thrift

WB_DEFINE_ENCODER(thrift, thrift, wb::thrift::ThriftEncoder<wb::thrift::Compact>)
WB_DEFINE_DECODER(thrift, thrift, wb::thrift::ThriftDecoder<wb::thrift::Compact>)
WB_DEFINE_ENCODER(thrift_binary, thrift, wb::thrift::ThriftEncoder<wb::thrift::Binary>)
WB_DEFINE_DECODER(thrift_binary, thrift, wb::thrift::ThriftDecoder<wb::thrift::Binary>)
