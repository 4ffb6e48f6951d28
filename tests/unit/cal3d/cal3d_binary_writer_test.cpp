// Binary cal3d writers: checked by reading back with the binary readers — built scenes at every
// layout, then every binary fixture written at its own version.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <random>

#include "cal3d_binary_test_util.h"
#include "cal3d_mesh_compare.h"
#include "formats/cal3d/writers_internal.h"
#include "formats/model/validate.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;
using Bytes = std::vector<std::byte>;

constexpr float kS = 0.70710678f;

Scene makeScene() {
  Scene s;
  s.basis = cal3dBasis();
  s.skeleton.bones = {{"root", -1, {0, 0, 1}, glm::quat(kS, 0, 0, kS)},
                      {"arm", 0, {1, 0, 0}, glm::quat(1, 0, 0, 0)},
                      {"hand", 1, {0, 2, 0}, glm::quat(kS, kS, 0, 0)}};
  Mesh m;
  m.name = "body";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.normals = std::vector<glm::vec3>(4, {0, 0, 1});
  m.uvSets = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, {{0, 0}, {2, 0}, {0, 2}, {2, 2}}};
  m.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {0.5f, 0.5f, 0.5f, 1}};
  const std::vector<Influence> inf[4] = {
      {{0, 1}}, {{0, 0.5f}, {1, 0.5f}}, {{2, 1}}, {{1, 0.25f}, {2, 0.75f}}};
  for (const auto& i : inf) m.addInfluences(i);
  m.indices = {0, 1, 2, 1, 3, 2};
  m.material = 0;
  m.lod = {1, {-1, -1, -1, 1}, {0, 0, 0, 1}};
  m.springs = {{0, 3, 0.5f, 1.5f}};
  m.physicalWeights = {0, 0.25f, 0.5f, 1};
  MorphTarget sparse{"smile",
                     {1, 3},
                     {{1, 0, 1}, {1, 1, 1}},
                     {{0, 1, 0}, {0, 1, 0}},
                     {{{5, 5}, {6, 6}}, {{7, 7}, {8, 8}}}};
  MorphTarget dense{"grow", {}, {{0, 0, 2}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0}}, {}, {}};
  m.morphs = {sparse, dense};
  s.meshes.push_back(m);
  Mesh rigid;
  rigid.name = "hat";
  rigid.positions = {{0, 0, 3}, {1, 0, 3}, {0, 1, 3}};
  rigid.indices = {0, 1, 2};
  rigid.parentBone = 2;
  s.meshes.push_back(rigid);
  Clip c;
  c.name = "wave";
  c.duration = 1.0f;
  c.wrapsToFirstKey = true;
  Track t;
  t.bone = "arm";
  t.translation.add(0.0f, {1, 0, 0});
  t.translation.add(0.5f, {1, 1, 0});
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  t.rotation.add(0.5f, glm::quat(kS, 0, kS, 0));
  c.tracks.push_back(t);
  Track r;
  r.bone = "root";
  r.rotation.add(0.25f, glm::quat(kS, 0, 0, kS));
  c.tracks.push_back(r);
  s.clips.push_back(c);
  Material mat;
  mat.name = "skin";
  mat.ambient = glm::vec4(22, 16, 46, 0) / 255.0f;
  mat.diffuse = glm::vec4(1, 0.5f, 0.25f, 1);
  mat.shininess = 0.8f;
  mat.maps = {{"diffuse", 0, 0, "Diffuse Color"}, {"opacity", 1, 1, ""}};
  s.materials.push_back(mat);
  s.textures = {{"skin.png", "found/skin.png", {}}, {"", "alpha.tga", {}}};
  return s;
}

template <class T>
T ok(Result<T> r) {
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? std::move(r).value() : T{};
}

Bytes csf(const Scene& s, int v, Diagnostics& d) {
  return ok(writeCsf(s, v, d));
}
Bytes caf(const Scene& s, int v, Diagnostics& d) {
  return ok(writeCaf(s, 0, v, d));
}
Bytes cmf(const Scene& s, int v, Diagnostics& d, std::vector<std::size_t> meshes = {0, 1}) {
  return ok(writeCmf(s, meshes, v, d));
}
Bytes crf(const Scene& s, int v, Diagnostics& d) {
  return ok(writeCrf(s, 0, v, d));
}

BoneMap identity(const Skeleton& s) {
  return BoneMap{&s, {}};
}

// ---- invalid input ----

