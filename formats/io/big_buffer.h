// Large fresh buffers (a file read whole, a big model's arrays, the influences the renderer
// packs): asked to be backed by 2 MiB pages where the system offers them. Linux's transparent
// huge pages in "madvise" mode (Debian's and Ubuntu's default) give them only to memory that
// asks; without them every 4 kB of a fresh buffer is a page fault of its own, which on virtual
// machines costs microseconds each: 24,000 of them were two thirds of `marrow-cli info` on a
// 40 MB model.
#pragma once

#include <cstddef>
#include <vector>

namespace marrow::formats {

// Buffers at least this large ask for huge pages (any 4 MiB range holds a whole aligned 2 MiB
// page).
inline constexpr std::size_t kBigBuffer = std::size_t{4} << 20;

// Asks for huge pages for [p, p + bytes) when it is at least kBigBuffer long: the pages of the
// range not touched yet come as 2 MiB pages where the kernel can give them. Contents are kept;
// nothing happens elsewhere than on Linux, or when the system says no.
void adviseHugePages(const void* p, std::size_t bytes);

// Buffers at least this large that are about to be written whole are mapped in one call.
inline constexpr std::size_t kPopulatedBuffer = std::size_t{256} << 10;

// Maps the whole pages of [p, p + bytes) now, writable, in one call (Linux 5.14's
// MADV_POPULATE_WRITE), for a fresh buffer that is about to be written whole: otherwise each 4 kB
// page faults on its first write, which on virtual machines costs about 10 µs each (a fresh
// 1 MiB: 3.2 ms by faults, 1.2 ms mapped at once; measured 2026-12-05). Call it after
// adviseHugePages. Returns whether the kernel did it; nothing happens under kPopulatedBuffer,
// elsewhere than on Linux, or on an older kernel. Never on memory that may stay unwritten: the
// pages become the process's memory.
bool populate(const void* p, std::size_t bytes);

// `v.reserve(n)` with the new storage advised before anything touches it (a reallocation then
// fills huge pages from the start).
template <class T>
void reserveBig(std::vector<T>& v, std::size_t n) {
  if (n <= v.capacity()) return;
  if (v.empty()) {
    std::vector<T> fresh;
    fresh.reserve(n);
    adviseHugePages(fresh.data(), n * sizeof(T));
    v.swap(fresh);
    return;
  }
  // Elements held already: the new storage is written at once by the move.
  v.reserve(n);
}

// A vector of `n` value-initialised elements whose storage asked for huge pages and was mapped
// at once first.
template <class T>
std::vector<T> bigVector(std::size_t n) {
  std::vector<T> v;
  reserveBig(v, n);
  populate(v.data(), n * sizeof(T));
  v.resize(n);
  return v;
}

}  // namespace marrow::formats
