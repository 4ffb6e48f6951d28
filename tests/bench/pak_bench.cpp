// Dragon Nest pak throughput on a 100,000-entry archive made in memory by the project's writer
// (small entries of 100 B – 4 kB, paths in nested folders, as a game's tables and textures):
//   BM_PakIndex100k        bytes → Pak, what opening does: the header and one pass over the
//                          316-byte rows (fields, checks, flags, normalised paths) (goal < 30 ms)
//   BM_PakSortedIndex100k  the same and the sorted index a first lookup or the tree builds
//                          (paths sorted, duplicates found)
//   BM_PakTablePass100k    a bare pass over the table reading each row's fields: the floor
//   BM_PakExtractAll       every entry through Pak::read (size cap, checks, allocation)
//   BM_ZlibUncompressAll   zlib's uncompress of the same streams into buffers of their sizes
//                          (goal: BM_PakExtractAll at ≥ 0.9 of its throughput)
// Figures: docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstring>
#include <string>
#include <vector>

#include "formats/dragonnest/pak.h"
#include "formats/dragonnest/pak_writer.h"

namespace {

using namespace marrow::formats;
using namespace marrow::formats::dragonnest;

constexpr std::size_t kEntries = 100000;

const std::vector<std::byte>& pakBytes() {
  static const std::vector<std::byte> bytes = [] {
    std::vector<PakFile> files;
    files.reserve(kEntries);
    std::uint32_t seed = 12345;
    const auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    for (std::size_t i = 0; i < kEntries; ++i) {
      PakFile f;
      f.path = "resource/" + std::to_string(i % 7) + "_set/folder" + std::to_string(i % 211) +
               "/item_" + std::to_string(i) + (i % 3 ? ".dds" : ".dnt");
      f.data.resize(100 + next() % 4000);
      // Text-like content: compresses about 3:1 with level 1, as game data does.
      for (auto& b : f.data) b = static_cast<std::byte>('a' + (next() >> 24) % 12);
      files.push_back(std::move(f));
    }
    auto r = writePak(files);
    return r.ok() ? std::move(r).value() : std::vector<std::byte>{};
  }();
  return bytes;
}

void BM_PakIndex100k(benchmark::State& state) {
  const auto& bytes = pakBytes();
  for (auto _ : state) {
    auto pak = Pak::parse(bytes, "bench.pak");
    if (!pak.ok()) state.SkipWithError(pak.error().describe().c_str());
    benchmark::DoNotOptimize(pak);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEntries));
}
BENCHMARK(BM_PakIndex100k)->Unit(benchmark::kMillisecond);

void BM_PakSortedIndex100k(benchmark::State& state) {
  const auto& bytes = pakBytes();
  for (auto _ : state) {
    auto pak = Pak::parse(bytes, "bench.pak");
    if (!pak.ok()) state.SkipWithError(pak.error().describe().c_str());
    benchmark::DoNotOptimize(pak->sorted().data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEntries));
}
BENCHMARK(BM_PakSortedIndex100k)->Unit(benchmark::kMillisecond);

void BM_PakTablePass100k(benchmark::State& state) {
  const auto& bytes = pakBytes();
  std::uint32_t table;
  std::memcpy(&table, bytes.data() + 264, 4);
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < kEntries; ++i) {
      const std::byte* row = bytes.data() + table + i * kPakEntrySize;
      std::uint32_t v[4];
      std::memcpy(v, row + 256, 16);
      sum += v[0] + v[1] + v[2] + v[3] + std::strlen(reinterpret_cast<const char*>(row));
    }
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_PakTablePass100k)->Unit(benchmark::kMillisecond);

void BM_PakExtractAll(benchmark::State& state) {
  const auto pak = Pak::parse(pakBytes(), "bench.pak");
  std::uint64_t total = 0;
  for (auto _ : state) {
    total = 0;
    for (const auto& e : pak->entries()) {
      auto bytes = pak->read(e);
      if (!bytes.ok()) state.SkipWithError(bytes.error().describe().c_str());
      total += bytes->size();
      benchmark::DoNotOptimize(bytes);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}
BENCHMARK(BM_PakExtractAll)->Unit(benchmark::kMillisecond);

void BM_ZlibUncompressAll(benchmark::State& state) {
  const auto pak = Pak::parse(pakBytes(), "bench.pak");
  const auto& bytes = pakBytes();
  std::uint64_t total = 0;
  for (auto _ : state) {
    total = 0;
    for (const auto& e : pak->entries()) {
      std::vector<std::byte> out(e.size);
      uLongf n = e.size;
      if (uncompress(reinterpret_cast<Bytef*>(out.data()), &n,
                     reinterpret_cast<const Bytef*>(bytes.data() + e.dataOffset),
                     e.packedSize) != Z_OK)
        state.SkipWithError("uncompress failed");
      total += n;
      benchmark::DoNotOptimize(out);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}
BENCHMARK(BM_ZlibUncompressAll)->Unit(benchmark::kMillisecond);

}  // namespace
