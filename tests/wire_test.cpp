// The measured wire (wire/): the emulated link shows its configured RTT and
// rate, a cold transfer follows slow start and a warm one keeps its window (as
// tools/wbtools/transfer/tcp.py models them), a middle namespace joins two links, and
// no namespace outlives a run.
// Needs root and /dev/net/tun; skipped otherwise.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "tests/wire_support.hpp"
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

using wb::test::link_20_20;

// The self-check refuses to report when the host delays the forwarder (a
// scheduler stall of several ms on a shared 2-core machine); up to three
// tries, so that one stall does not fail the test and a wrong link still does.
wire::CheckResult self_check(wire::Testbed& testbed) {
  wire::CheckResult r;
  for (int attempt = 0; attempt < 3; ++attempt)
    if ((r = wire::run_self_check(testbed, false)).ok) break;
  return r;
}

// A check that failed while the host's share of a round trip moved between
// its rounds failed on the machine, not on the link: the product is right to
// refuse it, and the test has nothing to judge.
#define SKIP_WHEN_HOST_UNSTEADY(check)             \
  if (!(check).ok && !(check).host_share_steady) { \
    GTEST_SKIP() << (check).failure;               \
  }

TEST(Wire, SelfCheckShowsConfiguredRttAndRate) {
  SKIP_WITHOUT_PRIVILEGES("the measured wire");
  wire::Testbed testbed(link_20_20());
  wire::Server server(testbed);
  wire::CheckResult r = self_check(testbed);
  SKIP_WHEN_HOST_UNSTEADY(r);
  EXPECT_TRUE(r.ok) << r.failure << "\n" << r.json(20);
  EXPECT_NEAR(r.rtt_median_ms, r.rtt_expected_ms, 0.02 * r.rtt_expected_ms);
  EXPECT_NEAR(r.ip_rate_mbps, 20, 0.02 * 20);
  EXPECT_NEAR(r.link_rate_mbps, 20, 0.02 * 20);
  EXPECT_EQ(server.congestion_in_use(), "cubic");
}

// tools/wbtools/transfer/tcp.py's transfer time of a response of bytes over config's
// link, Linux's figures: segments of 1448 payload bytes in 1500-byte packets,
// an initial window of 10 doubling per round trip, a stall of
// P/R + RTT - window x P/R after every window but the last, every packet at the
// line rate. cold: from connect(), so the handshake's RTT is in it; warm: a
// kept-alive connection whose window holds the whole response.
double modelled_ms(const wire::TestbedConfig& config, std::uint64_t bytes, bool cold) {
  const double rtt = config.rtt_ms, packet_ms = 1500 * 8 / (config.rate_mbps * 1e3);
  const auto segments = static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / 1448));
  const double serialization =
      static_cast<double>(bytes + 52 * segments) * 8 / (config.rate_mbps * 1e3);
  double stalls = 0;
  if (cold) {
    std::uint64_t sent = 0, window = 10;
    for (; sent + window < segments; sent += window, window *= 2) {
      stalls += std::max(0.0, packet_ms + rtt - static_cast<double>(window) * packet_ms);
    }
  }
  return (cold ? rtt : 0) + rtt + stalls + serialization;
}

// The best of kTries requests is compared: a busy VM adds scheduler delays of
// several ms to single requests. A 100 KB response at 20 Mbit/s, 20 ms:
// cold = 20 + 20 + 14.6 + 8.6 (stalls after the windows of 10 and 20) + 41.456
// (103,640 B of packets) = 104.656 ms; warm = 20 + 41.456 = 61.456 ms. The
// 10 % tolerance is less than a round trip (20 ms): a missing or extra one fails.
constexpr std::uint64_t kTransferBytes = 100'000;
constexpr int kTries = 5;
// connect() is one round trip: the delay line's (compensated for the host's
// share the self-check measured) plus the wake-ups of the handshake, which the
// echoes do not go through. On a busy 2-core host the best of three came
// out 1.7 ms over 20; a second round trip (20 ms) or a lost SYN (a 1 s
// retransmit) is far beyond the slack. Below, the self-check's 2 %.
constexpr double kConnectSlackMs = 3;

