// A skinned, animated Dragon Nest character written by our writers (v10 and v11) as a model:
// skeleton from the ANI with the MSH's binds, palettes by name, clips at 60 fps, left-handed
// winding, and the same poses whichever version wrote the files.
#include <gtest/gtest.h>

#include "formats/format_table.h"
#include "formats/model/convert.h"
#include "tests/support/dragonnest_test_character.h"
#include "formats/model/validate.h"
#include "formats/registry.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

namespace marrow::formats::dragonnest {
namespace {

using testing::memoryResolver;
using testing::writeCharacter;

// The character's files as the registry reads them: a skin (bringing its mesh and texture)
// and an animation, given together.
Result<Scene> readCharacter(int version) {
  const auto f = writeCharacter(version);
  std::map<std::string, std::vector<std::byte>> files = {
      {"Character.msh", f.msh}, {"character.dds", {std::byte{'D'}, std::byte{'D'}}}};
  std::vector<formats::Input> inputs(2);
  inputs[0].bytes = f.skn;
  inputs[0].ctx.name = "Character.skn";
  inputs[0].ctx.resolve = memoryResolver(files);
  inputs[1].bytes = f.ani;
  inputs[1].ctx.name = "Character.ani";
  return readInputs(std::move(inputs));
}

std::vector<std::vector<glm::vec3>> posed(const Scene& s, std::size_t clip, float t) {
  const anim::Pose pose = anim::evaluate(s.skeleton, &s.clips[clip], t);
  std::vector<std::vector<glm::vec3>> out;
  for (const auto& mesh : s.meshes) {
    std::vector<glm::mat4> palette;
    anim::skinPalette(s.skeleton, mesh, pose, palette);
    std::vector<glm::vec3> p;
    anim::skin(mesh, anim::packInfluences(mesh), palette, p);
    out.push_back(std::move(p));
  }
  return out;
}

TEST(DragonNestCharacter, ReadsAsOneValidModel) {
  auto s = readCharacter(10);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_TRUE(validate(*s).empty());
  ASSERT_EQ(s->skeleton.bones.size(), 3u);
  // Parents come first although the ANI lists Arm before them (§5.2).
  EXPECT_EQ(s->skeleton.bones[0].name, "Bip01");
  EXPECT_EQ(s->skeleton.bones[s->skeleton.find("Arm")].parent, s->skeleton.find("Spine"));
  ASSERT_EQ(s->meshes.size(), 3u);
  EXPECT_EQ(s->meshes[0].uvSets.size(), 2u);
  EXPECT_EQ(s->meshes[1].triangleCount(), 2u);  // the strip, stitches dropped
  ASSERT_EQ(s->meshes[1].colors.size(), 6u);
  EXPECT_NEAR(s->meshes[1].colors[1].r, 0x10 / 255.0f, 1e-6);  // D3DCOLOR is A8R8G8B8
  EXPECT_NEAR(s->meshes[1].colors[1].b, 0x20 / 255.0f, 1e-6);
  EXPECT_EQ(s->meshes[2].parentBone, s->skeleton.find("Arm"));
  EXPECT_EQ(s->meshes[1].influences[0].bone, static_cast<std::uint32_t>(s->skeleton.find("Bip01")));
  ASSERT_EQ(s->materials.size(), 3u);
  EXPECT_EQ(s->meshes[2].material, 2);
  ASSERT_EQ(s->textures.size(), 1u);  // three materials share one texture
  EXPECT_EQ(s->textures[0].data.size(), 2u);
  EXPECT_EQ(s->materials[0].diffuseTexture(), 0);
  EXPECT_EQ(s->bodies.size(), 2u);
  ASSERT_EQ(s->attachments.size(), 1u);
  EXPECT_EQ(s->attachments[0].parent, "Arm");
  EXPECT_EQ(s->attachments[0].local[3], glm::vec4(1, 2, 3, 1));
}

TEST(DragonNestCharacter, ClipsPlayAt60FramesPerSecondWithStepScaleAndBaseForEmptyTracks) {
  auto s = readCharacter(10);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->clips.size(), 2u);
  const Clip& wave = s->clips[0];
  EXPECT_EQ(wave.frameRate, 60.0f);
  EXPECT_FLOAT_EQ(wave.duration, 30 / 60.0f);
  const Track* arm = nullptr;
  for (const auto& t : wave.tracks)
    if (t.bone == "Arm") arm = &t;
  ASSERT_NE(arm, nullptr);
  EXPECT_EQ(arm->scale.interpolation, Interpolation::Step);
  EXPECT_FLOAT_EQ(arm->scale.times[1], 10 / 60.0f);
  const anim::Pose mid = anim::evaluate(s->skeleton, &wave, 9.5f / 60.0f);
  EXPECT_NEAR(mid.local[s->skeleton.find("Arm")].scale.x, 1.0f, 1e-6);  // no interpolation
  // Idle leaves Arm without keys: its base pose holds, not Wave's.
  const Clip& idle = s->clips[1];
  const anim::Pose p = anim::evaluate(s->skeleton, &idle, 0.2f);
  EXPECT_NEAR(glm::length(p.local[s->skeleton.find("Arm")].translation - glm::vec3(3, 0, 0)), 0,
              1e-6);
  EXPECT_NEAR(std::abs(glm::dot(p.local[s->skeleton.find("Spine")].rotation,
                                glm::angleAxis(0.4f, glm::vec3(1, 0, 0)))),
              1.0f, 1e-6);
}

TEST(DragonNestCharacter, RestPoseSkinsToTheStoredBindPositions) {
  auto s = readCharacter(10);
  ASSERT_TRUE(s);
  const anim::Pose rest = anim::evaluate(s->skeleton, nullptr, 0);
  for (const auto& mesh : s->meshes) {
    std::vector<glm::mat4> palette;
    anim::skinPalette(s->skeleton, mesh, rest, palette);
    std::vector<glm::vec3> p;
    anim::skin(mesh, anim::packInfluences(mesh), palette, p);
    for (std::size_t v = 0; v < p.size(); ++v)
      EXPECT_NEAR(glm::length(p[v] - mesh.positions[v]), 0, 1e-4) << mesh.name << " " << v;
  }
}

TEST(DragonNestCharacter, V10AndV11PoseIdentically) {
  auto a = readCharacter(10), b = readCharacter(11);
  ASSERT_TRUE(a) << a.error().describe();
  ASSERT_TRUE(b) << b.error().describe();
  ASSERT_EQ(a->clips.size(), b->clips.size());
  bool moved = false;
  for (std::size_t c = 0; c < a->clips.size(); ++c)
    for (float t : {0.0f, 0.1f, 0.17f, 0.3f, 0.49f}) {
      const auto pa = posed(*a, c, t), pb = posed(*b, c, t);
      ASSERT_EQ(pa.size(), pb.size());
      for (std::size_t m = 0; m < pa.size(); ++m)
        for (std::size_t v = 0; v < pa[m].size(); ++v) {
          EXPECT_NEAR(glm::length(pa[m][v] - pb[m][v]), 0, 2e-3) << "clip " << c << " t " << t;
          moved = moved || glm::length(pa[m][v] - a->meshes[m].positions[v]) > 0.1f;
        }
    }
  EXPECT_TRUE(moved);  // the clips do animate the skin
}

TEST(DragonNestCharacter, LeftHandedFacesPointOutwardOnDisplay) {
  auto s = readCharacter(10);
  ASSERT_TRUE(s);
  ASSERT_TRUE(flipsWinding(s->basis));
  const glm::mat4 d = toDisplay(s->basis);
  const Mesh& body = s->meshes[0];  // a closed tetrahedron
  glm::vec3 centre(0.0f);
  for (const auto& p : body.positions) centre += glm::vec3(d * glm::vec4(p, 1));
  centre /= static_cast<float>(body.positions.size());
  for (std::size_t t = 0; t < body.indices.size(); t += 3) {
    // The renderer flips the winding of a left-handed basis: (a, c, b) is what it draws.
    const glm::vec3 a = d * glm::vec4(body.positions[body.indices[t]], 1);
    const glm::vec3 b = d * glm::vec4(body.positions[body.indices[t + 2]], 1);
    const glm::vec3 c = d * glm::vec4(body.positions[body.indices[t + 1]], 1);
    const glm::vec3 n = glm::mat3(d) * body.normals[body.indices[t]];
    const glm::vec3 face = glm::cross(b - a, c - a);
    EXPECT_GT(glm::dot(face, n), 0) << "triangle " << t / 3;
    EXPECT_GT(glm::dot(n, a - centre), 0) << "triangle " << t / 3;
  }
}

// dragonnest.md, "Facing": an actor's front is its local +Z, and the game looks at it from there.
// The viewer's default camera looks from display +Z: the actor's +Z must land on display +Z (a
// rotation, not a mirror: its left and right stay its own), for the rest pose and every frame.
TEST(DragonNestCharacter, ActorsFaceTheCameraAsTheGameShowsThem) {
  auto s = readCharacter(10);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->basis.front, +1);
  const glm::mat4 d = toDisplay(s->basis);
  const glm::vec3 front = glm::normalize(glm::mat3(d) * glm::vec3(0, 0, 1));
  EXPECT_NEAR(front.z, 1.0f, 1e-6f) << "the actor's +Z toward the camera";
  EXPECT_NEAR(glm::normalize(glm::mat3(d) * glm::vec3(0, 1, 0)).y, 1.0f, 1e-6f) << "still upright";
  // Its left hand (-X: in its left-handed frame +X is its right) shows on the viewer's right when
  // it faces the viewer: display +X.
  EXPECT_GT((glm::mat3(d) * glm::vec3(-1, 0, 0)).x, 0.0f);
  // Writing a model back to the game turns it the other way: a glTF front (+Z) becomes +Z.
  const glm::mat4 back = basisChange(Basis{}, s->basis);
  EXPECT_GT((glm::mat3(back) * glm::vec3(0, 0, 1)).z, 0.0f);
}

