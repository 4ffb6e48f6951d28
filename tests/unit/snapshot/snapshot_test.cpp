// The Scene snapshot (formats/snapshot/snapshot.h) that carries a model from `marrow-cli
// import-child` to the viewer: hostile bytes first, then its documented layout, then round trips
// of every kind of model we read, compared member by member, floats bit for bit
// (tests/support/scene_compare.h, written from scene.h, not from the snapshot code).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>

#include <glm/gtc/quaternion.hpp>

#include "formats/snapshot/snapshot.h"
#include "formats/model/validate.h"
#include "formats/registry.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/read_context.h"
#include "tests/support/scene_compare.h"
#include "tests/support/skip.h"

#ifndef MARROW_ASSIMP_MODELS_DIR
#define MARROW_ASSIMP_MODELS_DIR "/usr/share/assimp/models"
#endif

namespace marrow::formats {
namespace {

using marrow::testing::named;
using marrow::testing::sceneDifference;

const std::string kSnapshotName = "model.x (snapshot)";  // the name readers are given

glm::mat4 numbered(float base) {
  glm::mat4 m;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m[c][r] = base + static_cast<float>(c * 4 + r) / 7.0f;
  return m;
}

// A quiet NaN with a payload: a value only a bit-for-bit copy keeps. Material shininess is not
// something validation looks at, so it may carry one.
float payloadNaN() { return std::bit_cast<float>(0x7fc01234u); }

// Every member of every struct of scene.h set to something other than its default, the scene
// still valid.
Scene fullScene() {
  Scene s;
  s.format = "synthetic \xc3\xa9t\xc3\xa9";
  s.basis = {Axis::Z, false, 0.0254f, -1};

  Skeleton& k = s.skeleton;
  k.name = "skel_test";
  k.bones = {{"root", -1, {1, 2, 3}, glm::quat(0.5f, 0.5f, 0.5f, 0.5f), {1, 1, 1}},
             {"spine", 0, {0, 1.0f / 3, -0.0f}, glm::quat(0.8f, 0.6f, 0, 0), {2, 0.5f, 1}},
             {"head", 1, {1e-40f, 7, -2}, glm::quat(0, 0, 0.6f, 0.8f), {1, 1, 3}}};
  k.inverseBind = {numbered(1), numbered(2), numbered(3)};
  k.inverseBindParts = {{{1, 0, 0}, glm::quat(1, 0, 0, 0)},
                        {{0, 2, 0}, glm::quat(0, 1, 0, 0)},
                        {{0, 0, 3}, glm::quat(0, 0, 1, 0)}};

  Material m0;
  m0.name = "skin";
  m0.diffuse = {0.1f, 0.2f, 0.3f, 0.4f};
  m0.ambient = {0.5f, 0.6f, 0.7f, 0.8f};
  m0.specular = {0.9f, 1.0f, 1.1f, 1.2f};
  m0.shininess = payloadNaN();
  m0.diffuseAlphaIsOpacity = false;
  m0.maps = {{"diffuse", 0, 1, "Diffuse Color"}, {"normal", 1, 0, ""}};
  m0.properties = {{"shader", "skin_shader"}, {"empty", ""}};
  Material m1;
  m1.name = "plain";
  s.materials = {m0, m1};

  Texture embedded{"skin.png", "textures/skin.png", {}, true};
  for (int b = 0; b < 256; ++b) embedded.data.push_back(static_cast<std::byte>(b));
  s.textures = {embedded, Texture{"missing", "C:\\art\\missing.dds", {}, false}};

  Mesh a;
  a.name = "body";
  a.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  a.normals = {{0, 0, -1}, {1, 0, 0}, {0, 1, 0}, {0.57735f, 0.57735f, 0.57735f}};
  a.tangents = {{1, 0, 0, 1}, {0, 1, 0, -1}, {0, 0, 1, 1}, {1, 0, 0, -1}};
  a.uvSets = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, {{0.5f, 0.5f}, {0.25f, 0}, {0, 0.25f}, {1, 0.75f}}};
  a.colors = {{1, 0, 0, 1}, {0, 1, 0, 0.5f}, {0, 0, 1, 0}, {1, 1, 1, 1}};
  const Influence one[] = {{0, 1.0f}};
  const Influence two[] = {{1, 0.25f}, {2, 0.75f}};
  const Influence three[] = {{0, 0.2f}, {1, 0.3f}, {2, 0.5f}};
  a.addInfluences(one);
  a.addInfluences({});
  a.addInfluences(two);
  a.addInfluences(three);
  a.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  a.material = 0;
  a.materialSlot = 3;
  a.inverseBind = {numbered(-1), numbered(-2), numbered(-3)};
  MorphTarget sparse;
  sparse.name = "smile";
  sparse.vertices = {1, 3};
  sparse.positions = {{1.5f, 0, 0}, {0, 0, 1.5f}};
  sparse.normals = {{1, 0, 0}, {0, 0, 1}};
  sparse.uvSets = {{{1, 0.5f}, {1, 1}}, {{0, 0}, {0.5f, 0.5f}}};
  MorphTarget full;
  full.name = "blink";
  full.positions = {{0, 0, 0.1f}, {1, 0, 0.1f}, {0, 1, 0.1f}, {0, 0, 1.1f}};
  a.morphs = {sparse, full};
  a.lod.collapsible = 2;
  a.lod.collapseTo = {-1, -1, 0, 1};
  a.lod.faceCollapseCount = {0, 0, 1, 2};
  a.springs = {{2, 3, 0.5f, 1.25f}};
  a.physicalWeights = {0, 0, 0.5f, 1};
  Mesh rigid;
  rigid.name = "helmet";
  rigid.positions = {{0, 8, 0}, {1, 8, 0}, {0, 9, 0}};
  rigid.indices = {0, 1, 2};
  rigid.materialSlot = 7;
  rigid.parentBone = 2;
  s.meshes = {a, rigid};

