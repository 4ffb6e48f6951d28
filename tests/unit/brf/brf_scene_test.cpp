// BRF records as models (formats/brf/brf.h): the golden values of fixtures/brf/SOURCES.md
// (computed there with the spec's rules; OpenBRF's own pipeline agrees to 6e-6), the choice of
// skeleton, vertex animation, bodies, record addresses, damaged records.
#include <gtest/gtest.h>

#include "formats/brf/archive.h"
#include "formats/io/address.h"
#include <unistd.h>

#include <cstring>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "formats/brf/brf.h"
#include "formats/image/dds.h"
#include "formats/io/file.h"
#include "formats/model/validate.h"
#include "formats/registry.h"
#include "render/anim/morph.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"
#include "tests/support/read_context.h"

#include "tests/support/skip.h"

namespace marrow::formats {
namespace {

// The clips that are animations whole, not motions cut out of them.
std::size_t wholeClips(const Scene& s) {
  return static_cast<std::size_t>(
      std::count_if(s.clips.begin(), s.clips.end(), [](const Clip& c) { return !c.sourceFrames; }));
}

using brf::fittingSkeletons;
using brf::kFramesPerSecond;
using brf::RecordRef;
using brf::Section;
using brf::Selection;
using brf::Source;
using brf::toScene;

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/brf/";

std::vector<std::byte> bytesOf(const std::string& name) {
  auto data = readFile(kFixtures + name);
  return data.ok() ? std::move(data).value() : std::vector<std::byte>{};
}

#define REQUIRE_FIXTURE(name)                                                             \
  if (bytesOf(name).empty())                                                              \
  MARROW_SKIP() << "BRF fixture " << name << " not found under " << kFixtures              \
               << " (../shared/fixtures is not part of the project)"

Input input(const std::string& name, std::vector<std::string> records = {}) {
  Input in;
  in.bytes = bytesOf(name);
  in.ctx.name = name;
  in.records = std::move(records);
  return in;
}

// The BRF files readInputs mounted, as their sources.
const std::vector<brf::Source>& sourcesOf(const vfs::FileSystem& archives) {
  static const std::vector<brf::Source> none;
  const auto a = std::dynamic_pointer_cast<const brf::BrfArchive>(archives.first("brf"));
  return a ? a->sources() : none;
}

Scene load(std::vector<Input> inputs, vfs::FileSystem* archives = nullptr) {
  auto r = readInputs(std::move(inputs), archives);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? std::move(r).value() : Scene{};
}

int meshNamed(const Scene& s, const std::string& name) {
  for (std::size_t i = 0; i < s.meshes.size(); ++i)
    if (s.meshes[i].name == name) return static_cast<int>(i);
  return -1;
}

int clipNamed(const Scene& s, const std::string& name) {
  for (std::size_t i = 0; i < s.clips.size(); ++i)
    if (s.clips[i].name == name) return static_cast<int>(i);
  return -1;
}

// The first vertex (wedge) of `mesh` at position `p` of the file, found by its rest position.
std::size_t vertexAt(const Mesh& mesh, glm::vec3 rest) {
  std::size_t best = 0;
  float d = 1e30f;
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (const float e = glm::length(mesh.positions[i] - rest); e < d) d = e, best = i;
  EXPECT_LT(d, 1e-5f) << "no vertex at the rest position SOURCES.md gives";
  return best;
}

std::vector<glm::vec3> skinned(const Scene& s, const Mesh& mesh, const anim::Pose& pose) {
  std::vector<glm::mat4> palette;
  anim::skinPalette(s.skeleton, mesh, pose, palette);
  std::vector<glm::vec3> out;
  anim::skin(mesh, anim::packInfluences(mesh), palette, out);
  return out;
}

void expectNear(glm::vec3 got, glm::vec3 want, float tol, const std::string& what) {
  EXPECT_NEAR(got.x, want.x, tol) << what;
  EXPECT_NEAR(got.y, want.y, tol) << what;
  EXPECT_NEAR(got.z, want.z, tol) << what;
}

// SOURCES.md prints 6 significant digits; the spec's pipeline and OpenBRF's agree to 6e-6.
constexpr float kGolden = 2e-5f;

TEST(BrfScene, ManWalkFrame8MatchesTheGoldenSkinnedPositions) {
  REQUIRE_FIXTURE("openbrf_redux_reference.brf");
  const std::string f = "openbrf_redux_reference.brf";
  const Scene s = load({input(f, {"SkinA.light_leather_boots", "SkinA.bastard_sword", "man_walk"})});
  ASSERT_EQ(s.meshes.size(), 2u);
  EXPECT_EQ(s.skeleton.name, "skel_human");
  ASSERT_EQ(s.skeleton.bones.size(), 20u);
  ASSERT_EQ(s.clips.size(), 1u);
  const Clip& walk = s.clips[0];
  EXPECT_EQ(walk.name, "man_walk");
  const anim::Binding b = anim::bind(walk, s.skeleton);
  EXPECT_EQ(b.matched(), 20u);
  EXPECT_FALSE(b.otherSkeleton);

  // Frame index 8 is time 8: 8/30 s at Marrow's 30 frames per second.
  const anim::Pose pose = anim::evaluate(s.skeleton, &walk, 8.0f / kFramesPerSecond);
  const Mesh& boots = s.meshes[static_cast<std::size_t>(meshNamed(s, "SkinA.light_leather_boots"))];
  const Mesh& sword = s.meshes[static_cast<std::size_t>(meshNamed(s, "SkinA.bastard_sword"))];
  const std::size_t bv = vertexAt(boots, {-0.069785f, 0.003973f, 0.079334f});
  const auto bootInf = boots.influencesOf(bv);
  ASSERT_EQ(bootInf.size(), 2u);
  EXPECT_EQ(s.skeleton.bones[bootInf[0].bone].name, "calf.L");  // bone 2
  EXPECT_NEAR(bootInf[0].weight, 0.032684f, 1e-6f);
  EXPECT_EQ(s.skeleton.bones[bootInf[1].bone].name, "foot.L");  // bone 3
  EXPECT_NEAR(bootInf[1].weight, 0.967316f, 1e-6f);
  expectNear(skinned(s, boots, pose)[bv], {-0.058612f, -0.071891f, 0.095641f}, kGolden, "boots");
  const std::size_t sv = vertexAt(sword, {0.791112f, 0.096389f, 1.450177f});
  expectNear(skinned(s, sword, pose)[sv], {0.230299f, -0.072858f, 0.963609f}, kGolden, "sword");
  const int head = s.skeleton.find("head");
  ASSERT_GE(head, 0);
  expectNear(glm::vec3(pose.model[static_cast<std::size_t>(head)][3]), {-0.06670f, -0.13460f, 1.59064f},
             kGolden, "head origin");
}

TEST(BrfScene, RestPoseWorldOriginsAreTheGoldenOnes) {
  REQUIRE_FIXTURE("openbrf_redux_reference.brf");
  const Scene s = load({input("openbrf_redux_reference.brf", {"skel_human"})});
  ASSERT_EQ(s.skeleton.bones.size(), 20u);
  const auto rest = s.skeleton.restModelMatrices();
  const auto origin = [&](const char* bone) {
    const int i = s.skeleton.find(bone);
    EXPECT_GE(i, 0) << bone;
    return i < 0 ? glm::vec3(0.0f) : glm::vec3(rest[static_cast<std::size_t>(i)][3]);
  };
  expectNear(origin("foot.L"), {-0.10927f, -0.06329f, 0.04099f}, kGolden, "foot.L");
  expectNear(origin("head"), {0.00030f, -0.00484f, 1.57665f}, kGolden, "head");
  expectNear(origin("hand.R"), {0.76280f, -0.00426f, 1.46675f}, kGolden, "hand.R");
  expectNear(origin("item.R"), {0.82747f, 0.00948f, 1.45030f}, kGolden, "item.R");
  // The skin at rest is the identity: the inverse binds are the rest pose's.
  const auto inv = s.skeleton.inverseBindMatrices();
  for (std::size_t b = 0; b < rest.size(); ++b) {
    const glm::mat4 m = rest[b] * inv[b];
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(m[c][r], c == r ? 1.0f : 0.0f, 5e-6f);
  }
}

TEST(BrfScene, FrameZeroOfTheMasterAnimationIsTheRestPose) {
  REQUIRE_FIXTURE("wfas_skeletons.brf");
  const Scene s = load({input("wfas_skeletons.brf")});
  // The animation whole, then its motions cut at the gaps (formats/model/actions.h).
  ASSERT_EQ(wholeClips(s), 1u);
  const Clip& human = s.clips[0];
  EXPECT_EQ(human.name, "anim_human");
  EXPECT_EQ(anim::bind(human, s.skeleton).matched(), 20u);
  EXPECT_NEAR(human.duration, 100000.0f / kFramesPerSecond, 1e-2f);
  const anim::Pose pose = anim::evaluate(s.skeleton, &human, 0.0f);
  const auto inv = s.skeleton.inverseBindMatrices();
  float worst = 0.0f;
  for (std::size_t b = 0; b < 20; ++b) {
    const glm::mat4 skin = pose.model[b] * inv[b];
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(skin[c][r] - (c == r ? 1.0f : 0.0f)));
  }
  EXPECT_LT(worst, 4.2e-6f * 2) << "spec §12.4: every skin matrix is the identity within 4.2e-6";
  // A time repeated inside a track (t = 35520) plays its first key; the model stays valid.
  EXPECT_TRUE(validate(s).empty());
}

// anim_human's keys are stored up to 0.24 % off unit; the scene holds the unit rotations they mean,
// which the slerp between keys needs (its angle comes from the keys' dot product).
TEST(BrfScene, RotationKeysAreTheUnitRotationsTheFileMeans) {
  REQUIRE_FIXTURE("wfas_skeletons.brf");
  const Scene s = load({input("wfas_skeletons.brf")});
  ASSERT_FALSE(s.clips.empty());
  float worst = 0.0f;
  std::size_t keys = 0;
  for (const Clip& c : s.clips)
    for (const Track& t : c.tracks)
      for (const glm::quat& q : t.rotation.values) {
        worst = std::max(worst, std::fabs(glm::length(q) - 1.0f));
        ++keys;
      }
  EXPECT_GT(keys, 10000u);
  EXPECT_LT(worst, 1e-6f);
}

TEST(BrfScene, BootsFromOneFilePlayAnAnimationOfAnotherOnASkeletonOfAThird) {
  REQUIRE_FIXTURE("wfas_boots_a.brf");
  REQUIRE_FIXTURE("wfas_skeletons.brf");
  REQUIRE_FIXTURE("wfas_ani_walk_backward.brf");
  vfs::FileSystem archives;
  const Scene s = load({input("wfas_boots_a.brf"), input("wfas_skeletons.brf"),
                        input("wfas_ani_walk_backward.brf")},
                       &archives);
  EXPECT_EQ(sourcesOf(archives).size(), 3u);
  ASSERT_EQ(s.meshes.size(), 1u);
  EXPECT_TRUE(s.meshes[0].skinned());
  EXPECT_EQ(s.skeleton.name, "skel_human");
  const int walk = clipNamed(s, "walk_backward");
  ASSERT_GE(walk, 0);
  EXPECT_EQ(s.clips[static_cast<std::size_t>(walk)].skeleton, "skel_human");
  EXPECT_EQ(anim::bind(s.clips[static_cast<std::size_t>(walk)], s.skeleton).matched(), 20u);
  EXPECT_NEAR(s.clips[static_cast<std::size_t>(walk)].duration, 30.0f / kFramesPerSecond, 1e-6f);
  // The boots move when the walk plays.
  const Mesh& boots = s.meshes[0];
  const auto rest = skinned(s, boots, anim::evaluate(s.skeleton, nullptr, 0.0f));
  const auto moved = skinned(s, boots, anim::evaluate(s.skeleton, &s.clips[static_cast<std::size_t>(walk)], 0.5f));
  float most = 0.0f;
  for (std::size_t i = 0; i < rest.size(); ++i) most = std::max(most, glm::length(rest[i] - moved[i]));
  EXPECT_GT(most, 0.01f);
  // At rest the skinned boots are where the file put them.
  for (std::size_t i = 0; i < rest.size(); ++i) expectNear(rest[i], boots.positions[i], 1e-5f, "rest");
}

TEST(BrfScene, AnAnimationForAnotherSkeletonIsListedButBindsNothing) {
  REQUIRE_FIXTURE("openbrf_redux_reference.brf");
  const Scene s = load({input("openbrf_redux_reference.brf")});
  EXPECT_EQ(s.skeleton.name, "skel_human");  // the first that fits the meshes and an animation
  EXPECT_EQ(s.meshes.size(), 7u);
  EXPECT_EQ(wholeClips(s), 7u);
  const int horse = clipNamed(s, "anim_horse");
  ASSERT_GE(horse, 0);
  const Clip& h = s.clips[static_cast<std::size_t>(horse)];
  EXPECT_EQ(h.skeleton, "skel_horse");
  EXPECT_EQ(h.tracks.size(), 28u);
  const anim::Binding b = anim::bind(h, s.skeleton);
  EXPECT_TRUE(b.otherSkeleton);
  EXPECT_EQ(b.matched(), 0u);
  EXPECT_NEAR(h.duration, 908.0f / kFramesPerSecond, 1e-5f);
  // Chosen explicitly, the horse skeleton plays it.
  vfs::FileSystem archives;
  load({input("openbrf_redux_reference.brf")}, &archives);
  Selection sel;
  sel.skeleton = RecordRef{0, Section::Skeleton, 1};
  sel.meshes.emplace();
  auto horseScene = toScene(sourcesOf(archives), sel);
  ASSERT_TRUE(horseScene.ok());
  EXPECT_EQ(horseScene->skeleton.name, "skel_horse");
  const int hc = clipNamed(*horseScene, "anim_horse");
  ASSERT_GE(hc, 0);
  EXPECT_EQ(anim::bind(horseScene->clips[static_cast<std::size_t>(hc)], horseScene->skeleton).matched(), 28u);
  EXPECT_TRUE(anim::bind(horseScene->clips[static_cast<std::size_t>(clipNamed(*horseScene, "man_walk"))],
                         horseScene->skeleton).otherSkeleton);
  // fittingSkeletons: both fit the boots (bones 0..6); with the horse animation the horse first.
  const std::vector<RecordRef> boots = {{0, Section::Mesh, 2}};
  const std::vector<RecordRef> horseAnim = {{0, Section::Animation, 5}};
  const auto fits = fittingSkeletons(sourcesOf(archives), boots, horseAnim);
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[0].index, 1u);
  // A sword rigged to bone 19 fits both skeletons too; a mesh rigged to bone 25 only the horse.
  EXPECT_EQ(fittingSkeletons(sourcesOf(archives), boots, {}).front().index, 0u);
}

