// One character written twice by the project's writers, for retargeting tests: a cal3d skeleton
// and clip (Z-up, every bone's axes the world's) and an OMF skeleton (Y-up, every bone's axes
// turned 90° about Y at rest) with the same joints. Expected values in the comments.
#pragma once

#include <cstddef>
#include <glm/gtc/quaternion.hpp>
#include <vector>

#include "formats/cal3d/writer.h"
#include "formats/omf/omf.h"

namespace marrow::testing {

struct RetargetCharacter {
  std::vector<std::byte> csf, caf, omf;  // empty when a writer failed
};

// Source (cal3d, Z-up): Bip01 Pelvis at (0, 0, 1), Bip01 Spine 0.5 above it, Bip01 Head 0.5 above
// that, Bip01 Tail behind the pelvis. Clip "nod" (1 s, written as hero_nod.caf): the pelvis moves
// 0.2 along +X and the spine turns 90° about X, so at 1 s the spine is at (0.2, 0, 1.5) and the
// head at (0.2, −0.5, 1.5). The head has keys at 0, 0.4 and 1 s (all at rest), the others at 0
// and 1 s.
//
// Target (OMF, Y-up): the same joints with (x, y, z) → (x, z, −y): pelvis (0, 1, 0), spine
// (0, 1.5, 0), head (0, 2, 0), and a sword on the spine at (0.3, 1.4, 0) instead of the tail. So
// the clip retargeted puts, at 1 s, the pelvis at (0.2, 1, 0), the spine at (0.2, 1.5, 0), the head
// at (0.2, 1.5, 0.5) and the sword (which turns with the spine: its offset (0.3, −0.1, 0) turned
// 90° about X) at (0.5, 1.5, −0.1).
inline RetargetCharacter writeRetargetCharacter() {
  using formats::Bone;
  constexpr float kHalfPi = 1.57079632679f;
  const auto bone = [](const char* name, int parent, glm::vec3 t, glm::quat r = {1, 0, 0, 0}) {
    Bone b;
    b.name = name;
    b.parent = parent;
    b.translation = t;
    b.rotation = r;
    return b;
  };
  formats::Scene src;
  src.basis = {formats::Axis::Z, true, 1.0f, 0};
  auto& sb = src.skeleton.bones;
  sb.push_back(bone("Bip01 Pelvis", -1, {0, 0, 1}));
  sb.push_back(bone("Bip01 Spine", 0, {0, 0, 0.5f}));
  sb.push_back(bone("Bip01 Head", 1, {0, 0, 0.5f}));
  sb.push_back(bone("Bip01 Tail", 0, {0, -0.3f, -0.1f}));
  formats::Clip nod;
  nod.name = "nod";
  nod.duration = 1.0f;
  for (const Bone& b : sb) {
    formats::Track t;
    t.bone = b.name;
    const bool head = b.name == "Bip01 Head";
    for (float time :
         head ? std::vector<float>{0.0f, 0.4f, 1.0f} : std::vector<float>{0.0f, 1.0f}) {
      const bool end = time == 1.0f;
      t.rotation.add(time, end && b.name == "Bip01 Spine"
                               ? glm::angleAxis(kHalfPi, glm::vec3(1, 0, 0))
                               : b.rotation);
      t.translation.add(time,
                        end && b.name == "Bip01 Pelvis" ? glm::vec3(0.2f, 0, 1) : b.translation);
    }
    nod.tracks.push_back(t);
  }
  src.clips.push_back(nod);

  const glm::quat y90 = glm::angleAxis(kHalfPi, glm::vec3(0, 1, 0));
  const glm::quat none(1, 0, 0, 0);
  formats::Scene dst;
  dst.basis = {formats::Axis::Y, true, 1.0f, 0};
  auto& db = dst.skeleton.bones;
  // Each local translation is the offset from the parent in the parent's turned axes.
  const glm::vec3 up = glm::inverse(y90) * glm::vec3(0, 0.5f, 0);
  db.push_back(bone("pelvis", -1, {0, 1, 0}, y90));
  db.push_back(bone("spine", 0, up, none));
  db.push_back(bone("head", 1, up, none));
  db.push_back(bone("sword", 1, glm::inverse(y90) * glm::vec3(0.3f, -0.1f, 0), none));

  RetargetCharacter out;
  formats::Diagnostics d;
  formats::cal3d::WriteOptions o;
  if (auto csf = formats::cal3d::writeSkeleton(src, o, d)) out.csf = std::move(*csf);
  if (auto caf = formats::cal3d::writeAnimation(src, 0, o, d)) out.caf = std::move(*caf);
  if (auto omf = formats::writeOmf(dst, d)) out.omf = std::move(*omf);
  return out;
}

}  // namespace marrow::testing
