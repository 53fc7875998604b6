#include "wire/http_client.hpp"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>

#include "wire/http_server.hpp"
#include "wire/link.hpp"
#include "wire/tls_early_data.hpp"
#include "wire/tls_handshake.hpp"

namespace wire {
namespace {

double ms_between(std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e6;
}

double header_ms(const httplib::Response& res, const char* key) {
  const std::string v = res.get_header_value(key);
  return v.empty() ? 0 : std::strtod(v.c_str(), nullptr);
}

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find_first_of("\r\n"));
  if (line.size() > 200) line.replace(200, std::string::npos, "...");
  return line;
}

std::uint64_t drops(const Testbed& testbed) {
  const auto& f = testbed.forwarder();
  return f.stats(Direction::kClientToServer).packets_dropped +
         f.stats(Direction::kServerToClient).packets_dropped;
}

void send_all(const Testbed& testbed, const Fd& fd, const std::string& bytes) {
  const int timeout_ms = static_cast<int>(http_io_timeout(testbed).count());
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    pollfd p{fd.get(), POLLOUT, 0};
    if (::poll(&p, 1, timeout_ms) != 1) throw std::runtime_error("send: timed out");
    const ssize_t n = ::send(fd.get(), bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN) throw std::runtime_error(std::string("send: ") + strerror(errno));
    if (n > 0) sent += static_cast<std::size_t>(n);
  }
}

}  // namespace

Fd connect_raw(const Testbed& testbed, int rcvbuf, std::uint16_t port) {
  Fd fd = testbed.tcp_socket(Side::kClient);
  if (rcvbuf > 0) ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  ::inet_pton(AF_INET, kServerAddress, &addr.sin_addr);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 &&
      errno != EINPROGRESS) {
    throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
  }
  pollfd p{fd.get(), POLLOUT, 0};
  const int timeout_ms = static_cast<int>(http_io_timeout(testbed).count());
  int err = 0;
  socklen_t len = sizeof err;
  if (::poll(&p, 1, timeout_ms) != 1 ||
      ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
    throw std::runtime_error("connect: " + std::string(err ? std::strerror(err) : "timed out"));
  }
  return fd;
}

// cpp-httplib's client (plain or TLS) with the connect timed: it opens
// connections itself (on the first request and after the server closed one),
// and this is the hook it calls to do so. SSLClient's own hook is private;
// it checks is_valid() and calls ClientImpl's, as this one does, and the TLS
// handshake follows in cpp-httplib either way.
using ConnectLog = HttpClient::ConnectLog;

template <class Base>
class TimedConnect : public Base {
 public:
  template <class... Args>
  explicit TimedConnect(ConnectLog& log, Args&&... args)
      : Base(std::forward<Args>(args)...), log_(log) {}

 protected:
  bool create_and_connect_socket(httplib::ClientImpl::Socket& socket,
                                 httplib::Error& error) override {
    const std::int64_t t0 = monotonic_ns();
    if (!this->is_valid() || !httplib::ClientImpl::create_and_connect_socket(socket, error)) {
      return false;
    }
    log_.handshake_ms = ms_between(t0, monotonic_ns());
    char name[16] = {};
    socklen_t len = sizeof name;
    log_.congestion.clear();
    if (::getsockopt(socket.sock, IPPROTO_TCP, TCP_CONGESTION, name, &len) == 0) {
      log_.congestion.assign(name, strnlen(name, sizeof name));
    }
    log_.connected = true;
    return true;
  }

 private:
  ConnectLog& log_;
};

HttpClient::HttpClient(const Testbed& testbed, const TlsConfig& tls, const TestPki* pki)
    : testbed_(testbed), tls_(tls), pki_(pki) {
  if (tls_.enabled() && !pki_) throw std::invalid_argument("HTTP client: TLS needs a trust anchor");
  if (tls_.enabled()) sessions_ = std::make_unique<TlsSessions>(tls_.resume);
  conn_ = make_connection();
  if (tls_.early_data)
    early_ = std::make_unique<EarlyDataClient>(testbed, tls_, *pki_, sessions_.get());
}

