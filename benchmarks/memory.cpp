// The MemoryManager behind allocs_per_iter, max_bytes_used and
// total_allocated_bytes in the result file. Google Benchmark runs it in one
// extra single-thread run after the timed repetition (16 iterations at most).
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
    probe::memory_armed = true;
    // Counts from here in case a benchmark has no loop hooks; a hooked loop
    // restarts the count so that setup is left out.
    alloc::start();
  }

  // Google Benchmark divides num_allocs by its memory-run iteration count
  // itself (allocs_per_iter) but writes total_allocated_bytes as it gets it
  // and records no iteration count, so total_allocated_bytes is made per
  // iteration here; max_bytes_used is the peak live heap above the loop's
  // start, i.e. the peak of one operation (the loop keeps no state between
  // iterations beyond what the operation itself reuses).
  void Stop(Result& result) override {
    probe::memory_armed = false;
    const probe::LoopAllocs loop =
        probe::last_loop.valid ? probe::last_loop : probe::LoopAllocs{false, 0, alloc::stop()};
    result.num_allocs = loop.totals.allocs;
    result.max_bytes_used = loop.totals.peak_bytes;
    result.total_allocated_bytes =
        loop.iterations > 0 ? loop.totals.bytes / loop.iterations : kNotMeasured;
    result.net_heap_growth = loop.valid ? loop.totals.net_bytes : kNotMeasured;
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
