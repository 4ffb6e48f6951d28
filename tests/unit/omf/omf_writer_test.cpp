// OMF 1 writer: checked by reading back with readOmf, one behaviour per test.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <random>

#include "formats/model/validate.h"
#include "formats/omf/omf.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

namespace marrow::formats {
namespace {

constexpr float kTol = 1e-5f;

glm::quat axisAngle(float radians, glm::vec3 axis) {
  return glm::angleAxis(radians, glm::normalize(axis));
}

Bone bone(std::string name, int parent, glm::vec3 t, glm::quat r) {
  Bone b;
  b.name = std::move(name);
  b.parent = parent;
  b.translation = t;
  b.rotation = r;
  return b;
}

Mesh quadMesh(std::string name, int material) {
  Mesh m;
  m.name = std::move(name);
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0.5f}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0.6f, 0.8f}, {0, 0, 1}};
  m.tangents = {{1, 0, 0, 1}, {1, 0, 0, -1}, {1, 0, 0, 1}, {1, 0, 0, -1}};
  m.colors = {{1, 0, 0, 1}, {0, 1, 0, 0.5f}, {0, 0, 1, 1}, {0.2f, 0.3f, 0.4f, 0.5f}};
  m.uvSets = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, {{0.5f, 0.5f}, {0.25f, 0}, {0, 0.25f}, {1, 1}}};
  m.indices = {0, 1, 2, 2, 1, 3};
  m.material = material;
  return m;
}

Clip clip(std::string name, float duration, std::vector<Track> tracks) {
  Clip c;
  c.name = std::move(name);
  c.duration = duration;
  c.frameRate = 30.0f;
  c.tracks = std::move(tracks);
  return c;
}

Track track(std::string bone, std::vector<float> times, glm::vec3 axis) {
  Track t;
  t.bone = std::move(bone);
  for (std::size_t k = 0; k < times.size(); ++k) {
    t.translation.add(times[k], glm::vec3(0.1f * k, 0.5f, -0.2f * k));
    t.rotation.add(times[k], axisAngle(0.4f * k, axis));
  }
  return t;
}

// Two meshes (skinned, and rigid on a bone), two materials, three bones, two clips.
Scene makeScene() {
  Scene s;
  s.skeleton.bones = {bone("root", -1, {0, 1, 0}, axisAngle(0.3f, {0, 1, 0})),
                      bone("spine", 0, {0, 0.5f, 0.1f}, axisAngle(0.2f, {1, 0, 0})),
                      bone("arm", 1, {0.4f, 0.2f, 0}, axisAngle(-0.5f, {0, 0, 1}))};
  s.materials.resize(2);
  s.materials[0].name = "skin";
  s.materials[1].name = "metal";
  Mesh body = quadMesh("body", 0);
  body.addInfluences(std::vector<Influence>{{0, 1.0f}});
  body.addInfluences(std::vector<Influence>{{0, 0.5f}, {1, 0.5f}});
  body.addInfluences(std::vector<Influence>{{1, 0.3f}, {2, 0.7f}});
  body.addInfluences(std::vector<Influence>{{2, 1.0f}});
  Mesh hat = quadMesh("hat", 1);
  hat.parentBone = 2;
  s.meshes = {body, hat};
  s.clips = {clip("walk", 1.0f,
                  {track("root", {0, 0.5f, 1}, {0, 1, 0}),
                   track("arm", {0, 10 / 30.0f, 20 / 30.0f}, {1, 1, 0})}),
             clip("idle", 2.0f, {track("spine", {0, 2}, {1, 0, 0})})};
  return s;
}

std::vector<std::byte> writeOk(const Scene& s, Diagnostics* diag = nullptr) {
  Diagnostics local;
  auto r = writeOmf(s, diag ? *diag : local);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? r.value() : std::vector<std::byte>{};
}

Scene readBack(const std::vector<std::byte>& bytes) {
  ReadContext ctx;
  ctx.name = "written.omf";
  auto r = readOmf(bytes, ctx);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  if (!r.ok()) return {};
  EXPECT_TRUE(validate(r.value()).empty());
  return std::move(r).value();
}

