#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>

#include "render/anim/skinning.h"
#include "tests/support/random_scenes.h"

namespace marrow::anim {
namespace {

using formats::Influence;
using formats::Mesh;

TEST(PackInfluences, KeepsTheEightHeaviestAndRenormalises) {
  Mesh m;
  m.positions = {{0, 0, 0}};
  std::vector<Influence> inf;
  for (std::uint32_t b = 0; b < 10; ++b) inf.push_back({b, static_cast<float>(b + 1)});
  m.addInfluences(inf);
  const PackedInfluences p = packInfluences(m);
  EXPECT_EQ(p.groups, 2);
  EXPECT_EQ(p.truncatedVertices, 1u);
  float total = 0.0f;
  for (int k = 0; k < 4; ++k) {
    total += p.weights0[0][k] + p.weights1[0][k];
    EXPECT_GE(p.bones0[0][k], 2u);  // bones 0 and 1 were the lightest
    EXPECT_GE(p.bones1[0][k], 2u);
  }
  EXPECT_NEAR(total, 1.0f, 1e-6f);
}

TEST(PackInfluences, RigidAttachmentIsOneFullWeight) {
  Mesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}};
  m.parentBone = 3;
  const PackedInfluences p = packInfluences(m);
  ASSERT_EQ(p.groups, 1);
  EXPECT_EQ(p.bones0[1].x, 3u);
  EXPECT_EQ(p.weights0[1].x, 1.0f);
}

// The viewer packs a scene's influences on its loading thread (PackedScene); the renderer takes
// them only for the very scene they were packed from.
TEST(PackScene, PacksEveryMeshAsPackInfluencesDoesAndKnowsItsScene) {
  auto scene = std::make_shared<formats::Scene>(testing::randomSkinnedScene({40, 0, 6, 500, false, 3}));
  scene->meshes.push_back(scene->meshes.front());
  scene->meshes.back().influences.clear();  // a mesh without skin: nothing to pack
  scene->meshes.back().influenceStart.clear();
  std::shared_ptr<const formats::Scene> shared = scene;
  const auto packed = packScene(shared);
  ASSERT_TRUE(packed->meshes);
  const std::vector<PackedInfluences>& meshes = *packed->meshes;
  ASSERT_EQ(meshes.size(), 2u);
  for (std::size_t m = 0; m < 2; ++m) {
    const PackedInfluences one = packInfluences(scene->meshes[m]);
    EXPECT_EQ(meshes[m].groups, one.groups);
    EXPECT_EQ(meshes[m].bones0, one.bones0);
    EXPECT_EQ(meshes[m].weights0, one.weights0);
    EXPECT_EQ(meshes[m].bones1, one.bones1);
    EXPECT_EQ(meshes[m].weights1, one.weights1);
    EXPECT_EQ(meshes[m].plan.vertex, one.plan.vertex);
  }
  EXPECT_EQ(meshes[0].groups, 2);
  EXPECT_EQ(meshes[1].groups, 0);
  EXPECT_TRUE(packed->packs(shared));
  const auto copy = std::make_shared<const formats::Scene>(*scene);
  EXPECT_FALSE(packed->packs(copy));  // equal, not the same
  EXPECT_FALSE(packed->packs(nullptr));
  auto fewer = std::make_shared<PackedScene>(*packed);
  fewer->meshes = std::make_shared<const std::vector<PackedInfluences>>(meshes.begin(), meshes.end() - 1);
  EXPECT_FALSE(fewer->packs(shared));  // not one per mesh

  // A copy with the same meshes (clips added) shares the packs; one with other meshes does not.
  const auto forCopy = packed->forCopy(shared, copy);
  ASSERT_TRUE(forCopy);
  EXPECT_TRUE(forCopy->packs(copy));
  EXPECT_FALSE(forCopy->packs(shared));
  EXPECT_EQ(forCopy->meshes, packed->meshes);  // the very vectors, not copies
  auto grown = std::make_shared<formats::Scene>(*scene);
  grown->meshes[1].positions.push_back({0, 0, 0});
  EXPECT_FALSE(packed->forCopy(shared, grown));
  EXPECT_FALSE(packed->forCopy(copy, copy));  // not what it packed

  scene.reset();
  shared.reset();
  EXPECT_TRUE(packed->scene.expired());  // gone with its scene: nothing later can match it
}