TEST(DragonNestCharacter, ALoneAniGivesClipsAndNoSkeleton) {
  const auto f = writeCharacter(11);
  ReadContext ctx;
  ctx.name = "Character.ani";
  auto s = readScene(f.ani, ctx);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_TRUE(s->skeleton.empty());
  EXPECT_EQ(s->clips.size(), 2u);
  EXPECT_EQ(s->clips[0].tracks.size(), 3u);
}

TEST(DragonNestCharacter, AListFileMergesTheAnimationsItNames) {
  const auto f = writeCharacter(10);
  const std::string list = "Character.ani\r\nmissing.ani\r\n";
  ReadContext ctx;
  ctx.name = "all.ani";
  ctx.resolve = memoryResolver({{"Character.ani", f.ani}});
  auto s = readScene(std::as_bytes(std::span(list.data(), list.size())), ctx);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->clips.size(), 2u);
  EXPECT_EQ(s->diagnostics.count(Severity::Warning), 1u);  // missing.ani
}

// A list naming one ANI again (as written, in other case, under another name finding the same
// bytes) reads it once: no repeated clips, no copy per line. Named over and over, past what the
// list's own size allows to be read again, it is refused naming the line's file.
TEST(DragonNestCharacter, AListReadsAFileNamedAgainOnce) {
  const auto f = writeCharacter(10);
  ReadContext ctx;
  ctx.name = "all.ani";
  ctx.resolve = memoryResolver({{"Character.ani", f.ani}, {"copy.ani", f.ani}});
  const std::string list = "Character.ani\r\n./Character.ani\r\ncopy.ani\r\nCharacter.ani\r\n";
  auto s = readScene(std::as_bytes(std::span(list.data(), list.size())), ctx);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->clips.size(), 2u);  // the character's two, once
  EXPECT_EQ(s->diagnostics.count(Severity::Warning), 3u);

  // Each 9-byte line reads the ANI again; the list may read 64 bytes per byte of it plus 1 MiB.
  const std::size_t line = std::string_view("copy.ani\n").size();
  ASSERT_GT(f.ani.size(), 64 * line);
  std::string many;
  for (std::size_t i = 0; i < 2 + (1 << 20) / (f.ani.size() - 64 * line); ++i) many += "copy.ani\n";
  auto refused = readScene(std::as_bytes(std::span(many.data(), many.size())), ctx);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().file, "all.ani");
  EXPECT_EQ(refused.error().field, "listed file 'copy.ani'");
  EXPECT_NE(refused.error().message.find("again and again"), std::string::npos);
}

