#include "formats/io/big_buffer.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace marrow::formats {

#if defined(__linux__)
namespace {

// madvise wants a page-aligned start: the whole pages inside the range (the partial page at
// each end belongs to the allocator's bookkeeping or to a neighbour, and is left as it is).
bool wholePages(const void* p, std::size_t bytes, void*& start, std::size_t& length) {
  static const std::uintptr_t page = [] {
    const long s = sysconf(_SC_PAGESIZE);
    return s > 0 ? static_cast<std::uintptr_t>(s) : std::uintptr_t{4096};
  }();
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
  const std::uintptr_t last = (begin + bytes) & ~(page - 1);
  if (p == nullptr || last <= first) return false;
  start = reinterpret_cast<void*>(first);
  length = last - first;
  return true;
}

}  // namespace
#endif

void adviseHugePages(const void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  void* start = nullptr;
  std::size_t length = 0;
  if (bytes < kBigBuffer || !wholePages(p, bytes, start, length)) return;
  // Advice only: a kernel without transparent huge pages, or with them off, answers EINVAL and
  // the buffer works as before.
  (void)madvise(start, length, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

bool populate(const void* p, std::size_t bytes) {
#if defined(__linux__)
  // Debian 12's headers predate the constant; the kernel's value (include/uapi/asm-generic/mman-common.h).
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;
#endif
  void* start = nullptr;
  std::size_t length = 0;
  if (bytes < kPopulatedBuffer || !wholePages(p, bytes, start, length)) return false;
  // An older kernel answers EINVAL, and the pages fault one by one as before.
  return madvise(start, length, MADV_POPULATE_WRITE) == 0;
#else
  (void)p;
  (void)bytes;
  return false;
#endif
}

}  // namespace marrow::formats