TEST(Cal3dBinaryWriter, RejectsVersionsItCannotWrite) {
  const Scene s = makeScene();
  Diagnostics d;
  for (int v : {698, 911, 919, 999, 1200, 1302}) {
    EXPECT_FALSE(writeCsf(s, v, d).ok()) << v;
    EXPECT_FALSE(writeCaf(s, 0, v, d).ok()) << v;
    EXPECT_FALSE(writeCmf(s, std::vector<std::size_t>{0}, v, d).ok()) << v;
    const auto r = writeCrf(s, 0, v, d);
    ASSERT_FALSE(r.ok()) << v;
    EXPECT_EQ(r.error().field, "version");
  }
}

TEST(Cal3dBinaryWriter, RejectsWhatCal3dCannotHold) {
  Scene s = makeScene();
  Diagnostics d;
  EXPECT_FALSE(writeCaf(s, 1, 1100, d).ok());
  EXPECT_FALSE(writeCmf(s, std::vector<std::size_t>{2}, 1100, d).ok());
  EXPECT_FALSE(writeCrf(s, 1, 1100, d).ok());
  s.clips[0].duration = 0.0f;
  EXPECT_FALSE(writeCaf(s, 0, 1100, d).ok());
  s.clips[0].duration = 1.0f;
  for (auto& t : s.clips[0].tracks) t.bone = "nobody";
  EXPECT_FALSE(writeCaf(s, 0, 1100, d).ok());
  s.skeleton.bones.clear();
  EXPECT_FALSE(writeCsf(s, 1100, d).ok());
}

TEST(Cal3dBinaryWriter, EveryPrefixOfAWrittenFileIsRejected) {
  const Scene s = makeScene();
  Diagnostics d;
  for (int v : {700, 1300, 1301}) {
    const Skeleton& k = s.skeleton;
    for (const Bytes& b : {csf(s, v, d), caf(s, v, d), cmf(s, v, d), crf(s, v, d)})
      for (std::size_t n = 0; n < b.size(); ++n) {
        const std::span<const std::byte> p(b.data(), n);
        const ReadContext ctx = context("x");
        EXPECT_FALSE(readCsf(p, ctx).ok() || readCaf(p, ctx, identity(k)).ok() ||
                     readCmf(p, ctx, identity(k)).ok() || readCrf(p, ctx).ok())
            << v << ": " << n;
      }
  }
}

// ---- skeleton ----

TEST(Cal3dBinaryWriter, RoundTripsTheSkeletonAtEveryLayout) {
  Scene s = makeScene();
  s.skeleton.inverseBind = s.skeleton.inverseBindMatrices();
  s.skeleton.inverseBind[1] =
      glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)) * s.skeleton.inverseBind[1];
  for (int v : {700, 1100, 1300, 1301}) {
    Diagnostics d;
    const Bytes b = csf(s, v, d);
    EXPECT_TRUE(d.empty());
    const auto part = ok(readCsf(b, context("x.csf")));
    EXPECT_EQ(part.format, "cal3d CSF " + std::to_string(v) + (v == 1300 ? " (lights)" : ""));
    ASSERT_EQ(part.skeleton.bones.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      const Bone &a = s.skeleton.bones[i], &r = part.skeleton.bones[i];
      EXPECT_EQ(r.name, a.name);
      EXPECT_EQ(r.parent, a.parent);
      EXPECT_EQ(r.translation, a.translation);
      EXPECT_EQ(r.rotation, a.rotation);  // conjugated twice: exact
      for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k)
          EXPECT_NEAR(part.skeleton.inverseBind[i][c][k], s.skeleton.inverseBind[i][c][k], 1e-6f);
    }
    Scene again;
    again.skeleton = part.skeleton;
    EXPECT_EQ(csf(again, v, d), b);
  }
}

TEST(Cal3dBinaryWriter, SecondWriteIsByteIdenticalForRandomBindPoses) {
  std::mt19937 rng(7);
  std::normal_distribution<float> n;
  const auto quat = [&] { return glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng))); };
  for (int trial = 0; trial < 30; ++trial) {
    Scene s;
    for (int i = 0; i < 12; ++i) {
      std::string name = "b";  // in two steps: GCC 12 warns falsely on "b" + to_string (-Wrestrict)
      name += std::to_string(i);
      s.skeleton.bones.push_back({name, i - 1, {n(rng), n(rng), n(rng)}, quat()});
      s.skeleton.inverseBind.push_back(
          glm::translate(glm::mat4(1.0f), 50.0f * glm::vec3(n(rng), n(rng), n(rng))) *
          glm::mat4_cast(quat()));
    }
    Diagnostics d;
    const Bytes b = csf(s, 1100, d);
    Scene again;
    again.skeleton = ok(readCsf(b, context("x.csf"))).skeleton;
    EXPECT_EQ(csf(again, 1100, d), b) << trial;
  }
}

