// Counters every wirebench benchmark carries, beside Google Benchmark's time.
#pragma once

#include <sys/resource.h>

#include <cstddef>
#include <cstdint>

#include <benchmark/benchmark.h>

#include "benchmarks/loop_probe.hpp"

namespace wb::bench {

inline long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Counts minor page faults over the timed loop. On a VM a first-touched page
// costs ~10 us, so a loop that keeps touching fresh pages (heap trimmed
// and regrown, a buffer reallocated) measures the kernel, not the library:
// minflt_per_iter makes that visible. Construct right before the loop.
// It also marks the loop for the allocation counter and callgrind
// (loop_probe.hpp), so every benchmark that counts faults gets those too.
class FaultCounter {
 public:
  FaultCounter() : start_(minor_faults()) { probe::loop_begin(); }
  void report(benchmark::State& state) const {
    probe::loop_end(static_cast<int64_t>(state.iterations()));
    const auto iterations = static_cast<double>(state.iterations());
    const auto faults = static_cast<double>(minor_faults() - start_);
    // A plain counter (no rate flag): faults per iteration, not per second.
    state.counters["minflt_per_iter"] =
        benchmark::Counter(iterations > 0 ? faults / iterations : 0);
  }

 private:
  long start_;
};

// Bytes are the payload (wire) bytes, items are rows: throughput in MB/s and rows/s.
inline void set_throughput(benchmark::State& state, std::size_t payload_bytes, std::size_t rows) {
  state.SetBytesProcessed(static_cast<int64_t>(payload_bytes) * state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(rows) * state.iterations());
}

}  // namespace wb::bench
