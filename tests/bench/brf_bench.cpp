// BRF record layer throughput on the largest fixture (openbrf_redux_reference.brf, 1 MB: 7 rigged
// meshes, 2 skeletons, 7 animations), against memcpy of the same bytes in the same run:
//   BM_BrfParse  bytes → brf::Document (every record, allocation included)
//   BM_BrfWrite  brf::Document → bytes (the same bytes)
//   BM_Memcpy    the file's bytes copied into a buffer allocated once
// Goal (issue): parse ≥ 500 MB/s on the 2-core build machine. Figures: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "formats/brf/document.h"
#include "formats/io/file.h"

namespace {

using namespace marrow::formats;

const std::string kFile = MARROW_FIXTURES_DIR "/brf/openbrf_redux_reference.brf";

// The file's bytes, read once; empty (and the benchmark skipped) when the fixture is absent.
const std::vector<std::byte>& fileBytes() {
  static const std::vector<std::byte> bytes = [] {
    auto r = readFile(kFile);
    return r.ok() ? std::move(r).value() : std::vector<std::byte>{};
  }();
  return bytes;
}

bool present(benchmark::State& state) {
  if (!fileBytes().empty()) return true;
  state.SkipWithError(("the BRF fixture is absent: " + kFile).c_str());
  return false;
}

ReadContext context() {
  ReadContext ctx;
  ctx.name = "openbrf_redux_reference.brf";
  return ctx;
}

void BM_BrfParse(benchmark::State& state) {
  if (!present(state)) return;
  const auto& bytes = fileBytes();
  const ReadContext ctx = context();
  for (auto _ : state) {
    auto doc = brf::parse(bytes, ctx);
    if (!doc.ok()) {
      state.SkipWithError(doc.error().describe().c_str());
      return;
    }
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void BM_BrfWrite(benchmark::State& state) {
  if (!present(state)) return;
  const auto& bytes = fileBytes();
  const auto doc = brf::parse(bytes, context());
  if (!doc.ok()) {
    state.SkipWithError(doc.error().describe().c_str());
    return;
  }
  for (auto _ : state) {
    auto out = brf::write(*doc);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void BM_Memcpy(benchmark::State& state) {
  if (!present(state)) return;
  const auto& bytes = fileBytes();
  std::vector<std::byte> copy(bytes.size());
  for (auto _ : state) {
    std::memcpy(copy.data(), bytes.data(), bytes.size());
    benchmark::DoNotOptimize(copy.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

}  // namespace

BENCHMARK(BM_BrfParse)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BrfWrite)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMicrosecond);