TEST(Cal3dBinaryWriter, DerivesBoneSpaceFromTheRestPoseWithoutInverseBinds) {
  const Scene s = makeScene();
  Diagnostics d;
  const auto part = ok(readCsf(csf(s, 1100, d), context("x.csf")));
  const auto rest = part.skeleton.restModelMatrices();
  for (std::size_t i = 0; i < 3; ++i) {
    const glm::mat4 m = rest[i] * part.skeleton.inverseBind[i];
    for (int c = 0; c < 4; ++c)
      for (int k = 0; k < 4; ++k) EXPECT_NEAR(m[c][k], c == k ? 1.0f : 0.0f, 1e-6f);
  }
}

// ---- animation ----

TEST(Cal3dBinaryWriter, WritesTracksAsKeyframesOfBothChannels) {
  const Scene s = makeScene();
  Diagnostics d;
  const auto part = ok(readCaf(caf(s, 1100, d), context("wave.caf"), identity(s.skeleton)));
  EXPECT_TRUE(d.empty());
  const Clip& c = part.clip;
  EXPECT_EQ(c.duration, 1.0f);
  EXPECT_TRUE(c.wrapsToFirstKey);
  ASSERT_EQ(c.tracks.size(), 2u);
  EXPECT_EQ(c.tracks[0].bone, "arm");
  EXPECT_EQ(c.tracks[0].sourceIndex, 1);
  EXPECT_EQ(c.tracks[0].translation.values, s.clips[0].tracks[0].translation.values);
  EXPECT_EQ(c.tracks[0].rotation.values, s.clips[0].tracks[0].rotation.values);
  // A track without translation keys holds the bone's rest translation.
  EXPECT_EQ(c.tracks[1].translation.values, (std::vector<glm::vec3>{{0, 0, 1}}));
  EXPECT_EQ(c.tracks[1].rotation.times, (std::vector<float>{0.25f}));
}

TEST(Cal3dBinaryWriter, WritesEveryCafHeaderVersionItsReaderTakes) {
  const Scene s = makeScene();
  for (int v : {699, 700, 1000, 1100, 1300, 1301}) {
    Diagnostics d;
    const auto part = ok(readCaf(caf(s, v, d), context("wave.caf"), identity(s.skeleton)));
    EXPECT_EQ(part.format, "cal3d CAF " + std::to_string(v));
  }
}

TEST(Cal3dBinaryWriter, LeavesOutUnboundTracksAndScaleKeysWithWarnings) {
  Scene s = makeScene();
  s.clips[0].tracks[1].bone = "tail";
  s.clips[0].tracks[0].scale.add(0.0f, glm::vec3(2.0f));
  Diagnostics d;
  const auto part = ok(readCaf(caf(s, 1100, d), context("wave.caf"), identity(s.skeleton)));
  EXPECT_EQ(part.clip.tracks.size(), 1u);
  EXPECT_EQ(d.count(Severity::Warning), 2u);
}

TEST(Cal3dBinaryWriter, KeepsLoopingAsTheClipSaysIt) {
  Scene s = makeScene();
  // The clip holds its last keys, but its first track ends early: cal3d would loop.
  s.clips[0].wrapsToFirstKey = false;
  Diagnostics d;
  auto part = ok(readCaf(caf(s, 1100, d), context("w.caf"), identity(s.skeleton)));
  EXPECT_FALSE(part.clip.wrapsToFirstKey);
  EXPECT_EQ(part.clip.tracks[0].rotation.times.back(), 1.0f);
  EXPECT_EQ(part.clip.tracks[0].rotation.values.back(),
            s.clips[0].tracks[0].rotation.values.back());
  EXPECT_EQ(d.count(Severity::Info), 1u);
  // The clip loops, but its first track has a key at the duration: the others get their first
  // key again there.
  s = makeScene();
  s.clips[0].tracks[0].rotation.add(1.0f, glm::quat(1, 0, 0, 0));
  part = ok(readCaf(caf(s, 1100, d), context("w.caf"), identity(s.skeleton)));
  EXPECT_EQ(part.clip.tracks[1].rotation.times, (std::vector<float>{0.25f, 1.0f}));
  EXPECT_EQ(part.clip.tracks[1].rotation.values[1], s.clips[0].tracks[1].rotation.values[0]);
}

