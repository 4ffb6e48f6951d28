// marrow-make-demo OUTPUT.omf: builds the demo character and writes it with the project's own
// OMF writer. Run at build time; a failure fails the build.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/model/validate.h"
#include "formats/omf/omf.h"
#include "resources/demo/demo_character.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.omf\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out = argv[1];
  const marrow::formats::Scene scene = marrow::demo::makeDemoCharacter();

  const auto problems = marrow::formats::validate(scene);
  for (const auto& p : problems)
    std::fprintf(stderr, "marrow-make-demo: invalid scene: %s\n", p.c_str());
  if (!problems.empty()) return 1;

  marrow::formats::Diagnostics diagnostics;
  auto bytes = marrow::formats::writeOmf(scene, diagnostics);
  for (const auto& d : diagnostics.items)
    std::fprintf(stderr, "marrow-make-demo: %s\n", marrow::formats::describe(d).c_str());
  if (!bytes) {
    std::fprintf(stderr, "marrow-make-demo: %s\n", bytes.error().describe().c_str());
    return 1;
  }

  // Write beside the target and rename, so an interrupted run never leaves a truncated file
  // that the build would then consider up to date.
  std::filesystem::path tmp = out;
  tmp += ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes->data()),
            static_cast<std::streamsize>(bytes->size()));
    if (!f) {
      std::fprintf(stderr, "marrow-make-demo: cannot write %s\n", tmp.string().c_str());
      return 1;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, out, ec);
  if (ec) {
    std::fprintf(stderr, "marrow-make-demo: cannot rename %s: %s\n", tmp.string().c_str(),
                 ec.message().c_str());
    return 1;
  }
  std::size_t triangles = 0;
  for (const auto& m : scene.meshes) triangles += m.triangleCount();
  std::printf("marrow-make-demo: wrote %s (%zu bytes: %zu bones, %zu triangles, %zu clips)\n",
              out.string().c_str(), bytes->size(), scene.skeleton.bones.size(), triangles,
              scene.clips.size());
  return 0;
}
