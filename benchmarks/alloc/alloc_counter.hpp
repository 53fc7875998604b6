// Heap allocation counter behind the memory figures (docs/methodology.md). The
// benchmark and test executables link interpose.cpp, which routes malloc,
// calloc, realloc, free and the aligned allocators (and so libstdc++'s
// operator new, which calls malloc) through record_alloc/record_free. The C
// libraries' own malloc calls (libxml2, Xerces-C, simdjson) are counted too:
// an executable's definition of malloc takes precedence for every shared
// library the process loads.
//
// While counting, the blocks allocated since start() are kept in a table, so
// that a free tells a block of this measurement from an older one: the peak
// is of the blocks allocated since start() that are live at once, which a
// codec freeing its previous call's document cannot push below zero, and
// what those blocks still hold at stop() is what the measured call retains.
//
// Header-only on purpose: every user shares the same inline state without a
// separate library, and an executable without interpose.cpp simply counts
// nothing (interposed() says which).
#pragma once

#include <malloc.h>
#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace wb::alloc {

struct Totals {
  int64_t allocs = 0;          // successful malloc/calloc/realloc/aligned allocations
  int64_t frees = 0;           // free (and realloc's release of the old block)
  int64_t bytes = 0;           // bytes requested by those allocations
  int64_t peak_bytes = 0;      // most usable bytes of blocks allocated since start() live at once
  int64_t net_bytes = 0;       // live usable bytes at the end, relative to the start
  int64_t retained_bytes = 0;  // usable bytes of blocks allocated since start(), live at stop()
  int64_t released_bytes = 0;  // usable bytes freed of blocks allocated before start()
  bool complete = true;        // false: more blocks than the table holds (figures too low)
};

namespace detail {
// Counting is off unless a measurement is active, so the interposed functions
// cost one relaxed load per call in normal runs.
inline std::atomic<bool> counting{false};
inline std::atomic<int64_t> allocs{0}, frees{0}, bytes{0}, live_new{0}, peak{0}, released{0};
// Set by interpose.cpp's static initialiser: this executable routes malloc here.
inline std::atomic<bool> interposed{false};

// The blocks allocated since start(): an open-addressing set of addresses,
// each slot holding (generation << 48 | address), so that start() empties it
// by moving to the next generation. Mapped outside malloc (it is used inside
// malloc) on the first start(), 32 MiB, pages touched as used. Half full at
// most: the largest benchmarked operation makes about 1.1 million
// allocations.
class BlockTable {
 public:
  static constexpr int kSlotBits = 22;
  static constexpr std::size_t kSlots = std::size_t{1} << kSlotBits;
  static constexpr uint64_t kAddressBits = 48, kAddressMask = (uint64_t{1} << kAddressBits) - 1;
  static constexpr uint64_t kTombstone = kAddressMask;  // an address no block has

  // Empties the table; false when it cannot be mapped.
  bool reset() {
    if (!slots_) {
      void* p = mmap(nullptr, kSlots * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) return false;
      slots_ = static_cast<uint64_t*>(p);
    }
    if (++generation_ == (uint64_t{1} << (64 - kAddressBits))) {
      std::memset(slots_, 0, kSlots * sizeof(uint64_t));
      generation_ = 1;
    }
    used_ = 0;
    overflow_ = false;
    return true;
  }
  void insert(const void* block) {
    if (!slots_ || used_ >= kSlots / 2) {
      overflow_ = true;
      return;
    }
    ++used_;
    for (std::size_t i = hash(block);; i = (i + 1) & (kSlots - 1))
      if (!current(slots_[i]) || address(slots_[i]) == kTombstone) {
        slots_[i] = tag(reinterpret_cast<uintptr_t>(block));
        return;
      }
  }
  // True when block was inserted since reset(); it is removed.
  bool erase(const void* block) {
    if (!slots_) return false;
    const uint64_t wanted = tag(reinterpret_cast<uintptr_t>(block));
    for (std::size_t i = hash(block); current(slots_[i]); i = (i + 1) & (kSlots - 1))
      if (slots_[i] == wanted) {
        slots_[i] = tag(kTombstone);
        return true;
      }
    return false;
  }
  bool overflow() const { return overflow_; }

 private:
  static std::size_t hash(const void* block) {
    return static_cast<std::size_t>(
        (reinterpret_cast<uintptr_t>(block) >> 4) * 0x9E3779B97F4A7C15ull >> (64 - kSlotBits));
  }
  uint64_t tag(uint64_t a) const { return generation_ << kAddressBits | (a & kAddressMask); }
  bool current(uint64_t slot) const { return slot >> kAddressBits == generation_; }
  static uint64_t address(uint64_t slot) { return slot & kAddressMask; }

  uint64_t* slots_ = nullptr;
  uint64_t generation_ = 0;
  std::size_t used_ = 0;
  bool overflow_ = false;
};
inline BlockTable blocks;
// The table is not thread-safe: one lock while counting (memory runs are
// single-threaded, so it is never contended there).
inline std::atomic_flag table_lock = ATOMIC_FLAG_INIT;
struct TableLock {
  TableLock() {
    while (table_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~TableLock() { table_lock.clear(std::memory_order_release); }
};
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
  {
    detail::TableLock lock;
    detail::blocks.reset();
  }
  detail::allocs = 0;
  detail::frees = 0;
  detail::bytes = 0;
  detail::live_new = 0;
  detail::peak = 0;
  detail::released = 0;
  detail::counting.store(true, std::memory_order_seq_cst);
}

// Stops counting and returns what was counted since start().
inline Totals stop() {
  detail::counting.store(false, std::memory_order_seq_cst);
  detail::TableLock lock;
  const int64_t live_new = detail::live_new.load(), released = detail::released.load();
  return Totals{detail::allocs.load(),
                detail::frees.load(),
                detail::bytes.load(),
                detail::peak.load(),
                live_new - released,
                live_new,
                released,
                !detail::blocks.overflow()};
}

// Live and peak use the allocator's usable size, the only size free() can
// know; `requested` (what the caller asked for) goes into the byte total.
inline void record_alloc(void* block, std::size_t requested) {
  if (!block) return;
  const auto usable = static_cast<int64_t>(malloc_usable_size(block));
  detail::allocs.fetch_add(1, std::memory_order_relaxed);
  detail::bytes.fetch_add(static_cast<int64_t>(requested), std::memory_order_relaxed);
  {
    detail::TableLock lock;
    detail::blocks.insert(block);
  }
  const int64_t now = detail::live_new.fetch_add(usable, std::memory_order_relaxed) + usable;
  int64_t seen = detail::peak.load(std::memory_order_relaxed);
  while (now > seen && !detail::peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

// A block allocated before start() is released, not subtracted from the
// blocks of this measurement: their peak never counts it.
inline void record_free(void* block) {
  if (!block) return;
  const auto usable = static_cast<int64_t>(malloc_usable_size(block));
  detail::frees.fetch_add(1, std::memory_order_relaxed);
  bool ours;
  {
    detail::TableLock lock;
    ours = detail::blocks.erase(block);
  }
  (ours ? detail::live_new : detail::released)
      .fetch_add(ours ? -usable : usable, std::memory_order_relaxed);
}

}  // namespace wb::alloc