// The 20 Mbit/s, 20 ms link with its server, self-checked.
struct CheckedLink {
  wire::TestbedConfig config = link_20_20();
  wire::Testbed testbed{config};
  wire::Server server{testbed};
  wire::CheckResult check = self_check(testbed);
};

TEST(Wire, ColdTransferFollowsSlowStart) {
  SKIP_WITHOUT_PRIVILEGES("the measured wire");
  CheckedLink link;
  SKIP_WHEN_HOST_UNSTEADY(link.check);
  ASSERT_TRUE(link.check.ok) << link.check.failure;
  const wire::TestbedConfig& config = link.config;
  wire::Client client(link.testbed);
  double best_connect = 1e9, best_last = 1e9;
  for (int i = 0; i < kTries; ++i) {
    wire::RequestTiming t = client.cold_request(kTransferBytes);
    EXPECT_EQ(t.link_drops, 0u);
    best_connect = std::min(best_connect, t.connect_ms);
    best_last = std::min(best_last, t.last_byte_ms);
  }
  const double expected = modelled_ms(config, kTransferBytes, true);
  EXPECT_NEAR(expected, 104.656, 0.001);
  EXPECT_GE(best_connect, config.rtt_ms * 0.98);
  EXPECT_LE(best_connect, config.rtt_ms + kConnectSlackMs);
  EXPECT_NEAR(best_last, expected, 0.10 * expected);
}

// Back-to-back requests on one connection: Linux keeps the window the opening
// request grew, so a warm request is one round trip and the serialization.
TEST(Wire, WarmTransferKeepsTheWindow) {
  SKIP_WITHOUT_PRIVILEGES("the measured wire");
  CheckedLink link;
  SKIP_WHEN_HOST_UNSTEADY(link.check);
  ASSERT_TRUE(link.check.ok) << link.check.failure;
  const wire::TestbedConfig& config = link.config;
  wire::Client client(link.testbed);
  wire::RequestTiming opening;
  opening.bytes = kTransferBytes;
  std::int64_t start = 0;
  wire::Fd conn = client.connect_response(opening, start);
  client.request(conn, opening, start);
  double best = 1e9;
  for (int i = 0; i < kTries; ++i) {
    wire::RequestTiming t;
    t.bytes = kTransferBytes;
    client.request(conn, t, wire::monotonic_ns());
    EXPECT_EQ(t.link_drops, 0u);
    best = std::min(best, t.last_byte_ms);
  }
  const double expected = modelled_ms(config, kTransferBytes, false);
  EXPECT_NEAR(expected, 61.456, 0.001);
  EXPECT_NEAR(best, expected, 0.10 * expected);
}

TEST(Wire, TeardownLeavesNoNamespace) {
  SKIP_WITHOUT_PRIVILEGES("the measured wire");
  {
    wire::Testbed testbed(link_20_20());
    EXPECT_EQ(owned_namespaces(), 2);
  }
  EXPECT_EQ(owned_namespaces(), 0);
}

// A middle namespace (the sappi scenario's relay) adds a third namespace and
// a second link; the client still reaches the server, across both links, the
// middle has no route out, and all three go with the testbed.
TEST(Wire, MiddleNamespaceIsBuiltAndTornDown) {
  SKIP_WITHOUT_PRIVILEGES("the measured wire");
  wire::TestbedConfig config = link_20_20();
  config.middle = true;
  {
    wire::Testbed testbed(config);
    EXPECT_EQ(owned_namespaces(), 3);
    ASSERT_EQ(testbed.links().size(), 2u);
    const std::string routes =
        wire::run_ip({"-n", testbed.namespace_name(wire::Side::kMiddle), "route", "show"});
    EXPECT_EQ(routes.find("default"), std::string::npos) << routes;
    wire::Server server(testbed);
    wire::Client client(testbed);
    wire::Fd conn = client.connect_echo();
    // Two links of 20 ms each way and back.
    EXPECT_GT(client.echo(conn), 2 * config.rtt_ms);
  }
  EXPECT_EQ(owned_namespaces(), 0);
}

TEST(Wire, StaleNamespaceOfDeadOwnerIsRemoved) {
  SKIP_WITHOUT_PRIVILEGES("the measured wire");
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
