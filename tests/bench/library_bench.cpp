// Whole games as one library (issue 16): what the Archives dock waits for.
//   BM_OpenModule300       a Warband module of 300 BRF files and 30,000 records made on disk by
//                          the project's BRF writer: module.ini read, every file parsed, the
//                          module's checks, and the tree's first level (goal: < 1 s)
//   BM_ModuleSearch30k     one keystroke of the filter over those 30,000 records (goal: < 50 ms)
//   BM_PakSearch100k       one keystroke over a 100,000-entry pak set (goal: < 50 ms)
//   BM_NameScan100k        the floor: std::string_view::find over the same 100,000 names held
//                          in one vector
// Figures: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "formats/brf/archive.h"
#include "formats/brf/document.h"
#include "formats/dragonnest/pak_archive.h"
#include "formats/dragonnest/pak_writer.h"
#include "formats/warband/module.h"

namespace {

using namespace marrow::formats;
namespace fs = std::filesystem;

constexpr int kFiles = 300, kRecordsPerFile = 100;

// <tmp>/marrow_bench_install/Modules/Bench: 300 BRFs of 100 materials each, module.ini naming them.
const warband::ModuleFolders& benchModule() {
  static const warband::ModuleFolders folders = [] {
    const fs::path install = fs::temp_directory_path() / "marrow_bench_install";
    const fs::path module = install / "Modules" / "Bench";
    fs::remove_all(install);
    fs::create_directories(module / "Resource");
    fs::create_directories(install / "CommonRes");
    std::ofstream ini(module / "module.ini", std::ios::binary);
    for (int f = 0; f < kFiles; ++f) {
      brf::Document d;
      d.version = 1;
      for (int r = 0; r < kRecordsPerFile; ++r) {
        brf::Material m;
        m.name = "mat_" + std::to_string(f) + "_" + std::to_string(r);
        m.shader = "def_shader";
        m.diffuseA = m.diffuseB = m.bump = m.enviro = "none";
        m.spec = "none";
        d.materials.push_back(m);
      }
      const auto bytes = brf::write(d);
      const std::string name = "file_" + std::to_string(f);
      std::ofstream(module / "Resource" / (name + ".brf"), std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      ini << "load_mod_resource = " << name << "\r\n";
    }
    ini.close();
    return *warband::moduleOf(module.string());
  }();
  return folders;
}

std::shared_ptr<const vfs::Archive> openBench() {
  auto m = warband::openModule(benchModule(), {}, false);
  if (!m.ok()) return nullptr;
  return std::make_shared<const brf::BrfArchive>(std::move(m->sources),
                                                 brf::BrfArchive::Library{"Bench", {}, {}});
}

void BM_OpenModule300(benchmark::State& state) {
  benchModule();
  for (auto _ : state) {
    const auto a = openBench();
    if (!a) state.SkipWithError("the module did not open");
    benchmark::DoNotOptimize(a->children(""));
  }
  state.SetItemsProcessed(state.iterations() * kFiles * kRecordsPerFile);
}
BENCHMARK(BM_OpenModule300)->Unit(benchmark::kMillisecond);

void BM_ModuleSearch30k(benchmark::State& state) {
  const auto a = openBench();
  for (auto _ : state) benchmark::DoNotOptimize(a->search("mat_123_4", 201));
  state.SetItemsProcessed(state.iterations() * kFiles * kRecordsPerFile);
}
BENCHMARK(BM_ModuleSearch30k)->Unit(benchmark::kMillisecond);

constexpr std::size_t kEntries = 100000;

std::vector<std::string> entryPaths() {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < kEntries; ++i)
    paths.push_back("resource/" + std::to_string(i % 7) + "_set/folder" + std::to_string(i % 211) + "/item_" +
                    std::to_string(i) + (i % 3 ? ".dds" : ".dnt"));
  return paths;
}

const std::shared_ptr<const dragonnest::PakSet>& benchPaks() {
  static const std::shared_ptr<const dragonnest::PakSet> set = [] {
    static std::vector<std::byte> bytes;  // the pak parsed in place: kept alive
    std::vector<dragonnest::PakFile> files;
    for (const std::string& p : entryPaths()) {
      dragonnest::PakFile f;
      f.path = p;
      f.data.assign(16, std::byte{'a'});
      files.push_back(std::move(f));
    }
    bytes = dragonnest::writePak(files).value();
    std::vector<dragonnest::Pak> paks;
    paks.push_back(dragonnest::Pak::parse(bytes, "bench.pak").value());
    return std::make_shared<const dragonnest::PakSet>(std::move(paks));
  }();
  return set;
}

void BM_PakSearch100k(benchmark::State& state) {
  const dragonnest::PakArchive a(benchPaks());
  a.search("warm", 1);  // the resolved entries, as the tree's first look builds them
  for (auto _ : state) benchmark::DoNotOptimize(a.search("item_4711", 201));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEntries));
}
BENCHMARK(BM_PakSearch100k)->Unit(benchmark::kMillisecond);

void BM_NameScan100k(benchmark::State& state) {
  const std::vector<std::string> names = entryPaths();
  for (auto _ : state) {
    std::size_t found = 0;
    for (const std::string& n : names) found += std::string_view(n).find("item_4711") != std::string_view::npos;
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEntries));
}
BENCHMARK(BM_NameScan100k)->Unit(benchmark::kMillisecond);

}  // namespace
