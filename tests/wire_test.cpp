// The measured wire (wire/): the emulated link shows its configured RTT and
// rate, a cold transfer follows slow start, and no namespace outlives a run.
// Needs root and /dev/net/tun; skipped otherwise.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "wire/netns.hpp"
#include "wire/self_check.hpp"
#include "wire/testbed.hpp"
#include "wire/transfer.hpp"

namespace {

bool has_prefix(const std::string& name, const std::string& prefix) {
  return name.rfind(prefix, 0) == 0;
}

int owned_namespaces() {
  auto names = wire::list_namespaces();
  std::string prefix = wire::namespace_prefix(::getpid());
  return static_cast<int>(std::count_if(names.begin(), names.end(),
                                        [&](const auto& n) { return has_prefix(n, prefix); }));
}

#define SKIP_WITHOUT_PRIVILEGES()                                   \
  if (std::string why = wire::missing_privileges(); !why.empty()) { \
    GTEST_SKIP() << "the measured wire " << why;                    \
  }

wire::TestbedConfig link_20_20() {
  wire::TestbedConfig config;
  config.rate_mbps = 20;
  config.rtt_ms = 20;
  return config;
}

// The self-check refuses to report when the host delays the forwarder (a
// scheduler stall of several ms on a shared 2-core machine); up to three
// tries, so that one stall does not fail the test and a wrong link still does.
wire::CheckResult self_check(wire::Testbed& testbed) {
  wire::CheckResult r;
  for (int attempt = 0; attempt < 3; ++attempt)
    if ((r = wire::run_self_check(testbed, false)).ok) break;
  return r;
}

TEST(Wire, SelfCheckShowsConfiguredRttAndRate) {
  SKIP_WITHOUT_PRIVILEGES();
  wire::Testbed testbed(link_20_20());
  wire::Server server(testbed);
  wire::CheckResult r = self_check(testbed);
  EXPECT_TRUE(r.ok) << r.failure << "\n" << r.json(20);
  EXPECT_NEAR(r.rtt_median_ms, r.rtt_expected_ms, 0.02 * r.rtt_expected_ms);
  EXPECT_NEAR(r.ip_rate_mbps, 20, 0.02 * 20);
  EXPECT_NEAR(r.link_rate_mbps, 20, 0.02 * 20);
  EXPECT_EQ(server.congestion_in_use(), "cubic");
}

// A cold 100 KB response: handshake RTT + the slow-start rounds of
// tools/wbtools/tcp.py (windows of 10, 20 and 40 segments of 1448 bytes: 3
// rounds for 70 segments, ceil(log2(70 / 10 + 1))) + the serialization of the
// last window, which at 20 Mbit/s takes longer than an RTT (40 x 0.6 ms), so
// the first two windows stall and the third streams: 20 + 3 x 20 + 24 =
// 104 ms. Measured on a 2-core VM: 105.0 to 107.2 ms (+1 to +3 %); a busy VM
// adds scheduler delays of several ms to single requests, so the best of three
// is compared. The 10 % tolerance is half an RTT: a missing or extra round
// trip (20 ms) fails.
TEST(Wire, ColdTransferFollowsSlowStart) {
  SKIP_WITHOUT_PRIVILEGES();
  wire::TestbedConfig config = link_20_20();
  wire::Testbed testbed(config);
  wire::Server server(testbed);
  ASSERT_TRUE(self_check(testbed).ok);
  wire::Client client(testbed);
  const std::uint64_t bytes = 100'000;
  double best_connect = 1e9, best_last = 1e9;
  for (int i = 0; i < 3; ++i) {
    wire::RequestTiming t = client.cold_request(bytes);
    EXPECT_EQ(t.link_drops, 0u);
    best_connect = std::min(best_connect, t.connect_ms);
    best_last = std::min(best_last, t.last_byte_ms);
  }
  const double rtt = config.rtt_ms, segment_ms = 1500 * 8 / (config.rate_mbps * 1e3);
  const double segments = std::ceil(static_cast<double>(bytes) / 1448);      // 70
  const double rounds = std::ceil(std::log2(segments / 10 + 1));             // 3
  const double last_window = segments - 10 * (std::pow(2, rounds - 1) - 1);  // 40
  const double expected = rtt + rounds * rtt + last_window * segment_ms;
  EXPECT_NEAR(best_connect, rtt, 0.05 * rtt);
  EXPECT_NEAR(best_last, expected, 0.10 * expected);
}

TEST(Wire, TeardownLeavesNoNamespace) {
  SKIP_WITHOUT_PRIVILEGES();
  {
    wire::Testbed testbed(link_20_20());
    EXPECT_EQ(owned_namespaces(), 2);
  }
  EXPECT_EQ(owned_namespaces(), 0);
}

TEST(Wire, StaleNamespaceOfDeadOwnerIsRemoved) {
  SKIP_WITHOUT_PRIVILEGES();
  pid_t child = ::fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);
  std::string stale = wire::namespace_prefix(child) + "0-client";
  wire::run_ip({"netns", "add", stale});
  auto removed = wire::remove_stale_namespaces();
  EXPECT_NE(std::find(removed.begin(), removed.end(), stale), removed.end());
  auto names = wire::list_namespaces();
  EXPECT_EQ(std::find(names.begin(), names.end(), stale), names.end());
}

}  // namespace
