// Dragon Nest pak throughput on a 100,000-entry archive made in memory by the project's writer
// (small entries of 100 B – 4 kB, paths in nested folders, as a game's tables and textures):
//   BM_PakIndex100k        bytes → Pak, what opening does: the header and one pass over the
//                          316-byte rows (fields, checks, flags, normalised paths) (goal < 30 ms)
//   BM_PakSortedIndex100k  the same and the sorted index a first lookup or the tree builds
//                          (paths sorted, duplicates found)
//   BM_PakTablePass100k    a bare pass over the table reading each row's fields: the floor
//   BM_PakExtractAll       every entry through Pak::read (size cap, checks, allocation; libdeflate)
//   BM_PakExtractAllThreads  the same reads shared out over one worker per core, as extraction
//                          does (formats/io/extract.cpp), on the wall clock
//   BM_ZlibUncompressAll   zlib's uncompress of the same streams into buffers of their sizes
//                          (goal: BM_PakExtractAll at ≥ 2× its throughput)
//   BM_PakPackAll          every file through PakWriter at level 1 (the engine's), as `pack` does,
//                          into a stream that discards
//   BM_ZlibCompressAll     zlib's compress2 of the same files at level 1 (goal: BM_PakPackAll ≥ 2×)
// The synthetic entries are letters at random (about 1.9:1 at level 1, no repeats to copy: the
// slowest data for both inflaters). The *Fixtures variants do the same on real game files: every
// file of ../shared/fixtures (BRF, cal3d and Dragon Nest data) as one pak.
// Figures: docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ostream>
#include <streambuf>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "formats/dragonnest/pak.h"
#include "formats/dragonnest/pak_writer.h"

namespace {

using namespace marrow::formats;
using namespace marrow::formats::dragonnest;

constexpr std::size_t kEntries = 100000;

const std::vector<PakFile>& pakFiles() {
  static const std::vector<PakFile> all = [] {
    std::vector<PakFile> files;
    files.reserve(kEntries);
    std::uint32_t seed = 12345;
    const auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    for (std::size_t i = 0; i < kEntries; ++i) {
      PakFile f;
      f.path = "resource/" + std::to_string(i % 7) + "_set/folder" + std::to_string(i % 211) +
               "/item_" + std::to_string(i) + (i % 3 ? ".dds" : ".dnt");
      f.data.resize(100 + next() % 4000);
      // Letters at random: about 1.9:1 with level 1.
      for (auto& b : f.data) b = static_cast<std::byte>('a' + (next() >> 24) % 12);
      files.push_back(std::move(f));
    }
    return files;
  }();
  return all;
}

// Every file of the fixture corpus, or none when the folder is absent.
const std::vector<PakFile>& fixtureFiles() {
  static const std::vector<PakFile> all = [] {
    std::vector<PakFile> files;
    std::error_code ec;
    const std::filesystem::path root(MARROW_FIXTURES_DIR);
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec); !ec && it != std::filesystem::end(it);
         it.increment(ec)) {
      if (!it->is_regular_file()) continue;
      std::ifstream in(it->path(), std::ios::binary);
      std::vector<char> chars{std::istreambuf_iterator<char>(in), {}};
      PakFile f;
      f.path = std::filesystem::relative(it->path(), root).generic_string();
      f.data.resize(chars.size());
      std::memcpy(f.data.data(), chars.data(), chars.size());
      files.push_back(std::move(f));
    }
    return files;
  }();
  return all;
}

// The files as one pak, written by the project's writer; empty when it fails.
std::vector<std::byte> packed(const std::vector<PakFile>& files) {
  auto r = writePak(files);
  return r.ok() ? std::move(r).value() : std::vector<std::byte>{};
}

const std::vector<std::byte>& fixturePakBytes() {
  static const std::vector<std::byte> bytes = packed(fixtureFiles());
  return bytes;
}

std::uint64_t inflatedSize(const std::vector<PakFile>& files) {
  std::uint64_t total = 0;
  for (const auto& f : files) total += f.data.size();
  return total;
}