TEST(DragonNestCharacter, ASkinWithoutItsMeshShowsMaterialsAndSaysSo) {
  const auto f = writeCharacter(10);
  ReadContext ctx;
  ctx.name = "Character.skn";
  auto s = readScene(f.skn, ctx);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_TRUE(s->meshes.empty());
  EXPECT_EQ(s->materials.size(), 3u);
  EXPECT_EQ(s->diagnostics.count(Severity::Warning), 1u);
}

TEST(DragonNestCharacter, AMeshAloneHasRootBonesAtTheBindPose) {
  const auto f = writeCharacter(13);
  ReadContext ctx;
  ctx.name = "Character.msh";
  auto s = readScene(f.msh, ctx);
  ASSERT_TRUE(s) << s.error().describe();
  ASSERT_EQ(s->skeleton.bones.size(), 3u);
  EXPECT_EQ(s->skeleton.rootCount(), 3u);
  const auto model = s->skeleton.restModelMatrices();
  const int spine = s->skeleton.find("Spine");
  EXPECT_NEAR(glm::length(glm::vec3(model[spine][3]) - glm::vec3(testing::worldOf("Spine")[3])), 0,
              1e-4);
  // Issue 19: says why every bone is a root, and what to open.
  bool said = false;
  for (const auto& d : s->diagnostics.items)
    said = said || (d.field == "skeleton" && d.message.find("open the .ani with it") != std::string::npos);
  EXPECT_TRUE(said);
}

