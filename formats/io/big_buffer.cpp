#include "formats/io/big_buffer.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace marrow::formats {

void adviseHugePages(const void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p == nullptr || bytes < kBigBuffer) return;
  // madvise wants a page-aligned start: the whole pages inside the range (the partial page at
  // each end belongs to the allocator's bookkeeping or to a neighbour, and is left as it is).
  static const std::uintptr_t page = [] {
    const long s = sysconf(_SC_PAGESIZE);
    return s > 0 ? static_cast<std::uintptr_t>(s) : std::uintptr_t{4096};
  }();
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
  const std::uintptr_t last = (begin + bytes) & ~(page - 1);
  if (last <= first) return;
  // Advice only: a kernel without transparent huge pages, or with them off, answers EINVAL and
  // the buffer works as before.
  (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace marrow::formats