bool mentions(const Diagnostics& d, const std::string& text) {
  for (const auto& item : d.items)
    if (describe(item).find(text) != std::string::npos) return true;
  return false;
}

void expectNear(glm::vec3 a, glm::vec3 b, float tol = kTol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}
void expectSameRotation(glm::quat a, glm::quat b) {
  EXPECT_NEAR(std::abs(glm::dot(a, b)), 1.0f, kTol);
}

// Skinned positions of every mesh at clip time t, in display space.
std::vector<glm::vec3> skinnedDisplay(const Scene& s, const Clip* c, float t) {
  const anim::Pose pose = anim::evaluate(s.skeleton, c, t);
  const glm::mat4 display = toDisplay(s.basis);
  std::vector<glm::vec3> out;
  for (const Mesh& m : s.meshes) {
    std::vector<glm::mat4> palette;
    anim::skinPalette(s.skeleton, m, pose, palette);
    std::vector<glm::vec3> p;
    anim::skin(m, anim::packInfluences(m), palette, p);
    for (const auto& v : p) out.push_back(glm::vec3(display * glm::vec4(v, 1.0f)));
  }
  return out;
}

// ---- invalid input ----

TEST(OmfWriter, RejectsInconsistentScene) {
  Scene s = makeScene();
  s.meshes[0].indices[4] = 99;
  Diagnostics d;
  const auto r = writeOmf(s, d);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("99"), std::string::npos) << r.error().describe();
}

TEST(OmfWriter, RejectsSceneWithNoMeshAndNoSkeleton) {
  Scene s;
  s.clips.push_back(clip("lonely", 1.0f, {}));
  Diagnostics d;
  EXPECT_FALSE(writeOmf(s, d).ok());
}

// ---- round trips ----

TEST(OmfWriter, RoundTripsEveryValue) {
  const Scene in = makeScene();
  Diagnostics d;
  const Scene out = readBack(writeOk(in, &d));
  EXPECT_TRUE(d.empty()) << describe(d.items.front());
  EXPECT_TRUE(out.diagnostics.empty());
  ASSERT_EQ(out.meshes.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const Mesh& a = in.meshes[i];
    const Mesh& b = out.meshes[i];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.indices, a.indices);
    EXPECT_EQ(b.positions, a.positions);
    EXPECT_EQ(b.normals, a.normals);
    EXPECT_EQ(b.tangents, a.tangents);  // w included, through the binormal
    EXPECT_EQ(b.colors, a.colors);
    EXPECT_EQ(b.uvSets, a.uvSets);
    EXPECT_EQ(b.parentBone, a.parentBone);
    ASSERT_GE(b.material, 0);
    EXPECT_EQ(out.materials[b.material].name, in.materials[a.material].name);
  }
  EXPECT_EQ(out.meshes[0].influenceStart, in.meshes[0].influenceStart);
  EXPECT_EQ(out.meshes[0].influences, in.meshes[0].influences);
  EXPECT_FALSE(out.meshes[1].skinned());
  ASSERT_EQ(out.skeleton.bones.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const Bone& a = in.skeleton.bones[i];
    const Bone& b = out.skeleton.bones[i];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.parent, a.parent);
    expectNear(b.translation, a.translation);
    expectSameRotation(b.rotation, a.rotation);
  }
  ASSERT_EQ(out.clips.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    const Clip& a = in.clips[c];
    const Clip& b = out.clips[c];
    EXPECT_EQ(b.name, a.name);
    EXPECT_FLOAT_EQ(b.duration, a.duration);
    EXPECT_FLOAT_EQ(b.frameRate, a.frameRate);
    ASSERT_EQ(b.tracks.size(), a.tracks.size());
    for (std::size_t t = 0; t < a.tracks.size(); ++t) {
      EXPECT_EQ(b.tracks[t].bone, a.tracks[t].bone);
      ASSERT_EQ(b.tracks[t].translation.size(), a.tracks[t].translation.size());
      for (std::size_t k = 0; k < a.tracks[t].translation.size(); ++k) {
        EXPECT_NEAR(b.tracks[t].translation.times[k], a.tracks[t].translation.times[k], kTol);
        EXPECT_EQ(b.tracks[t].translation.values[k], a.tracks[t].translation.values[k]);
        EXPECT_EQ(b.tracks[t].rotation.values[k], a.tracks[t].rotation.values[k]);
      }
    }
  }
}

