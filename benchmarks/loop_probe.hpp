// Hooks around every timed loop (FaultCounter calls them): the allocation
// counter of the memory run and callgrind's collection window both cover the
// loop only, never the setup (payload generation, parser creation, the
// correctness check) that runs before it.
#pragma once

#include <valgrind/callgrind.h>

#include <atomic>
#include <cstdint>

#include "benchmarks/alloc/alloc_counter.hpp"

namespace wb::bench::probe {

// Set by the MemoryManager between Start and Stop (Google Benchmark's extra
// memory run, one thread).
inline std::atomic<bool> memory_armed{false};
// --wirebench_icount: under callgrind with --collect-atstart=no, collect only
// inside loops and dump one profile per loop.
inline bool callgrind = false;

// The allocations of the last loop that ran while the memory run was armed.
struct LoopAllocs {
  bool valid = false;
  int64_t iterations = 0;
  alloc::Totals totals;
};
inline LoopAllocs last_loop;

inline void loop_begin() {
  if (memory_armed.load(std::memory_order_relaxed)) alloc::start();
  if (callgrind) CALLGRIND_TOGGLE_COLLECT;
}

inline void loop_end(int64_t iterations) {
  if (callgrind) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT("wirebench-loop");
  }
  if (memory_armed.load(std::memory_order_relaxed))
    last_loop = LoopAllocs{true, iterations, alloc::stop()};
}

}  // namespace wb::bench::probe
