#pragma once

// The byte stream under an HTTP/2 session: a TCP connection of the testbed,
// plain (h2c) or through OpenSSL with ALPN "h2", with blocking reads and
// writes that give up after the exchange's I/O timeout. The TLS contexts are
// the HTTP/1.1 exchange's (setup_tls_server, setup_tls_client: the run's
// test CA, one version and cipher, verification on, the handshake's figures
// in this_thread_handshake()) with ALPN added.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "wire/fd.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_config.hpp"
#include "wire/tls_handshake.hpp"

typedef struct ssl_st SSL;

namespace wire {

class TestPki;

struct SslCtxFree {
  void operator()(SSL_CTX* ctx) const;
};
using SslCtx = std::unique_ptr<SSL_CTX, SslCtxFree>;

// The server's context: selects "h2" from the client's ALPN list and ends
// the handshake with no_application_protocol without it. Throws
// std::runtime_error.
SslCtx h2_server_context(const TlsConfig& tls, const TestPki& pki);
// The client's context: offers "h2" alone; sessions as setup_tls_client.
SslCtx h2_client_context(const TlsConfig& tls, const TestPki& pki, TlsSessions* sessions);

class H2Socket {
 public:
  // Plain when ctx is null. The handshake runs in accept() or connect().
  H2Socket(Fd fd, SSL_CTX* ctx, std::chrono::milliseconds timeout);
  ~H2Socket();
  H2Socket(const H2Socket&) = delete;
  H2Socket& operator=(const H2Socket&) = delete;

  // The server's TLS handshake (nothing when plain); throws
  // std::runtime_error with OpenSSL's reason, or when ALPN chose no "h2".
  void accept();
  // The client's, for kTlsHost (SNI and the verified name), likewise.
  void connect();
  // Bytes that were there, or that came within the timeout; 0 at the end of
  // the stream. Throws std::runtime_error on an error or the timeout.
  std::size_t read_some(char* buf, std::size_t size);
  void write_all(const char* data, std::size_t size);
  // Sends close_notify over TLS, then shuts the socket down both ways.
  void shutdown();
  int fd() const { return fd_.get(); }

 private:
  [[noreturn]] void fail(const std::string& what, int ret);

  Fd fd_;
  SSL* ssl_ = nullptr;
  std::chrono::milliseconds timeout_;
};

// A blocking connection from the client namespace's socket to the server's
// port, with Nagle off; connect_ms is set to the time connect() took.
Fd connect_blocking(const Testbed& testbed, std::uint16_t port, std::int64_t& started_ns,
                    double& connect_ms);

}  // namespace wire
