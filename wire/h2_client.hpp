#pragma once

// The HTTP/2 client in the client namespace (nghttp2's client session on
// H2Socket): GET /rows per request on one connection, several at once as
// concurrent streams, each answer decoded and checked as HttpClient checks
// it (BodyChecker). It counts what HTTP/2 adds, per stream: HPACK header
// blocks each way, frames and their 9-byte headers, DATA, the WINDOW_UPDATEs
// it sends, and the windows in effect.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wire/h2_config.hpp"
#include "wire/h2_socket.hpp"
#include "wire/http_client.hpp"
#include "wire/http_payload.hpp"
#include "wire/testbed.hpp"

namespace wire {

// What HTTP/2 added to one request.
struct H2Stream {
  std::int32_t stream_id = 0;
  int concurrent = 1;  // streams of the batch it went out with
  // HEADERS (and CONTINUATION) payloads: the HPACK blocks, and the header
  // fields they carry as name + value bytes.
  std::uint64_t request_header_block_bytes = 0, response_header_block_bytes = 0;
  std::uint64_t request_header_field_bytes = 0, response_header_field_bytes = 0;
  // Frames on this stream each way; every one has a 9-byte header.
  int frames_sent = 0, frames_received = 0;
  int data_frames = 0;
  std::uint64_t data_bytes = 0;  // DATA payloads received
  // WINDOW_UPDATEs the client sent for this stream, and for the connection
  // (stream 0) while it was open (shared with the streams open beside it).
  int stream_window_updates = 0, connection_window_updates = 0;
  // The client's windows as set, and the server's SETTINGS_MAX_FRAME_SIZE.
  std::uint32_t stream_window = 0, connection_window = 0, server_max_frame_size = 0;

  std::uint64_t frame_header_bytes() const { return 9ull * (frames_sent + frames_received); }
};

struct H2Result {
  HttpResult http;  // the times, bytes, rows and check as for HTTP/1.1
  H2Stream h2;
  bool ok() const { return http.ok(); }
  // The HTTP/1.1 line's fields with "protocol" ("h2" or "h2c") and an "h2"
  // object of H2Stream's.
  std::string json(const HttpSpec& spec, const std::string& series, int index) const;
};

class H2Client {
 public:
  // Use from a thread in the client namespace. Over TLS with ALPN h2 when
  // tls is enabled (trusting pki's root alone, verifying kTlsHost), else h2c.
  H2Client(const Testbed& testbed, const TlsConfig& tls, const TestPki* pki, const H2Config& h2);
  ~H2Client();
  H2Client(const H2Client&) = delete;
  H2Client& operator=(const H2Client&) = delete;

  // count requests for spec as concurrent streams, on the open connection or
  // a new one (always a new one with spec.reconnect); results in order. A
  // connection error fails every stream open on it and closes it.
  std::vector<H2Result> get(const HttpSpec& spec, int count = 1);
  void close();

  struct Connection;  // h2_client.cpp

 private:
  void open();

  const Testbed& testbed_;
  TlsConfig tls_;
  H2Config h2_;
  std::unique_ptr<TlsSessions> sessions_;
  SslCtx ctx_;
  std::unique_ptr<Connection> conn_;
  BodyChecker checker_;
};

// The --http run with --h2: spec.requests requests in batches of
// h2.streams concurrent streams, on one connection (or a new one per batch,
// spec.reconnect), one "http_request" line each; false when one failed.
bool run_h2(const Testbed& testbed, const HttpSpec& spec, const TlsConfig& tls, const H2Config& h2);

}  // namespace wire
