#include "wire/tls_early_data.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstring>
#include <memory>
#include <stdexcept>

#include "wire/http_client.hpp"
#include "wire/http_server.hpp"
#include "wire/link.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_error.hpp"

namespace wire {
namespace {

struct SslFree {
  void operator()(SSL* ssl) const { SSL_free(ssl); }
};
using Ssl = std::unique_ptr<SSL, SslFree>;

double ms_since(std::int64_t from_ns) {
  return static_cast<double>(monotonic_ns() - from_ns) / 1e6;
}

// Writes all of data with SSL_write (blocking socket); false on an error.
bool ssl_write_all(SSL* ssl, const std::string& data) {
  std::size_t written = 0;
  return SSL_write_ex(ssl, data.data(), data.size(), &written) == 1 && written == data.size();
}

// The next piece of the answer: > 0 bytes, 0 at its end, < 0 on an error.
// SSL_MODE_AUTO_RETRY is off, so a record that holds no data (a ticket)
// returns here, and the read is retried.
int ssl_read_some(SSL* ssl, char* buf, int size) {
  for (;;) {
    const int n = SSL_read(ssl, buf, size);
    if (n > 0) return n;
    const int kind = SSL_get_error(ssl, n);
    if (kind == SSL_ERROR_WANT_READ) continue;
    return kind == SSL_ERROR_ZERO_RETURN ? 0 : -1;
  }
}

// "HTTP/1.1 200 OK\r\nKey: value\r\n..." (without the blank line) into res;
// false when it is not a response head.
bool parse_head(const std::string& head, httplib::Response& res) {
  std::size_t eol = head.find("\r\n");
  const std::string status = head.substr(0, eol);
  if (status.rfind("HTTP/1.", 0) != 0 || status.size() < 12) return false;
  res.version = status.substr(0, 8);
  res.status = std::atoi(status.c_str() + 9);
  res.reason = status.size() > 13 ? status.substr(13) : "";
  while (eol != std::string::npos && eol + 2 < head.size()) {
    const std::size_t from = eol + 2;
    eol = head.find("\r\n", from);
    const std::string line = head.substr(from, eol == std::string::npos ? eol : eol - from);
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) return false;
    const std::size_t value = line.find_first_not_of(' ', colon + 1);
    res.headers.emplace(line.substr(0, colon),
                        value == std::string::npos ? "" : line.substr(value));
  }
  return res.status > 0;
}

}  // namespace

std::string early_data_status(const SSL* ssl) {
  switch (SSL_get_early_data_status(ssl)) {
    case SSL_EARLY_DATA_ACCEPTED:
      return "accepted";
    case SSL_EARLY_DATA_REJECTED:
      return "rejected";
    default:
      return "not_sent";
  }
}

EarlyDataClient::EarlyDataClient(const Testbed& testbed, const TlsConfig& tls, const TestPki& pki,
                                 TlsSessions* sessions)
    : testbed_(testbed), sessions_(sessions), ctx_(SSL_CTX_new(TLS_client_method())) {
  if (!ctx_) throw_openssl_error("TLS context", "SSL_CTX_new");
  try {
    setup_tls_client(ctx_, tls, pki, sessions);
  } catch (...) {
    SSL_CTX_free(ctx_);
    throw;
  }
}

EarlyDataClient::~EarlyDataClient() {
  SSL_CTX_free(ctx_);
}

