#pragma once

// The HTTP/1.1 service in the server namespace (cpp-httplib): GET /rows with
// the query of an HttpSpec encodes the page with the named serializer on every
// request, as a service does, compresses it with the named content coding and
// sends it kept alive. The times it took travel back in response headers
// (X-Wb-Encode-Ms, X-Wb-Compress-Ms, X-Wb-Raw-Bytes), with the congestion
// control of the server's end of the connection (X-Wb-Server-Congestion), so
// that the client can report one line per request. A bad query is a 400, a missing credential a
// 401 (HttpSpec::challenge); a request the server cannot finish (the client
// stopped reading, the fault "die") ends that connection and is listed by
// take_errors(), never the server.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "generators/model.hpp"
#include "wire/http_payload.hpp"
#include "wire/http_spec.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_config.hpp"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace wire {

// The credentials of the challenge: "Basic " + base64("wirebench:wirebench").
inline constexpr char kAuthorization[] = "Basic d2lyZWJlbmNoOndpcmViZW5jaA==";

// Every blocking socket operation of the HTTP server and client gives up after
// this long without progress: max(5 s, 20 RTTs), as the raw transfers do.
std::chrono::milliseconds http_io_timeout(const Testbed& testbed);
// SO_SNDTIMEO and SO_RCVTIMEO of fd: a blocking send() or recv() gives up
// after timeout.
void set_socket_timeouts(int fd, std::chrono::milliseconds timeout);
// What every server of the testbed shares (the HTTP service, the relay, the
// SOAP receiver): keep-alive for the whole run, the I/O timeout on reads,
// writes and the sockets themselves, and Nagle off when nodelay.
void configure_server(httplib::Server& server, std::chrono::milliseconds timeout, bool nodelay);

class TestPki;

class HttpServer {
 public:
  // Binds kServerAddress:kHttpPort in the server namespace and serves on a
  // thread of its own, one thread per connection; over TLS when tls is
  // enabled, with pki's chain (wire/tls_handshake.hpp), and then every
  // answer also carries the server's side of its connection's handshake
  // (X-Wb-Tls-Server-Cpu-Ms, -Resumed, -First-Flight; -Early-Data with
  // TlsConfig::early_data, wire/tls_early_data.hpp). Throws
  // std::runtime_error when it cannot bind or set TLS up.
  explicit HttpServer(const Testbed& testbed, const TlsConfig& tls = {},
                      const TestPki* pki = nullptr);
  ~HttpServer();  // stops, joins
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Requests the server could not complete since the last call, one line each.
  std::vector<std::string> take_errors();

 private:
  void handle(const httplib::Request& req, httplib::Response& res);
  void add_error(std::string line);
  std::string congestion_of(int client_port);

  std::unique_ptr<httplib::Server> server_;
  std::chrono::milliseconds timeout_;
  bool tls_ = false;
  bool early_data_ = false;                // TLS 1.3 0-RTT (TlsConfig::early_data)
  std::mutex mutex_;                       // guards congestion_ and errors_
  std::map<int, std::string> congestion_;  // by the client's port
  PageStore pages_;
  std::vector<std::string> errors_;
  std::thread thread_;
};

}  // namespace wire
