// One read of a model in a fresh process, as a user's command makes it: the process's first big
// allocations (page faults and all) included, which an in-process benchmark repeating the read
// does not see. scripts/read_once.sh runs it for both readers, alternating, and compares.
//   marrow_read_once marrow FILE   formats::loadFile: what `marrow-cli info` waits for
//   marrow_read_once assimp FILE   Assimp::Importer::ReadFile with no post-processing
//   marrow_read_once tube FILE     writes the generated skinned tube (tests/support/big_model.h)
// Prints one line: the reader, milliseconds from the call to the model, the process's peak
// resident memory in kB, and the meshes read.
#include <assimp/scene.h>
#include <sys/resource.h>

#include <assimp/Importer.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "formats/registry.h"
#include "tests/support/big_model.h"

int main(int argc, char** argv) {
  const std::string reader = argc == 3 ? argv[1] : "";
  if (reader != "marrow" && reader != "assimp" && reader != "tube") {
    std::fprintf(stderr, "usage: marrow_read_once marrow|assimp|tube FILE\n");
    return 2;
  }
  const std::string path = argv[2];
  if (reader == "tube") return marrow::testing::writeBigSkinnedGlb(path) ? 0 : 1;
  const auto start = std::chrono::steady_clock::now();
  std::size_t meshes = 0;
  Assimp::Importer importer;  // made for both, so that both processes load the same libraries
  if (reader == "marrow") {
    auto scene = marrow::formats::loadFile(path);
    if (!scene.ok()) {
      std::fprintf(stderr, "%s\n", scene.error().describe().c_str());
      return 1;
    }
    meshes = scene->meshes.size();
  } else {
    const aiScene* scene = importer.ReadFile(path, 0);
    if (!scene) {
      std::fprintf(stderr, "%s\n", importer.GetErrorString());
      return 1;
    }
    meshes = scene->mNumMeshes;
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("%s %.1f ms %ld kB %zu meshes\n", reader.c_str(), ms, usage.ru_maxrss, meshes);
  return 0;
}