TEST(BrfScene, VertexAnimationPlaysTheFramesAtTheirFileTimes) {
  REQUIRE_FIXTURE("wfas_map_icons_c.brf");
  vfs::FileSystem archives;
  const Scene s = load({input("wfas_map_icons_c.brf")}, &archives);
  const int mule = meshNamed(s, "icon_mule");
  ASSERT_GE(mule, 0);
  const Mesh& m = s.meshes[static_cast<std::size_t>(mule)];
  ASSERT_EQ(m.morphs.size(), 14u);
  const int c = clipNamed(s, "icon_mule (frames)");
  ASSERT_GE(c, 0);
  const Clip& clip = s.clips[static_cast<std::size_t>(c)];
  EXPECT_NEAR(clip.duration, 140.0f / kFramesPerSecond, 1e-6f);
  const brf::Mesh& rec = sourcesOf(archives)[0].doc->meshes[0];
  const std::vector<std::int32_t> times = {0, 100, 104, 108, 110, 116, 120, 125, 128, 130, 132, 135, 137, 140};
  ASSERT_EQ(rec.frames.size(), times.size());
  for (std::size_t k = 0; k < times.size(); ++k) {
    EXPECT_EQ(rec.frames[k].time, times[k]);
    std::vector<std::vector<float>> w;
    anim::sampleMorphWeights(clip, static_cast<float>(times[k]) / kFramesPerSecond, s.meshes, w);
    for (std::size_t j = 0; j < 14; ++j) EXPECT_FLOAT_EQ(w[static_cast<std::size_t>(mule)][j], j == k ? 1.0f : 0.0f);
    // At its time the mesh is that frame: each vertex at its position of the frame.
    std::vector<glm::vec3> p, n;
    anim::applyMorphs(m, w[static_cast<std::size_t>(mule)], p, n);
    for (std::size_t v = 0; v < m.vertexCount(); v += 37)
      expectNear(p[v], rec.frames[k].positions[static_cast<std::size_t>(rec.vertices[v].position)], 1e-5f,
                 "frame " + std::to_string(k + 1) + " vertex " + std::to_string(v));
  }
  // Halfway from time 100 to 104 the frames blend half and half.
  std::vector<std::vector<float>> w;
  anim::sampleMorphWeights(clip, 102.0f / kFramesPerSecond, s.meshes, w);
  EXPECT_NEAR(w[static_cast<std::size_t>(mule)][1], 0.5f, 1e-4f);
  EXPECT_NEAR(w[static_cast<std::size_t>(mule)][2], 0.5f, 1e-4f);
}

