#include "wire/transfer.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace wire {
namespace {

constexpr int kMaxConnections = 32;
// A server connection with no traffic for this long is closed.
constexpr std::int64_t kIdleCloseNs = 120'000'000'000;

sockaddr_in address(const char* ip, std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  ::inet_pton(AF_INET, ip, &a.sin_addr);
  return a;
}

void set_nodelay(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

Fd listen_on(const Testbed& testbed, std::uint16_t port) {
  Fd fd = testbed.tcp_socket(Side::kServer);
  int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a = address(kServerAddress, port);
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) fail("bind");
  if (::listen(fd.get(), 16) != 0) fail("listen");
  return fd;
}

double ms_between(std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e6;
}

// Waits for events on fd until deadline_ns; false on timeout.
bool wait_for(int fd, short events, std::int64_t deadline_ns) {
  for (;;) {
    std::int64_t left = deadline_ns - monotonic_ns();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    int timeout_ms = static_cast<int>(std::min<std::int64_t>(left / 1'000'000 + 1, 1000));
    int n = ::poll(&p, 1, timeout_ms);
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) fail("poll");
  }
}

}  // namespace

Server::Server(const Testbed& testbed)
    : echo_listen_(listen_on(testbed, kEchoPort)),
      response_listen_(listen_on(testbed, kResponsePort)),
      stop_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!stop_) fail("eventfd");
  thread_ = std::thread([this] { run(); });
}

Server::~Server() {
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(stop_.get(), &one, sizeof one);
  if (thread_.joinable()) thread_.join();
}

std::string Server::congestion_in_use() const {
  return has_congestion_ ? std::string(congestion_) : std::string();
}

std::string Server::error() const {
  return failed_ ? error_ : std::string();
}

void Server::run() noexcept {
  try {
    loop();
  } catch (const std::exception& e) {
    error_ = e.what();
    failed_ = true;
  }
}

void Server::loop() {
  struct Conn {
    Fd fd;
    bool echo = false;
    unsigned char header[8] = {};
    std::size_t header_got = 0;
    std::uint64_t remaining = 0;
    std::int64_t last_active_ns = 0;
  };
  std::vector<Conn> conns;
  const std::vector<unsigned char> payload(256 * 1024, 'x');
  std::vector<pollfd> fds;
  for (;;) {
    fds.clear();
    fds.push_back({stop_.get(), POLLIN, 0});
    fds.push_back({echo_listen_.get(), POLLIN, 0});
    fds.push_back({response_listen_.get(), POLLIN, 0});
    for (const Conn& c : conns) {
      fds.push_back({c.fd.get(), static_cast<short>(POLLIN | (c.remaining ? POLLOUT : 0)), 0});
    }
    int n = ::poll(fds.data(), fds.size(), 1000);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("server poll");
    }
    if (fds[0].revents) return;
    std::int64_t now = monotonic_ns();
    for (std::size_t i = 0; i < conns.size(); ++i) {
      Conn& c = conns[i];
      short ev = fds[3 + i].revents;
      if (ev & (POLLIN | POLLHUP | POLLERR)) {
        unsigned char buf[4096];
        ssize_t got = ::recv(c.fd.get(), buf, sizeof buf, 0);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
          c.fd.reset();
          continue;
        }
        if (got > 0) {
          c.last_active_ns = now;
          if (c.echo) {
            [[maybe_unused]] ssize_t w = ::send(c.fd.get(), buf, got, MSG_NOSIGNAL);
          } else {
            for (ssize_t k = 0; k < got; ++k) {
              c.header[c.header_got++] = buf[k];
              if (c.header_got == 8) {
                std::uint64_t count = 0;
                for (unsigned char byte : c.header) count = count << 8 | byte;
                c.remaining += count;
                c.header_got = 0;
              }
            }
          }
        }
      }
      if ((ev & POLLOUT) && c.remaining) {
        std::size_t chunk = std::min<std::uint64_t>(c.remaining, payload.size());
        ssize_t sent = ::send(c.fd.get(), payload.data(), chunk, MSG_NOSIGNAL);
        if (sent > 0) {
          c.remaining -= static_cast<std::uint64_t>(sent);
          c.last_active_ns = now;
        } else if (sent < 0 && errno != EAGAIN && errno != EINTR) {
          c.fd.reset();
        }
      }
      if (c.fd && now - c.last_active_ns > kIdleCloseNs) c.fd.reset();
    }
    std::erase_if(conns, [](const Conn& c) { return !c.fd; });
    for (int k = 1; k <= 2; ++k) {
      if (!(fds[k].revents & POLLIN)) continue;
      Fd fd(::accept4(fds[k].fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
      if (!fd) continue;
      if (static_cast<int>(conns.size()) >= kMaxConnections) continue;  // closes it
      set_nodelay(fd.get());
      if (!has_congestion_) {
        socklen_t len = sizeof congestion_ - 1;
        if (::getsockopt(fd.get(), IPPROTO_TCP, TCP_CONGESTION, congestion_, &len) == 0) {
          has_congestion_ = true;
        }
      }
      Conn c;
      c.fd = std::move(fd);
      c.echo = k == 1;
      c.last_active_ns = now;
      conns.push_back(std::move(c));
    }
  }
}

Client::Client(const Testbed& testbed) : testbed_(testbed) {}

std::int64_t Client::stall_timeout_ns() const {
  return std::max<std::int64_t>(5'000'000'000,
                                static_cast<std::int64_t>(20 * testbed_.config().rtt_ms * 1e6));
}

std::uint64_t Client::drops() const {
  return testbed_.link_drops();
}

