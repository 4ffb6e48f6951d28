// Dragon Nest inputs the fuzz targets (tests/fuzz) found mishandled, each built from the test
// character our writers make, mutated the way the finding was.
#include <gtest/gtest.h>

#include "dragonnest_test_character.h"
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

}  // namespace
}  // namespace marrow::formats::dragonnest
