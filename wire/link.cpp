#include "wire/link.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <vector>

namespace wire {
namespace {

// Larger than any packet of a 1500-byte MTU; a TUN read returns one packet.
constexpr std::size_t kMaxPacket = 65536;
// Per wake-up, at most this many packets are read from one TUN and delivered
// to one TUN, so one direction cannot starve the other or the timer.
constexpr int kBatch = 256;

struct Packet {
  std::int64_t depart_ns;   // serialization ends
  std::int64_t deliver_ns;  // depart + one-way delay
  std::vector<unsigned char> bytes;
};

// One direction: packets in order of departure, which is also their order of
// delivery since the delay is fixed.
struct Pipe {
  int in_fd = -1, out_fd = -1;
  std::int64_t link_free_ns = 0;  // when the serializer finishes its last packet
  double carry_ns = 0;            // sub-ns remainder of serialization times
  std::deque<Packet> line;
  std::deque<std::pair<std::int64_t, std::size_t>> backlog;  // (depart, size) not yet serialized
  std::size_t backlog_bytes = 0;
};

void set_fd_timer(int fd, std::int64_t at_ns) {
  itimerspec spec{};
  if (at_ns > 0) {
    spec.it_value.tv_sec = at_ns / 1'000'000'000;
    spec.it_value.tv_nsec = at_ns % 1'000'000'000;
  }
  if (::timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, nullptr) != 0) {
    throw std::runtime_error(std::string("timerfd_settime: ") + std::strerror(errno));
  }
}

}  // namespace

std::int64_t monotonic_ns() {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

Forwarder::Forwarder(const LinkConfig& config, Fd client_tun, Fd server_tun)
    : config_(config), stop_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!(config.rate_bps > 0)) throw std::invalid_argument("link rate must be > 0");
  if (!stop_) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  delay_ns_ = config.one_way_delay_ns;
  tun_[0] = std::move(client_tun);
  tun_[1] = std::move(server_tun);
  thread_ = std::thread([this] { run(); });
}

Forwarder::~Forwarder() {
  stopping_ = true;
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(stop_.get(), &one, sizeof one);
  if (thread_.joinable()) thread_.join();
}

DirectionStats Forwarder::stats(Direction d) const {
  const Counters& c = counters_[static_cast<int>(d)];
  DirectionStats s;
  s.packets_in = c.packets_in;
  s.bytes_in = c.bytes_in;
  s.packets_dropped = c.packets_dropped;
  s.bytes_dropped = c.bytes_dropped;
  s.packets_delivered = c.packets_delivered;
  s.bytes_delivered = c.bytes_delivered;
  s.last_delivery_ns = c.last_delivery_ns;
  s.lateness_sum_ns = c.lateness_sum_ns;
  s.lateness_max_ns = c.lateness_max_ns;
  return s;
}

std::string Forwarder::scheduling() const {
  return realtime_ ? "SCHED_FIFO" : "SCHED_OTHER";
}

std::string Forwarder::error() const {
  return failed_ ? error_ : std::string();
}

void Forwarder::run() noexcept {
  // Wake-ups decide how close each packet is to its due time: no timer slack
  // (50 us by default) and, when asked for and permitted, real-time priority
  // so the TCP endpoints on the same two cores do not delay the forwarder.
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  sched_param param{};
  param.sched_priority = 10;
  realtime_ =
      config_.realtime && ::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &param) == 0;
  try {
    loop();
  } catch (const std::exception& e) {
    error_ = e.what();
    failed_ = true;
  }
}