httplib::Result EarlyDataClient::get(const std::string& path, const httplib::Headers& headers,
                                     EarlyDataCall& call, const httplib::ResponseHandler& on_head,
                                     const httplib::ContentReceiver& on_body) {
  using httplib::Error;
  auto failed = [](Error e) { return httplib::Result(nullptr, e); };
  const std::uint64_t kept = sessions_->kept();  // tickets before this connection's
  const std::int64_t t0 = monotonic_ns();
  Fd fd;
  try {
    fd = connect_raw(testbed_, 0);
  } catch (const std::runtime_error&) {
    return failed(Error::Connection);
  }
  call.connected = true;
  call.connect_ms = ms_since(t0);
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  set_socket_timeouts(fd.get(), http_io_timeout(testbed_));
  int yes = 1;
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  char name[16] = {};
  socklen_t len = sizeof name;
  if (::getsockopt(fd.get(), IPPROTO_TCP, TCP_CONGESTION, name, &len) == 0) {
    call.congestion.assign(name, strnlen(name, sizeof name));
  }

  Ssl ssl(SSL_new(ctx_));
  if (!ssl || SSL_set_fd(ssl.get(), fd.get()) != 1) return failed(Error::SSLConnection);
  SSL_clear_mode(ssl.get(), SSL_MODE_AUTO_RETRY);
  SSL_set_tlsext_host_name(ssl.get(), kTlsHost);
  std::string request = "GET " + path + " HTTP/1.1\r\nHost: " + kTlsHost + ":" +
                        std::to_string(kHttpPort) + "\r\nAccept: */*\r\n";
  for (const auto& [key, value] : headers) request += key + ": " + value + "\r\n";
  request += "Connection: close\r\n\r\n";
  SSL_SESSION* session = sessions_->to_resume();
  if (session) SSL_set_session(ssl.get(), session);
  if (session && SSL_SESSION_get_max_early_data(session) >= request.size()) {
    std::size_t written = 0;
    if (SSL_write_early_data(ssl.get(), request.data(), request.size(), &written) != 1) {
      return failed(Error::SSLConnection);
    }
    call.early_data_bytes = written;
  }
  if (SSL_connect(ssl.get()) != 1) return failed(Error::SSLConnection);
  call.early_data = early_data_status(ssl.get());
  // A rejected request never reached the server's handler: it goes again,
  // now protected by the handshake, as any 0-RTT client must.
  if (call.early_data != "accepted") {
    call.resent = call.early_data_bytes > 0;
    if (!ssl_write_all(ssl.get(), request)) return failed(Error::Write);
  }

  std::string got;
  char buf[16384];
  std::size_t head_end;
  while ((head_end = got.find("\r\n\r\n")) == std::string::npos) {
    const int n = ssl_read_some(ssl.get(), buf, sizeof buf);
    if (n <= 0) return failed(Error::Read);
    got.append(buf, static_cast<std::size_t>(n));
  }
  auto res = std::make_unique<httplib::Response>();
  if (!parse_head(got.substr(0, head_end), *res) || !res->has_header("Content-Length")) {
    return failed(Error::Read);
  }
  if (!on_head(*res)) return failed(Error::Canceled);
  const std::uint64_t length =
      std::strtoull(res->get_header_value("Content-Length").c_str(), nullptr, 10);
  std::uint64_t body = got.size() - head_end - 4;
  if (body > 0 && !on_body(got.data() + head_end + 4, body)) return failed(Error::Canceled);
  while (body < length) {
    const int n = ssl_read_some(ssl.get(), buf, sizeof buf);
    if (n <= 0) return failed(Error::Read);
    body += static_cast<std::uint64_t>(n);
    if (!on_body(buf, static_cast<std::size_t>(n))) return failed(Error::Canceled);
  }
  // The next connection needs a fresh ticket (single-use under the server's
  // anti-replay); after 0-RTT it comes after the answer, so the call, timed
  // to its last byte, is over before this wait.
  while (sessions_->kept() == kept && ssl_read_some(ssl.get(), buf, sizeof buf) > 0) {
  }
  SSL_shutdown(ssl.get());  // close_notify
  return httplib::Result(std::move(res), Error::Success);
}

EarlyDataStream::EarlyDataStream(int sock, SSL_CTX* ctx, std::chrono::milliseconds timeout)
    : sock_(sock), ssl_(SSL_new(ctx)), timeout_(timeout) {
  if (ssl_) SSL_set_fd(ssl_, sock_);
}

