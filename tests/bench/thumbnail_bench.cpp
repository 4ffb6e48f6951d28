// Thumbnails of the gallery (app/thumbnails.h) at 128 × 128: every mesh of the BRF fixtures,
// drawn (no disk cache), read back from the disk cache, and through the service's thread as the
// gallery asks for them. Needs a GL context: run under xvfb-run on a machine without a display.
//   xvfb-run -a ./build/tests/bench/marrow_thumbnail_bench
// Figures: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QTemporaryDir>

#include <algorithm>

#include <filesystem>
#include <string>
#include <vector>

#include "app/thumbnails.h"
#include "formats/load.h"
#include "render/gl/offscreen.h"

namespace {

namespace fs = std::filesystem;
using marrow::app::ThumbnailCache;
using marrow::app::ThumbnailMaker;

struct Corpus {
  marrow::formats::vfs::FileSystem archives;
  std::vector<std::string> paths;  // the meshes of archive 0
  std::string error;
};

// Every BRF fixture, one archive of records; its meshes as the gallery lists them.
const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(MARROW_FIXTURES_DIR) / "brf", ec))
      if (e.path().extension() == ".brf") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      out.error = "no BRF fixtures in " MARROW_FIXTURES_DIR "/brf";
      return out;
    }
    auto loaded = marrow::formats::load(files);
    if (!loaded) {
      out.error = loaded.error().describe();
      return out;
    }
    out.archives = std::move(loaded->archives);
    for (const auto& n : marrow::app::galleryNodes(*out.archives.archives().front(), ""))
      out.paths.push_back(n.path);
    return out;
  }();
  return c;
}

void run(benchmark::State& state, bool cached) {
  const Corpus& c = corpus();
  if (!c.error.empty() || c.paths.empty()) return state.SkipWithError(c.error.empty() ? "no meshes" : c.error.c_str());
  QTemporaryDir dir;
  ThumbnailMaker maker(ThumbnailCache(cached ? dir.path() : QString()));
  std::string error;
  if (!maker.create(&error)) return state.SkipWithError(("no GL context: " + error).c_str());
  if (cached)
    for (const auto& p : c.paths) maker.make(c.archives, 0, p);
  std::size_t k = 0, made = 0;
  for (auto _ : state) {
    const auto m = maker.make(c.archives, 0, c.paths[k++ % c.paths.size()]);
    made += !m.image.isNull();
    benchmark::DoNotOptimize(m.image.constBits());
  }
  if (made == 0) state.SkipWithError("no thumbnail was drawn");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["meshes"] = static_cast<double>(c.paths.size());
}

// Drawn every time: reading the record, the model, textures (decoded once per name), drawing
// 4× multisampled, reading the pixels back, writing nothing.
void BM_Thumbnail_Draw(benchmark::State& state) { run(state, false); }
// From the disk cache: the record's bytes hashed, the PNG read.
void BM_Thumbnail_Cached(benchmark::State& state) { run(state, true); }

// As the gallery gets them: every mesh requested of the service, drawn in its thread, each
// delivered to this thread's event loop; no disk cache.
void BM_Thumbnail_Service(benchmark::State& state) {
  const Corpus& c = corpus();
  if (!c.error.empty() || c.paths.empty()) return state.SkipWithError(c.error.empty() ? "no meshes" : c.error.c_str());
  marrow::app::ThumbnailService service{QString()};
  if (!service.unavailable().isEmpty()) return state.SkipWithError(service.unavailable().toStdString().c_str());
  service.setArchives(c.archives);
  std::size_t received = 0;
  QObject::connect(&service, &marrow::app::ThumbnailService::ready, [&] { ++received; });
  std::size_t items = 0;
  for (auto _ : state) {
    // The same archives again (a new generation): nothing is remembered between rounds.
    service.setArchives(c.archives);
    received = 0;
    for (const auto& p : c.paths) service.request(0, p);
    QElapsedTimer timer;
    timer.start();
    while (received < c.paths.size() && timer.elapsed() < 60000)
      QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    items += received;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
  state.counters["meshes"] = static_cast<double>(c.paths.size());
}

BENCHMARK(BM_Thumbnail_Draw)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();
BENCHMARK(BM_Thumbnail_Cached)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime();
BENCHMARK(BM_Thumbnail_Service)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  marrow::render::setDefaultSurfaceFormat();
  QGuiApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
