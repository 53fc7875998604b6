#include "wire/http_server.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <stdexcept>

#include "wire/http_payload.hpp"
#include "wire/link.hpp"
#include "wire/netns.hpp"
#include "wire/tls_early_data.hpp"
#include "wire/tls_handshake.hpp"

namespace wire {
namespace {

// One thread per connection: cpp-httplib's own pool has a fixed number of
// threads, and a kept-alive connection holds one for its whole life, so
// concurrent clients beyond it would queue behind each other.
class ThreadPerConnection : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override {
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.emplace_back(std::move(fn));
  }
  void shutdown() override {
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      threads.swap(threads_);
    }
    for (auto& t : threads) t.join();
  }

 private:
  std::mutex mutex_;
  std::vector<std::thread> threads_;
};

// cpp-httplib listens with a backlog of CPPHTTPLIB_LISTEN_BACKLOG, 5 as Debian
// compiles it into the library. Five pending handshakes are too few for a
// service that many clients reach at once: past them Linux answers with SYN
// cookies, or drops the SYN when cookies are off. listen() again on the bound
// socket raises the backlog; 511 is nginx's and Apache's default.
constexpr int kListenBacklog = 511;
template <class Base>
class Listener : public Base {
 public:
  using Base::Base;
  bool raise_backlog() { return ::listen(this->svr_sock_, kListenBacklog) == 0; }
};

// 0-RTT: SSLServer's own accept reads no early data (OpenSSL needs
// SSL_read_early_data for that), so with early data on each connection is
// accepted by an EarlyDataStream and its requests go through cpp-httplib's
// own handling (process_request), kept alive as SSLServer keeps them.
class EarlyDataServer : public Listener<httplib::SSLServer> {
 public:
  using Listener::Listener;

 private:
  bool process_and_close_socket(socket_t sock) override {
    const auto ms = [](time_t sec, time_t usec) {
      return std::chrono::milliseconds(sec * 1000 + usec / 1000);
    };
    bool ok = false;
    {
      EarlyDataStream strm(sock, ssl_context(), ms(read_timeout_sec_, read_timeout_usec_));
      if (strm.accept()) {
        ok = true;
        for (std::size_t left = keep_alive_max_count_;
             left > 0 && strm.wait_readable(ms(keep_alive_timeout_sec_, 0)); --left) {
          bool closed = false;
          if (!process_request(strm, left == 1, closed,
                               [&](httplib::Request& req) { req.ssl = strm.ssl(); }) ||
              closed) {
            break;
          }
        }
        strm.shutdown();
      }
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }
};

std::string ms_text(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
  return buf;
}

// Bytes per write into the socket: small enough that a fault or a stalled
// reader is seen within one timeout, large enough to keep the link busy.
constexpr std::size_t kWriteChunk = 64 * 1024;

}  // namespace

void set_socket_timeouts(int fd, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>(timeout.count() % 1000 * 1000);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

std::chrono::milliseconds http_io_timeout(const Testbed& testbed) {
  return std::chrono::milliseconds(
      static_cast<std::int64_t>(std::max(5000.0, 20 * testbed.config().rtt_ms)));
}

void configure_server(httplib::Server& server, std::chrono::milliseconds timeout, bool nodelay) {
  server.set_tcp_nodelay(nodelay);
  server.set_keep_alive_max_count(1'000'000);
  server.set_keep_alive_timeout(
      std::max<time_t>(30, std::chrono::duration_cast<std::chrono::seconds>(timeout).count()));
  server.set_read_timeout(timeout);
  server.set_write_timeout(timeout);
  // cpp-httplib waits for a socket to become writable within its write
  // timeout, then calls a blocking send() that can block for ever when the
  // client stops reading; SO_SNDTIMEO (and SO_RCVTIMEO) bound that call too.
  // Accepted sockets inherit them from the listener.
  server.set_socket_options([timeout](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    set_socket_timeouts(sock, timeout);
  });
}

HttpServer::HttpServer(const Testbed& testbed, const TlsConfig& tls, const TestPki* pki)
    : timeout_(http_io_timeout(testbed)), tls_(tls.enabled()), early_data_(tls.early_data) {
  std::function<bool()> raise_backlog;
  if (tls_) {
    if (!pki) throw std::invalid_argument("HTTP server: TLS needs a certificate chain");
    std::string failure;
    auto setup = [&](SSL_CTX& ctx) {
      try {
        setup_tls_server(&ctx, tls, *pki);
        return true;
      } catch (const std::runtime_error& e) {
        failure = e.what();
        return false;
      }
    };
    std::unique_ptr<Listener<httplib::SSLServer>> server;
    if (tls.early_data) {
      server = std::make_unique<EarlyDataServer>(setup);
    } else {
      server = std::make_unique<Listener<httplib::SSLServer>>(setup);
    }
    if (!server->is_valid()) throw std::runtime_error("HTTP server: " + failure);
    raise_backlog = [s = server.get()] { return s->raise_backlog(); };
    server_ = std::move(server);
  } else {
    auto server = std::make_unique<Listener<httplib::Server>>();
    raise_backlog = [s = server.get()] { return s->raise_backlog(); };
    server_ = std::move(server);
  }
  server_->new_task_queue = [] { return new ThreadPerConnection; };
  configure_server(*server_, timeout_, true);
  server_->Get("/rows",
               [this](const httplib::Request& req, httplib::Response& res) { handle(req, res); });
  const bool bound = run_in(testbed.namespace_name(Side::kServer),
                            [&] { return server_->bind_to_port(kServerAddress, kHttpPort); });
  if (!bound || !raise_backlog()) {
    throw std::runtime_error("HTTP server: cannot bind " + std::string(kServerAddress) + ":" +
                             std::to_string(kHttpPort));
  }
  // cpp-httplib's stop() ends a listen that has begun (it checks is_running)
  // and does nothing before: a server destroyed at once, as by a test that
  // skips, would then wait on its thread for ever. So the listen has begun,
  // or already returned, when the constructor does.
  const auto returned = std::make_shared<std::atomic<bool>>(false);
  thread_ = std::thread([this, returned] {
    server_->listen_after_bind();
    *returned = true;
  });
  while (!server_->is_running() && !*returned)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

HttpServer::~HttpServer() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::vector<std::string> HttpServer::take_errors() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(errors_, {});
}

void HttpServer::add_error(std::string line) {
  std::lock_guard<std::mutex> lock(mutex_);
  errors_.push_back(std::move(line));
}

std::string HttpServer::congestion_of(int client_port) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = congestion_.find(client_port); it != congestion_.end()) return it->second;
  }
  // cpp-httplib does not hand the accepted socket to a handler: it is the
  // socket of this process whose peer is the client's port. The route's
  // congctl, not the listener's setting, decides what an accepted
  // connection runs, so it is read from the connection itself; its send and
  // receive timeouts are set here too.
  std::string found = "unknown";
  for (int fd = 0; fd < 4096; ++fd) {
    sockaddr_in local{}, peer{};
    socklen_t local_len = sizeof local, peer_len = sizeof peer;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len) != 0 ||
        local.sin_family != AF_INET || ntohs(local.sin_port) != kHttpPort ||
        ::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0 ||
        ntohs(peer.sin_port) != client_port) {
      continue;
    }
    set_socket_timeouts(fd, timeout_);
    char name[16] = {};
    socklen_t len = sizeof name;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) == 0) {
      found.assign(name, strnlen(name, sizeof name));
    }
    break;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return congestion_[client_port] = found;
}

