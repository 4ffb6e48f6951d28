#include "formats/io/big_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "formats/io/file.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace marrow::formats {
namespace {

TEST(BigBuffer, GivesWhatAPlainVectorGives) {
  const auto small = bigVector<std::uint32_t>(10);
  EXPECT_EQ(small, std::vector<std::uint32_t>(10, 0u));
  auto big = bigVector<double>(kBigBuffer);  // 8 × kBigBuffer bytes
  ASSERT_EQ(big.size(), kBigBuffer);
  EXPECT_TRUE(std::all_of(big.begin(), big.end(), [](double d) { return d == 0.0; }));
  // Growing a vector that holds elements keeps them, in order.
  std::vector<int> held{7, 8, 9};
  reserveBig(held, kBigBuffer);
  EXPECT_GE(held.capacity(), kBigBuffer);
  EXPECT_EQ(held, (std::vector<int>{7, 8, 9}));
  reserveBig(held, 1);  // less than held: nothing changes
  EXPECT_EQ(held, (std::vector<int>{7, 8, 9}));
  // Advice on ranges that are not whole pages, or on nothing, is harmless.
  adviseHugePages(nullptr, kBigBuffer);
  adviseHugePages(big.data() + 1, kBigBuffer / 2);
  EXPECT_EQ(big[1], 0.0);
}

#if defined(__linux__)
// A fresh mapping has no page in memory until it is written; populated, all of them are (mincore
// says which pages are resident). Under kPopulatedBuffer nothing is done.
TEST(BigBuffer, APopulatedBufferIsInMemoryBeforeItIsWritten) {
  const std::size_t bytes = std::size_t{1} << 20, page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  std::vector<unsigned char> resident(bytes / page);
  const auto count = [&] {
    EXPECT_EQ(mincore(p, bytes, resident.data()), 0);
    return std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return r & 1; });
  };
  EXPECT_EQ(count(), 0);
  EXPECT_FALSE(populate(p, kPopulatedBuffer - page));
  EXPECT_EQ(count(), 0);
  if (!populate(p, bytes)) {
    munmap(p, bytes);
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)";
  }
  EXPECT_EQ(count(), static_cast<long>(resident.size()));
  static_cast<unsigned char*>(p)[bytes - 1] = 1;  // and it is writable
  munmap(p, bytes);
}

// The kernel's transparent huge page mode: "always", "madvise" or "never" (the bracketed word).
std::string hugePageMode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const auto open = line.find('['), close = line.find(']');
  return open == std::string::npos || close == std::string::npos
             ? std::string()
             : line.substr(open + 1, close - open - 1);
}

// Kilobytes of huge pages backing the mappings that overlap [p, p + bytes), from /proc/self/smaps.
std::uint64_t hugeKilobytes(const void* p, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p), end = begin + bytes;
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool inside = false;
  std::uint64_t total = 0;
  while (std::getline(in, line)) {
    unsigned long long from = 0, to = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &from, &to) == 2) {  // a mapping's first line
      inside = from < end && to > begin;
      continue;
    }
    if (inside && line.rfind("AnonHugePages:", 0) == 0) total += std::stoull(line.substr(14));
  }
  return total;
}

// On Linux with transparent huge pages available only to memory that asks ("madvise", Debian's
// default), a big buffer's pages come as 2 MiB pages: without the advice it would hold none.
TEST(BigBuffer, FreshBigBuffersComeInHugePagesWhereTheKernelGivesThem) {
  const std::string mode = hugePageMode();
  if (mode != "madvise" && mode != "always")
    GTEST_SKIP() << "transparent huge pages are '" << mode
                 << "' on this kernel: nothing to ask for";
  auto v = bigVector<std::byte>(std::size_t{64} << 20);
  std::fill(v.begin(), v.end(), std::byte{1});
  EXPECT_GE(hugeKilobytes(v.data(), v.size()), 2048u) << "mode " << mode;
  // A file read whole (readFile) asks the same.
  const std::string path = ::testing::TempDir() + "/marrow_big_buffer_test.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size()));
  }
  auto file = readFile(path);
  std::remove(path.c_str());
  ASSERT_TRUE(file.ok()) << file.error().message;
  ASSERT_EQ(file.value().size(), v.size());
  EXPECT_EQ(file.value()[v.size() - 1], std::byte{1});
  EXPECT_GE(hugeKilobytes(file.value().data(), file.value().size()), 2048u) << "mode " << mode;
}
#endif

}  // namespace
}  // namespace marrow::formats