TEST(BrfScene, RiggedArmourFramesAreMorphTargetsWithoutAClip) {
  REQUIRE_FIXTURE("openbrf_cfcohen_reference.brf");
  const Scene s = load({input("openbrf_cfcohen_reference.brf", {"SkinA.hard_lthr_a"})});
  ASSERT_EQ(s.meshes.size(), 1u);
  EXPECT_TRUE(s.meshes[0].skinned());
  EXPECT_EQ(s.meshes[0].morphs.size(), 2u);  // masculine (time 10) and feminine (time 20)
  EXPECT_LT(clipNamed(s, "SkinA.hard_lthr_a (frames)"), 0);
  EXPECT_GE(clipNamed(s, "man_walk"), 0);  // the skeleton's animations of the file
}

TEST(BrfScene, VerticesCarryColoursUvsAndTangentsAsTheFileGives) {
  REQUIRE_FIXTURE("wfas_barrier_primitives.brf");
  REQUIRE_FIXTURE("m1866_command_cursor.brf");
  const Scene s = load({input("wfas_barrier_primitives.brf")});
  const Mesh& cap = s.meshes[static_cast<std::size_t>(meshNamed(s, "barrier_capsule"))];
  ASSERT_FALSE(cap.colors.empty());
  // 0xFFE69200 is orange: r = 0xE6, g = 0x92, b = 0, a = 0xFF (§7.5).
  EXPECT_NEAR(cap.colors[0].r, 0xE6 / 255.0f, 1e-6f);
  EXPECT_NEAR(cap.colors[0].g, 0x92 / 255.0f, 1e-6f);
  EXPECT_NEAR(cap.colors[0].b, 0.0f, 1e-6f);
  EXPECT_NEAR(cap.colors[0].a, 1.0f, 1e-6f);
  expectNear(cap.positions[0], {0.249761f, -0.000138f, 0.500852f}, 1e-6f, "position");
  expectNear(cap.normals[0], {0.999996f, 0.001484f, -0.002356f}, 1e-6f, "normal");
  EXPECT_NEAR(cap.uvSets[0][0].x, 0.75f, 1e-6f);
  EXPECT_NEAR(cap.uvSets[0][0].y, 0.0f, 1e-6f);
  ASSERT_EQ(cap.tangents.size(), cap.vertexCount());
  expectNear(glm::vec3(cap.tangents[0]), {-0.00146582f, 0.999969f, 0.00770047f}, 1e-6f, "tangent");
  EXPECT_EQ(cap.tangents[0].w, -1.0f);  // sign byte 0
  EXPECT_EQ(s.basis.up, Axis::Z);
  EXPECT_TRUE(s.basis.rightHanded);
  EXPECT_FALSE(flipsWinding(s.basis));  // shown upright by a rotation, never mirrored

  const Scene v0 = load({input("m1866_command_cursor.brf")});
  ASSERT_EQ(v0.meshes.size(), 1u);
  ASSERT_EQ(v0.meshes[0].uvSets.size(), 2u);  // 1.011 vertices have a second uv set
  EXPECT_TRUE(v0.meshes[0].colors.empty());   // all white: no colours
  EXPECT_TRUE(v0.meshes[0].tangents.empty());
  EXPECT_EQ(v0.meshes[0].indices[1], 2u);  // face[0] = (0, 2, 1)
  EXPECT_EQ(v0.meshes[0].indices[2], 1u);
}