TEST(OmfWriter, SecondRoundTripIsByteExact) {
  const auto first = writeOk(makeScene());
  Diagnostics d;
  const auto second = writeOk(readBack(first), &d);
  EXPECT_EQ(second, first);
  EXPECT_TRUE(d.empty());
}

TEST(OmfWriter, SecondRoundTripIsByteExactForRandomSkeletons) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int round = 0; round < 20; ++round) {
    Scene s;
    const float scale = std::pow(10.0f, static_cast<float>(round % 5) - 2.0f);
    for (int i = 0; i < 60; ++i) {
      const int parent = i == 0 ? -1 : static_cast<int>(rng() % i);
      std::string name = "b";
      name += std::to_string(i);
      s.skeleton.bones.push_back(bone(name, parent, glm::vec3(u(rng), u(rng), u(rng)) * scale,
                                      glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)))));
    }
    const auto first = writeOk(s);
    EXPECT_EQ(writeOk(readBack(first)), first) << "round " << round;
  }
}

TEST(OmfWriter, WritesTheSameBytesEveryTime) {
  EXPECT_EQ(writeOk(makeScene()), writeOk(makeScene()));
}

TEST(OmfWriter, WritesAnimationOnlyFileTheReaderAccepts) {
  Scene s = makeScene();
  s.meshes.clear();
  s.materials.clear();
  const auto bytes = writeOk(s);
  const Scene out = readBack(bytes);
  EXPECT_TRUE(out.meshes.empty());
  EXPECT_EQ(out.skeleton.bones.size(), 3u);
  EXPECT_EQ(out.clips.size(), 2u);
  EXPECT_EQ(writeOk(out), bytes);
}

TEST(OmfWriter, EveryPrefixOfAWrittenFileIsRejected) {
  const auto bytes = writeOk(makeScene());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::span<const std::byte> prefix(bytes.data(), n);
    EXPECT_FALSE(readOmf(prefix, ReadContext{}).ok()) << "prefix of " << n << " bytes";
  }
}

TEST(OmfWriter, FlippedBytesGiveAnErrorOrAValidScene) {
  auto bytes = writeOk(makeScene());
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] ^= std::byte{0xFF};
    const auto r = readOmf(bytes, ReadContext{});
    if (r.ok()) {
      ++accepted;
      const auto problems = validate(r.value());
      EXPECT_TRUE(problems.empty()) << "byte " << i << ": " << problems.front();
    }
    bytes[i] ^= std::byte{0xFF};
  }
  EXPECT_GT(accepted, 0u);  // flipped vertex data is still a valid file
}

// ---- conversions ----

TEST(OmfWriter, WritesZUpSceneYUpWithTheSkinnedPoseUnchanged) {
  Scene s = makeScene();
  s.basis = Basis{Axis::Z};
  const Scene out = readBack(writeOk(s));
  EXPECT_EQ(out.basis, Basis{});
  const glm::vec3 p = s.meshes[0].positions[3];
  expectNear(out.meshes[0].positions[3], {p.x, p.z, -p.y});
  for (float t : {0.0f, 0.4f, 0.9f}) {
    const auto before = skinnedDisplay(s, &s.clips[0], t);
    const auto after = skinnedDisplay(out, &out.clips[0], t);
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t v = 0; v < before.size(); ++v) expectNear(after[v], before[v], 1e-4f);
  }
}