EarlyDataStream::~EarlyDataStream() {
  SSL_free(ssl_);
}

bool EarlyDataStream::accept() {
  if (!ssl_) return false;
  char buf[4096];
  std::size_t n = 0;
  switch (SSL_read_early_data(ssl_, buf, sizeof buf, &n)) {
    case SSL_READ_EARLY_DATA_SUCCESS:
      early_ = true;
      pending_.assign(buf, n);
      return true;
    case SSL_READ_EARLY_DATA_FINISH:  // none, or rejected: the handshake ends first
      return SSL_do_handshake(ssl_) == 1;
    default:
      return false;
  }
}

bool EarlyDataStream::wait_readable(std::chrono::milliseconds timeout) const {
  if (!pending_.empty() || SSL_pending(ssl_) > 0) return true;
  pollfd p{sock_, POLLIN, 0};
  return ::poll(&p, 1, static_cast<int>(timeout.count())) == 1;
}

void EarlyDataStream::shutdown() {
  if (!ssl_) return;
  // The handshake ends before the connection: the rest of the early data,
  // the client's Finished, then the tickets the client waits for.
  char buf[4096];
  std::size_t n = 0;
  while (early_) {
    const int got = SSL_read_early_data(ssl_, buf, sizeof buf, &n);
    if (got == SSL_READ_EARLY_DATA_ERROR) return;
    early_ = got == SSL_READ_EARLY_DATA_SUCCESS;
  }
  if (SSL_is_init_finished(ssl_) || SSL_do_handshake(ssl_) == 1) SSL_shutdown(ssl_);
}

bool EarlyDataStream::is_readable() const {
  return wait_readable(timeout_);
}

bool EarlyDataStream::is_writable() const {
  pollfd p{sock_, POLLOUT, 0};
  return ::poll(&p, 1, static_cast<int>(timeout_.count())) == 1 && !(p.revents & POLLERR);
}

ssize_t EarlyDataStream::read(char* ptr, size_t size) {
  if (!pending_.empty()) {
    const std::size_t n = std::min(size, pending_.size());
    std::memcpy(ptr, pending_.data(), n);
    pending_.erase(0, n);
    return static_cast<ssize_t>(n);
  }
  if (early_) {
    std::size_t n = 0;
    const int got = SSL_read_early_data(ssl_, ptr, size, &n);
    if (got == SSL_READ_EARLY_DATA_SUCCESS) return static_cast<ssize_t>(n);
    if (got == SSL_READ_EARLY_DATA_ERROR) return -1;
    // EndOfEarlyData: the client's Finished follows.
    early_ = false;
    if (SSL_do_handshake(ssl_) != 1) return -1;
  }
  std::size_t n = 0;
  if (SSL_read_ex(ssl_, ptr, size, &n) == 1) return static_cast<ssize_t>(n);
  return SSL_get_error(ssl_, 0) == SSL_ERROR_ZERO_RETURN ? 0 : -1;
}

ssize_t EarlyDataStream::write(const char* ptr, size_t size) {
  std::size_t n = 0;
  const int ok =
      early_ ? SSL_write_early_data(ssl_, ptr, size, &n) : SSL_write_ex(ssl_, ptr, size, &n);
  return ok == 1 ? static_cast<ssize_t>(n) : -1;
}

namespace {

void address_of(int sock, bool remote, std::string& ip, int& port) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  const int got = remote ? ::getpeername(sock, reinterpret_cast<sockaddr*>(&addr), &len)
                         : ::getsockname(sock, reinterpret_cast<sockaddr*>(&addr), &len);
  if (got != 0) return;
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &addr.sin_addr, text, sizeof text);
  ip = text;
  port = ntohs(addr.sin_port);
}

}  // namespace

void EarlyDataStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  address_of(sock_, true, ip, port);
}

void EarlyDataStream::get_local_ip_and_port(std::string& ip, int& port) const {
  address_of(sock_, false, ip, port);
}

}  // namespace wire