TEST(BrfScene, BodiesKeepTheirParts) {
  REQUIRE_FIXTURE("wfas_object_bodies.brf");
  REQUIRE_FIXTURE("m1866_object_bodies.brf");
  const Scene s = load({input("wfas_object_bodies.brf")});
  ASSERT_EQ(s.bodies.size(), 14u);
  std::size_t capsules = 0, faces = 0;
  for (const auto& b : s.bodies)
    for (const auto& p : b.parts) {
      capsules += p.kind == BodyPart::Kind::Capsule;
      faces += p.kind == BodyPart::Kind::Face;
    }
  EXPECT_EQ(capsules, 24u);
  EXPECT_EQ(faces, 11u);
  const Body& barrel = s.bodies[0];
  EXPECT_EQ(barrel.name, "bobarrel");
  ASSERT_EQ(barrel.parts.size(), 1u);
  EXPECT_NEAR(barrel.parts[0].radius, 0.4261f, 5e-5f);
  expectNear(barrel.parts[0].a, {-0.001335f, 0.014848f, 0.288338f}, 1e-6f, "a");
  expectNear(barrel.parts[0].b, {-0.001335f, 0.014848f, -0.509925f}, 1e-6f, "b");
  EXPECT_EQ(barrel.parts[0].flags, 4u);

  const Scene old = load({input("m1866_object_bodies.brf")});
  std::size_t spheres = 0, parts = 0;
  for (const auto& b : old.bodies) {
    parts += b.parts.size();
    for (const auto& p : b.parts) spheres += p.kind == BodyPart::Kind::Sphere;
  }
  EXPECT_EQ(old.bodies.size(), 19u);
  EXPECT_EQ(parts, 33u + 18u + 1u);
  EXPECT_EQ(spheres, 1u);
}

