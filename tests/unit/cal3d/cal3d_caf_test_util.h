// Shared by the binary cal3d animation (.caf) tests: float-track files built byte by byte, and a
// reader that checks what it read with validate().
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "cal3d_binary_test_util.h"
#include "formats/model/validate.h"

namespace marrow::formats::cal3d::testing::caf {

inline constexpr float kS = 0.70710678f;
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline const std::string kFile = "walk.caf";

// ---- files built here ----

struct Key {
  float time;
  glm::vec3 t;
  std::array<float, 4> r;
};
struct TrackSpec {
  int bone;
  std::vector<Key> keys;
};

struct Caf {
  std::vector<std::byte> bytes;
  std::size_t duration = 0, trackCount = 0;
  std::vector<std::size_t> track;  // offset of each track (its boneId)
  std::size_t key(std::size_t t, std::size_t k) const { return track[t] + 8 + 32 * k; }
};

inline std::vector<TrackSpec> twoTracks() {
  return {{1, {{0.0f, {1, 0, 0}, {0, 0, 0, 1}}, {0.5f, {2, 0, 0}, {0, 0, kS, kS}}}},
          {0, {{0.0f, {0, 0, 1}, {0, 0, 0, 1}}}}};
}

inline Caf build(const std::vector<TrackSpec>& tracks = twoTracks(), float duration = 1.0f,
                 int version = 700, int compression = 0, int flags = 0, bool flagsWord = true) {
  Caf f;
  ByteWriter w;
  header(w, "CAF", version);
  if ((version >= 919 && version <= 999) || version >= 1300) w.i32(compression);
  f.duration = w.offset();
  w.f32(duration);
  f.trackCount = w.offset();
  w.i32(static_cast<std::int32_t>(tracks.size()));
  if (flagsWord && (version == 1200 || version >= 1300)) w.i32(flags);
  for (const auto& t : tracks) {
    f.track.push_back(w.offset());
    w.i32(t.bone);
    w.i32(static_cast<std::int32_t>(t.keys.size()));
    for (const auto& k : t.keys) {
      w.f32(k.time);
      vec3(w, k.t);
      quat4(w, k.r[0], k.r[1], k.r[2], k.r[3]);
    }
  }
  f.bytes = w.take();
  return f;
}

inline Skeleton threeBones() {
  Skeleton s;
  s.bones = {{"root", -1, {0, 0, 5}}, {"arm", 0, {1, 0, 0}}, {"hand", 1, {0, 2, 0}}};
  return s;
}

struct Reader {
  Skeleton skeleton = threeBones();
  BoneMap bones{&skeleton, {0, 1, 2}};
  Result<AnimationPart> operator()(const std::vector<std::byte>& b,
                                   const ReadContext& ctx = context(kFile)) const {
    return readCaf(b, ctx, bones);
  }
};

inline AnimationPart readOk(const std::vector<std::byte>& bytes, const BoneMap& bones) {
  auto r = readCaf(bytes, context(kFile), bones);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  if (!r.ok()) return {};
  Scene s;
  s.clips.push_back(r->clip);
  if (bones.skeleton) s.skeleton = *bones.skeleton;
  const auto problems = validate(s);
  EXPECT_TRUE(problems.empty()) << problems.front();
  return std::move(r).value();
}
inline AnimationPart readOk(const std::vector<std::byte>& bytes) {
  static const Reader reader;
  return readOk(bytes, reader.bones);
}

}  // namespace marrow::formats::cal3d::testing::caf