  Clip walk;
  walk.name = "walk";
  walk.duration = 1.5f;
  walk.frameRate = 24;
  Track root;
  root.bone = "root";
  root.sourceIndex = 4;
  root.translation.add(0, {0, 0, 0});
  root.translation.add(0.75f, {0, 0.1f, 0});
  root.rotation.add(0.5f, glm::quat(1, 0, 0, 0));
  root.rotation.interpolation = Interpolation::Step;
  root.scale.add(0, {1, 1, 1});
  root.scale.add(1.5f, {2, 2, 2});
  Track spine;
  spine.bone = "spine";
  spine.rotation.add(0.25f, glm::quat(0.8f, 0, 0.6f, 0));
  walk.tracks = {root, spine};
  walk.wrapsToFirstKey = true;
  MorphTrack smile;
  smile.mesh = "body";
  smile.target = "smile";
  smile.weight.add(0, 0);
  smile.weight.add(1, 1);
  smile.weight.interpolation = Interpolation::Step;
  walk.morphTracks = {smile};
  walk.skeleton = "skel_test";
  walk.frameIndexed = true;
  walk.sourceFrames = Clip::FrameSpan{120, 84};
  walk.loops = false;
  walk.group = "anim_test";
  Action wave;
  wave.name = "wave";
  wave.flags = 0x100;
  wave.masterFlags = 0x80000002u;
  wave.sequences.push_back({2.5f, "anim_test", 120, 84, 0x10000002u, 58726, {-0.5f, 0, 0}, 0.25f, "wave"});
  s.actions = {wave, Action{"none", 0, 0, {}}};
  s.partial = true;  // read from a damaged file
  Clip still;
  still.name = "still";
  s.clips = {walk, still};

  Body body;
  body.name = "bo_collision";
  BodyPart manifold;
  manifold.kind = BodyPart::Kind::Manifold;
  manifold.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  manifold.polygons = {{0, 1, 2}, {0, 3, 1, 2}};
  manifold.flags = 0x10;
  BodyPart face;
  face.kind = BodyPart::Kind::Face;
  face.positions = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}};
  BodyPart sphere;
  sphere.radius = 0.5f;
  sphere.a = {1, 2, 3};
  BodyPart capsule;
  capsule.kind = BodyPart::Kind::Capsule;
  capsule.radius = 0.25f;
  capsule.a = {0, 0, 0};
  capsule.b = {0, 3, 0};
  capsule.flags = 0xffffffffu;
  body.parts = {manifold, face, sphere, capsule};
  s.bodies = {body};

  s.attachments = {{"weapon", "head", numbered(9)}, {"origin", "", glm::mat4(1.0f)}};

  Table t;
  t.name = "itemtable";
  t.columns = {{"_Name", 1}, {"_Price", 3}, {"_Weight", 4}};
  t.rowIds = {7, -3};
  t.rows = {{std::string("sword"), std::int32_t{120}, 2.5f},
            {std::string(""), std::int32_t{-1}, -0.0f}};
  s.tables = {t};

  s.diagnostics.add(Severity::Info, "a.csf", "header", 0, "read");
  s.diagnostics.add(Severity::Warning, "b.cmf", "submesh 2: weights", 0x1c, "renormalised");
  s.diagnostics.add(Severity::Error, "", "", kNoOffset, "");
  return s;
}