TEST(BrfScene, MaterialsFindTheirFieldsAndTexturesByName) {
  REQUIRE_FIXTURE("wfas_oim_flora_materials.brf");
  const Scene s = load({input("wfas_oim_flora_materials.brf")});
  ASSERT_EQ(s.materials.size(), 5u);
  const Material& m = s.materials[0];
  EXPECT_EQ(m.name, "oim_bark_03");
  bool shader = false;
  for (const auto& p : m.properties) shader |= p.name == "shader" && p.value == "bump_static";
  EXPECT_TRUE(shader);
  ASSERT_EQ(m.maps.size(), 2u);
  EXPECT_EQ(s.textures[static_cast<std::size_t>(m.maps[0].texture)].name, "oim_bark_03.dds");
  EXPECT_EQ(m.maps[1].kind, "normal");
  EXPECT_EQ(s.textures[static_cast<std::size_t>(m.maps[1].texture)].name, "oim_bark_03_bump.dds");
}

// A mesh whose material is in no open file is drawn white: the Log says so, once per material
// name, naming the first mesh (issue 20).
TEST(BrfScene, AMaterialInNoOpenFileIsNotedOncePerName) {
  REQUIRE_FIXTURE("wfas_boots_a.brf");
  const auto doc = brf::parse(bytesOf("wfas_boots_a.brf"), ::marrow::testing::named("wfas_boots_a.brf"));
  ASSERT_TRUE(doc.ok());
  std::set<std::string> absent;  // from the records: materials meshes name that the file lacks
  for (const auto& m : doc->meshes) absent.insert(m.material);
  for (const auto& m : doc->materials) absent.erase(m.name);
  absent.erase("");
  ASSERT_FALSE(absent.empty()) << "the fixture's meshes name materials of other files";
  const Scene s = load({input("wfas_boots_a.brf")});
  std::multiset<std::string> noted;
  for (const auto& d : s.diagnostics.items)
    if (d.message.find("not in the open files") != std::string::npos) noted.insert(d.field);
  std::multiset<std::string> want;
  for (const auto& name : absent) want.insert("material '" + name + "'");
  EXPECT_EQ(noted, want);
}