// ---- mesh ----

TEST(Cal3dBinaryWriter, RoundTripsMeshesAtEveryLayout) {
  const Scene s = makeScene();
  for (int v : {700, 1100, 1300, 1301}) {
    SCOPED_TRACE(v);
    Diagnostics d;
    const Bytes b = cmf(s, v, d);
    const auto part = ok(readCmf(b, context("m.cmf"), identity(s.skeleton)));
    ASSERT_EQ(part.meshes.size(), 2u);
    EXPECT_EQ(part.materialThreads, (std::vector<int>{0, -1}));
    expectSameMeshData(part.meshes[0], s.meshes[0], v == 1300);
    // §5 layouts: colours only at 1300, morph targets from 1300 on; each loss is reported.
    EXPECT_EQ(part.meshes[0].colors.empty(), v != 1300);
    EXPECT_EQ(d.count(Severity::Warning), v == 1300 ? 0u : v == 1301 ? 1u : 2u);
    if (v >= 1300) {
      const auto& m = part.meshes[0].morphs;
      ASSERT_EQ(m.size(), 2u);
      EXPECT_EQ(m[0].name, "smile");
      EXPECT_EQ(m[0].vertices, s.meshes[0].morphs[0].vertices);
      EXPECT_EQ(m[0].positions, s.meshes[0].morphs[0].positions);
      EXPECT_EQ(m[0].uvSets, s.meshes[0].morphs[0].uvSets);
      EXPECT_EQ(m[1].vertices, (std::vector<std::uint32_t>{0, 1, 2, 3}));  // dense, written whole
      EXPECT_EQ(m[1].positions, s.meshes[0].morphs[1].positions);
      EXPECT_EQ(m[1].normals, s.meshes[0].normals);
    } else {
      EXPECT_TRUE(part.meshes[0].morphs.empty());
    }
    // The rigidly attached mesh is one full-weight influence per vertex.
    EXPECT_EQ(part.meshes[1].influences, std::vector<Influence>(3, Influence{2, 1.0f}));
    Scene again = s;
    again.meshes = part.meshes;
    again.meshes[0].material = 0;
    Diagnostics d2;
    EXPECT_EQ(cmf(again, v, d2), b);
  }
}