TEST(Skin, VertexWithoutWeightsStaysWhereItIs) {
  Mesh m;
  m.positions = {{1, 2, 3}};
  m.addInfluences({});
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(5, 0, 0))};
  std::vector<glm::vec3> out;
  skin(m, packInfluences(m), palette, out);
  EXPECT_EQ(out[0], glm::vec3(1, 2, 3));
}

TEST(Skin, WeightsNotSummingToOneAreNormalised) {
  // 0.25 + 0.25 would pull the vertex halfway to the origin if used as stored; normalised (glTF,
  // FBX's default, the engines) the vertex follows its two bones equally.
  Mesh m;
  m.positions = {{4, 0, 0}, {4, 0, 0}};
  const Influence half[] = {{0, 0.25f}, {1, 0.25f}};
  const Influence over[] = {{0, 1.0f}, {1, 1.0f}};
  m.addInfluences(half);
  m.addInfluences(over);
  const PackedInfluences p = packInfluences(m);
  EXPECT_EQ(p.unnormalisedVertices, 2u);
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(0, 2, 0)),
                                          glm::translate(glm::vec3(0, 4, 0))};
  std::vector<glm::vec3> pos;
  skin(m, p, palette, pos);
  for (const glm::vec3& q : pos) {
    EXPECT_NEAR(q.x, 4.0f, 1e-6f);
    EXPECT_NEAR(q.y, 3.0f, 1e-6f);
  }
}

TEST(Skin, BlendsMatricesByWeightAndRenormalisesNormals) {
  Mesh m;
  m.positions = {{0, 0, 0}};
  m.normals = {{0, 1, 0}};
  const Influence both[] = {{0, 0.5f}, {1, 0.5f}};
  m.addInfluences(both);
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(2, 0, 0)),
                                          glm::rotate(glm::radians(90.0f), glm::vec3(0, 0, 1))};
  std::vector<glm::vec3> pos, nrm;
  skin(m, packInfluences(m), palette, pos, &nrm);
  EXPECT_NEAR(pos[0].x, 1.0f, 1e-6f);
  EXPECT_NEAR(glm::length(nrm[0]), 1.0f, 1e-6f);
  EXPECT_NEAR(nrm[0].x, -std::sqrt(0.5f), 1e-5f);
}

TEST(SkinPalette, RestPoseGivesIdentityPalette) {
  formats::Skeleton s;
  s.bones.push_back({"a", -1, {0, 1, 0}, glm::angleAxis(0.4f, glm::vec3(1, 0, 0)), {1, 1, 1}});
  s.bones.push_back({"b", 0, {0, 2, 0}, glm::angleAxis(-0.7f, glm::vec3(0, 0, 1)), {1, 1, 1}});
  const Pose p = evaluate(s, nullptr, 0.0f);
  std::vector<glm::mat4> palette;
  skinPalette(s, Mesh{}, p, palette);
  for (const auto& m : palette)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(m[c][r], c == r ? 1.0f : 0.0f, 1e-5f);
}

TEST(SkinPalette, UsesTheMeshsOwnInverseBindsWhenItHasThem) {
  formats::Skeleton s;
  s.bones.push_back({"a", -1, {0, 0, 0}, {1, 0, 0, 0}, {1, 1, 1}});
  Mesh m;
  m.inverseBind = {glm::translate(glm::vec3(0, -3, 0))};
  const Pose p = evaluate(s, nullptr, 0.0f);
  std::vector<glm::mat4> palette;
  skinPalette(s, m, p, palette);
  EXPECT_NEAR(palette[0][3][1], -3.0f, 1e-6f);
}

// The skinning formula (skinning.h) written out with plain glm, vertex by vertex: the scalar
// reference every faster path must stay within kSkinningTolerance of.
void referenceSkin(const Mesh& m, const PackedInfluences& p, const std::vector<glm::mat4>& palette,
                   std::vector<glm::vec3>& pos, std::vector<glm::vec3>& nrm) {
  pos.resize(m.positions.size());
  nrm.resize(m.normals.size());
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    glm::mat4 sum(0.0f);
    float total = 0.0f;
    for (int g = 0; g < p.groups; ++g)
      for (int k = 0; k < 4; ++k) {
        const std::uint32_t bone = g == 0 ? p.bones0[v][k] : p.bones1[v][k];
        const float w = g == 0 ? p.weights0[v][k] : p.weights1[v][k];
        if (w == 0.0f || bone >= palette.size()) continue;
        sum += palette[bone] * w;
        total += w;
      }
    const glm::mat4 M = total == 0.0f ? glm::mat4(1.0f) : sum;
    pos[v] = glm::vec3(M * glm::vec4(m.positions[v], 1.0f));
    const glm::vec3 n = glm::mat3(M) * m.normals[v];
    const float len = glm::length(n);
    nrm[v] = len > 0.0f ? n / len : n;
  }
}