const std::vector<std::byte>& pakBytes() {
  static const std::vector<std::byte> bytes = packed(pakFiles());
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

template <const std::vector<std::byte>& (*Source)()>
void extractAll(benchmark::State& state) {
  if (Source().empty()) return state.SkipWithError("no files (../shared/fixtures is absent)");
  const auto pak = Pak::parse(Source(), "bench.pak");
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
void BM_PakExtractAll(benchmark::State& state) { extractAll<pakBytes>(state); }
void BM_PakExtractFixtures(benchmark::State& state) { extractAll<fixturePakBytes>(state); }
BENCHMARK(BM_PakExtractAll)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PakExtractFixtures)->Unit(benchmark::kMillisecond);

// The same reads on as many workers as extraction uses (formats/io/extract.cpp: one per core),
// each taking the next entry, timed on the wall clock.
template <const std::vector<std::byte>& (*Source)()>
void extractAllThreads(benchmark::State& state) {
  if (Source().empty()) return state.SkipWithError("no files (../shared/fixtures is absent)");
  const auto pak = Pak::parse(Source(), "bench.pak");
  const auto& entries = pak->entries();
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::uint64_t total = 0;
  for (auto _ : state) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> sum{0};
    std::atomic<bool> failed{false};
    const auto work = [&] {
      std::uint64_t mine = 0;
      for (std::size_t k; (k = next.fetch_add(1)) < entries.size();) {
        auto bytes = pak->read(entries[k]);
        if (!bytes.ok()) failed = true;
        else mine += bytes->size();
        benchmark::DoNotOptimize(bytes);
      }
      sum += mine;
    };
    std::vector<std::thread> workers;
    for (unsigned k = 1; k < threads; ++k) workers.emplace_back(work);
    work();
    for (auto& w : workers) w.join();
    if (failed) state.SkipWithError("an entry failed");
    total = sum;
  }
  state.counters["threads"] = threads;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}
void BM_PakExtractAllThreads(benchmark::State& state) { extractAllThreads<pakBytes>(state); }
void BM_PakExtractFixturesThreads(benchmark::State& state) { extractAllThreads<fixturePakBytes>(state); }
BENCHMARK(BM_PakExtractAllThreads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PakExtractFixturesThreads)->Unit(benchmark::kMillisecond)->UseRealTime();

template <const std::vector<std::byte>& (*Source)()>
void zlibUncompressAll(benchmark::State& state) {
  if (Source().empty()) return state.SkipWithError("no files (../shared/fixtures is absent)");
  const auto pak = Pak::parse(Source(), "bench.pak");
  const auto& bytes = Source();
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
void BM_ZlibUncompressAll(benchmark::State& state) { zlibUncompressAll<pakBytes>(state); }
void BM_ZlibUncompressFixtures(benchmark::State& state) { zlibUncompressAll<fixturePakBytes>(state); }
BENCHMARK(BM_ZlibUncompressAll)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZlibUncompressFixtures)->Unit(benchmark::kMillisecond);

// A stream that keeps nothing but where it is (PakWriter seeks back to its header): packing's
// work without the disk's, as compress2's side has none.
class Discard : public std::streambuf {
 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override {
    at_ += n;
    end_ = std::max(end_, at_);
    return n;
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) xsputn(nullptr, 1);
    return c == traits_type::eof() ? 0 : c;
  }
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    at_ = (dir == std::ios_base::beg ? 0 : dir == std::ios_base::end ? end_ : at_) + off;
    return at_;
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode) override { return at_ = pos; }

 private:
  std::streamoff at_ = 0, end_ = 0;
};

template <const std::vector<PakFile>& (*Files)()>
void packAll(benchmark::State& state) {
  const auto& files = Files();
  if (files.empty()) return state.SkipWithError("no files (../shared/fixtures is absent)");
  const std::uint64_t total = inflatedSize(files);
  for (auto _ : state) {
    Discard sink;
    std::ostream out(&sink);
    PakWriter writer(out);
    for (const auto& f : files)
      if (auto e = writer.add(f.path, f.data)) state.SkipWithError(e->describe().c_str());
    if (auto e = writer.finish()) state.SkipWithError(e->describe().c_str());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}
void BM_PakPackAll(benchmark::State& state) { packAll<pakFiles>(state); }
void BM_PakPackFixtures(benchmark::State& state) { packAll<fixtureFiles>(state); }
BENCHMARK(BM_PakPackAll)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PakPackFixtures)->Unit(benchmark::kMillisecond);

template <const std::vector<PakFile>& (*Files)()>
void zlibCompressAll(benchmark::State& state) {
  const auto& files = Files();
  if (files.empty()) return state.SkipWithError("no files (../shared/fixtures is absent)");
  const std::uint64_t total = inflatedSize(files);
  std::vector<unsigned char> out;
  for (auto _ : state) {
    for (const auto& f : files) {
      uLongf n = compressBound(static_cast<uLong>(f.data.size()));
      out.resize(n);
      if (compress2(out.data(), &n, reinterpret_cast<const Bytef*>(f.data.data()),
                    static_cast<uLong>(f.data.size()), 1) != Z_OK)
        state.SkipWithError("compress2 failed");
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}
void BM_ZlibCompressAll(benchmark::State& state) { zlibCompressAll<pakFiles>(state); }
void BM_ZlibCompressFixtures(benchmark::State& state) { zlibCompressAll<fixtureFiles>(state); }
BENCHMARK(BM_ZlibCompressAll)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZlibCompressFixtures)->Unit(benchmark::kMillisecond);

}  // namespace