// Issue 20: a file of many meshes (an armour pack) opens on its first mesh, not on a heap of all
// of them; a few meshes with levels of detail open on the full-detail ones; a few without, whole.
TEST(BrfScene, ManyMeshesOpenOnTheFirstAndLevelsOfDetailStayOut) {
  REQUIRE_FIXTURE("wfas_boots_a.brf");
  const auto boots = brf::parse(bytesOf("wfas_boots_a.brf"), ::marrow::testing::named("wfas_boots_a.brf"));
  ASSERT_TRUE(boots.ok());
  const auto archiveOf = [&](const std::vector<std::string>& names) {
    auto doc = std::make_shared<brf::Document>();
    doc->version = boots->version;
    doc->hasVersionToken = boots->hasVersionToken;
    for (const std::string& n : names) {
      doc->meshes.push_back(boots->meshes.at(0));
      doc->meshes.back().name = n;
    }
    std::vector<brf::Source> sources{{"pack.brf", doc, ::marrow::testing::named("pack.brf"), {}}};
    return brf::BrfArchive(std::move(sources));
  };
  const auto names = [](const brf::BrfArchive& a, const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& p : paths) out.push_back(a.node(p)->name);
    return out;
  };
  std::vector<std::string> pack;
  for (int i = 0; i < 12; ++i) pack.push_back("armour_" + std::to_string(i));
  const auto many = archiveOf(pack);
  EXPECT_EQ(names(many, many.openingPick()), (std::vector<std::string>{"armour_0"}));
  // Level meshes are no heap: the whole file, whose levels the viewer draws one at a time.
  const auto lods = archiveOf({"helmet", "helmet.lod1", "helmet.lod2", "visor", "visor.lod1", "a", "b", "c", "d", "e"});
  EXPECT_TRUE(lods.openingPick().empty());
  // A heap opens on its first mesh with its levels.
  pack.insert(pack.begin() + 3, "armour_0.lod1");
  const auto withLevels = archiveOf(pack);
  EXPECT_EQ(names(withLevels, withLevels.openingPick()), (std::vector<std::string>{"armour_0", "armour_0.lod1"}));
  const auto few = archiveOf({"body", "head", "hands", "helmet.lodge"});  // ".lodge" is no level of detail
  EXPECT_TRUE(few.openingPick().empty());
  // What the pick shows is that mesh alone.
  const auto shown = many.show(many.openingPick(), std::nullopt, std::nullopt);
  ASSERT_TRUE(shown.ok());
  ASSERT_EQ(shown->scene.meshes.size(), 1u);
  EXPECT_EQ(shown->scene.meshes[0].name, "armour_0");
}