std::unique_ptr<httplib::ClientImpl> HttpClient::make_connection() {
  std::unique_ptr<httplib::ClientImpl> conn;
  if (tls_.enabled()) {
    auto tls = std::make_unique<TimedConnect<httplib::SSLClient>>(log_, kTlsHost, kHttpPort);
    if (!tls->is_valid()) throw std::runtime_error("HTTP client: no TLS context");
    // The name resolves to the server without DNS: the namespaces have none.
    tls->set_hostname_addr_map({{kTlsHost, kServerAddress}});
    setup_tls_client(tls->ssl_context(), tls_, *pki_, sessions_.get());
    // The chain and the host name are verified by OpenSSL inside the
    // handshake (setup_tls_client: SSL_VERIFY_PEER, the run's root as the
    // only anchor, kTlsHost), which aborts it with an alert on a bad
    // certificate. cpp-httplib's own check comes after a handshake that it
    // lets through unverified, and first loads the system's CA bundle inside
    // the timed connect (with it on, the first byte of a cold TLS 1.3
    // request on wan came 150 ms later); it is turned off, the
    // verification is not.
    tls->enable_server_certificate_verification(false);
    conn = std::move(tls);
  } else {
    conn = std::make_unique<TimedConnect<httplib::ClientImpl>>(log_, kServerAddress, kHttpPort);
  }
  const auto timeout = http_io_timeout(testbed_);
  conn->set_connection_timeout(timeout);
  conn->set_read_timeout(timeout);
  conn->set_write_timeout(timeout);
  conn->set_keep_alive(true);
  conn->set_tcp_nodelay(true);
  // The body is decompressed here, timed, not inside the library.
  conn->set_decompress(false);
  conn->set_socket_options([timeout](socket_t sock) { set_socket_timeouts(sock, timeout); });
  return conn;
}

HttpClient::~HttpClient() = default;

void HttpClient::close() {
  conn_->stop();  // close_notify first over TLS
  used_ = false;
}

HttpResult HttpClient::get(const HttpSpec& spec) {
  return fetch(spec, "/rows?" + spec.query());
}

HttpResult HttpClient::follow(const HttpSpec& base, const std::string& link) {
  PageLink page;
  try {
    page = parse_next_link(base, link);
  } catch (const std::invalid_argument& e) {
    HttpResult r;
    r.error = e.what();
    return r;
  }
  return fetch(page.spec, page.path);
}