TEST(DragonNestCharacter, AMeshAndAnAniGivenTogetherShareTheAniHierarchy) {
  const auto f = writeCharacter(12);
  std::vector<formats::Input> inputs(2);
  inputs[0].bytes = f.ani;  // the order given does not matter
  inputs[0].ctx.name = "Character.ani";
  inputs[1].bytes = f.msh;
  inputs[1].ctx.name = "Character.msh";
  auto s = readInputs(std::move(inputs));
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->skeleton.bones.size(), 3u);
  EXPECT_EQ(s->skeleton.rootCount(), 1u);
  EXPECT_EQ(s->clips.size(), 2u);
  EXPECT_EQ(s->meshes.size(), 3u);
  EXPECT_EQ(s->meshes[0].material, -1);
}

TEST(DragonNestCharacter, ASkinAndItsMeshGivenTogetherReadTheMeshOnce) {
  const auto f = writeCharacter(10);
  std::vector<formats::Input> inputs(2);
  inputs[0].bytes = f.msh;
  inputs[0].ctx.name = "dir/character.MSH";
  inputs[1].bytes = f.skn;
  inputs[1].ctx.name = "dir/Character.skn";
  inputs[1].ctx.resolve = memoryResolver({{"Character.msh", f.msh}});
  auto s = readInputs(std::move(inputs));
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->meshes.size(), 3u);
  EXPECT_EQ(s->meshes[0].material, 0);
}

TEST(DragonNestCharacter, ARigidSubmeshFollowsItsBone) {
  auto s = readCharacter(10);
  ASSERT_TRUE(s);
  const auto start = posed(*s, 0, 0.0f), later = posed(*s, 0, 0.4f);
  EXPECT_GT(glm::length(later[2][0] - start[2][0]), 1e-3f);  // the glove moves with the arm
}

TEST(DragonNestDetect, MagicFirstThenExtension) {
  const auto f = writeCharacter(10);
  EXPECT_EQ(formats::detect(f.msh, "x.bin"), formats::formatById("dragonnest"));
  EXPECT_EQ(detectKind(f.skn, "x.bin"), FileKind::Skin);
  EXPECT_EQ(detectKind(f.ani, "x.bin"), FileKind::Animation);
  EXPECT_EQ(detectKind({}, "list.ANI"), FileKind::AnimationList);
  EXPECT_EQ(formats::detect({}, "jobtable.dnt"), formats::formatById("dragonnest"));
  EXPECT_EQ(detectKind({}, "old.ext"), FileKind::LegacyTable);
}

}  // namespace
}  // namespace marrow::formats::dragonnest