TEST(BrfScene, ARecordAddressSelectsItAndWhatItNeeds) {
  REQUIRE_FIXTURE("openbrf_redux_reference.brf");
  const std::string f = "openbrf_redux_reference.brf";
  const Scene boots = load({input(f, {"SkinA.light_leather_boots"})});
  ASSERT_EQ(boots.meshes.size(), 1u);
  EXPECT_EQ(boots.skeleton.name, "skel_human");
  EXPECT_EQ(wholeClips(boots), 7u);  // every animation: none was named
  EXPECT_EQ(boots.materials.size(), 1u);

  const Scene walk = load({input(f, {"man_walk"})});
  EXPECT_TRUE(walk.meshes.empty());
  ASSERT_EQ(walk.clips.size(), 1u);
  EXPECT_EQ(walk.skeleton.name, "skel_human");

  auto missing = readInputs([&] {
    std::vector<Input> v;
    v.push_back(input(f, {"no_such_record"}));
    return v;
  }());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().file, f);
  EXPECT_NE(missing.error().message.find("no_such_record"), std::string::npos);
  EXPECT_NE(missing.error().message.find("SkinA.m_handR"), std::string::npos) << "lists what there is";
  EXPECT_EQ(Address::parse("a/b.brf::rec"), (Address{"a/b.brf", "rec"}));
  EXPECT_EQ(Address::parse("a/b.brf"), (Address{"a/b.brf", ""}));
}

// A DXT1 DDS of 4×4 pixels: one block, colour0 pure red, colour1 pure blue, every texel index 0.
std::vector<std::byte> redDds() {
  std::vector<std::byte> b(128 + 8, std::byte{0});
  const auto put = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + static_cast<std::size_t>(i)] = std::byte((v >> (8 * i)) & 0xFF);
  };
  std::memcpy(b.data(), "DDS ", 4);
  put(4, 124);                                   // header size
  put(8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000);    // caps, height, width, pixel format, linear size
  put(12, 4);                                    // height
  put(16, 4);                                    // width
  put(20, 8);                                    // linear size
  put(76, 32);                                   // pixel format size
  put(80, 0x4);                                  // FOURCC
  std::memcpy(b.data() + 84, "DXT1", 4);
  put(108, 0x1000);                              // texture
  put(128, 0x001FF800);                          // colour0 = red (565), colour1 = blue
  return b;
}

// A module keeps its BRF files in Resource/ and its textures in Textures/ (§6: materials name
// textures without ".dds"): the texture is found there and decodes.
TEST(BrfScene, TexturesAreFoundInTheModulesTexturesFolder) {
  const auto root = std::filesystem::temp_directory_path() / ("marrow_brf_module_" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "Resource");
  std::filesystem::create_directories(root / "Textures");
  brf::Document d;
  d.version = 1;
  d.hasVersionToken = true;
  brf::Material mat;
  mat.name = "red_mat";
  mat.shader = "simple_shader";
  mat.diffuseA = "Red_Cloth";  // a different case than the file: found anyway
  mat.diffuseB = mat.bump = mat.enviro = "none";
  mat.spec = "none";
  d.materials = {mat};
  brf::Mesh m;
  m.name = "quad";
  m.flags = 1u << 17;
  m.material = "red_mat";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i) m.vertices.push_back({i, 0xFFFFFFFFu, {0, -1, 0}, {}, 0, {0.5f, 0.5f}, {}});
  m.faces = {{0, 1, 2}};
  d.meshes = {m};
  const auto brfBytes = brf::write(d);
  std::ofstream(root / "Resource" / "quad.brf", std::ios::binary)
      .write(reinterpret_cast<const char*>(brfBytes.data()), static_cast<std::streamsize>(brfBytes.size()));
  const auto dds = redDds();
  std::ofstream(root / "Textures" / "red_cloth.dds", std::ios::binary)
      .write(reinterpret_cast<const char*>(dds.data()), static_cast<std::streamsize>(dds.size()));

  auto s = loadFiles({(root / "Resource" / "quad.brf").string()});
  ASSERT_TRUE(s.ok()) << s.error().describe();
  ASSERT_EQ(s->materials.size(), 1u);
  const int t = s->materials[0].diffuseTexture();
  ASSERT_GE(t, 0);
  const Texture& tex = s->textures[static_cast<std::size_t>(t)];
  EXPECT_EQ(tex.name, "Red_Cloth.dds");
  EXPECT_NE(tex.path.find("Textures"), std::string::npos) << tex.path;
  ASSERT_EQ(tex.data, dds);
  auto image = readDds(tex.data, tex.path);
  ASSERT_TRUE(image.ok());
  auto rgba = decodeDdsLevel(*image);
  ASSERT_TRUE(rgba.ok());
  EXPECT_EQ((*rgba)[0], 255);  // red
  EXPECT_EQ((*rgba)[2], 0);
  // Not asked for textures: none is read, nothing is said.
  auto bare = loadFiles({(root / "Resource" / "quad.brf").string()}, false);
  ASSERT_TRUE(bare.ok());
  EXPECT_TRUE(bare->textures.empty() || bare->textures[0].data.empty());
  std::filesystem::remove_all(root);
}

