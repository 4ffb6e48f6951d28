// A big skinned model made by the project for the scale benchmarks (issue 18): a tube of
// `rings` × `around` vertices (1000 × 500: 500,000 vertices, 998,000 triangles) along a chain of
// 64 bones, each vertex weighted to the two bones nearest it, and one clip of 2 s that bends the
// chain. Written as a .glb by the project's glTF writer.
#pragma once

#include <cmath>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "formats/model/scene.h"
#include "formats/write.h"

namespace marrow::testing {

inline formats::Scene bigSkinnedScene(int rings = 1000, int around = 500, int bones = 64) {
  formats::Scene s;
  const float length = 10.0f, radius = 0.5f;
  for (int b = 0; b < bones; ++b) {
    formats::Bone bone;
    bone.name = "bone_" + std::to_string(b);
    bone.parent = b - 1;
    bone.translation = glm::vec3(0.0f, b == 0 ? 0.0f : length / static_cast<float>(bones), 0.0f);
    s.skeleton.bones.push_back(bone);
  }
  formats::Mesh m;
  m.name = "tube";
  m.uvSets.resize(1);
  const float step = length / static_cast<float>(rings - 1);
  for (int r = 0; r < rings; ++r) {
    const float y = static_cast<float>(r) * step;
    // The two bones around this height, blended by where between them it lies.
    const float at = y / length * static_cast<float>(bones - 1);
    const auto lower = static_cast<std::uint32_t>(std::floor(at));
    const float t = at - static_cast<float>(lower);
    for (int a = 0; a < around; ++a) {
      const float angle = 6.2831853f * static_cast<float>(a) / static_cast<float>(around);
      m.positions.emplace_back(radius * std::cos(angle), y, radius * std::sin(angle));
      m.normals.emplace_back(std::cos(angle), 0.0f, std::sin(angle));
      m.uvSets[0].emplace_back(static_cast<float>(a) / static_cast<float>(around), y / length);
      if (lower + 1 < static_cast<std::uint32_t>(bones) && t > 0.0f) {
        const formats::Influence two[] = {{lower, 1.0f - t}, {lower + 1, t}};
        m.addInfluences(two);
      } else {
        const formats::Influence one[] = {{lower, 1.0f}};
        m.addInfluences(one);
      }
    }
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int a = 0; a < around; ++a) {
      const auto v = [&](int rr, int aa) { return static_cast<std::uint32_t>(rr * around + (aa % around)); };
      m.indices.insert(m.indices.end(), {v(r, a), v(r + 1, a), v(r, a + 1), v(r, a + 1), v(r + 1, a), v(r + 1, a + 1)});
    }
  s.meshes.push_back(std::move(m));
  formats::Clip clip;
  clip.name = "bend";
  clip.duration = 2.0f;
  for (int b = 0; b < bones; ++b) {
    formats::Track track;
    track.bone = s.skeleton.bones[static_cast<std::size_t>(b)].name;
    for (int k = 0; k <= 60; ++k) {
      const float time = static_cast<float>(k) / 30.0f;
      const float bend = 0.03f * std::sin(3.1415927f * time + 0.1f * static_cast<float>(b));
      track.rotation.add(time, glm::angleAxis(bend, glm::vec3(0.0f, 0.0f, 1.0f)));
    }
    clip.tracks.push_back(std::move(track));
  }
  s.clips.push_back(std::move(clip));
  return s;
}

// The model written to `path` (.glb); false when the writer failed. Not `skinned`: the same tube
// and clip with the influences left out, a mesh drawn as it lies while the skeleton plays (what the
// viewer's frame rate is compared with).
inline bool writeBigSkinnedGlb(const std::string& path, bool skinned = true) {
  formats::Scene s = bigSkinnedScene();
  if (!skinned)
    for (auto& m : s.meshes) {
      m.influenceStart.clear();
      m.influences.clear();
    }
  formats::WriteSource source;
  source.scene = &s;
  const formats::WriteResult r = formats::writeModel(source, path);
  if (!r.ok() || r.files.empty()) return false;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(r.files[0].bytes.data(), 1, r.files[0].bytes.size(), f) == r.files[0].bytes.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace marrow::testing
