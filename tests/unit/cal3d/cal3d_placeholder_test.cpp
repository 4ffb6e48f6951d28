// A cal3d mesh read without its skeleton gets placeholder bones for the ids it uses; a hostile id
// (found by the registry fuzz target: 2^25 ids made 335 MB of bones) gets none, and a warning.
#include <gtest/gtest.h>

#include "formats/cal3d/writer.h"
#include "formats/registry.h"

namespace marrow::formats {
namespace {

Result<Scene> meshAloneUsingBone(std::uint32_t bone) {
  Scene s;
  s.skeleton.bones.resize(bone + 1);  // only for the writer: the file stores the id
  for (std::uint32_t i = 0; i <= bone; ++i) s.skeleton.bones[i].name = "b" + std::to_string(i);
  Mesh m;
  m.name = "m";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.indices = {0, 1, 2};
  for (int v = 0; v < 3; ++v) {
    const Influence inf[] = {{bone, 1.0f}};
    m.addInfluences(inf);
  }
  s.meshes.push_back(m);
  Diagnostics d;
  const std::size_t which[] = {0};
  auto bytes = cal3d::writeMesh(s, which, {}, d);
  if (!bytes) return bytes.error();
  std::vector<Input> inputs(1);
  inputs[0].bytes = *bytes;
  inputs[0].ctx.name = "alone.cmf";
  return readInputs(std::move(inputs));
}

TEST(Cal3dPlaceholders, AMeshAloneGetsAStandInForEachBoneIdItUses) {
  auto s = meshAloneUsingBone(5);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->skeleton.bones.size(), 6u);
}

TEST(Cal3dPlaceholders, ABoneIdPastTheLimitMakesNoStandIns) {
  const std::uint32_t bone = Limits{}.maxBones + 5;
  auto s = meshAloneUsingBone(bone);
  // Either an error naming the bone or a scene without stand-ins: never millions of bones.
  if (s) {
    EXPECT_LT(s->skeleton.bones.size(), Limits{}.maxBones);
  } else {
    EXPECT_FALSE(s.error().describe().empty());
  }
}

}  // namespace
}  // namespace marrow::formats
