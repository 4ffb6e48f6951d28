// Any model → Dragon Nest (formats/dragonnest/from_scene.h): a random skinned model of 64 bones,
// more than a palette holds, written as MSH, SKN and ANI, read back by the Dragon Nest reader
// and posed against the source corner for corner; the records checked against the spec.
#include <gtest/gtest.h>

#include <set>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "formats/dragonnest/dragonnest.h"
#include "formats/dragonnest/from_scene.h"
#include "formats/write.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"
#include "tests/support/random_scenes.h"

namespace marrow::formats::dragonnest {
namespace {

// Every triangle corner of the model skinned at `t`, in display space, in triangle order; a
// left-handed model's triangles (their winding flipped when it was made so) in the right-handed
// order.
std::vector<glm::vec3> corners(const Scene& s, const Clip* clip, float t) {
  const anim::Pose pose = anim::evaluate(s.skeleton, clip, t);
  const glm::mat4 display = toDisplay(s.basis);
  std::vector<glm::vec3> out;
  std::vector<glm::mat4> palette;
  for (const Mesh& m : s.meshes) {
    anim::skinPalette(s.skeleton, m, pose, palette);
    std::vector<glm::vec3> v;
    anim::skin(m, anim::packInfluences(m), palette, v);
    const bool flipped = flipsWinding(s.basis);
    for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3)
      for (std::size_t k : {0, 1, 2})
        out.push_back(glm::vec3(display * glm::vec4(v[m.indices[i + (flipped && k ? 3 - k : k)]], 1.0f)));
  }
  return out;
}

Scene sourceModel(std::uint32_t bones = 64, Axis up = Axis::Z) {
  testing::RandomSceneOptions o;
  o.bones = bones;
  o.vertices = 600;
  o.minInfluences = 1;
  o.maxInfluences = 4;
  Scene s = testing::randomSkinnedScene(o);
  s.basis = Basis{up, true, 1.0f, 0};  // Z-up, right-handed: every axis changes
  s.meshes[0].uvSets.push_back(std::vector<glm::vec2>(s.meshes[0].vertexCount(), glm::vec2(0.25f, 0.75f)));
  Material m;
  m.name = "skin";
  m.diffuse = glm::vec4(0.5f, 0.6f, 0.7f, 1.0f);
  s.textures.push_back({"skin.png", "skin.png", {}, false});
  m.maps.push_back({"diffuse", 0, 0, ""});
  s.materials.push_back(m);
  s.meshes[0].material = 0;
  Clip c;  // every bone turns; the root walks; keys on frames of 60 per second and between them
  c.name = "walk";
  c.duration = 0.5f;
  for (std::size_t b = 0; b < s.skeleton.bones.size(); ++b) {
    Track t;
    t.bone = s.skeleton.bones[b].name;
    for (int k = 0; k <= 4; ++k) {
      const float time = b % 2 ? static_cast<float>(k) * 0.1f : static_cast<float>(k) / 8.0f + (k == 4 ? 0.0f : 0.01f);
      t.rotation.add(time, glm::normalize(s.skeleton.bones[b].rotation *
                                          glm::angleAxis(0.1f * static_cast<float>(k), glm::vec3(0, 0, 1))));
    }
    if (b == 0) {
      t.translation.add(0.0f, s.skeleton.bones[0].translation);
      t.translation.add(0.5f, s.skeleton.bones[0].translation + glm::vec3(0.0f, 0.3f, 0.0f));
    }
    c.tracks.push_back(t);
  }
  s.clips.push_back(c);
  return s;
}

TEST(DragonNestFromScene, WritesRecordsTheSpecDescribes) {
  const Scene s = sourceModel();
  Diagnostics d;
  auto r = fromScene(s, "hero", {}, d);
  ASSERT_TRUE(r) << r.error().describe();
  // §3.3: palettes of at most 50 bones (the mesh is split), four slots a vertex.
  ASSERT_GE(r->msh.submeshes.size(), 2u);
  for (const auto& sm : r->msh.submeshes) {
    EXPECT_TRUE(sm.skinned);
    EXPECT_LE(sm.palette.size(), 50u);
    EXPECT_EQ(sm.boneIndices.size(), sm.positions.size());
    for (std::size_t v = 0; v < sm.weights.size(); ++v) {
      float sum = 0.0f;
      for (std::size_t k = 0; k < 4; ++k) {
        sum += sm.weights[v][k];
        EXPECT_LT(static_cast<std::size_t>(sm.boneIndices[v][k]), sm.palette.size());
      }
      EXPECT_NEAR(sum, 1.0f, 1e-5f);
    }
  }
  // §3.2: every bone in the header; §4.1: a material per submesh, naming the mesh file.
  EXPECT_EQ(r->msh.bones.size(), 64u);
  EXPECT_EQ(r->skn.mesh, "hero.msh");
  ASSERT_EQ(r->skn.materials.size(), r->msh.submeshes.size());
  bool texture = false;
  for (const auto& p : r->skn.materials[0].parameters) texture |= p.name == "g_DiffuseTex" && p.texture == "skin.dds";
  EXPECT_TRUE(texture);
  // §5: every bone with its parent's name, one animation at 60 per second.
  ASSERT_TRUE(r->ani);
  EXPECT_EQ(r->ani->bones.size(), 64u);
  EXPECT_EQ(r->ani->bones[0].parent, "Scene Root");
  EXPECT_EQ(r->ani->bones[1].parent, s.skeleton.bones[static_cast<std::size_t>(s.skeleton.bones[1].parent)].name);
  ASSERT_EQ(r->ani->names.size(), 1u);
  EXPECT_EQ(r->ani->lengths[0], 31);  // frames 0..30: its last key is at its end
  EXPECT_EQ(r->ani->bones[1].tracks[0].rotations.size(), 5u) << "keys on frames stay as they are";
  EXPECT_EQ(r->ani->bones[0].tracks[0].rotations.size(), 31u) << "keys between frames: one per frame";
  std::string said;
  for (const auto& item : d.items) said += item.message + "\n";
  EXPECT_NE(said.find("split"), std::string::npos) << said;
}

class DragonNestFromSceneRoundTrip : public ::testing::TestWithParam<std::pair<std::uint32_t, Axis>> {};

TEST_P(DragonNestFromSceneRoundTrip, ReadsBackPosedAsTheSourceAtEveryFrame) {
  const Scene s = sourceModel(GetParam().first, GetParam().second);
  Diagnostics d;
  auto r = fromScene(s, "hero", {}, d);
  ASSERT_TRUE(r);
  const ReadContext ctx{"hero", {}, {}};
  auto msh = parseMsh(*writeMsh(r->msh), ctx);
  auto skn = parseSkn(*writeSkn(r->skn), ctx);
  auto ani = parseAni(*writeAni(*r->ani), ctx);
  ASSERT_TRUE(msh && skn && ani);
  std::vector<MeshSource> meshes{{*msh, &*skn, "hero.msh", nullptr}};
  std::vector<AniSource> anis{{*ani, "hero.ani"}};
  const Scene back = toScene(meshes, anis);
  ASSERT_EQ(back.clips.size(), 1u);
  for (int f = 0; f <= 30; ++f) {
    const float t = static_cast<float>(f) / 60.0f;
    const auto want = corners(s, &s.clips[0], t);
    const auto got = corners(back, &back.clips[0], t);
    ASSERT_EQ(got.size(), want.size());
    EXPECT_LT(testing::worstRelativeDistance(got, want), 1e-5f) << "frame " << f;
  }
}

INSTANTIATE_TEST_SUITE_P(BonesAndBasis, DragonNestFromSceneRoundTrip,
                         ::testing::Values(std::pair{40u, Axis::Y}, std::pair{40u, Axis::Z}, std::pair{64u, Axis::Y},
                                           std::pair{64u, Axis::Z}));

// An attachment point comes back where it was (its transform converted to the engine's space,
// §3.5), on its bone even when that bone was renamed apart from another of the same name without
// case; a skinned vertex without influence follows the root instead of going to the origin.
TEST(DragonNestFromScene, AttachmentsAndUnriggedVerticesKeepTheirPlaces) {
  Scene s = sourceModel(8, Axis::Y);
  s.skeleton.bones[2].name = "Hand";
  s.skeleton.bones[3].name = "hand";  // the engine compares without case: renamed apart
  for (Clip& c : s.clips)
    for (Track& t : c.tracks) t.bone = t.bone == "bone2" ? "Hand" : t.bone == "bone3" ? "hand" : t.bone;
  Attachment a;
  a.name = "weapon";
  a.parent = "hand";
  a.local = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 0.0f, 1.0f));
  s.attachments.push_back(a);
  // Vertex 0 loses its influences.
  Mesh& m = s.meshes[0];
  Mesh rebuilt = m;
  rebuilt.influenceStart.clear();
  rebuilt.influences.clear();
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    std::vector<Influence> inf(m.influencesOf(v).begin(), m.influencesOf(v).end());
    if (v == 0) inf.clear();
    rebuilt.addInfluences(inf);
  }
  m = rebuilt;
  Diagnostics d;
  auto r = fromScene(s, "hero", {}, d);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->msh.dummies.size(), 1u);
  EXPECT_EQ(r->msh.dummies[0].parent, "hand_2");
  // In centimetres, left-handed and facing +Z as the game's actors do (dragonnest.md, "Facing"):
  // the model's front, +Z of a right-handed Y-up model as the display shows it, stays +Z (the
  // mirror and the half turn both flip Z; X changes sign).
  const glm::mat4 local = toGlm(r->msh.dummies[0].matrix);
  EXPECT_NEAR(local[3][2], 100.0f, 1e-3f);
  const auto& sm = r->msh.submeshes[0];
  EXPECT_FLOAT_EQ(sm.weights[0][0], 1.0f);
  EXPECT_EQ(sm.palette[static_cast<std::size_t>(sm.boneIndices[0][0])], s.skeleton.bones[0].name);
}

