#pragma once

// How the --http exchange runs over gRPC (docs/wire-grpc.md): the unary call
// of wire/grpc_rows.proto over TLS 1.3, and the message compression the
// server applies to its answer. The command line's --grpc* options set it.

#include <cstdint>
#include <string>

#include "wire/tls_config.hpp"

namespace wire {

// The port of the gRPC service in the server namespace.
inline constexpr std::uint16_t kGrpcPort = 50051;

struct GrpcConfig {
  bool enabled = false;
  // gRPC's message compression of the answer: "none" or "gzip".
  std::string compression = "none";

  // The stack's name in tools/links.json.
  static std::string stack() { return "grpc"; }
  // {"compression": ...}
  std::string json() const;
};

// Sets one field from its command-line option (--grpc, --grpc-compression
// gzip|none); throws std::invalid_argument naming the option and what it
// takes.
void set_grpc_option(GrpcConfig& grpc, const std::string& option, const std::string& value);

// gRPC 1.51's C++ API has no knob for the TLS version, the cipher or
// resumption: the call runs over TLS 1.3 with OpenSSL's own cipher order, the
// test CA's chain and key type. Throws std::invalid_argument with one line
// for a TLS setting it cannot honour (cipher_given: --tls-cipher was on the
// command line).
void check_grpc_tls(const TlsConfig& tls, bool cipher_given);

}  // namespace wire
