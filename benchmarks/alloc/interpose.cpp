// The malloc family of this executable: forwards to glibc's implementation
// (__libc_malloc & co., exported for exactly this purpose) and tells the
// allocation counter about each call while a measurement is active. Defined in
// the executable, these take precedence over libc's for every shared library
// too, so libxml2's and Xerces-C's allocations are seen (glibc documents this
// as "Replacing malloc"; malloc_usable_size stays libc's, which is consistent
// because every block still comes from libc's allocator).
#include <cerrno>
#include <cstddef>

#include "benchmarks/alloc/alloc_counter.hpp"

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* block, std::size_t size);
void __libc_free(void* block);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
}

namespace {
using wb::alloc::counting;
using wb::alloc::record_alloc;
using wb::alloc::record_free;

[[maybe_unused]] const bool kMarked = [] {
  wb::alloc::detail::interposed = true;
  return true;
}();

void* counted(void* block, std::size_t requested) {
  if (counting()) record_alloc(block, requested);
  return block;
}
}  // namespace

extern "C" {

void* malloc(std::size_t size) noexcept {
  return counted(__libc_malloc(size), size);
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  return counted(__libc_calloc(count, size), count * size);
}

void free(void* block) noexcept {
  if (block && counting()) record_free(block);
  __libc_free(block);
}

// A realloc is counted as one allocation of the new size and one free of the
// old block (when there was one), whether or not it moved.
void* realloc(void* block, std::size_t size) noexcept {
  if (!counting()) return __libc_realloc(block, size);
  // The old block is recorded as freed before the call (its usable size is
  // unknown after), and recorded again as allocated if realloc fails.
  record_free(block);
  void* moved = __libc_realloc(block, size);
  if (!moved && size != 0 && block) {
    record_alloc(block, 0);
    wb::alloc::detail::allocs.fetch_sub(1, std::memory_order_relaxed);
    wb::alloc::detail::frees.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }
  return counted(moved, size);
}

void* memalign(std::size_t alignment, std::size_t size) noexcept {
  return counted(__libc_memalign(alignment, size), size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  return counted(__libc_memalign(alignment, size), size);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* block = __libc_memalign(alignment, size);
  if (!block) return ENOMEM;
  *out = counted(block, size);
  return 0;
}

void* valloc(std::size_t size) noexcept {
  return counted(__libc_valloc(size), size);
}
void* pvalloc(std::size_t size) noexcept {
  return counted(__libc_pvalloc(size), size);
}

}  // extern "C"