// A mesh whose first face's first vertex normal points away from the face.
Mesh awkward() {
  Mesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.normals = {{0, 0, -1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.indices = {0, 1, 2, 1, 3, 2};
  return m;
}

// The mesh's triangles as oriented cycles, each started at its smallest index.
std::vector<std::array<std::uint32_t, 3>> oriented(const Mesh& m) {
  std::vector<std::array<std::uint32_t, 3>> out;
  for (std::size_t f = 0; f < m.indices.size(); f += 3) {
    std::array<std::uint32_t, 3> t{m.indices[f], m.indices[f + 1], m.indices[f + 2]};
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Cal3dBinaryWriter, KeepsTheModelsWindingThroughTheLoadersRule) {
  Scene s;
  s.meshes = {awkward()};
  Diagnostics d;
  // Rotating the first face puts an agreeing normal first.
  auto r = ok(readCmf(cmf(s, 1100, d, {0}), context("m.cmf"), BoneMap{}));
  EXPECT_EQ(oriented(r.meshes[0]), oriented(s.meshes[0]));
  EXPECT_TRUE(d.empty());
  // No vertex of the first face agrees: another face goes first.
  s.meshes[0].normals = {{0, 0, -1}, {0, 0, -1}, {0, 0, -1}, {0, 0, 1}};
  r = ok(readCmf(cmf(s, 1100, d, {0}), context("m.cmf"), BoneMap{}));
  EXPECT_EQ(oriented(r.meshes[0]), oriented(s.meshes[0]));
  EXPECT_TRUE(d.empty());
  // With level of detail the face order stays, and a warning says cal3d will flip it.
  s.meshes[0].lod = {0, {-1, -1, -1, -1}, {0, 0, 0, 0}};
  (void)cmf(s, 1100, d, {0});
  EXPECT_EQ(d.count(Severity::Warning), 1u);
}

// ---- material ----

TEST(Cal3dBinaryWriter, WritesMapsWithTypesFrom1300) {
  const Scene s = makeScene();
  Diagnostics d;
  auto part = ok(readCrf(crf(s, 1300, d), context("skin.crf")));
  EXPECT_TRUE(d.empty());
  const Material& m = part.material;
  EXPECT_EQ(colorToBytes(m.ambient), colorToBytes(s.materials[0].ambient));
  EXPECT_EQ(colorToBytes(m.diffuse), colorToBytes(s.materials[0].diffuse));
  EXPECT_EQ(m.diffuse, glm::vec4(255, 128, 64, 255) / 255.0f);
  EXPECT_EQ(m.shininess, 0.8f);
  ASSERT_EQ(m.maps.size(), 2u);
  EXPECT_EQ(m.maps[0].label, "Diffuse Color");
  EXPECT_EQ(m.maps[1].label, "Opacity");  // from the kind
  EXPECT_EQ(m.maps[1].kind, "opacity");
  EXPECT_EQ(part.textures[0].name, "skin.png");
  EXPECT_EQ(part.textures[1].name, "alpha.tga");  // no name: the path
  part = ok(readCrf(crf(s, 1100, d), context("skin.crf")));
  EXPECT_EQ(part.material.maps[1].label, "");
  EXPECT_EQ(part.format, "cal3d CRF 1100");
}

TEST(Cal3dBinaryWriter, NamesMapFilesAfterTheTextureNameElseItsPath) {
  const Scene s = makeScene();
  EXPECT_EQ(mapFileName(s, s.materials[0].maps[0]), "skin.png");
  EXPECT_EQ(mapFileName(s, s.materials[0].maps[1]), "alpha.tga");
  EXPECT_EQ(mapFileName(s, MaterialMap{"diffuse", 7, 0, ""}), "");
}

TEST(Cal3dBinaryWriter, WarnsWhenAMapUsesAnotherUvSet) {
  Scene s = makeScene();
  s.materials[0].maps[1].uvSet = 0;
  Diagnostics d;
  (void)crf(s, 1100, d);
  EXPECT_EQ(d.count(Severity::Warning), 1u);
}

// ---- fixtures: read, write at the same version, read back ----

int versionOf(const Bytes& b) {
  std::int32_t v = 0;
  std::memcpy(&v, b.data() + 4, 4);
  return v;
}

struct Loaded {
  Scene scene;
  std::vector<int> fileBones;
};

Loaded loadSkeleton(const std::string& file) {
  Loaded l;
  auto part = ok(readCsf(fixture(file), context(file)));
  l.scene.skeleton = std::move(part.skeleton);
  l.fileBones = std::move(part.modelIndexOfFileBone);
  return l;
}

// Every binary fixture with the given extension, paired with its folder's skeleton.
std::vector<std::pair<std::string, std::string>> fixturesWith(const std::string& ext) {
  const std::map<std::string, std::string> skeletons = {
      {"cally", "cally/cally.csf"},
      {"paladin", "paladin/paladin.csf"},
      {"dokurochan_v1300", "dokurochan_v1300/DokuroChan.csf"}};
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [folder, skeleton] : skeletons)
    for (const auto& e : std::filesystem::directory_iterator(fixtureDir() / folder))
      if (e.path().extension() == ext)
        out.push_back({folder + "/" + e.path().filename().string(), skeleton});
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Cal3dBinaryWriter, FixtureSkeletonsRoundTrip) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const char* file :
       {"cally/cally.csf", "paladin/paladin.csf", "dokurochan_v1300/DokuroChan.csf"}) {
    SCOPED_TRACE(file);
    const Loaded l = loadSkeleton(file);
    Diagnostics d;
    const Bytes b = csf(l.scene, versionOf(fixture(file)), d);
    const auto back = ok(readCsf(b, context(file)));
    ASSERT_EQ(back.skeleton.bones.size(), l.scene.skeleton.bones.size());
    for (std::size_t i = 0; i < back.skeleton.bones.size(); ++i) {
      const Bone &a = l.scene.skeleton.bones[i], &r = back.skeleton.bones[i];
      EXPECT_EQ(r.name, a.name);
      EXPECT_EQ(r.parent, a.parent);
      EXPECT_EQ(r.translation, a.translation);
      EXPECT_EQ(r.rotation, a.rotation);
      for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k)
          EXPECT_NEAR(back.skeleton.inverseBind[i][c][k], l.scene.skeleton.inverseBind[i][c][k],
                      1e-6f);
    }
    Scene again;
    again.skeleton = back.skeleton;
    EXPECT_EQ(csf(again, versionOf(b), d), b);
  }
}

