// What the tests over the measured wire share: the skip without the
// privileges a network namespace needs, the small link they run on, and the
// page they ask for.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "wire/http_spec.hpp"
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

// `rows` rows of `dataset` in `format` from `encoder` (by default HttpSpec's
// own), checked as the server checks it: wire::validate, which also resolves
// the decoder.
inline wire::HttpSpec page(const std::string& dataset, int rows, const std::string& format = "json",
                           const std::string& encoder = "reference") {
  wire::HttpSpec spec;
  spec.dataset = dataset;
  spec.rows = rows;
  spec.format = format;
  spec.encoder = encoder;
  wire::validate(spec);
  return spec;
}

}  // namespace wb::test