// Reads a snapshot back; the scene must be the same, and writing it again the same bytes.
void expectRoundTrip(const Scene& scene, const std::string& what) {
  ASSERT_TRUE(validate(scene).empty()) << what << ": the model itself is not valid";
  const auto bytes = writeSnapshot(scene);
  auto back = readSnapshot(bytes, named(kSnapshotName));
  ASSERT_TRUE(back) << what << ": " << back.error().describe();
  EXPECT_EQ(sceneDifference(scene, *back), "") << what;
  EXPECT_TRUE(writeSnapshot(*back) == bytes) << what;
}

std::vector<std::byte> fullSnapshot() { return writeSnapshot(fullScene()); }

template <class T>
void put(std::vector<std::byte>& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

std::size_t find(const std::vector<std::byte>& hay, const void* needle, std::size_t n) {
  for (std::size_t i = 0; i + n <= hay.size(); ++i)
    if (std::memcmp(hay.data() + i, needle, n) == 0) return i;
  return std::string::npos;
}

// ---------------------------------------------------------------------------------------------
// Hostile bytes

TEST(Snapshot, RejectsBytesWithoutTheMagic) {
  const std::byte omf[] = {std::byte{'O'}, std::byte{'M'}, std::byte{'F'}, std::byte{'1'}};
  for (std::span<const std::byte> bytes : {std::span<const std::byte>(), std::span<const std::byte>(omf)}) {
    auto r = readSnapshot(bytes, named(kSnapshotName));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().file, "model.x (snapshot)");
    EXPECT_EQ(r.error().field, "magic");
    EXPECT_EQ(r.error().offset, 0u);
  }
}

TEST(Snapshot, RejectsAnotherVersion) {
  auto b = fullSnapshot();
  put<std::uint32_t>(b, 8, kSnapshotVersion + 1);
  auto r = readSnapshot(b, named(kSnapshotName));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "version");
  EXPECT_EQ(r.error().offset, 8u);
}

TEST(Snapshot, RejectsAnUnknownKind) {
  auto b = fullSnapshot();
  b[12] = std::byte{2};
  auto r = readSnapshot(b, named(kSnapshotName));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "kind");
  EXPECT_EQ(r.error().offset, 12u);
}

TEST(Snapshot, RejectsTrailingBytes) {
  auto b = fullSnapshot();
  const std::size_t end = b.size();
  b.push_back(std::byte{0});
  auto r = readSnapshot(b, named(kSnapshotName));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "end");
  EXPECT_EQ(r.error().offset, end);
}

TEST(Snapshot, RejectsAnEnumerationPastItsLastValue) {
  auto b = fullSnapshot();
  const std::size_t up = 13 + 4 + fullScene().format.size();  // header, format string, basis
  b[up] = std::byte{3};
  auto r = readSnapshot(b, named(kSnapshotName));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "basis: up");
  EXPECT_EQ(r.error().offset, up);
}

TEST(Snapshot, RefusesACountTheBytesLeftCannotHoldBeforeAllocating) {
  auto b = fullSnapshot();
  const std::size_t formatLength = 13;
  put<std::uint32_t>(b, formatLength, 0x00fffff0u);
  auto r = readSnapshot(b, named(kSnapshotName));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "format length");
  EXPECT_EQ(r.error().offset, formatLength);
  EXPECT_NE(r.error().message.find("do not fit"), std::string::npos) << r.error().message;
}

TEST(Snapshot, ErrorsNameTheElementAndTheField) {
  auto b = fullSnapshot();
  // The rigid mesh's last position (0, 9, 0): cut the snapshot inside it.
  const float last[3] = {0, 9, 0};
  const std::size_t at = find(b, last, sizeof last);
  ASSERT_NE(at, std::string::npos);
  b.resize(at + 4);
  auto r = readSnapshot(b, named(kSnapshotName));
  ASSERT_FALSE(r);
  // Three positions need 36 bytes, and 28 are left after their count: the count is refused.
  EXPECT_EQ(r.error().field, "mesh 1: positions count");
  EXPECT_EQ(r.error().offset, at - 28);
}