// Every influence count from none to eight (and rigid meshes), vertex counts that leave odd ones
// out of the pairs and eights, normals of every length the fast normalisation has to fall back
// on, through every version of the loop this CPU runs: Plain gives the reference's very floats,
// Avx2 agrees with them within kSkinningTolerance, Avx512 gives Avx2's very floats, and skin()
// those of the best version.
TEST(Skin, EveryLoopStaysWithinTheToleranceOfThePlainFormula) {
  float worstPosition = 0.0f, worstNormal = 0.0f;
  const std::size_t counts[] = {1, 2, 7, 9, 17, 1001, 4099};
  for (std::uint32_t seed = 1; seed <= 14; ++seed) {
    testing::RandomSceneOptions o;
    o.bones = 48;
    o.minInfluences = seed % 3 == 0 ? 1 : 0;
    o.maxInfluences = seed % 2 == 0 ? 8 : 4;
    o.rigid = seed % 7 == 0;
    o.vertices = counts[seed % std::size(counts)];
    o.seed = seed;
    formats::Scene scene = testing::randomSkinnedScene(o);
    Mesh& m = scene.meshes[0];
    // Normals the reciprocal square root cannot take: zero, denormal-small (1e-20: its squared
    // length underflows), huge (1e16: its squared length is past 1e30, still finite); and unit
    // ones scaled, which must come out unit.
    for (std::size_t v = 0; v < m.normals.size(); v += 5) {
      const float scales[] = {0.0f, 1e-20f, 1e16f, 3.0f, 0.25f};
      m.normals[v] *= scales[(v / 5 + seed) % std::size(scales)];
    }
    const Pose pose = testing::randomPose(scene.skeleton, seed, 0.2f);
    std::vector<glm::mat4> palette;
    skinPalette(scene.skeleton, m, pose, palette);
    const PackedInfluences packed = packInfluences(m);
    std::vector<glm::vec3> refPos, refNrm;
    referenceSkin(m, packed, palette, refPos, refNrm);

    std::vector<glm::vec3> pos, nrm;
    skinWith(SkinLoop::Plain, m.positions, m.normals, packed, palette, pos, &nrm);
    EXPECT_EQ(pos, refPos) << "seed " << seed;
    EXPECT_EQ(nrm, refNrm) << "seed " << seed;
    std::vector<glm::vec3> bestPos = pos, bestNrm = nrm;

    if (skinLoopRuns(SkinLoop::Avx2)) {
      skinWith(SkinLoop::Avx2, m.positions, m.normals, packed, palette, pos, &nrm);
      ASSERT_EQ(pos.size(), refPos.size());
      ASSERT_EQ(nrm.size(), refNrm.size());
      worstPosition = std::max(worstPosition, testing::worstRelativeDistance(pos, refPos));
      for (std::size_t v = 0; v < nrm.size(); ++v) {
        if (refNrm[v] == glm::vec3(0.0f)) {
          EXPECT_EQ(nrm[v], glm::vec3(0.0f)) << "vertex " << v << ", seed " << seed;
          continue;
        }
        worstNormal = std::max(worstNormal, glm::length(nrm[v] - refNrm[v]));
      }
      bestPos = pos;
      bestNrm = nrm;
    }
    if (skinLoopRuns(SkinLoop::Avx512)) {
      skinWith(SkinLoop::Avx512, m.positions, m.normals, packed, palette, pos, &nrm);
      EXPECT_EQ(pos, bestPos) << "seed " << seed;
      EXPECT_EQ(nrm, bestNrm) << "seed " << seed;
    }
    skin(m, packed, palette, pos, &nrm);
    EXPECT_EQ(pos, bestPos) << "seed " << seed;
    EXPECT_EQ(nrm, bestNrm) << "seed " << seed;
  }
  EXPECT_LT(worstPosition, kSkinningTolerance);
  EXPECT_LT(worstNormal, kSkinningTolerance);
  std::printf("loops this CPU runs: plain%s%s; AVX2 + FMA's worst position error %.3g of the extent, "
              "worst normal error %.3g\n",
              skinLoopRuns(SkinLoop::Avx2) ? ", AVX2 + FMA" : "", skinLoopRuns(SkinLoop::Avx512) ? ", AVX-512VL" : "",
              worstPosition, worstNormal);
}

