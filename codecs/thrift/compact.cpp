// thrift: Thrift's compact protocol (adapter.hpp).
#include <thrift/protocol/TCompactProtocol.h>

#include "codecs/registry.hpp"
#include "codecs/thrift/adapter.hpp"

namespace wb::thrift {
namespace {

struct Compact {
  static constexpr std::string_view kFormat = "thrift";
  static constexpr std::string_view kLibrary = "thrift-compact";
  using Type = apache::thrift::protocol::TCompactProtocolT<TMemoryBuffer>;
  // limit 0: none (the encoder's own records).
  static std::unique_ptr<Type> make(std::shared_ptr<TMemoryBuffer> buffer, int32_t limit) {
    return std::make_unique<Type>(std::move(buffer), limit, limit);
  }
};

}  // namespace
}  // namespace wb::thrift

WB_DEFINE_ENCODER(thrift, thrift, wb::thrift::ThriftEncoder<wb::thrift::Compact>)
WB_DEFINE_DECODER(thrift, thrift, wb::thrift::ThriftDecoder<wb::thrift::Compact>)
