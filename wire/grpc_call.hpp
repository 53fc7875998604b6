#pragma once

// gRPC on the measured wire (docs/wire-grpc.md): the unary calls of
// wire/grpc_rows.proto, served and made by Debian's gRPC C++ over TLS 1.3
// with the run's test CA. Server and client each run in a process of their
// own inside their namespace (wire/child_process.hpp): gRPC connects from
// threads of its own, and only a process that entered the namespace before
// gRPC started has all of them in it. The parent keeps the link and counts
// its bytes around each call.

#include <cstdint>
#include <memory>
#include <string>

#include "wire/grpc_config.hpp"
#include "wire/http_spec.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_config.hpp"

namespace wire {

class ChildProcess;
class TestPki;

// One call, times in ms from the call's start, or from the channel's
// creation when the call opened it.
struct GrpcResult {
  bool new_channel = false;
  double connect_ms = 0;              // new channel: created to READY (TCP, TLS, HTTP/2 preface)
  double first_byte_ms = 0;           // the answer's initial metadata (its HEADERS) received
  double last_byte_ms = 0;            // the call finished: message, trailers, gRPC's parse
  double convert_ms = 0;              // the rows read out of the messages into the model's records
  double total_ms = 0;                // last_byte_ms + convert_ms
  double server_encode_ms = 0;        // the codec's encode of the page, on the server
  std::uint64_t message_bytes = 0;    // the serialized answer, before gRPC's compression
  std::uint64_t link_up_bytes = 0;    // IP bytes the link carried to the server during the call
  std::uint64_t link_down_bytes = 0;  // and to the client
  std::uint64_t link_drops = 0;
  int rows = 0;
  bool checked = false;  // every row equals the page's record
  std::string compression;
  std::string error;  // empty: the call succeeded

  bool ok() const { return error.empty(); }
  // {"type": "grpc_call", "series": ..., "index": ..., ...}
  std::string json(const HttpSpec& spec, const std::string& series, int index) const;
  // One line between the client process and the parent, and back.
  std::string serialize() const;
  static GrpcResult parse(const std::string& line);
};

// The service in the server namespace, serving pki's chain for kTlsHost on
// kGrpcPort; running once the constructor returns. Throws
// std::runtime_error when it cannot start.
class GrpcServer {
 public:
  GrpcServer(const Testbed& testbed, const TestPki& pki);
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

 private:
  std::unique_ptr<ChildProcess> child_;
};

// The client in the client namespace: one channel at a time to GrpcServer,
// trusting pki's root alone and verifying host (kTlsHost; any other name
// fails the handshake).
class GrpcClient {
 public:
  GrpcClient(const Testbed& testbed, const TestPki& pki, const std::string& host = kTlsHost);
  ~GrpcClient();
  GrpcClient(const GrpcClient&) = delete;
  GrpcClient& operator=(const GrpcClient&) = delete;

  // One call for spec (check_grpc_spec) with grpc's compression, on the open
  // channel, or on a new one with new_channel or when none is open. A failed
  // call closes the channel.
  GrpcResult call(const HttpSpec& spec, const GrpcConfig& grpc, bool new_channel);

 private:
  const Testbed& testbed_;
  std::unique_ptr<ChildProcess> child_;
  bool open_ = false;
};

// gRPC's version ("1.51.1"); throws std::runtime_error in a build without
// gRPC, naming the option that brings it.
std::string grpc_version();

// What gRPC carries: format=protobuf, no content coding (the compression is
// gRPC's own), no paging, challenge or fault. Validates spec; throws
// std::invalid_argument.
void check_grpc_spec(HttpSpec& spec);

// The --http run with --grpc: spec.requests calls on one channel (a new one
// per call with spec.reconnect), one "grpc_call" line each; false when one
// failed.
bool run_grpc(const Testbed& testbed, const HttpSpec& spec, const TlsConfig& tls,
              const GrpcConfig& grpc);

}  // namespace wire