void HttpServer::handle(const httplib::Request& req, httplib::Response& res) {
  HttpSpec spec;
  try {
    apply_params(spec, req.params);
    validate(spec);
  } catch (const std::invalid_argument& e) {
    res.status = 400;
    res.set_content(std::string("bad request: ") + e.what() + "\n", "text/plain");
    return;
  }
  if (spec.challenge && req.get_header_value("Authorization") != kAuthorization) {
    res.status = 401;
    res.set_header("WWW-Authenticate", "Basic realm=\"wirebench\"");
    res.set_content("credentials required\n", "text/plain");
    return;
  }
  auto body = std::make_shared<std::string>();
  std::int64_t encode_ns = 0, compress_ns = 0;
  std::size_t raw_bytes = 0;
  try {
    EncodedBody encoded = encode_body(spec, *pages_.records_for(spec));
    encode_ns = encoded.encode_ns;
    compress_ns = encoded.compress_ns;
    raw_bytes = encoded.raw_bytes;
    if (!encoded.coding.empty()) res.set_header("Content-Encoding", encoded.coding);
    *body = std::move(encoded.body);
  } catch (const std::exception& e) {
    res.status = 500;
    res.set_content(std::string("encode failed: ") + e.what() + "\n", "text/plain");
    return;
  }
  res.set_header("X-Wb-Encode-Ms", ms_text(encode_ns));
  res.set_header("X-Wb-Compress-Ms", ms_text(compress_ns));
  res.set_header("X-Wb-Raw-Bytes", std::to_string(raw_bytes));
  res.set_header("X-Wb-Rows", std::to_string(spec.page_rows()));
  res.set_header("X-Wb-Server-Congestion", congestion_of(req.remote_port));
  if (tls_) {
    // This thread ran the connection's handshake before its requests.
    // With early data the handshake is not yet done: the client's Finished
    // comes after this answer, and the CPU is the handshake's so far.
    const TlsHandshake& h = this_thread_handshake();
    const double cpu_ms = this_thread_handshake_cpu_ms();
    const bool resumed = req.ssl ? SSL_session_reused(req.ssl) == 1 : h.resumed;
    res.set_header("X-Wb-Tls-Server-Cpu-Ms", ms_text(static_cast<std::int64_t>(cpu_ms * 1e6)));
    res.set_header("X-Wb-Tls-Server-Resumed", resumed ? "1" : "0");
    if (early_data_ && req.ssl) {
      res.set_header("X-Wb-Tls-Server-Early-Data", early_data_status(req.ssl));
    }
    res.set_header("X-Wb-Tls-Server-First-Flight", std::to_string(h.server_first_flight_bytes));
  }
  // A content provider, not set_content: cpp-httplib would compress a body
  // set as a string on its own for some content types; this one is already
  // coded.
  const std::size_t size = body->size();
  const bool die = spec.fault == "die";
  const std::string what = "GET /rows?" + spec.query();
  res.set_content_provider(
      size, content_type(spec.format),
      [this, body, die, what](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        const std::size_t stop_at = die ? body->size() / 2 : body->size();
        if (offset >= stop_at) {
          add_error(what + ": dropped the connection at byte " + std::to_string(offset) + " of " +
                    std::to_string(body->size()) + " (fault=die)");
          return false;
        }
        const std::size_t n = std::min({length, kWriteChunk, stop_at - offset});
        if (!sink.write(body->data() + offset, n)) {
          add_error(what + ": the client stopped reading (a write got no room within the " +
                    "timeout) at byte " + std::to_string(offset) + " of " +
                    std::to_string(body->size()));
          return false;
        }
        return true;
      });
}

}  // namespace wire