TEST(Snapshot, AModelThatIsNotConsistentFailsValidation) {
  Scene s = fullScene();
  s.meshes[1].indices[2] = 3;  // the helmet has three vertices
  auto r = readSnapshot(writeSnapshot(s), named(kSnapshotName));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, "model.x (snapshot)");
  EXPECT_NE(r.error().message.find("inconsistent model: mesh 'helmet'"), std::string::npos)
      << r.error().message;
}

TEST(Snapshot, EveryPrefixIsAnErrorAtAnOffsetInsideIt) {
  const auto b = fullSnapshot();
  for (std::size_t n = 0; n < b.size(); ++n) {
    auto r = readSnapshot(std::span(b).first(n), named(kSnapshotName));
    ASSERT_FALSE(r) << "a prefix of " << n << " of " << b.size() << " bytes was read";
    EXPECT_FALSE(r.error().field.empty()) << n;
    EXPECT_LE(r.error().offset, n) << r.error().describe();
  }
}

TEST(Snapshot, FlippedBytesGiveAnErrorOrAValidScene) {
  const auto good = fullSnapshot();
  std::size_t accepted = 0, rejected = 0;
  for (std::size_t i = 0; i < good.size(); ++i)
    for (const std::uint8_t mask : {0x01, 0x80, 0xff}) {
      auto b = good;
      b[i] ^= std::byte{mask};
      auto r = readSnapshot(b, named(kSnapshotName));
      if (r) {
        ++accepted;
        EXPECT_TRUE(validate(*r).empty()) << "flip at " << i;
      } else {
        ++rejected;
        EXPECT_TRUE(r.error().offset == kNoOffset || r.error().offset <= b.size())
            << r.error().describe();
      }
    }
  // Most bytes are values (any float is a float); flips of counts and tags must be refused.
  EXPECT_GT(rejected, 100u);
  EXPECT_GT(accepted, 100u);
}

TEST(Snapshot, InflatedCountsAnywhereAreRefusedOrHarmless) {
  const auto good = fullSnapshot();
  for (std::size_t i = 0; i + 4 <= good.size(); ++i)
    for (const std::uint32_t v : {0xffffffffu, 0x7fffffffu, 0x01000000u}) {
      auto b = good;
      put(b, i, v);
      auto r = readSnapshot(b, named(kSnapshotName));
      if (!r) {
        EXPECT_TRUE(r.error().offset == kNoOffset || r.error().offset <= b.size())
            << r.error().describe();
      }
    }
}

// ---------------------------------------------------------------------------------------------
// Layout and errors carried

TEST(Snapshot, AnEmptySceneIsTheDocumentedBytes) {
  Scene s;
  s.format = "ab";
  std::vector<std::uint8_t> expected = {'M', 'R', 'W', 'S', 'C', 'E', 'N', 'E', 3, 0, 0, 0, 0};
  for (int c : {2, 0, 0, 0, int{'a'}, int{'b'}}) expected.push_back(static_cast<std::uint8_t>(c));
  for (int c : {1, 1, 0, 0, 0x80, 0x3f, 0, 0, 0, 0})  // basis: Y up, right-handed, 1.0f, front 0
    expected.push_back(static_cast<std::uint8_t>(c));
  expected.insert(expected.end(), 4, 0);   // meshes
  expected.insert(expected.end(), 16, 0);  // skeleton: name, bones, inverse binds, parts
  expected.insert(expected.end(), 8 * 4, 0);  // clips … tables, actions, diagnostics
  expected.push_back(0);                      // not partial
  const auto bytes = writeSnapshot(s);
  ASSERT_EQ(bytes.size(), expected.size());
  for (std::size_t i = 0; i < bytes.size(); ++i)
    EXPECT_EQ(static_cast<std::uint8_t>(bytes[i]), expected[i]) << "byte " << i;
}

