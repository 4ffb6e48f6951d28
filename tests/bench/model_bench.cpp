// Big models (issue 18): the time from a file to a model, against assimp's plain read of the
// same file, on the project's generated skinned tube (tests/support/big_model.h: 500,000
// vertices, 998,000 triangles, 64 bones, one clip; a 40 MB .glb written once to the temporary
// folder).
//   BM_BigGlb_Marrow        formats::loadFile: what `marrow-cli info` waits for (read, import,
//                           conversion to the model, validation)
//   BM_BigGlb_AssimpPlain   Assimp::Importer::ReadFile with no post-processing (goal: Marrow
//                           ≤ 1.5× its time)
//   BM_RealModel_Marrow/N, BM_RealModel_AssimpPlain/N: the same on the largest of Debian's
//                           assimp test models (glTF, SMD, DirectX, COLLADA)
// Figures: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <filesystem>
#include <string>

#include "formats/registry.h"
#include "tests/support/big_model.h"

namespace {

const std::string& bigGlb() {
  static const std::string path = [] {
    const std::string p = (std::filesystem::temp_directory_path() / "marrow_bench_big.glb").string();
    return marrow::testing::writeBigSkinnedGlb(p) ? p : std::string();
  }();
  return path;
}

void BM_BigGlb_Marrow(benchmark::State& state) {
  if (bigGlb().empty()) return state.SkipWithError("the model could not be written");
  for (auto _ : state) {
    auto scene = marrow::formats::loadFile(bigGlb());
    if (!scene.ok()) return state.SkipWithError(scene.error().describe().c_str());
    benchmark::DoNotOptimize(scene->meshes.data());
  }
}
BENCHMARK(BM_BigGlb_Marrow)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_BigGlb_AssimpPlain(benchmark::State& state) {
  if (bigGlb().empty()) return state.SkipWithError("the model could not be written");
  for (auto _ : state) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(bigGlb(), 0);
    if (!scene) return state.SkipWithError(importer.GetErrorString());
    benchmark::DoNotOptimize(scene);
  }
}
BENCHMARK(BM_BigGlb_AssimpPlain)->Unit(benchmark::kMillisecond)->Iterations(3);

const char* const kRealModels[] = {"glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb", "SMD/WusonSMD.smd",
                                   "X/Testwuson.X", "Collada/COLLADA.dae"};

std::string realModel(benchmark::State& state) {
  const std::string path = std::string(MARROW_ASSIMP_MODELS_DIR "/") + kRealModels[state.range(0)];
  state.SetLabel(kRealModels[state.range(0)]);
  return std::filesystem::exists(path) ? path : std::string();
}

void BM_RealModel_Marrow(benchmark::State& state) {
  const std::string path = realModel(state);
  if (path.empty()) return state.SkipWithError("not installed (assimp-testmodels)");
  for (auto _ : state) {
    auto scene = marrow::formats::loadFile(path);
    if (!scene.ok()) return state.SkipWithError(scene.error().describe().c_str());
    benchmark::DoNotOptimize(scene->meshes.data());
  }
}
BENCHMARK(BM_RealModel_Marrow)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

void BM_RealModel_AssimpPlain(benchmark::State& state) {
  const std::string path = realModel(state);
  if (path.empty()) return state.SkipWithError("not installed (assimp-testmodels)");
  for (auto _ : state) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, 0);
    if (!scene) return state.SkipWithError(importer.GetErrorString());
    benchmark::DoNotOptimize(scene);
  }
}
BENCHMARK(BM_RealModel_AssimpPlain)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

}  // namespace
