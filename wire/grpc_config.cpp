#include "wire/grpc_config.hpp"

#include <stdexcept>

namespace wire {

std::string GrpcConfig::json() const {
  return "{\"compression\": \"" + compression + "\"}";
}

void set_grpc_option(GrpcConfig& grpc, const std::string& option, const std::string& value) {
  if (option == "--grpc") {
    grpc.enabled = true;
  } else if (option == "--grpc-compression") {
    if (value != "gzip" && value != "none") {
      throw std::invalid_argument("--grpc-compression " + value + ": is gzip or none");
    }
    grpc.compression = value;
  } else {
    throw std::invalid_argument("unknown option " + option);
  }
}

void check_grpc_tls(const TlsConfig& tls, bool cipher_given) {
  if (tls.version != "1.3") {
    throw std::invalid_argument(
        "--grpc runs over TLS 1.3 only (gRPC 1.51 sets no TLS version): give --tls 1.3");
  }
  if (cipher_given) {
    throw std::invalid_argument(
        "--grpc: gRPC 1.51 sets no TLS 1.3 cipher; OpenSSL's default order picks it (leave out "
        "--tls-cipher)");
  }
  if (tls.resume) {
    throw std::invalid_argument(
        "--grpc: gRPC 1.51 exposes no TLS session resumption (leave out "
        "--tls-resume)");
  }
}

}  // namespace wire
