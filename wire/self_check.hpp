#pragma once

// The self-check that runs before anything is reported: a 1-byte echo must
// show the configured RTT and a bulk TCP transfer the configured rate, each
// within 2 %.

#include <cstdint>
#include <string>
#include <vector>

#include "wire/testbed.hpp"
#include "wire/transfer.hpp"

namespace wire {

struct CheckResult {
  bool ok = false;
  std::string failure;  // one line per failed figure, empty when ok

  // Echo: expected = RTT + serialization of the two 53-byte packets
  // (20 IP + 32 TCP with timestamps + 1 payload); the median is checked.
  // With a middle namespace both links are crossed: twice each.
  int links = 1;
  int echoes = 0;
  double rtt_expected_ms = 0, rtt_median_ms = 0, rtt_min_ms = 0, rtt_max_ms = 0;
  double rtt_tolerance_ms = 0;
  // The echo's RTT with the delay line at zero (serialization excluded); the
  // host's share with the delay line at the configured RTT (the echo minus
  // the expected RTT); and the round trip the delay line then holds: the
  // configured RTT minus that share.
  double host_floor_ms = 0, host_share_ms = 0, delay_line_ms = 0;
  // The share is the lowest of rounds of echoes (host_share_rounds_ms, each a round's median
  // minus the expected RTT). Steady: the rounds lie within the echo's tolerance of each other.
  // A check that fails with an unsteady share failed on the host (a busy machine delays the
  // endpoints and the forwarder by milliseconds, more in some rounds than in others), not on
  // the link: the failure says so, and tests skip on it.
  std::vector<double> host_share_rounds_ms;
  bool host_share_steady = true;

  // Bulk: goodput over the steady part of the transfer (after a quarter of the
  // bytes has arrived), corrected to IP packet bytes: every full segment
  // carries payload_per_packet bytes in an MTU-sized packet, so
  // ip_rate = goodput * 1500 / payload_per_packet. The forwarder's own count
  // of delivered IP bytes over the same window is reported beside it.
  std::uint64_t bulk_bytes = 0;
  int payload_per_packet = 0;
  double window_s = 0;
  double goodput_mbps = 0, ip_rate_mbps = 0, link_rate_mbps = 0;
  std::uint64_t bulk_drops = 0;
  // How late the forwarder wrote packets after their due time, over the check.
  double lateness_mean_us = 0, lateness_max_us = 0;
  std::string client_congestion;  // getsockopt TCP_CONGESTION of the bulk connection

  double rtt_error() const { return rtt_median_ms / rtt_expected_ms - 1; }
  double rate_error(double configured_mbps) const { return ip_rate_mbps / configured_mbps - 1; }
  std::string json(double configured_mbps) const;
};

// Tolerance: 2 %; below 10 ms of RTT the echo also gets 0.4 ms: there the
// host's share is a large part of the round trip and changes with the delay
// line it is measured at (0.05 ms at zero, 0.23 ms at 0.25 ms on a 2-core VM).
CheckResult run_self_check(const Testbed& testbed, bool show_progress);

}  // namespace wire
