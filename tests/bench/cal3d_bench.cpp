// Marrow against libcal3d 0.11 on the paladin fixture, side by side in one run (issue 3):
//   Load/*       skeleton + 3 meshes + 19 materials + 7 animations, from disk, binary .cmf or XML
//                .xmf meshes (Marrow also fetches the materials' texture files; libcal3d does not
//                read textures, so Marrow does a little more here)
//   PoseSkin/*   one frame of playback: paladin_walk advanced by 1/60 s, bones sampled, then every
//                submesh skinned, positions + normals (springs off on both sides); Marrow computes
//                the skinning palette once per frame for all meshes, as its renderer does
//   Pose/*, Skin/*  the two halves of PoseSkin, for profiling
// Marrow's influences are packed once outside the loop, as the viewer does at load time.
// Goals: loading ≥ 3× (issue 3); pose + skin ≥ 10× and pose ≥ 5× (issue 18). Figures, and the
// interleaved command the frame benchmarks are run with: docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <cal3d/cal3d.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "formats/registry.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

namespace {

using namespace marrow;

const std::string kPaladin = MARROW_FIXTURES_DIR "/cal3d/paladin/";
constexpr float kFrame = 1.0f / 60.0f;
const char* const kAnimations[] = {"idle", "sneak", "walk", "strut", "jog", "shoot_arrow", "wave"};
const char* const kMaterials[] = {"cape",          "head",       "chest",      "gird",
                                  "arm_left",      "arm_right",  "flesh",      "edge",
                                  "stripe",        "loin_upper", "loin_lower", "legplate_right",
                                  "legplate_left", "leg_right",  "leg_left",   "legguard_right",
                                  "legguard_left", "shoe",       "ponytail"};
const char* const kMeshes[] = {"body", "cape", "loincloth"};

struct PaladinFiles {
  std::string skeleton;
  std::vector<std::string> meshes, materials, animations;

  explicit PaladinFiles(const char* meshExtension) : skeleton(kPaladin + "paladin.csf") {
    for (const char* m : kMeshes) meshes.push_back(kPaladin + "paladin_" + m + meshExtension);
    for (const char* m : kMaterials) materials.push_back(kPaladin + "paladin_" + m + ".xrf");
    for (const char* a : kAnimations) animations.push_back(kPaladin + "paladin_" + a + ".caf");
  }
  std::vector<std::string> all() const {
    std::vector<std::string> p{skeleton};
    p.insert(p.end(), materials.begin(), materials.end());
    p.insert(p.end(), meshes.begin(), meshes.end());
    p.insert(p.end(), animations.begin(), animations.end());
    return p;
  }
};

bool fixturesPresent(benchmark::State& state) {
  if (std::filesystem::exists(kPaladin + "paladin.csf")) return true;
  state.SkipWithError("the cal3d fixtures are absent");
  return false;
}

// ---- Loading. ----

// Without textures the work is libcal3d's (its loaders read no image); with them it is what the
// viewer does.
void marrowLoad(benchmark::State& state, const char* meshExtension, bool textures = false) {
  if (!fixturesPresent(state)) return;
  const PaladinFiles files(meshExtension);
  const std::vector<std::string> paths = files.all();
  for (auto _ : state) {
    auto scene = formats::loadFiles(paths, textures);
    if (!scene.ok()) {
      state.SkipWithError(scene.error().describe().c_str());
      return;
    }
    benchmark::DoNotOptimize(scene->meshes.data());
  }
}

void libcal3dLoad(benchmark::State& state, const char* meshExtension) {
  if (!fixturesPresent(state)) return;
  const PaladinFiles files(meshExtension);
  for (auto _ : state) {
    CalCoreModel core("paladin");
    bool ok = core.loadCoreSkeleton(files.skeleton);
    for (const auto& m : files.materials) ok = ok && core.loadCoreMaterial(m) >= 0;
    for (const auto& m : files.meshes) ok = ok && core.loadCoreMesh(m) >= 0;
    for (const auto& a : files.animations) ok = ok && core.loadCoreAnimation(a) >= 0;
    if (!ok) {
      state.SkipWithError("libcal3d cannot load paladin");
      return;
    }
    benchmark::DoNotOptimize(core.getCoreMeshCount());
  }
}

void Load_Marrow_BinaryMeshes(benchmark::State& s) {
  marrowLoad(s, ".cmf");
}
void Load_Libcal3d_BinaryMeshes(benchmark::State& s) {
  libcal3dLoad(s, ".cmf");
}
void Load_Marrow_XmlMeshes(benchmark::State& s) {
  marrowLoad(s, ".xmf");
}
void Load_Marrow_BinaryMeshes_WithTextures(benchmark::State& s) {
  marrowLoad(s, ".cmf", true);
}
void Load_Libcal3d_XmlMeshes(benchmark::State& s) {
  libcal3dLoad(s, ".xmf");
}

// ---- One frame: sample + skin. ----

enum class Work { Pose, Skin, Both };

struct MarrowPlayer {
  formats::Scene scene;
  const formats::Clip* clip = nullptr;
  anim::Binding binding;
  anim::SamplingCache cache;
  anim::Pose pose;
  std::vector<anim::PackedInfluences> packed;
  // As the renderer does: one palette for every mesh that uses the skeleton's inverse binds
  // (all of a cal3d model's), one more per mesh with its own.
  std::vector<std::vector<glm::mat4>> palettes;
  std::vector<std::size_t> paletteOfMesh;
  std::vector<std::vector<glm::vec3>> positions, normals;
  float time = 0.0f;

