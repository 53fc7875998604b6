#include "wire/h2_socket.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "wire/http_client.hpp"
#include "wire/http_server.hpp"
#include "wire/link.hpp"
#include "wire/tls_error.hpp"

namespace wire {
namespace {

constexpr unsigned char kAlpnH2[] = {2, 'h', '2'};

int select_h2(SSL* /*ssl*/, const unsigned char** out, unsigned char* outlen,
              const unsigned char* in, unsigned int inlen, void* /*arg*/) {
  unsigned char* chosen = nullptr;
  if (SSL_select_next_proto(&chosen, outlen, kAlpnH2, sizeof kAlpnH2, in, inlen) !=
      OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_ALERT_FATAL;  // no_application_protocol
  }
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

SslCtx new_context(const SSL_METHOD* method) {
  SslCtx ctx(SSL_CTX_new(method));
  if (!ctx) throw_openssl_error("TLS context", "SSL_CTX_new");
  return ctx;
}

}  // namespace

void SslCtxFree::operator()(SSL_CTX* ctx) const {
  SSL_CTX_free(ctx);
}

SslCtx h2_server_context(const TlsConfig& tls, const TestPki& pki) {
  SslCtx ctx = new_context(TLS_server_method());
  setup_tls_server(ctx.get(), tls, pki);
  SSL_CTX_set_alpn_select_cb(ctx.get(), select_h2, nullptr);
  return ctx;
}

SslCtx h2_client_context(const TlsConfig& tls, const TestPki& pki, TlsSessions* sessions) {
  SslCtx ctx = new_context(TLS_client_method());
  setup_tls_client(ctx.get(), tls, pki, sessions);
  // 0 is success here, unlike OpenSSL's other calls.
  if (SSL_CTX_set_alpn_protos(ctx.get(), kAlpnH2, sizeof kAlpnH2) != 0) {
    throw_openssl_error("TLS context", "ALPN");
  }
  return ctx;
}

H2Socket::H2Socket(Fd fd, SSL_CTX* ctx, std::chrono::milliseconds timeout)
    : fd_(std::move(fd)), timeout_(timeout) {
  set_socket_timeouts(fd_.get(), timeout_);
  int yes = 1;
  ::setsockopt(fd_.get(), IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  if (ctx) {
    ssl_ = SSL_new(ctx);
    if (!ssl_ || SSL_set_fd(ssl_, fd_.get()) != 1) throw_openssl_error("TLS", "SSL_new");
  }
}

H2Socket::~H2Socket() {
  SSL_free(ssl_);
}

void H2Socket::fail(const std::string& what, int ret) {
  const int e = errno;
  if (ssl_) {
    const int kind = SSL_get_error(ssl_, ret);
    if (kind == SSL_ERROR_SSL) throw_openssl_error("TLS", what);
    if (kind == SSL_ERROR_ZERO_RETURN) throw std::runtime_error(what + ": the peer closed TLS");
  }
  if (e == EAGAIN || e == EWOULDBLOCK) {
    throw std::runtime_error(what + ": nothing within the " + std::to_string(timeout_.count()) +
                             " ms timeout");
  }
  throw std::runtime_error(what + ": " + (e ? std::strerror(e) : "the connection closed"));
}

void H2Socket::accept() {
  if (!ssl_) return;
  errno = 0;
  if (const int ret = SSL_accept(ssl_); ret != 1) {
    const std::string failure = this_thread_handshake().failure;
    if (!failure.empty()) throw std::runtime_error("TLS handshake failed: " + failure);
    fail("TLS handshake", ret);
  }
}

void H2Socket::connect() {
  if (!ssl_) return;
  SSL_set_tlsext_host_name(ssl_, kTlsHost);
  errno = 0;
  if (const int ret = SSL_connect(ssl_); ret != 1) {
    const std::string failure = this_thread_handshake().failure;
    const std::string head = "TLS handshake with " + std::string(kTlsHost) + " failed";
    if (!failure.empty()) throw std::runtime_error(head + ": " + failure);
    fail(head, ret);
  }
  const unsigned char* proto = nullptr;
  unsigned int len = 0;
  SSL_get0_alpn_selected(ssl_, &proto, &len);
  if (len != 2 || std::memcmp(proto, "h2", 2) != 0) {
    throw std::runtime_error("TLS handshake with " + std::string(kTlsHost) +
                             ": the server chose no \"h2\" by ALPN");
  }
}

std::size_t H2Socket::read_some(char* buf, std::size_t size) {
  errno = 0;
  if (ssl_) {
    const int n = SSL_read(ssl_, buf, static_cast<int>(size));
    if (n > 0) return static_cast<std::size_t>(n);
    if (SSL_get_error(ssl_, n) == SSL_ERROR_ZERO_RETURN) return 0;
    if (SSL_get_error(ssl_, n) == SSL_ERROR_SYSCALL && errno == 0) return 0;
    fail("read", n);
  }
  const ssize_t n = ::recv(fd_.get(), buf, size, 0);
  if (n >= 0) return static_cast<std::size_t>(n);
  fail("read", -1);
}

void H2Socket::write_all(const char* data, std::size_t size) {
  while (size > 0) {
    errno = 0;
    std::size_t n = 0;
    if (ssl_) {
      const int ret = SSL_write(ssl_, data, static_cast<int>(size));
      if (ret <= 0) fail("write", ret);
      n = static_cast<std::size_t>(ret);
    } else {
      const ssize_t ret = ::send(fd_.get(), data, size, MSG_NOSIGNAL);
      if (ret < 0) fail("write", -1);
      n = static_cast<std::size_t>(ret);
    }
    data += n;
    size -= n;
  }
}

void H2Socket::shutdown() {
  if (ssl_) SSL_shutdown(ssl_);
  ::shutdown(fd_.get(), SHUT_RDWR);
}

Fd connect_blocking(const Testbed& testbed, std::uint16_t port, std::int64_t& started_ns,
                    double& connect_ms) {
  started_ns = monotonic_ns();
  Fd fd = connect_raw(testbed, 0, port);
  connect_ms = static_cast<double>(monotonic_ns() - started_ns) / 1e6;
  // Blocking from here: reads and writes wait up to SO_RCVTIMEO / SO_SNDTIMEO.
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace wire