TEST(OmfWriter, FlipsWindingOfLeftHandedScene) {
  Scene s = makeScene();
  s.basis = Basis{Axis::Y, false};
  const Scene out = readBack(writeOk(s));
  const Mesh& in = s.meshes[0];
  const Mesh& m = out.meshes[0];
  ASSERT_EQ(m.indices.size(), in.indices.size());
  const auto mirrored = [](glm::vec3 p) { return glm::vec3(p.x, p.y, -p.z); };
  for (std::size_t k = 0; k < in.indices.size(); k += 3) {  // (a, b, c) becomes (a, c, b)
    EXPECT_EQ(m.positions[m.indices[k]], mirrored(in.positions[in.indices[k]]));
    EXPECT_EQ(m.positions[m.indices[k + 1]], mirrored(in.positions[in.indices[k + 2]]));
    EXPECT_EQ(m.positions[m.indices[k + 2]], mirrored(in.positions[in.indices[k + 1]]));
  }
}

TEST(OmfWriter, KeepsTheEightHeaviestInfluences) {
  Scene s = makeScene();
  s.skeleton.bones.resize(3);
  for (int i = 3; i < 10; ++i)
    s.skeleton.bones.push_back(bone("extra" + std::to_string(i), 0, {0, 0.1f, 0}, {1, 0, 0, 0}));
  Mesh& m = s.meshes[0];
  m.influenceStart.clear();
  m.influences.clear();
  std::vector<Influence> ten;
  for (std::uint32_t b = 0; b < 10; ++b) ten.push_back({b, (b + 1) / 55.0f});
  for (int v = 0; v < 4; ++v) m.addInfluences(ten);
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_TRUE(mentions(d, "8 heaviest"));
  const auto kept = out.meshes[0].influencesOf(0);
  ASSERT_EQ(kept.size(), 8u);
  EXPECT_EQ(kept[0].bone, 2u);
  EXPECT_NEAR(kept[7].weight, 10.0f / 52.0f, kTol);  // (3 + ... + 10) = 52
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(OmfWriter, CutsLongNamesKeepingThemUnique) {
  Scene s = makeScene();
  s.skeleton.bones[1].name = "a_very_long_bone_name_1";
  s.skeleton.bones[2].name = "a_very_long_bone_name_2";
  s.clips[0].tracks[1].bone = "a_very_long_bone_name_2";
  s.meshes[0].name = "a_mesh_name_of_twenty";
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  const auto& bones = out.skeleton.bones;
  EXPECT_EQ(bones[1].name, "a_very_long_bone");
  EXPECT_EQ(bones[2].name, "a_very_long_bo~2");
  EXPECT_EQ(out.meshes[0].name, "a_mesh_name_of_t");
  EXPECT_EQ(out.clips[0].tracks[1].bone, bones[2].name);
  EXPECT_TRUE(mentions(d, "cut"));
  EXPECT_TRUE(mentions(d, "unique"));
}

TEST(OmfWriter, ResamplesKeysThatAreNotWholeFrames) {
  Scene s = makeScene();
  Clip c = clip("odd", 0.1f, {track("arm", {0.0f, 0.1f}, {0, 0, 1})});
  c.frameRate = 24.0f;  // 0.1 s is frame 2.4
  s.clips = {c};
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_TRUE(mentions(d, "resampled"));
  const Track& t = out.clips[0].tracks[0];
  EXPECT_FLOAT_EQ(out.clips[0].frameRate, 24.0f);
  ASSERT_EQ(t.translation.size(), 4u);  // frames 0 to 3, the last one holding
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(t.translation.times[k], k / 24.0f, kTol);
    const float u = std::min(1.0f, (k / 24.0f) / 0.1f);
    expectNear(t.translation.values[k],
               glm::mix(c.tracks[0].translation.values[0], c.tracks[0].translation.values[1], u));
    expectSameRotation(t.rotation.values[k], glm::slerp(c.tracks[0].rotation.values[0],
                                                        c.tracks[0].rotation.values[1], u));
  }
}