  bool load() {
    auto s = formats::loadFiles(PaladinFiles(".cmf").all());
    if (!s.ok()) return false;
    scene = std::move(s).value();
    for (const auto& c : scene.clips)
      if (c.name == "paladin_walk") clip = &c;
    if (!clip) return false;
    binding = anim::bind(*clip, scene.skeleton);
    pose = anim::restPose(scene.skeleton);
    palettes.resize(1);
    for (const auto& m : scene.meshes) {
      packed.push_back(anim::packInfluences(m));
      paletteOfMesh.push_back(m.inverseBind.empty() ? 0 : palettes.size());
      if (!m.inverseBind.empty()) palettes.emplace_back();
    }
    positions.resize(scene.meshes.size());
    normals.resize(scene.meshes.size());
    return true;
  }
  void posed() {
    time = anim::clipTime(time + kFrame, clip->duration, anim::PlayMode::Loop);
    anim::sample(*clip, binding, scene.skeleton, time, pose, &cache, true);
    anim::computeModel(scene.skeleton, pose);
    // The skinning palette belongs to the pose half: libcal3d's updateSkeleton builds its
    // bones' skinning transforms too.
    static const formats::Mesh kUsesSkeletonBinds;
    anim::skinPalette(scene.skeleton, kUsesSkeletonBinds, pose, palettes[0]);
    for (std::size_t m = 0; m < scene.meshes.size(); ++m)
      if (paletteOfMesh[m] != 0)
        anim::skinPalette(scene.skeleton, scene.meshes[m], pose, palettes[paletteOfMesh[m]]);
  }
  void skinned() {
    for (std::size_t m = 0; m < scene.meshes.size(); ++m)
      anim::skin(scene.meshes[m], packed[m], palettes[paletteOfMesh[m]], positions[m], &normals[m]);
  }
};

struct Libcal3dPlayer {
  CalCoreModel core{"paladin"};
  std::unique_ptr<CalModel> model;
  std::vector<CalSubmesh*> submeshes;
  std::vector<float>
      buffer;  // positions and normals interleaved, as calculateVerticesAndNormals writes