Fd Client::connect_to(std::uint16_t port, std::int64_t* started_ns, std::int64_t* connected_ns,
                      int window_clamp) {
  Fd fd = testbed_.tcp_socket(Side::kClient);
  set_nodelay(fd.get());
  if (window_clamp > 0) {
    // A fixed receive buffer, twice the clamp, stops autotuning, which would
    // otherwise raise the clamp with the buffer.
    int buffer = 2 * window_clamp;
    if (::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUFFORCE, &buffer, sizeof buffer) ||
        ::setsockopt(fd.get(), IPPROTO_TCP, TCP_WINDOW_CLAMP, &window_clamp, sizeof window_clamp)) {
      fail("SO_RCVBUFFORCE/TCP_WINDOW_CLAMP");
    }
  }
  sockaddr_in a = address(kServerAddress, port);
  if (started_ns) *started_ns = monotonic_ns();
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && errno != EINPROGRESS) {
    fail("connect");
  }
  if (!wait_for(fd.get(), POLLOUT, monotonic_ns() + stall_timeout_ns())) {
    throw std::runtime_error("connect to " + std::string(kServerAddress) + ":" +
                             std::to_string(port) +
                             " timed out (link drops: " + std::to_string(drops()) + ")");
  }
  if (connected_ns) *connected_ns = monotonic_ns();
  int error = 0;
  socklen_t len = sizeof error;
  ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &len);
  if (error != 0) {
    errno = error;
    fail("connect");
  }
  return fd;
}

Fd Client::connect_response(RequestTiming& timing, std::int64_t& start_ns, int window_clamp) {
  std::int64_t connected = 0;
  Fd fd = connect_to(kResponsePort, &start_ns, &connected, window_clamp);
  timing.cold = true;
  timing.connect_ms = ms_between(start_ns, connected);
  return fd;
}

void Client::request(const Fd& conn, RequestTiming& timing, std::int64_t start_ns,
                     const ProgressFn& progress) {
  std::uint64_t drops_before = drops();
  unsigned char header[8];
  for (int i = 0; i < 8; ++i) header[i] = static_cast<unsigned char>(timing.bytes >> (56 - 8 * i));
  if (::send(conn.get(), header, sizeof header, MSG_NOSIGNAL) != sizeof header) fail("send");
  std::vector<unsigned char> buf(256 * 1024);
  std::uint64_t received = 0;
  const std::int64_t stall = stall_timeout_ns();
  // The whole request is bounded too: ten times its serialization time plus
  // a minute covers any slow start and loss recovery on a working link.
  const std::int64_t end_by = start_ns + 60'000'000'000 +
                              static_cast<std::int64_t>(10 * static_cast<double>(timing.bytes) *
                                                        8e9 / (testbed_.config().rate_mbps * 1e6));
  while (received < timing.bytes) {
    std::int64_t now = monotonic_ns();
    if (!wait_for(conn.get(), POLLIN, std::min(now + stall, end_by))) {
      throw std::runtime_error(
          "transfer stalled: " + std::to_string(received) + " of " + std::to_string(timing.bytes) +
          " bytes received, nothing for " +
          std::to_string(static_cast<double>(monotonic_ns() - now) / 1e9).substr(0, 4) +
          " s (link drops: " + std::to_string(drops() - drops_before) + ")");
    }
    ssize_t n = ::recv(conn.get(), buf.data(),
                       std::min<std::uint64_t>(buf.size(), timing.bytes - received), 0);
    now = monotonic_ns();
    if (n == 0) throw std::runtime_error("the server closed the connection mid-response");
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      fail("recv");
    }
    if (received == 0) timing.first_byte_ms = ms_between(start_ns, now);
    received += static_cast<std::uint64_t>(n);
    if (received == timing.bytes) timing.last_byte_ms = ms_between(start_ns, now);
    if (progress) progress(received, now);
  }
  timing.link_drops = drops() - drops_before;
}

RequestTiming Client::cold_request(std::uint64_t bytes, const ProgressFn& progress) {
  RequestTiming timing;
  timing.bytes = bytes;
  std::int64_t start = 0;
  Fd conn = connect_response(timing, start);
  request(conn, timing, start, progress);
  return timing;
}

Fd Client::connect_echo() {
  return connect_to(kEchoPort, nullptr, nullptr);
}

double Client::echo(const Fd& conn) {
  unsigned char byte = 'e';
  std::int64_t start = monotonic_ns();
  if (::send(conn.get(), &byte, 1, MSG_NOSIGNAL) != 1) fail("echo send");
  // Sleeps until half a millisecond before the answer is due, then polls: a
  // sleeping thread would add its wake-up (about 0.1 ms on a VM) to the RTT.
  const auto poll_from =
      start + static_cast<std::int64_t>(testbed_.config().rtt_ms * 1e6) - 500'000;
  const std::int64_t deadline = start + stall_timeout_ns();
  for (std::int64_t now = start; now < deadline; now = monotonic_ns()) {
    if (now < poll_from) {
      pollfd p{conn.get(), POLLIN, 0};
      ::poll(&p, 1, static_cast<int>((poll_from - now) / 1'000'000));
    }
    ssize_t n = ::recv(conn.get(), &byte, 1, 0);
    if (n == 1) return ms_between(start, monotonic_ns());
    if (n == 0) throw std::runtime_error("the echo server closed the connection");
    if (errno != EAGAIN && errno != EINTR) fail("echo recv");
  }
  throw std::runtime_error("echo got no answer in " +
                           std::to_string(stall_timeout_ns() / 1'000'000'000) + " s");
}

}  // namespace wire