// Records whose indices point outside their arrays are left out with a diagnostic; the rest of
// the file still opens.
TEST(BrfScene, DamagedRecordsAreLeftOutAndSaidSo) {
  brf::Document d;
  d.version = 1;
  d.hasVersionToken = true;
  brf::Mesh good;
  good.name = "good";
  good.flags = 1u << 17;
  good.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (int i = 0; i < 3; ++i) good.vertices.push_back({i, 0xFFFFFFFFu, {0, 0, 1}, {}, 0, {}, {}});
  good.faces = {{0, 1, 2}};
  brf::Mesh bad = good;
  bad.name = "bad";
  bad.faces = {{0, 1, 7}};
  brf::Mesh badPos = good;
  badPos.name = "badpos";
  badPos.vertices[1].position = -4;
  brf::Mesh badRig = good;
  badRig.name = "badrig";
  badRig.rigging = {{0, {{9, 1.0f}}}};
  d.meshes = {good, bad, badPos, badRig};
  brf::Skeleton loop;
  loop.name = "loop";
  loop.bones.resize(2);
  loop.bones[0].parent = 1;
  loop.bones[1].parent = 0;
  for (auto& b : loop.bones) b.m = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  d.skeletons = {loop};
  const Source src{"damaged.brf", std::make_shared<const brf::Document>(d), {}, {}};
  auto s = toScene(std::span(&src, 1));
  ASSERT_TRUE(s.ok()) << s.error().describe();
  ASSERT_EQ(s->meshes.size(), 1u);
  EXPECT_EQ(s->meshes[0].name, "good");
  EXPECT_TRUE(validate(*s).empty());
  std::size_t errors = 0;
  for (const auto& diag : s->diagnostics.items)
    if (diag.severity == Severity::Error) {
      ++errors;
      EXPECT_EQ(diag.file, "damaged.brf");
    }
  EXPECT_EQ(errors, 3u + 1u);  // three meshes and the skeleton's loop of parents
  // Nothing usable at all: an error.
  brf::Document only;
  only.meshes = {bad};
  const Source src2{"bad.brf", std::make_shared<const brf::Document>(only), {}, {}};
  auto none = toScene(std::span(&src2, 1));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().field.find("mesh 'bad'"), std::string::npos) << none.error().describe();
}

// Every byte of small fixtures changed: the whole path (parse, records → model, validation)
// gives an error or a valid model, never a crash.
TEST(BrfScene, ByteFlipsThroughTheWholePathNeverCrash) {
  for (const char* name : {"m1866_command_cursor.brf", "wfas_core_pictures.brf", "wfas_horse_skeleton.brf",
                           "wfas_object_bodies.brf", "m1866_object_bodies.brf"}) {
    auto bytes = bytesOf(name);
    if (bytes.empty()) MARROW_SKIP() << "BRF fixtures not found under " << kFixtures;
    for (std::size_t i = 0; i < bytes.size(); ++i)
      for (std::byte v : {std::byte{0xFF}, std::byte{0x7F}, std::byte{0x80}}) {
        auto damaged = bytes;
        damaged[i] = damaged[i] == v ? std::byte{0} : v;
        ReadContext ctx;
        ctx.name = name;
        auto r = readScene(damaged, ctx);
        if (r.ok()) {
          EXPECT_TRUE(validate(*r).empty()) << name << " byte " << i;
        } else {
          EXPECT_FALSE(r.error().message.empty());
        }
      }
  }
}

}  // namespace
}  // namespace marrow::formats
