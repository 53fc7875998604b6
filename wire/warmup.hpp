#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "wire/http_spec.hpp"
#include "wire/testbed.hpp"

namespace wire {

// spec.warmup calls before the timed ones (HttpSpec::warmup): call(i) makes
// call i on a connection of its own and returns {its JSON line, whether it
// succeeded and its rows checked}; the line is printed as it is (its series
// "warmup"). Then a pause of two round trips lets the closed connection's
// FIN exchange clear the link before the timed cold call. Returns false when
// a call failed.
template <typename Call>
bool warm_up(const Testbed& testbed, const HttpSpec& spec, Call call) {
  bool ok = true;
  for (int i = 0; i < spec.warmup; ++i) {
    const auto [line, good] = call(i);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    if (!good) {
      ok = false;
      std::fprintf(stderr, "wirebench_wire: warm-up call %d failed\n", i);
    }
  }
  if (spec.warmup > 0) {
    std::this_thread::sleep_for(
        std::chrono::duration<double, std::milli>(2 * testbed.config().rtt_ms + 1));
  }
  return ok;
}

}  // namespace wire