HttpResult HttpClient::fetch(const HttpSpec& spec, const std::string& path) {
  if (spec.reconnect && used_) close();
  used_ = true;
  HttpResult r;
  r.stack = tls_.stack();
  r.rtt_ms = testbed_.config().rtt_ms;
  const std::uint64_t drops_before = drops(testbed_);
  httplib::Headers headers = {{"Accept-Encoding", spec.encoding}};
  std::string body;
  std::int64_t head_ns = 0, last_ns = 0;
  std::string announced;  // Content-Length of the response head, when one came
  const std::int64_t start_ns = monotonic_ns();
  auto send = [&] {
    body.clear();
    const auto on_head = [&](const httplib::Response& head) {
      head_ns = monotonic_ns();
      announced = head.get_header_value("Content-Length");
      return true;
    };
    const auto on_body = [&](const char* data, std::size_t n) {
      body.append(data, n);
      last_ns = monotonic_ns();
      return true;
    };
    if (early_) {
      EarlyDataCall call;
      httplib::Result res = early_->get(path, headers, call, on_head, on_body);
      if (!call.connected) return res;
      r.new_connection = true;
      r.handshake_ms = call.connect_ms;
      r.congestion = call.congestion;
      r.tls = this_thread_handshake();
      r.early_data = call.early_data;
      r.early_data_bytes = call.early_data_bytes;
      r.early_data_resent = call.resent;
      return res;
    }
    httplib::Result res = conn_->Get(path, headers, on_head, on_body);
    if (log_.connected) {
      log_.connected = false;
      r.new_connection = true;
      r.handshake_ms = log_.handshake_ms;
      r.congestion = log_.congestion;
      // This thread ran the new connection's TLS handshake, if any.
      if (tls_.enabled()) r.tls = this_thread_handshake();
    }
    return res;
  };
  std::optional<httplib::Result> sent;
  sent.emplace(send());
  if (*sent && (*sent)->status == 401) {
    // No pre-authentication: the credentials go with a second request.
    r.challenge_ms = ms_between(start_ns, monotonic_ns());
    r.attempts = 2;
    headers.emplace("Authorization", kAuthorization);
    head_ns = last_ns = 0;
    sent.emplace(send());
  }
  const httplib::Result& res = *sent;
  r.link_drops = drops(testbed_) - drops_before;
  if (!res) {
    r.error = "HTTP exchange failed (" + httplib::to_string(res.error()) + ")";
    if (r.new_connection && tls_.enabled() && !r.tls.done) {
      r.error = "TLS handshake with " + std::string(kTlsHost) + " failed: " +
                (r.tls.failure.empty() ? httplib::to_string(res.error()) : r.tls.failure);
    }
    if (head_ns) {
      r.error += " after " + std::to_string(body.size()) + " of the " + announced +
                 " body bytes announced";
    }
    return r;
  }
  r.status = res->status;
  r.body_bytes = body.size();
  r.first_byte_ms = ms_between(start_ns, head_ns);
  r.last_byte_ms = ms_between(start_ns, last_ns ? last_ns : head_ns);
  if (res->status != 200) {
    r.error = "HTTP " + std::to_string(res->status) + ": " + first_line(body);
    return r;
  }
  r.server_encode_ms = header_ms(*res, "X-Wb-Encode-Ms");
  r.server_compress_ms = header_ms(*res, "X-Wb-Compress-Ms");
  r.server_congestion = res->get_header_value("X-Wb-Server-Congestion");
  if (r.new_connection && tls_.enabled()) {
    r.server_tls_cpu_ms = header_ms(*res, "X-Wb-Tls-Server-Cpu-Ms");
    r.server_tls_resumed = res->get_header_value("X-Wb-Tls-Server-Resumed") == "1";
    r.server_first_flight_sent =
        std::strtoull(res->get_header_value("X-Wb-Tls-Server-First-Flight").c_str(), nullptr, 10);
    r.server_early_data = res->get_header_value("X-Wb-Tls-Server-Early-Data");
  }
  checker_.check(spec, res->get_header_value("Content-Type"),
                 res->get_header_value("Content-Encoding"), body, r);
  r.total_ms = r.last_byte_ms + r.decompress_ms + r.decode_ms;
  return r;
}

std::string send_garbage(const Testbed& testbed) {
  try {
    Fd fd = connect_raw(testbed, 0);
    send_all(testbed, fd, "NOT HTTP AT ALL\r\n\r\n");
    std::string got;
    char buf[512];
    const int timeout_ms = static_cast<int>(http_io_timeout(testbed).count());
    while (got.find("\r\n") == std::string::npos) {
      pollfd p{fd.get(), POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) != 1) return "no answer within the timeout";
      const ssize_t n = ::recv(fd.get(), buf, sizeof buf, 0);
      if (n == 0) return got.empty() ? "closed without an answer" : first_line(got);
      if (n < 0 && errno != EAGAIN) return std::string("recv: ") + std::strerror(errno);
      if (n > 0) got.append(buf, static_cast<std::size_t>(n));
    }
    return first_line(got);
  } catch (const std::exception& e) {
    return e.what();
  }
}

void stop_reading(const Testbed& testbed, const HttpSpec& spec, int hold_ms) {
  // A small receive buffer (no autotuning) so the server's writes back up
  // after a few segments.
  Fd fd = connect_raw(testbed, 4096);
  send_all(testbed, fd,
           "GET /rows?" + spec.query() + " HTTP/1.1\r\nHost: " + kServerAddress +
               "\r\nAccept-Encoding: " + spec.encoding + "\r\n\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
}

}  // namespace wire