  bool load() {
    const PaladinFiles files(".cmf");
    if (!core.loadCoreSkeleton(files.skeleton)) return false;
    std::vector<int> meshes;
    for (const auto& m : files.meshes) meshes.push_back(core.loadCoreMesh(m));
    int walk = -1;
    for (const auto& a : files.animations) {
      const int id = core.loadCoreAnimation(a);
      if (a.find("paladin_walk") != std::string::npos) walk = id;
    }
    model = std::make_unique<CalModel>(&core);
    for (int id : meshes)
      if (id < 0 || !model->attachMesh(id)) return false;
    model->setLodLevel(1.0f);
    model->disableInternalData();  // no spring simulation, as in Marrow
    std::size_t most = 0;
    for (CalMesh* m : model->getVectorMesh())
      for (CalSubmesh* s : m->getVectorSubmesh()) {
        submeshes.push_back(s);
        most = std::max(most, static_cast<std::size_t>(s->getVertexCount()));
      }
    buffer.resize(most * 6);
    if (walk < 0 || !model->getMixer()->blendCycle(walk, 1.0f, 0.0f)) return false;
    model->getMixer()->updateAnimation(0.0f);
    return true;
  }
  void posed() {
    model->getMixer()->updateAnimation(kFrame);
    model->getMixer()->updateSkeleton();
  }
  void skinned() {
    CalPhysique* physique = model->getPhysique();
    for (CalSubmesh* s : submeshes) physique->calculateVerticesAndNormals(s, buffer.data());
  }
};

template <class Player>
void frame(benchmark::State& state, Work work) {
  if (!fixturesPresent(state)) return;
  Player p;
  if (!p.load()) {
    state.SkipWithError("cannot load paladin");
    return;
  }
  p.posed();
  for (auto _ : state) {
    if (work != Work::Skin) p.posed();
    if (work != Work::Pose) p.skinned();
    benchmark::ClobberMemory();
  }
}

void PoseSkin_Marrow(benchmark::State& s) {
  frame<MarrowPlayer>(s, Work::Both);
}
void PoseSkin_Libcal3d(benchmark::State& s) {
  frame<Libcal3dPlayer>(s, Work::Both);
}
void Pose_Marrow(benchmark::State& s) {
  frame<MarrowPlayer>(s, Work::Pose);
}
void Pose_Libcal3d(benchmark::State& s) {
  frame<Libcal3dPlayer>(s, Work::Pose);
}
void Skin_Marrow(benchmark::State& s) {
  frame<MarrowPlayer>(s, Work::Skin);
}
void Skin_Libcal3d(benchmark::State& s) {
  frame<Libcal3dPlayer>(s, Work::Skin);
}
BENCHMARK(PoseSkin_Marrow)->Unit(benchmark::kMicrosecond);
BENCHMARK(PoseSkin_Libcal3d)->Unit(benchmark::kMicrosecond);
BENCHMARK(Pose_Marrow)->Unit(benchmark::kMicrosecond);
BENCHMARK(Pose_Libcal3d)->Unit(benchmark::kMicrosecond);
BENCHMARK(Skin_Marrow)->Unit(benchmark::kMicrosecond);
BENCHMARK(Skin_Libcal3d)->Unit(benchmark::kMicrosecond);

// Loading last: hundreds of loads fragment the heap, and libcal3d, whose vertices keep their
// influences in separately allocated vectors, then skins up to 40% slower in the same process.
BENCHMARK(Load_Marrow_BinaryMeshes)->Unit(benchmark::kMillisecond);
BENCHMARK(Load_Libcal3d_BinaryMeshes)->Unit(benchmark::kMillisecond);
BENCHMARK(Load_Marrow_XmlMeshes)->Unit(benchmark::kMillisecond);
BENCHMARK(Load_Libcal3d_XmlMeshes)->Unit(benchmark::kMillisecond);
BENCHMARK(Load_Marrow_BinaryMeshes_WithTextures)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
