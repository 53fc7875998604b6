// Heap allocation counter behind the memory figures (docs/methodology.md). The
// benchmark and test executables link interpose.cpp, which routes malloc,
// calloc, realloc, free and the aligned allocators (and so libstdc++'s
// operator new, which calls malloc) through record_alloc/record_free. The C
// libraries' own malloc calls (libxml2, Xerces-C, simdjson) are counted too:
// an executable's definition of malloc takes precedence for every shared
// library the process loads.
//
// Header-only on purpose: every user shares the same inline state without a
// separate library, and an executable without interpose.cpp simply counts
// nothing (interposed() says which).
#pragma once

#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace wb::alloc {

struct Totals {
  int64_t allocs = 0;      // successful malloc/calloc/realloc/aligned allocations
  int64_t frees = 0;       // free (and realloc's release of the old block)
  int64_t bytes = 0;       // bytes requested by those allocations
  int64_t peak_bytes = 0;  // highest live usable bytes above the start, >= 0
  int64_t net_bytes = 0;   // live usable bytes at the end, relative to the start
};

namespace detail {
// Counting is off unless a measurement is active, so the interposed functions
// cost one relaxed load per call in normal runs.
inline std::atomic<bool> counting{false};
inline std::atomic<int64_t> allocs{0}, frees{0}, bytes{0}, live{0}, peak{0};
// Set by interpose.cpp's static initialiser: this executable routes malloc here.
inline std::atomic<bool> interposed{false};
}  // namespace detail

inline bool counting() {
  return detail::counting.load(std::memory_order_relaxed);
}
inline bool interposed() {
  return detail::interposed.load(std::memory_order_relaxed);
}

// Zeroes the totals and counts every thread's allocations from now on.
inline void start() {
  detail::counting.store(false, std::memory_order_relaxed);
  detail::allocs = 0;
  detail::frees = 0;
  detail::bytes = 0;
  detail::live = 0;
  detail::peak = 0;
  detail::counting.store(true, std::memory_order_seq_cst);
}

// Stops counting and returns what was counted since start().
inline Totals stop() {
  detail::counting.store(false, std::memory_order_seq_cst);
  return Totals{detail::allocs.load(), detail::frees.load(), detail::bytes.load(),
                detail::peak.load(), detail::live.load()};
}

// Live and peak use the allocator's usable size, the only size free() can
// know; `requested` (what the caller asked for) goes into the byte total.
inline void record_alloc(void* block, std::size_t requested) {
  if (!block) return;
  const auto usable = static_cast<int64_t>(malloc_usable_size(block));
  detail::allocs.fetch_add(1, std::memory_order_relaxed);
  detail::bytes.fetch_add(static_cast<int64_t>(requested), std::memory_order_relaxed);
  const int64_t now = detail::live.fetch_add(usable, std::memory_order_relaxed) + usable;
  int64_t seen = detail::peak.load(std::memory_order_relaxed);
  while (now > seen && !detail::peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

// A block allocated before start() lowers live below zero: the peak is the
// growth above the starting heap, which is what one operation costs.
inline void record_free(void* block) {
  if (!block) return;
  detail::frees.fetch_add(1, std::memory_order_relaxed);
  detail::live.fetch_sub(static_cast<int64_t>(malloc_usable_size(block)),
                         std::memory_order_relaxed);
}

}  // namespace wb::alloc