TEST(OmfWriter, ApproximatesStepKeysWithAKeyPerFrame) {
  Scene s = makeScene();
  s.clips[1].tracks[0].translation.interpolation = Interpolation::Step;
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_TRUE(mentions(d, "resampled"));
  const Track& t = out.clips[1].tracks[0];
  ASSERT_EQ(t.translation.size(), 61u);  // frames 0 to 60
  EXPECT_EQ(t.translation.values[59], s.clips[1].tracks[0].translation.values[0]);
  EXPECT_EQ(t.translation.values[60], s.clips[1].tracks[0].translation.values[1]);
}

TEST(OmfWriter, StoresOneFrameRateForAllClips) {
  Scene s = makeScene();
  s.clips[1].frameRate = 15.0f;  // its keys at 0 s and 2 s are whole frames at 30 fps too
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_FLOAT_EQ(out.clips[1].frameRate, 30.0f);
  EXPECT_EQ(out.clips[1].tracks[0].translation.size(), 2u);
  EXPECT_TRUE(mentions(d, "idle"));
}

TEST(OmfWriter, FillsAMissingChannelWithTheRestPose) {
  Scene s = makeScene();
  s.clips[0].tracks[1].translation = {};
  const Scene out = readBack(writeOk(s));
  const Track& t = out.clips[0].tracks[1];
  ASSERT_EQ(t.translation.size(), 3u);
  expectNear(t.translation.values[2], s.skeleton.bones[2].translation);
}

TEST(OmfWriter, StoresTheBindPoseWhenItDiffersFromRestKeepingPlaybackExact) {
  Scene s = makeScene();
  Skeleton bindSkeleton = s.skeleton;
  bindSkeleton.bones[1].rotation = axisAngle(0.7f, {0, 0, 1});
  bindSkeleton.bones[2].translation = {0.3f, 0.4f, 0.0f};
  s.skeleton.inverseBind = bindSkeleton.inverseBindMatrices();
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_TRUE(mentions(d, "bind pose"));
  for (const Clip& c : s.clips)
    for (float t : {0.0f, 0.3f, 1.0f}) {
      const auto before = skinnedDisplay(s, &c, t);
      const Clip& read = out.clips[&c - s.clips.data()];
      const auto after = skinnedDisplay(out, &read, t);
      for (std::size_t v = 0; v < before.size(); ++v) expectNear(after[v], before[v], 1e-4f);
    }
}

TEST(OmfWriter, WritesZeroNormalsForMeshesWithoutThemAndSaysSo) {
  Scene s = makeScene();
  s.meshes[1].normals.clear();
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_TRUE(mentions(d, "normals"));
  EXPECT_EQ(out.meshes[1].normals[0], glm::vec3(0.0f));
}

TEST(OmfWriter, DropsWhatOmfCannotHoldWithWarnings) {
  Scene s = makeScene();
  MorphTarget smile;
  smile.name = "smile";
  smile.positions = s.meshes[0].positions;
  s.meshes[0].morphs.push_back(smile);
  s.clips[0].tracks[0].scale.add(0.0f, glm::vec3(2.0f));
  s.skeleton.bones[1].scale = glm::vec3(1.5f);
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_TRUE(mentions(d, "morph"));
  EXPECT_TRUE(mentions(d, "bone scale"));  // animated scale: approximated, and said so
  EXPECT_TRUE(out.meshes[0].morphs.empty());
  // Joint positions keep the parent's scale; only the scale itself is gone.
  const auto before = s.skeleton.restModelMatrices();
  const auto after = out.skeleton.restModelMatrices();
  expectNear(glm::vec3(after[2][3]), glm::vec3(before[2][3]));
}

TEST(OmfWriter, DropsUnreferencedVerticesWithAWarning) {
  Scene s = makeScene();
  s.meshes[0].indices = {0, 1, 3};
  Diagnostics d;
  const Scene out = readBack(writeOk(s, &d));
  EXPECT_TRUE(mentions(d, "no triangle uses"));
  EXPECT_EQ(out.meshes[0].vertexCount(), 3u);
  EXPECT_EQ(out.meshes[0].positions[2], s.meshes[0].positions[3]);
}

}  // namespace
}  // namespace marrow::formats
