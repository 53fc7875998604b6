// thrift-binary: Thrift's binary protocol, strict (adapter.hpp).
#include <thrift/protocol/TBinaryProtocol.h>

#include "codecs/registry.hpp"
#include "codecs/thrift/adapter.hpp"

namespace wb::thrift {
namespace {

struct Binary {
  static constexpr std::string_view kFormat = "thrift-binary";
  static constexpr std::string_view kLibrary = "thrift-binary";
  using Type = apache::thrift::protocol::TBinaryProtocolT<TMemoryBuffer>;
  // limit 0: none (the encoder's own records). Strict reads and writes (the
  // protocol's defaults): only matters for message headers, which a feed has not.
  static std::unique_ptr<Type> make(std::shared_ptr<TMemoryBuffer> buffer, int32_t limit) {
    return std::make_unique<Type>(std::move(buffer), limit, limit, true, true);
  }
};

}  // namespace
}  // namespace wb::thrift

WB_DEFINE_ENCODER(thrift_binary, thrift, wb::thrift::ThriftEncoder<wb::thrift::Binary>)
WB_DEFINE_DECODER(thrift_binary, thrift, wb::thrift::ThriftDecoder<wb::thrift::Binary>)
