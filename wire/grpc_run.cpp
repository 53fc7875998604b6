// The --http run with --grpc: the test CA, the service and the client, one
// "grpc_call" line per call. Built with or without gRPC (without it, the
// service says so).
#include <openssl/crypto.h>

#include <cstdio>
#include <stdexcept>

#include "wire/grpc_call.hpp"
#include "wire/tls_pki.hpp"
#include "wire/warmup.hpp"

namespace wire {
namespace {

// The TLS settings gRPC honours: the test CA's (key type, chain, names).
// The version and cipher are what OpenSSL negotiates between gRPC's ends,
// which allow TLS 1.2 and 1.3; neither is read back per call.
std::string grpc_tls_json(const TlsConfig& tls) {
  return "{\"versions_allowed\": \"1.2-1.3\", \"key\": " + json_string(tls.key) +
         ", \"chain\": " + std::to_string(tls.chain) + ", \"names\": " + std::to_string(tls.names) +
         ", \"cipher\": \"OpenSSL's default\", \"host\": " + json_string(kTlsHost) + "}";
}

}  // namespace

bool run_grpc(const Testbed& testbed, const HttpSpec& spec, const TlsConfig& tls,
              const GrpcConfig& grpc) {
  HttpSpec checked = spec;
  check_grpc_spec(checked);
  const std::string version = grpc_version();
  TestPki pki(tls, kTlsHost);
  GrpcServer server(testbed, pki);
  std::printf(
      "{\"type\": \"grpc_context\", \"library\": \"grpc++\", \"version\": %s, \"stack\": %s, "
      "\"grpc\": %s, \"tls\": %s, \"openssl\": %s}\n",
      json_string(version).c_str(), json_string(GrpcConfig::stack()).c_str(), grpc.json().c_str(),
      grpc_tls_json(tls).c_str(), json_string(OpenSSL_version(OPENSSL_VERSION)).c_str());
  std::fflush(stdout);
  // One client for the warm-up and the timed calls: its calls run in a child
  // process of its own, which the warm-up is there to have made a call.
  GrpcClient client(testbed, pki);
  bool ok = warm_up(testbed, checked, [&](int i) {
    const GrpcResult r = client.call(checked, grpc, true);
    return std::pair{r.json(checked, "warmup", i), r.ok()};
  });
  for (int i = 0; i < checked.requests; ++i) {
    // The first timed call opens a channel of its own after a warm-up's.
    const GrpcResult r = client.call(checked, grpc, checked.reconnect || i == 0);
    std::printf("%s\n", r.json(checked, "grpc", i).c_str());
    std::fflush(stdout);
    if (!r.ok()) {
      ok = false;
      std::fprintf(stderr, "wirebench_wire: call %d: %s\n", i, r.error.c_str());
    }
  }
  return ok;
}

}  // namespace wire
