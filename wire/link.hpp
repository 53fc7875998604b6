#pragma once

// The forwarder: one thread that holds both TUN fds and moves every IP packet
// from one to the other through, per direction, a drop-tail queue, a
// serializer at the link rate and a fixed one-way delay (Mahimahi's model).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>

#include "wire/fd.hpp"

namespace wire {

struct LinkConfig {
  double rate_bps = 100e6;  // serialization rate, whole IP packets counted
  std::int64_t one_way_delay_ns = 20'000'000;
  std::size_t queue_bytes = 1'000'000;  // bytes not yet serialized, the packet in service included
  // SCHED_FIFO for the forwarder's thread. It keeps wake-ups from long sleeps
  // on time; on a link whose delay is below the wake-up scale the thread
  // polls almost all the time, and real-time priority then only takes the
  // CPU from the TCP endpoints and runs into the kernel's RT throttling.
  bool realtime = true;
};

enum class Direction { kClientToServer = 0, kServerToClient = 1 };

// Counters of one direction; `delivered_*` count packets written to the far
// TUN, when the delay line releases them.
struct DirectionStats {
  std::uint64_t packets_in = 0, bytes_in = 0;
  std::uint64_t packets_dropped = 0, bytes_dropped = 0;
  std::uint64_t packets_delivered = 0, bytes_delivered = 0;
  std::int64_t last_delivery_ns = 0;  // CLOCK_MONOTONIC
  // How late packets reach the far TUN after their due time (timer wake-up).
  std::int64_t lateness_sum_ns = 0, lateness_max_ns = 0;
};

// Time on CLOCK_MONOTONIC (the clock of std::chrono::steady_clock and of the
// forwarder's timerfd) in ns.
std::int64_t monotonic_ns();

class Forwarder {
 public:
  Forwarder(const LinkConfig& config, Fd client_tun, Fd server_tun);
  ~Forwarder();  // stops and joins the thread, closes both TUNs
  Forwarder(const Forwarder&) = delete;
  Forwarder& operator=(const Forwarder&) = delete;

  DirectionStats stats(Direction d) const;
  // Changes the one-way delay of packets that arrive from now on. Only while
  // the link is idle: packets in flight keep their delivery times, and a
  // shorter delay would otherwise deliver newer packets before them.
  void set_one_way_delay_ns(std::int64_t ns) { delay_ns_ = ns; }
  std::int64_t one_way_delay_ns() const { return delay_ns_; }
  // "SCHED_FIFO" when the thread got real-time priority, else "SCHED_OTHER".
  std::string scheduling() const;
  // Empty while running; the error that stopped the thread otherwise.
  std::string error() const;

 private:
  struct Counters {
    std::atomic<std::uint64_t> packets_in{0}, bytes_in{0}, packets_dropped{0}, bytes_dropped{0},
        packets_delivered{0}, bytes_delivered{0};
    std::atomic<std::int64_t> last_delivery_ns{0}, lateness_sum_ns{0}, lateness_max_ns{0};
  };
  void run() noexcept;
  void loop();

  LinkConfig config_;
  Fd tun_[2];  // [0] client side, [1] server side
  Fd stop_;    // eventfd
  Counters counters_[2];
  std::atomic<bool> realtime_{false};
  std::atomic<std::int64_t> delay_ns_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> failed_{false};
  std::string error_;  // written before failed_ is set
  std::thread thread_;
};

}  // namespace wire
