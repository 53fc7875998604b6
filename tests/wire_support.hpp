// What the tests over the measured wire share: the skip without the
// privileges a network namespace needs, and the small link they run on.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "wire/netns.hpp"
#include "wire/testbed.hpp"

// Skips the test, saying what it needed (root, /dev/net/tun) for `what`.
#define SKIP_WITHOUT_PRIVILEGES(what)                               \
  if (std::string why = wire::missing_privileges(); !why.empty()) { \
    GTEST_SKIP() << what << " " << why;                             \
  }

namespace wb::test {

// 20 Mbit/s and 20 ms: short transfers, and a round trip large enough to
// tell from the host's own latency.
inline wire::TestbedConfig link_20_20() {
  wire::TestbedConfig config;
  config.rate_mbps = 20;
  config.rtt_ms = 20;
  return config;
}

}  // namespace wb::test