TEST(DragonNestFromScene, EachOutputWritesItsFiles) {
  const Scene s = sourceModel();
  WriteSource source;
  source.scene = &s;
  const WriteResult skn = writeModel(source, "out/hero.skn");
  ASSERT_TRUE(skn.ok()) << skn.why();
  ASSERT_EQ(skn.files.size(), 3u);
  EXPECT_EQ(skn.files[0].path, "out/hero.skn");
  EXPECT_EQ(skn.files[1].path, "out/hero.msh");
  EXPECT_EQ(skn.files[2].path, "out/hero.ani");
  EXPECT_EQ(detectKind(skn.files[2].bytes, "hero.ani"), FileKind::Animation);
  const WriteResult msh = writeModel(source, "out/hero.msh");
  ASSERT_TRUE(msh.ok());
  ASSERT_EQ(msh.files.size(), 1u);
  EXPECT_EQ(detectKind(msh.files[0].bytes, "hero.msh"), FileKind::Mesh);
  WriteOptions v11;
  v11.version = 11;
  const WriteResult ani = writeModel(source, "out/hero.ani", v11);
  ASSERT_TRUE(ani.ok()) << ani.why();
  auto parsed = parseAni(ani.files.at(0).bytes, ReadContext{"hero.ani", {}, {}});
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->version, 11);
  v11.version = 14;
  EXPECT_FALSE(writeModel(source, "out/hero.skn", v11).ok());
  Scene still = s;
  still.skeleton = {};
  still.clips.clear();
  still.meshes[0].influenceStart.clear();
  still.meshes[0].influences.clear();
  source.scene = &still;
  EXPECT_EQ(writeModel(source, "out/still.ani").status, WriteResult::Status::Refused);
  const WriteResult stillSkin = writeModel(source, "out/still.skn");
  ASSERT_TRUE(stillSkin.ok());
  EXPECT_EQ(stillSkin.files.size(), 2u) << "no skeleton: no .ani";
}

}  // namespace
}  // namespace marrow::formats::dragonnest
