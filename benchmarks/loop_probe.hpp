// Hooks around every timed loop (timed_loop calls them): the allocation
// counter of the memory run and callgrind's collection window both cover the
// measured operation only, never the setup (payload generation, parser
// creation, the correctness check) that runs before it.
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
// --wirebench_memory_run: the process gives memory figures only (the timed
// run checked the same code on the same payloads): the runs before each
// memory run leave their loops empty.
inline bool memory_only = false;

// The iteration count of the last loop of the memory run.
struct LoopIterations {
  bool valid = false;
  int64_t iterations = 0;
};
inline LoopIterations last_loop;

// One call's allocations, measured by measure_call in the memory run.
struct CallAllocs {
  bool valid = false;
  alloc::Totals totals;
};
inline CallAllocs last_call;

// In the memory run only: op() once, so that what earlier calls leave behind
// (a document kept until the next call, grown buffers) is in place as in the
// timed loop, then once counted. Its figures are one call's: allocations,
// bytes, the peak of what the call itself allocated, and what it retains.
// With memory_only the state's warm-up call (benchmarks/kept.hpp) came just
// before, with nothing between: that call is the first. Returns whether this
// is the memory run.
template <class Op>
bool measure_call(Op& op) {
  if (!memory_armed.load(std::memory_order_relaxed)) return false;
  if (!memory_only) op();
  alloc::start();
  op();
  last_call = CallAllocs{true, alloc::stop()};
  return true;
}

inline void loop_begin() {
  if (callgrind) CALLGRIND_TOGGLE_COLLECT;
}

inline void loop_end(int64_t iterations) {
  if (callgrind) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT("wirebench-loop");
  }
  if (memory_armed.load(std::memory_order_relaxed)) last_loop = LoopIterations{true, iterations};
}

}  // namespace wb::bench::probe