TEST(Snapshot, QuaternionsAreWrittenXYZW) {
  Scene s;
  s.skeleton.bones.push_back({"b", -1, {0, 0, 0}, glm::quat(0.5f, 0.1f, 0.2f, 0.3f), {1, 1, 1}});
  const auto bytes = writeSnapshot(s);
  const float xyzw[4] = {0.1f, 0.2f, 0.3f, 0.5f};
  EXPECT_NE(find(bytes, xyzw, sizeof xyzw), std::string::npos);
}

TEST(Snapshot, AnErrorComesBackAsItWas) {
  const FormatError e{"Testwuson.X", "mesh 3: faces", 0x1234, "index 9000 is past 812 vertices"};
  auto r = readSnapshot(writeSnapshotError(e), named(kSnapshotName));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, e.file);
  EXPECT_EQ(r.error().field, e.field);
  EXPECT_EQ(r.error().offset, e.offset);
  EXPECT_EQ(r.error().message, e.message);
}

TEST(Snapshot, TheComparisonSeesAChangedBit) {
  // The round trips below rely on sceneDifference: it must see one changed bit anywhere.
  const Scene a = fullScene();
  Scene b = a;
  b.meshes[0].lod.faceCollapseCount[3] = 3;
  EXPECT_EQ(sceneDifference(a, b), "meshes[0].lod.faceCollapseCount[3]: 2 vs 3");
  b = a;
  b.skeleton.bones[1].translation.z = 0.0f;  // was -0.0f
  EXPECT_NE(sceneDifference(a, b), "");
  b = a;
  b.materials[0].shininess = std::numeric_limits<float>::quiet_NaN();  // another NaN
  EXPECT_NE(sceneDifference(a, b), "");
  b = a;
  b.tables[0].rows[1][2] = std::int32_t{0};
  EXPECT_NE(sceneDifference(a, b), "");
  b = a;
  b.textures[0].data[200] = std::byte{0};
  EXPECT_EQ(sceneDifference(a, b), "textures[0].data[200]: 200 vs 0");
}

// ---------------------------------------------------------------------------------------------
// Round trips

TEST(Snapshot, ASceneWithEveryMemberSetRoundTripsBitForBit) {
  expectRoundTrip(fullScene(), "synthetic scene");
}

TEST(Snapshot, AnEmptySceneRoundTrips) { expectRoundTrip(Scene{}, "empty scene"); }

TEST(Snapshot, TheDragonNestTestCharacterRoundTrips) {
  using namespace dragonnest::testing;
  const auto f = writeCharacter(11);
  std::vector<Input> inputs(2);
  inputs[0].bytes = f.skn;
  inputs[0].ctx.name = "Character.skn";
  inputs[0].ctx.resolve = memoryResolver(
      {{"Character.msh", f.msh}, {"character.dds", {std::byte{'D'}, std::byte{'D'}}}});
  inputs[1].bytes = f.ani;
  inputs[1].ctx.name = "Character.ani";
  auto s = readInputs(std::move(inputs));
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_FALSE(s->attachments.empty());
  EXPECT_FALSE(s->bodies.empty());
  expectRoundTrip(*s, "Dragon Nest test character");
}

TEST(Snapshot, TheDemoCharacterRoundTrips) {
#ifdef MARROW_DEMO_OMF
  auto s = loadFile(MARROW_DEMO_OMF);
  ASSERT_TRUE(s) << s.error().describe();
  expectRoundTrip(*s, "demo.omf");
#else
  MARROW_SKIP() << "the unit tests are built without MARROW_DEMO_OMF (tests/unit/CMakeLists.txt "
                  "does not pass it); tests/demo reads the demo character";
#endif
}

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/";

TEST(Snapshot, Cal3dFixturesRoundTrip) {
  int read = 0;
  for (const char* cfg : {"cal3d/cally/cally.cfg", "cal3d/paladin/paladin.cfg"}) {
    if (!std::filesystem::exists(kFixtures + cfg)) continue;
    auto s = loadFile(kFixtures + cfg);
    ASSERT_TRUE(s) << s.error().describe();
    expectRoundTrip(*s, cfg);
    ++read;
  }
  const std::string dokuro = kFixtures + "cal3d/dokurochan_v1300/";
  if (std::filesystem::exists(dokuro + "DokuroChan.csf")) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dokuro))
      if (e.path().extension() != ".xpf") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    auto s = loadFiles(files);
    ASSERT_TRUE(s) << s.error().describe();
    EXPECT_FALSE(s->meshes.empty());
    expectRoundTrip(*s, "DokuroChan (morph targets, colours)");
    ++read;
  }
  const std::string xml = kFixtures + "cal3d/xml_tests/";
  if (std::filesystem::exists(xml + "base.xsf")) {
    auto s = loadFiles({xml + "base.xsf", xml + "base.xmf", xml + "base.xrf", xml + "base.xaf"});
    ASSERT_TRUE(s) << s.error().describe();
    expectRoundTrip(*s, "cal3d XML");
    ++read;
  }
  if (read == 0) MARROW_SKIP() << "no cal3d fixtures under " << kFixtures << "cal3d";
  MARROW_EXPECT_ALL_USED(read, 4);  // cally, paladin, DokuroChan, the XML files
}

