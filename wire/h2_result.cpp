// A request over HTTP/2 as one JSON line of `wirebench_wire --http SPEC
// --h2` (fields in docs/wire-h2.md), and the --h2 run that prints them.
#include <nghttp2/nghttp2.h>
#include <openssl/crypto.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "wire/h2_client.hpp"
#include "wire/h2_server.hpp"
#include "wire/netns.hpp"
#include "wire/tls_pki.hpp"
#include "wire/warmup.hpp"

namespace wire {

std::string H2Result::json(const HttpSpec& spec, const std::string& series, int index) const {
  std::string line = http.json(spec, series, index);
  line.pop_back();  // the closing brace: the HTTP/2 fields follow the HTTP/1.1 line's
  std::ostringstream o;
  o << ", \"protocol\": " << json_string(http.stack == "h2c" ? "h2c" : "h2")
    << ", \"h2\": {\"stream_id\": " << h2.stream_id << ", \"concurrent\": " << h2.concurrent
    << ", \"request_header_block_bytes\": " << h2.request_header_block_bytes
    << ", \"request_header_field_bytes\": " << h2.request_header_field_bytes
    << ", \"response_header_block_bytes\": " << h2.response_header_block_bytes
    << ", \"response_header_field_bytes\": " << h2.response_header_field_bytes
    << ", \"frames_sent\": " << h2.frames_sent << ", \"frames_received\": " << h2.frames_received
    << ", \"frame_header_bytes\": " << h2.frame_header_bytes()
    << ", \"data_frames\": " << h2.data_frames << ", \"data_bytes\": " << h2.data_bytes
    << ", \"stream_window_updates\": " << h2.stream_window_updates
    << ", \"connection_window_updates\": " << h2.connection_window_updates
    << ", \"stream_window\": " << h2.stream_window
    << ", \"connection_window\": " << h2.connection_window
    << ", \"server_max_frame_size\": " << h2.server_max_frame_size << "}}";
  return line + o.str();
}

bool run_h2(const Testbed& testbed, const HttpSpec& spec, const TlsConfig& tls,
            const H2Config& h2) {
  if (spec.challenge || spec.paging || !spec.fault.empty()) {
    throw std::invalid_argument("--h2: challenge, paging and fault are HTTP/1.1's alone");
  }
  std::unique_ptr<TestPki> pki;
  if (tls.enabled()) pki = std::make_unique<TestPki>(tls, kTlsHost);
  H2Server server(testbed, tls, pki.get());
  std::printf(
      "{\"type\": \"http_context\", \"library\": \"nghttp2\", \"version\": %s, \"stack\": %s, "
      "\"tls\": %s, \"h2\": %s, \"openssl\": %s}\n",
      json_string(nghttp2_version(0)->version_str).c_str(), json_string(h2.stack(tls)).c_str(),
      tls.json().c_str(), h2.json().c_str(), json_string(OpenSSL_version(OPENSSL_VERSION)).c_str());
  bool ok = true;
  run_in(testbed.namespace_name(Side::kClient), [&] {
    ok = warm_up(testbed, spec, [&](int i) {
      H2Client once(testbed, tls, pki.get(), h2);  // its connection closes with it
      const H2Result r = once.get(spec, 1).front();
      return std::pair{r.json(spec, "warmup", i), r.ok()};
    });
    H2Client client(testbed, tls, pki.get(), h2);
    for (int i = 0; i < spec.requests;) {
      const int n = std::min(h2.streams, spec.requests - i);
      for (const H2Result& r : client.get(spec, n)) {
        std::printf("%s\n", r.json(spec, "http", i).c_str());
        if (!r.ok()) {
          ok = false;
          std::fprintf(stderr, "wirebench_wire: request %d: %s\n", i, r.http.error.c_str());
        }
        ++i;
      }
      std::fflush(stdout);
    }
  });
  for (const auto& e : server.take_errors()) {
    std::printf("{\"type\": \"http_server_error\", \"error\": %s}\n", json_string(e).c_str());
  }
  std::fflush(stdout);
  return ok;
}

}  // namespace wire