TEST(Cal3dBinaryWriter, FixtureAnimationsAreWrittenBackByteForByte) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto files = fixturesWith(".caf");
  EXPECT_EQ(files.size(), 15u);
  for (const auto& [file, skeleton] : files) {
    SCOPED_TRACE(file);
    Loaded l = loadSkeleton(skeleton);
    const Bytes original = fixture(file);
    l.scene.clips.push_back(
        ok(readCaf(original, context(file), BoneMap{&l.scene.skeleton, l.fileBones})).clip);
    Diagnostics d;
    const Bytes b = caf(l.scene, versionOf(original), d);
    EXPECT_TRUE(d.empty());
    // Keys are stored as they came (times, translations, rotations conjugated back exactly).
    EXPECT_EQ(b, original);
    const auto back = ok(readCaf(b, context(file), identity(l.scene.skeleton)));
    EXPECT_EQ(back.clip.wrapsToFirstKey, l.scene.clips[0].wrapsToFirstKey);
  }
}

TEST(Cal3dBinaryWriter, FixtureMeshesRoundTrip) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto files = fixturesWith(".cmf");
  EXPECT_EQ(files.size(), 22u);
  for (const auto& [file, skeleton] : files) {
    SCOPED_TRACE(file);
    Loaded l = loadSkeleton(skeleton);
    const Bytes original = fixture(file);
    const int version = versionOf(original);
    auto part = ok(readCmf(original, context(file), BoneMap{&l.scene.skeleton, l.fileBones}));
    std::vector<std::size_t> all;
    for (std::size_t i = 0; i < part.meshes.size(); ++i) {
      part.meshes[i].material = part.materialThreads[i];
      l.scene.materials.resize(
          std::max<std::size_t>(l.scene.materials.size(), part.materialThreads[i] + 1));
      all.push_back(i);
    }
    l.scene.meshes = part.meshes;
    ASSERT_TRUE(validate(l.scene).empty());
    Diagnostics d;
    const Bytes b = cmf(l.scene, version, d, all);
    EXPECT_TRUE(d.empty());
    const auto back = ok(readCmf(b, context(file), identity(l.scene.skeleton)));
    EXPECT_EQ(back.materialThreads, part.materialThreads);
    ASSERT_EQ(back.meshes.size(), part.meshes.size());
    // 1300 is written in the trunk layout, which stores vertex colours (white for none).
    const bool sameLayout = back.format == part.format;
    EXPECT_TRUE(sameLayout || version == 1300) << back.format;
    for (std::size_t i = 0; i < part.meshes.size(); ++i) {
      const Mesh &a = part.meshes[i], &r = back.meshes[i];
      expectSameMeshData(r, a, sameLayout);
      ASSERT_EQ(r.morphs.size(), a.morphs.size());
      for (std::size_t k = 0; k < a.morphs.size(); ++k) {
        EXPECT_EQ(r.morphs[k].name, a.morphs[k].name);
        EXPECT_EQ(r.morphs[k].vertices, a.morphs[k].vertices);
        EXPECT_EQ(r.morphs[k].positions, a.morphs[k].positions);
        EXPECT_EQ(r.morphs[k].normals, a.morphs[k].normals);
        EXPECT_EQ(r.morphs[k].uvSets, a.morphs[k].uvSets);
      }
    }
    Scene again = l.scene;
    again.meshes = back.meshes;
    for (std::size_t i = 0; i < again.meshes.size(); ++i)
      again.meshes[i].material = back.materialThreads[i];
    EXPECT_EQ(cmf(again, version, d, all), b);
    // Meshes the loader's rule leaves alone are written back to their very bytes.
    if (sameLayout && file.find("_left") == std::string::npos) {
      EXPECT_EQ(b, original);
    }
  }
}

TEST(Cal3dBinaryWriter, FixtureMaterialsAreWrittenBackByteForByte) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const char* file : {"cally/cally_chest.crf", "cally/cally_pelvis.crf",
                           "cally/cally_ponytail.crf", "cally/cally_skin.crf"}) {
    SCOPED_TRACE(file);
    const Bytes original = fixture(file);
    auto part = ok(readCrf(original, context(file)));
    Scene s;
    s.materials.push_back(part.material);
    s.textures = part.textures;
    Diagnostics d;
    EXPECT_EQ(crf(s, versionOf(original), d), original);
  }
}

}  // namespace
}  // namespace marrow::formats::cal3d
