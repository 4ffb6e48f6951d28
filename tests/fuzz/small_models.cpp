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

}  // namespace marrow::fuzz
