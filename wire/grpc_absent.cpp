// gRPC in a build without it (WB_WITH_GRPC=OFF): every use says so.
#include <stdexcept>

#include "wire/child_process.hpp"
#include "wire/grpc_call.hpp"

namespace wire {
namespace {

[[noreturn]] void absent() {
  throw std::runtime_error(
      "--grpc: this build has no gRPC (configured with WB_WITH_GRPC=OFF; Debian's "
      "libgrpc++-dev and protobuf-compiler-grpc bring it)");
}

}  // namespace

std::string grpc_version() {
  absent();
}

GrpcServer::GrpcServer(const Testbed&, const TestPki&) {
  absent();
}
GrpcServer::~GrpcServer() = default;

GrpcClient::GrpcClient(const Testbed& testbed, const TestPki&, const std::string&)
    : testbed_(testbed) {
  absent();
}
GrpcClient::~GrpcClient() = default;

GrpcResult GrpcClient::call(const HttpSpec&, const GrpcConfig&, bool) {
  absent();
}

}  // namespace wire
