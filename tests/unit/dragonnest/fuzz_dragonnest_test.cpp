// Dragon Nest inputs the fuzz targets (tests/fuzz) found mishandled, each built from the test
// character our writers make, mutated the way the finding was.
#include <gtest/gtest.h>

#include "tests/support/dragonnest_test_character.h"
#include "formats/dragonnest/pak.h"
#include "formats/dragonnest/pak_writer.h"
#include "formats/model/validate.h"

namespace marrow::formats::dragonnest {
namespace {

using testing::characterMsh;

Result<Scene> readMeshAlone(const Msh& msh) {
  const auto bytes = writeMsh(msh);
  EXPECT_TRUE(bytes) << bytes.error().describe();
  const Input in{*bytes, ReadContext{"Character.msh", {}, {}}};
  return readModel(std::span(&in, 1));
}

// Without an ANI, the mesh's bones are roots at the pose their inverse bind gives (§3.2). A
// bind matrix that cannot be inverted gave the bone a non-finite rest pose and lost its name
// (the fuzz finding); it is a root at the origin instead, with its name.
TEST(DragonNestFuzzFinding, BoneWithSingularBindMatrixIsANamedRootAtTheOrigin) {
  Msh msh = characterMsh(13);
  msh.bones[0].inverseBind.fill(0.0f);  // inverse() of it is all infinities
  auto s = readMeshAlone(msh);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_TRUE(validate(*s).empty()) << validate(*s).front();
  const int b = s->skeleton.find(msh.bones[0].name);
  ASSERT_GE(b, 0);
  EXPECT_EQ(s->skeleton.bones[static_cast<std::size_t>(b)].translation, glm::vec3(0.0f));
}

// A bind matrix with a projective part does not decompose into a rest pose; the bone keeps its
// name and the translation the matrix has.
TEST(DragonNestFuzzFinding, BoneWithProjectiveBindMatrixKeepsItsNameAndTranslation) {
  Msh msh = characterMsh(13);
  D3dMatrix m = identityMatrix();
  m[3] = 0.5f;  // row vectors: column 3 is the projective part
  msh.bones[1].inverseBind = m;
  auto s = readMeshAlone(msh);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_TRUE(validate(*s).empty()) << validate(*s).front();
  const int b = s->skeleton.find(msh.bones[1].name);
  ASSERT_GE(b, 0);
  const glm::vec3 expected(glm::inverse(toGlm(m))[3]);
  EXPECT_EQ(s->skeleton.bones[static_cast<std::size_t>(b)].translation, expected);
}

// Collision primitives store finite values, but a box's corners and a capsule's end are sums
// of them: too large for floats, they were infinite in the model. Such a shape is left out, with
// a warning, and the rest of the model stays.
TEST(DragonNestFuzzFinding, ABoxTooLargeForFloatsIsLeftOut) {
  Msh msh = characterMsh(13);
  ASSERT_EQ(msh.collisions[1].type, MshCollision::Box);
  msh.collisions[1].centre.x = 3e38f;
  msh.collisions[1].extent.x = 3e38f;
  auto s = readMeshAlone(msh);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_TRUE(validate(*s).empty()) << validate(*s).front();
  ASSERT_EQ(s->bodies.size(), 1u);  // the sphere
  EXPECT_EQ(s->bodies[0].parts[0].kind, BodyPart::Kind::Sphere);
  bool warned = false;
  for (const auto& d : s->diagnostics.items) warned = warned || d.field.starts_with("collision 1");
  EXPECT_TRUE(warned);
}

TEST(DragonNestFuzzFinding, ACapsuleWhoseEndIsInfiniteIsLeftOut) {
  Msh msh = characterMsh(13);
  msh.collisions[0].type = MshCollision::Capsule;
  msh.collisions[0].centre = {-3e38f, 0, 0};
  msh.collisions[0].segment = {-3e38f, 0, 0};
  auto s = readMeshAlone(msh);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_TRUE(validate(*s).empty()) << validate(*s).front();
  ASSERT_EQ(s->bodies.size(), 1u);  // the box
  EXPECT_EQ(s->bodies[0].parts[0].kind, BodyPart::Kind::Manifold);
}

// Pak::read refuses an entry larger than the allocation limit allows; zlib's own state (about
// 40 KiB) counts against that limit too, so an entry just under the limit could make the read
// hold more than it (the pak_entry target's allocation watch saw 2104672 bytes held for
// 2097920 allowed).
TEST(DragonNestFuzzFinding, InflatingCountsZlibsStateAgainstTheAllocationLimit) {
  const std::vector<PakFile> files = {{"\\a.bin", std::vector<std::byte>(40 << 10)},
                                      {"\\b.bin", std::vector<std::byte>(30 << 10)}};
  const auto bytes = writePak(files);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  auto pak = Pak::parse(*bytes, "zeros.pak");
  ASSERT_TRUE(pak) << pak.error().describe();
  Limits limits;
  limits.allocationFactor = 0;
  limits.allocationSlack = 100 << 10;  // 100 KiB in all: 40 KiB + zlib's state would fit…
  const auto big = pak->read(*pak->find("a.bin"), limits);
  ASSERT_FALSE(big);  // …but not with the 64 KiB held back for zlib
  EXPECT_EQ(big.error().field, "original size") << big.error().describe();
  const auto small = pak->read(*pak->find("b.bin"), limits);
  ASSERT_TRUE(small) << small.error().describe();
  EXPECT_EQ(small->size(), 30u << 10);
}

}  // namespace
}  // namespace marrow::formats::dragonnest