void Forwarder::loop() {
  Fd timer(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
  Fd epoll(::epoll_create1(EPOLL_CLOEXEC));
  if (!timer || !epoll) throw std::runtime_error(std::string("timerfd/epoll: ") + strerror(errno));
  auto watch = [&](int fd, std::uint64_t tag) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = tag;
    if (::epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &ev) != 0) {
      throw std::runtime_error(std::string("epoll_ctl: ") + std::strerror(errno));
    }
  };
  watch(tun_[0].get(), 0);
  watch(tun_[1].get(), 1);
  watch(timer.get(), 2);
  watch(stop_.get(), 3);

  Pipe pipes[2];
  pipes[0].in_fd = tun_[0].get();
  pipes[0].out_fd = tun_[1].get();
  pipes[1].in_fd = tun_[1].get();
  pipes[1].out_fd = tun_[0].get();
  const double ns_per_byte = 8e9 / config_.rate_bps;
  std::vector<unsigned char> buffer(kMaxPacket);

  auto receive = [&](int index, std::int64_t now) {
    Pipe& p = pipes[index];
    Counters& c = counters_[index];
    for (int i = 0; i < kBatch; ++i) {
      ssize_t n = ::read(p.in_fd, buffer.data(), buffer.size());
      if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) return;
        throw std::runtime_error(std::string("TUN read: ") + std::strerror(errno));
      }
      if (n == 0) return;
      auto size = static_cast<std::size_t>(n);
      c.packets_in.fetch_add(1, std::memory_order_relaxed);
      c.bytes_in.fetch_add(size, std::memory_order_relaxed);
      while (!p.backlog.empty() && p.backlog.front().first <= now) {
        p.backlog_bytes -= p.backlog.front().second;
        p.backlog.pop_front();
      }
      if (p.backlog_bytes + size > config_.queue_bytes) {  // drop-tail
        c.packets_dropped.fetch_add(1, std::memory_order_relaxed);
        c.bytes_dropped.fetch_add(size, std::memory_order_relaxed);
        continue;
      }
      // Serialization starts when the packet arrives or the previous one ends;
      // the fractional ns carry keeps the long-run rate exact.
      double tx = static_cast<double>(size) * ns_per_byte + p.carry_ns;
      auto tx_ns = static_cast<std::int64_t>(tx);
      p.carry_ns = tx - static_cast<double>(tx_ns);
      std::int64_t depart = std::max(now, p.link_free_ns) + tx_ns;
      p.link_free_ns = depart;
      p.backlog.emplace_back(depart, size);
      p.backlog_bytes += size;
      p.line.push_back(Packet{depart, depart + delay_ns_.load(std::memory_order_relaxed),
                              std::vector<unsigned char>(buffer.begin(), buffer.begin() + n)});
    }
  };
  auto deliver = [&](int index, std::int64_t now) {
    Pipe& p = pipes[index];
    Counters& c = counters_[index];
    for (int i = 0; i < kBatch && !p.line.empty() && p.line.front().deliver_ns <= now; ++i) {
      const Packet& packet = p.line.front();
      // A write the far TUN refuses is a packet lost on the link; TCP resends it.
      if (::write(p.out_fd, packet.bytes.data(), packet.bytes.size()) ==
          static_cast<ssize_t>(packet.bytes.size())) {
        c.packets_delivered.fetch_add(1, std::memory_order_relaxed);
        c.bytes_delivered.fetch_add(packet.bytes.size(), std::memory_order_relaxed);
        c.last_delivery_ns.store(now, std::memory_order_relaxed);
        std::int64_t late = now - packet.deliver_ns;
        c.lateness_sum_ns.fetch_add(late, std::memory_order_relaxed);
        if (late > c.lateness_max_ns.load(std::memory_order_relaxed)) {
          c.lateness_max_ns.store(late, std::memory_order_relaxed);
        }
      }
      p.line.pop_front();
    }
  };

  // Wake-ups, not the arithmetic, set the error of each packet's delay: a
  // sleeping forwarder is woken about 0.1 ms after its timer is due or a TUN
  // becomes readable. So the timer is armed early by the overshoot seen so far
  // and the last stretch is polled; and after any packet the TUNs are polled
  // for a short while before sleeping, which catches the far end's answer
  // without a wake-up. Polling is capped at half of every 20 ms, so a
  // saturated link does not take a core from the TCP endpoints.
  constexpr std::int64_t kMaxEarlyNs = 300'000;
  constexpr std::int64_t kPollAfterPacketNs = 150'000;
  constexpr std::int64_t kBudgetWindowNs = 20'000'000;
  constexpr std::int64_t kBudgetPollNs = kBudgetWindowNs / 2;
  double overshoot_ns = 100'000;  // running mean of timer wake-up lateness
  std::int64_t poll_until = 0, window_start = monotonic_ns(), polled_ns = 0;
  epoll_event events[4];
  for (;;) {
    std::int64_t now = monotonic_ns();
    if (stopping_.load(std::memory_order_relaxed)) return;
    std::int64_t next = 0;
    for (const Pipe& p : pipes) {
      if (!p.line.empty() && (next == 0 || p.line.front().deliver_ns < next)) {
        next = p.line.front().deliver_ns;
      }
    }
    if (now - window_start > kBudgetWindowNs) {
      window_start = now;
      polled_ns = 0;
    }
    const auto early = static_cast<std::int64_t>(overshoot_ns) + 20'000;
    bool due_soon = next != 0 && next - now <= early;
    bool recent = now < poll_until && polled_ns < kBudgetPollNs;
    if (due_soon || recent) {
      std::uint64_t before = counters_[0].packets_in + counters_[1].packets_in;
      receive(0, now);
      receive(1, now);
      now = monotonic_ns();
      deliver(0, now);
      deliver(1, now);
      std::int64_t after = monotonic_ns();
      polled_ns += after - now;
      if (counters_[0].packets_in + counters_[1].packets_in != before) {
        poll_until = after + kPollAfterPacketNs;
      }
      continue;
    }
    std::int64_t armed = next ? next - early : 0;
    set_fd_timer(timer.get(), armed);
    // The 1 s timeout bounds each wait; the loop ends only on the stop event.
    int n = ::epoll_wait(epoll.get(), events, 4, 1000);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("epoll_wait: ") + std::strerror(errno));
    }
    now = monotonic_ns();
    bool got_packet = false;
    for (int i = 0; i < n; ++i) {
      std::uint64_t tag = events[i].data.u64;
      if (tag == 3) return;
      if (tag == 2) {
        std::uint64_t expirations;
        [[maybe_unused]] ssize_t r = ::read(timer.get(), &expirations, sizeof expirations);
        double late = static_cast<double>(std::clamp<std::int64_t>(now - armed, 0, kMaxEarlyNs));
        overshoot_ns += (late - overshoot_ns) / 16;
      } else {
        receive(static_cast<int>(tag), now);
        got_packet = true;
      }
    }
    now = monotonic_ns();
    deliver(0, now);
    deliver(1, now);
    if (got_packet) poll_until = now + kPollAfterPacketNs;
  }
}

}  // namespace wire