TEST(Snapshot, BrfFixturesRoundTrip) {
  const std::string dir = kFixtures + "brf";
  if (!std::filesystem::exists(dir)) MARROW_SKIP() << "no BRF fixtures under " << dir;
  int read = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".brf") continue;
    auto s = loadFile(e.path().string());
    ASSERT_TRUE(s) << s.error().describe();
    expectRoundTrip(*s, e.path().filename().string());
    ++read;
  }
  EXPECT_EQ(read, 16);  // every .brf of fixtures/brf
}

TEST(Snapshot, DragonNestFixturesRoundTrip) {
  const std::string dir = kFixtures + "dragonnest";
  if (!std::filesystem::exists(dir)) MARROW_SKIP() << "no Dragon Nest fixtures under " << dir;
  int read = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    const auto ext = e.path().extension();
    if (ext != ".dnt" && ext != ".msh" && ext != ".skn") continue;
    auto s = loadFile(e.path().string());
    ASSERT_TRUE(s) << s.error().describe();
    expectRoundTrip(*s, e.path().filename().string());
    ++read;
  }
  EXPECT_EQ(read, 8);  // every table, mesh and skin of fixtures/dragonnest
}

// assimp's own test models: skinned, animated, textured (files and embedded), morph targets,
// vertex colours, several uv sets, FBX bases.
TEST(Snapshot, AssimpCorpusModelsRoundTrip) {
  const std::string dir = std::string(MARROW_ASSIMP_MODELS_DIR) + "/";
  if (!std::filesystem::exists(dir + "X/Testwuson.X"))
    MARROW_SKIP() << "assimp's test models are not installed under " << dir
                 << " (Debian package assimp-testmodels)";
  const char* models[] = {
      "X/Testwuson.X",
      "X/anim_test.x",
      "X/kwxport_test_cubewithvcolors.x",
      "Collada/duck.dae",
      "Collada/human.zae",
      "Collada/anims_with_full_rotations_between_keys.DAE",
      "Collada/cube_with_2UVs.DAE",
      "FBX/animation_with_skeleton.fbx",
      "FBX/huesitos.fbx",
      "FBX/spider.fbx",
      "FBX/box_orphant_embedded_texture.fbx",
      "BVH/01_01.bvh",
      "MD5/SimpleCube.md5mesh",
      "B3D/WusonBlitz.b3d",
      "OBJ/WusonOBJ.obj",
      "MD2/faerie.md2",
      "3DS/fels.3ds",
      "SMD/WusonSMD.smd",
      "MS3D/jeep1.ms3d",
      "glTF2/BoxTextured-glTF/BoxTextured.gltf",
      "glTF2/simple_skin/simple_skin.gltf",
      "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf",
  };
  std::size_t read = 0, withTextureBytes = 0, withMorphs = 0, withClips = 0;
  for (const char* m : models) {
    if (!std::filesystem::exists(dir + m)) continue;
    auto s = loadFile(dir + m);
    ASSERT_TRUE(s) << m << ": " << s.error().describe();
    expectRoundTrip(*s, m);
    for (const auto& t : s->textures) withTextureBytes += !t.data.empty();
    for (const auto& mesh : s->meshes) withMorphs += !mesh.morphs.empty();
    withClips += !s->clips.empty();
    ++read;
  }
  MARROW_EXPECT_ALL_USED(read, std::size(models));
  EXPECT_EQ(withTextureBytes, 8u);  // textures with their image bytes
  EXPECT_EQ(withMorphs, 1u);        // meshes with morph targets
  EXPECT_EQ(withClips, 9u);         // models with clips (AnimatedMorphCube's weights: glTF's own reader)
}

}  // namespace
}  // namespace marrow::formats