// The plan puts one bone's vertices of weight 1 side by side (the loop reads the bone's matrix
// once for them), keeps the array's last vertex at its run's end (the AVX2 loop reads 16 bytes
// for 12, which only that vertex must not), and skins them all to where the matrices put them.
TEST(Skin, ThePlanGroupsVerticesOfWeightOneByBoneAndEndsWithTheArraysLastVertex) {
  Mesh m;
  const std::uint32_t bones[] = {2, 1, 0, 2, 9, 1, 0, 2, 1, 0};  // 9: blended (below)
  std::vector<glm::mat4> palette;
  for (int b = 0; b < 3; ++b) palette.push_back(glm::translate(glm::vec3(10.0f * (b + 1), 0, 0)));
  for (std::size_t v = 0; v < std::size(bones); ++v) {
    m.positions.push_back({static_cast<float>(v), 1, 2});
    m.normals.push_back({0, 0, 1});
    const std::vector<Influence> blended = {{0, 0.5f}, {1, 0.5f}}, rigid = {{bones[v], 1.0f}};
    m.addInfluences(bones[v] == 9 ? blended : rigid);
  }
  const PackedInfluences p = packInfluences(m);
  const auto& plan = p.plan;
  ASSERT_FALSE(plan.runs.empty());
  const auto& run = plan.runs.front();
  ASSERT_EQ(run.kind, PackedInfluences::Plan::Kind::Palette);
  ASSERT_EQ(run.end - run.begin, 9u);
  EXPECT_EQ(plan.vertex[run.end - 1], std::size(bones) - 1);  // bone 0, yet last
  for (std::uint32_t i = run.begin + 1; i + 1 < run.end; ++i)
    EXPECT_LE(plan.bone[i - 1], plan.bone[i]) << i;
  std::vector<glm::vec3> pos, nrm;
  skin(m, p, palette, pos, &nrm);
  for (std::size_t v = 0; v < std::size(bones); ++v) {
    const float moved = bones[v] == 9 ? 15.0f : 10.0f * static_cast<float>(bones[v] + 1);
    EXPECT_EQ(pos[v], glm::vec3(static_cast<float>(v) + moved, 1, 2)) << v;
    EXPECT_EQ(nrm[v], glm::vec3(0, 0, 1)) << v;
  }
}

}  // namespace
}  // namespace marrow::anim

#include "render/anim/morph.h"

namespace marrow::anim {
namespace {

formats::Mesh strip() {  // 4 vertices, 2 triangles; vertex 3 collapses onto 1 taking 1 face
  formats::Mesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.indices = {0, 1, 2, 2, 1, 3};
  m.lod.collapsible = 1;
  m.lod.collapseTo = {-1, -1, -1, 1};
  m.lod.faceCollapseCount = {0, 0, 0, 1};
  return m;
}

TEST(Lod, FullDetailDrawsEveryTriangle) {
  std::vector<std::uint32_t> out;
  lodIndices(strip(), 1.0f, out);
  EXPECT_EQ(out, strip().indices);
}

TEST(Lod, LowestDetailCollapsesTheLastVerticesAndDropsTheirFaces) {
  std::vector<std::uint32_t> out;
  lodIndices(strip(), 0.0f, out);
  EXPECT_EQ(out, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(Lod, CollapseChainsEndingInMinusOneStopThere) {
  formats::Mesh m = strip();
  m.lod.collapsible = 2;
  m.lod.collapseTo = {-1, -1, -1, 2};  // 3 → 2, and 2 itself collapses nowhere (−1)
  m.lod.faceCollapseCount = {0, 0, 0, 1};
  std::vector<std::uint32_t> out;
  lodIndices(m, 0.0f, out);  // 2 removed: vertices 2 and 3 inactive, one face dropped
  EXPECT_EQ(out, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(Morph, WeightsBlendSparseAbsoluteTargets) {
  formats::Mesh m = strip();
  formats::MorphTarget t;
  t.name = "lift";
  t.vertices = {3};
  t.positions = {{1, 1, 2}};
  m.morphs.push_back(t);
  std::vector<glm::vec3> p, n;
  const float w[] = {0.25f};
  applyMorphs(m, w, p, n);
  EXPECT_EQ(p[3], glm::vec3(1, 1, 0.5f));
  EXPECT_EQ(p[0], m.positions[0]);
}

}  // namespace
}  // namespace marrow::anim
