#pragma once

// The HTTP/2 service in the server namespace (nghttp2's server session on
// H2Socket): GET /rows with an HttpSpec's query on any stream, answered as
// HttpServer answers it (the page encoded and compressed per request, the
// times in x-wb-* headers, with the TLS handshake's on a TLS connection),
// the body as DATA frames as fast as the client's windows let it. One thread
// per connection; a connection that fails ends alone and is listed by
// take_errors().

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "wire/fd.hpp"
#include "wire/h2_config.hpp"
#include "wire/h2_socket.hpp"
#include "wire/http_payload.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_config.hpp"

namespace wire {

class H2Server {
 public:
  // Listens on kServerAddress:kH2Port; over TLS (ALPN h2) when tls is
  // enabled, with pki's chain, else h2c. Throws std::runtime_error.
  H2Server(const Testbed& testbed, const TlsConfig& tls, const TestPki* pki);
  ~H2Server();  // stops, ends every connection, joins
  H2Server(const H2Server&) = delete;
  H2Server& operator=(const H2Server&) = delete;

  std::vector<std::string> take_errors();

  // For the connections' sessions (h2_server.cpp).
  PageStore& pages() { return pages_; }
  void add_error(std::string line);

 private:
  void accept_loop();
  void serve(Fd fd);

  std::chrono::milliseconds timeout_;
  SslCtx ctx_;
  Fd listen_;
  PageStore pages_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;  // guards errors_, open_ and threads_
  std::vector<std::string> errors_;
  std::vector<int> open_;  // the connections' sockets, shut down on stop
  std::vector<std::thread> threads_;
  std::thread acceptor_;
};

}  // namespace wire
