#pragma once

// The HTTP/1.1 client in the client namespace (cpp-httplib): one kept-alive
// connection to the HttpServer, GET /rows per request, then the body
// decompressed and decoded with the spec's parser and the rows checked
// against the page's records. Every failure (connection, timeout, a status
// other than 200, a short body, a bad payload, rows that differ) ends that
// request with its error in HttpResult::error; the next request reconnects.

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "wire/http_payload.hpp"
#include "wire/http_spec.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_config.hpp"
#include "wire/tls_handshake.hpp"

namespace httplib {
class ClientImpl;
}  // namespace httplib

namespace wire {

class EarlyDataClient;

// One request, times in ms. The start is the request's send, or the connect()
// call when the request opened the connection.
struct HttpResult {
  bool new_connection = false;
  double handshake_ms = 0;        // new connection: connect() to established
  std::string congestion;         // getsockopt TCP_CONGESTION of the client's end
  std::string server_congestion;  // of the server's end (X-Wb-Server-Congestion)
  int status = 0;                 // of the last attempt; 0: none received
  int attempts = 1;               // 2 after a 401 challenge and the retry with credentials
  double challenge_ms = 0;        // the 401 round trip, when there was one
  double first_byte_ms = 0;       // response head of the answer received
  double last_byte_ms = 0;
  double decompress_ms = 0, decode_ms = 0;
  double total_ms = 0;                                  // last byte + decompress + decode
  double server_encode_ms = 0, server_compress_ms = 0;  // from the response headers
  std::uint64_t body_bytes = 0, raw_bytes = 0;          // as sent; after decompression
  std::string content_type;                             // of the answer
  int rows = 0;                                         // decoded
  bool checked = false;                                 // the decoded rows equal the page's records
  std::string next_link;  // the decoder read it from the payload (paging): the page to follow
  std::uint64_t link_drops = 0;
  std::string stack;  // "http1", "http1+tls1.3", ... (TlsConfig::stack)
  double rtt_ms = 0;  // the link's, for the handshake's round trips by time
  // A new TLS connection: the client's side of its handshake, and the
  // server's (from the X-Wb-Tls-Server-* headers of the answer).
  TlsHandshake tls;
  double server_tls_cpu_ms = 0;
  bool server_tls_resumed = false;
  std::uint64_t server_first_flight_sent = 0;
  // TLS 1.3 0-RTT (TlsConfig::early_data): "accepted", "rejected" or
  // "not_sent" on each end, the request's bytes as early data, and whether
  // a rejected request was sent again after the handshake.
  std::string early_data, server_early_data;
  std::uint64_t early_data_bytes = 0;
  bool early_data_resent = false;
  std::string error;  // empty: the request succeeded

  bool ok() const { return error.empty(); }
  // {"type": "http_request", "series": ..., "index": ..., ...}; "tls" is an
  // object on a request that opened a TLS connection, null otherwise.
  std::string json(const HttpSpec& spec, const std::string& series, int index) const;
  std::string tls_json() const;
};

class HttpClient {
 public:
  // Use from a thread in the client namespace (run_in, enter_namespace):
  // connections are made in the calling thread's namespace. Over TLS when
  // tls is enabled, trusting pki's root alone and verifying kTlsHost
  // (wire/tls_handshake.hpp). Throws std::runtime_error when TLS cannot be
  // set up.
  explicit HttpClient(const Testbed& testbed, const TlsConfig& tls = {},
                      const TestPki* pki = nullptr);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // One request for spec (validated) on the kept-alive connection, or on a
  // new one with spec.reconnect (always with TLS early data).
  HttpResult get(const HttpSpec& spec);
  // The request a next link asks for (HttpResult::next_link of a page of
  // base), as a client library pages: the link's own path and query, checked
  // against the page it names.
  HttpResult follow(const HttpSpec& base, const std::string& link);
  // Closes the connection; the next get() opens a new one (resuming the
  // last TLS session with TlsConfig::resume).
  void close();

  // What cpp-httplib's connect hook saw of the last connection it opened.
  struct ConnectLog {
    bool connected = false;  // since the last request took it
    double handshake_ms = 0;
    std::string congestion;
  };

 private:
  std::unique_ptr<httplib::ClientImpl> make_connection();
  HttpResult fetch(const HttpSpec& spec, const std::string& path);

  const Testbed& testbed_;
  TlsConfig tls_;
  const TestPki* pki_;
  std::unique_ptr<TlsSessions> sessions_;  // outlives every connection's context
  ConnectLog log_;
  bool used_ = false;  // a request went on the current connection
  std::unique_ptr<httplib::ClientImpl> conn_;
  std::unique_ptr<EarlyDataClient> early_;  // TlsConfig::early_data: every request, not conn_
  BodyChecker checker_;
};

// A connect() with a timeout from a non-blocking socket of the client
// namespace to the server's port (a receive buffer of rcvbuf bytes when > 0).
// Throws std::runtime_error.
Fd connect_raw(const Testbed& testbed, int rcvbuf, std::uint16_t port = kHttpPort);

// The faults a server meets, each against a running HttpServer: a request
// line that is not HTTP (returns the status line of the answer, or the
// error), and a client that sends a request for spec and stops reading for
// hold_ms before closing.
std::string send_garbage(const Testbed& testbed);
void stop_reading(const Testbed& testbed, const HttpSpec& spec, int hold_ms);

}  // namespace wire
