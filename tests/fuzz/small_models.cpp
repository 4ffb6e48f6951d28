#include "tests/fuzz/small_models.h"

#include <cstdio>
#include <cstdlib>

#include "formats/cal3d/writer.h"
#include "formats/dragonnest/dragonnest.h"
#include "tests/support/dragonnest_test_character.h"

namespace marrow::fuzz {

namespace {
[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "small_models: %s\n", what.c_str());
  std::abort();
}
}  // namespace

std::vector<NamedFile> dragonNestCharacter(int version) {
  auto f = formats::dragonnest::testing::writeCharacter(version);
  return {{"Character.msh", std::move(f.msh)},
          {"Character.skn", std::move(f.skn)},
          {"Character.ani", std::move(f.ani)}};
}

const formats::Scene& smallCharacter() {
  static const formats::Scene scene = [] {
    const auto files = dragonNestCharacter(13);
    std::vector<formats::dragonnest::Input> inputs;
    for (const auto& f : files) inputs.push_back({f.bytes, formats::ReadContext{f.name, {}, {}}});
    auto r = formats::dragonnest::readModel(inputs);
    if (!r) broken("the Dragon Nest test character does not read: " + r.error().describe());
    return std::move(r).value();
  }();
  return scene;
}

std::vector<NamedFile> smallCal3dModel(bool xml, int version) {
  formats::Diagnostics diag;
  auto r = formats::cal3d::writeModel(smallCharacter(), "small", {xml, version}, diag);
  if (!r) broken("cal3d writeModel failed: " + r.error().describe());
  std::vector<NamedFile> out;
  for (auto& f : *r) out.push_back({f.name, std::move(f.bytes)});
  return out;
}

std::vector<std::byte> wideSkeletonCsf(int bones) {
  formats::Scene s;
  s.basis = {formats::Axis::Z, true, 1.0f, 0};
  for (int i = 0; i < bones; ++i) {
    formats::Bone b;
    b.name = "b" + std::to_string(i);
    b.parent = i == 0 ? -1 : (i - 1) / 2;
    b.translation = {0.0f, 0.0f, i == 0 ? 0.0f : 1.0f};
    s.skeleton.bones.push_back(b);
  }
  formats::Diagnostics diag;
  auto r = formats::cal3d::writeSkeleton(s, {false, 1100}, diag);
  if (!r) broken("cal3d writeSkeleton failed: " + r.error().describe());
  return std::move(r).value();
}

const formats::Scene& morphCharacter() {
  static const formats::Scene scene = [] {
    formats::Scene s;
    s.basis = {formats::Axis::Z, true, 1.0f, 0};
    formats::Bone root;
    root.name = "root";
    s.skeleton.bones.push_back(root);
    for (int sub = 0; sub < 2; ++sub) {
      formats::Mesh m;
      m.name = "head#" + std::to_string(sub);
      m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
      m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
      m.indices = {0, 1, 2};
      const formats::Influence full{0, 1.0f};
      for (int v = 0; v < 3; ++v) m.addInfluences(std::span(&full, 1));
      for (const char* name : {"smile", "blink"}) {
        if (sub == 1 && std::string_view(name) == "blink") continue;
        formats::MorphTarget t;
        t.name = name;
        t.vertices = {1};
        t.positions = {{1.5f, 0.2f, 0}};
        t.normals = {{0, 0, 1}};
        m.morphs.push_back(std::move(t));
      }
      s.meshes.push_back(std::move(m));
    }
    formats::Clip c;
    c.name = "talk";
    c.duration = 2.0f;
    formats::Channel<float> w;
    w.add(0.0f, 0.0f);
    w.add(0.5f, 1.0f);
    w.add(1.5f, 0.25f);
    c.morphTracks = {{"head#0", "smile", w}, {"head#1", "smile", w}, {"head#0", "blink", w}};
    s.clips.push_back(std::move(c));
    return s;
  }();
  return scene;
}

std::vector<std::byte> morphMeshCmf() {
  formats::Diagnostics diag;
  const std::size_t both[] = {0, 1};
  auto r = formats::cal3d::writeMesh(morphCharacter(), both, {false, 1301}, diag);
  if (!r) broken("cal3d writeMesh of the morph head failed: " + r.error().describe());
  return std::move(r).value();
}

}  // namespace marrow::fuzz
