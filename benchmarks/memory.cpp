// The MemoryManager behind allocs_per_iter, max_bytes_used,
// total_allocated_bytes and net_heap_growth in the result file. Google
// Benchmark 1.7.1 runs it in one extra single-thread run after each timed
// repetition; in it, timed_loop measures one call of the operation
// (probe::measure_call), and these are that call's figures.
#include <cstdint>
#include <limits>

#include <benchmark/benchmark.h>

#include "benchmarks/alloc/alloc_counter.hpp"
#include "benchmarks/loop_probe.hpp"
#include "benchmarks/measure.hpp"

namespace wb::bench {
namespace {

// MemoryManager::TombstoneValue ("not measured") as 1.7.1 defines it; the
// Debian library does not export the symbol, so it cannot be referenced.
constexpr int64_t kNotMeasured = std::numeric_limits<int64_t>::max();

class AllocationManager : public benchmark::MemoryManager {
 public:
  void Start() override {
    probe::last_loop = {};
    probe::last_call = {};
    probe::memory_armed = true;
  }

  // Per call, whatever the memory run's iteration count:
  //   max_bytes_used         the peak of the bytes the call allocated that
  //                          are live at once (a codec that frees its
  //                          previous result first cannot lower it);
  //   total_allocated_bytes  the bytes it allocated;
  //   net_heap_growth        the bytes it still holds when it returns (its
  //                          result, kept until the next call frees it);
  //   allocs_per_iter        its allocations: Google Benchmark divides
  //                          num_allocs by the memory run's iterations, so
  //                          the count is multiplied by them here.
  // A benchmark without timed_loop, or a call of more blocks than the
  // counter's table holds, reports no figures.
  void Stop(Result& result) override {
    probe::memory_armed = false;
    const probe::CallAllocs& call = probe::last_call;
    if (!call.valid || !call.totals.complete) {
      result.num_allocs = 0;
      result.max_bytes_used = kNotMeasured;
      result.total_allocated_bytes = kNotMeasured;
      result.net_heap_growth = kNotMeasured;
      return;
    }
    const int64_t iterations = probe::last_loop.valid ? probe::last_loop.iterations : 1;
    result.num_allocs = call.totals.allocs * iterations;
    result.max_bytes_used = call.totals.peak_bytes;
    result.total_allocated_bytes = call.totals.bytes;
    result.net_heap_growth = call.totals.retained_bytes;
  }
  // 1.7.1 still calls the deprecated pointer form; both lead to the same code.
  void Stop(Result* result) override { Stop(*result); }
};

}  // namespace

bool install_memory_manager() {
  if (!alloc::interposed()) return false;
  static AllocationManager manager;
  benchmark::RegisterMemoryManager(&manager);
  return true;
}

}  // namespace wb::bench
