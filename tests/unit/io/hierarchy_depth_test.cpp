// Limits::maxHierarchyDepth in the readers whose formats allow a chain of parents as deep as
// they have bones (OMF, BRF, Dragon Nest ANI; cal3d has its own test): a deeper skeleton is an
// error naming the bone, so that nothing walking a hierarchy meets one deeper than the limit.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/support/dragonnest_test_character.h"
#include "formats/brf/brf.h"
#include "formats/dragonnest/dragonnest.h"
#include "formats/model/validate.h"
#include "formats/omf/omf.h"

namespace marrow::formats {
namespace {

Skeleton chain(std::size_t n) {
  Skeleton s;
  for (std::size_t i = 0; i < n; ++i) {
    Bone b;
    b.name = "b" + std::to_string(i);
    b.parent = static_cast<int>(i) - 1;
    b.translation = {0.0f, 0.1f, 0.0f};
    s.bones.push_back(b);
  }
  return s;
}

ReadContext withDepth(std::string name, std::uint32_t maxDepth) {
  ReadContext ctx;
  ctx.name = std::move(name);
  ctx.limits.maxHierarchyDepth = maxDepth;
  return ctx;
}

TEST(HierarchyDepth, NoBoneDeeperThanTheChainIsLong) {
  const Skeleton s = chain(5);
  EXPECT_FALSE(boneDeeperThan(s, 5));
  const auto deep = boneDeeperThan(s, 4);
  ASSERT_TRUE(deep);
  EXPECT_EQ(deep->bone, 4u);
  EXPECT_EQ(deep->depth, 5u);
}

TEST(HierarchyDepth, RootsAndSiblingsAreNotDeep) {
  Skeleton s = chain(3);
  s.bones[2].parent = 0;  // a sibling of b1
  s.bones.push_back(Bone{"root2", -1, {}, {1, 0, 0, 0}, glm::vec3(1.0f)});
  EXPECT_FALSE(boneDeeperThan(s, 2));
  EXPECT_TRUE(boneDeeperThan(s, 1));
}

TEST(HierarchyDepth, OmfRefusesAChainDeeperThanTheLimit) {
  Scene scene;
  scene.skeleton = chain(40);
  Diagnostics d;
  const auto bytes = writeOmf(scene, d);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  EXPECT_TRUE(readOmf(*bytes, withDepth("chain.omf", 40)));
  const auto r = readOmf(*bytes, withDepth("chain.omf", 32));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "Bone 32: Parent Index") << r.error().describe();
  EXPECT_NE(r.error().offset, kNoOffset);
  EXPECT_NE(r.error().message.find("33 bones deep"), std::string::npos) << r.error().message;
}

Result<Scene> brfChain(std::size_t n, std::uint32_t maxDepth) {
  brf::Document doc;
  doc.version = 1;
  doc.hasVersionToken = true;
  brf::Skeleton s;
  s.name = "skel_chain";
  for (std::size_t i = 0; i < n; ++i) {
    brf::Bone b;
    b.parent = static_cast<std::int32_t>(i) - 1;
    b.name = "b" + std::to_string(i);
    b.m = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0.1f};  // §8.1: axes A, B, C, then T
    s.bones.push_back(b);
  }
  doc.skeletons.push_back(s);
  const ReadContext ctx = withDepth("chain.brf", maxDepth);
  auto parsed = brf::parse(brf::write(doc), ctx);
  EXPECT_TRUE(parsed) << parsed.error().describe();
  const std::vector<brf::Source> sources = {
      {"chain.brf", std::make_shared<const brf::Document>(std::move(parsed).value()), ctx, {}}};
  brf::Selection only;
  only.skeleton = brf::RecordRef{0, brf::Section::Skeleton, 0};
  return brf::toScene(sources, only);
}

TEST(HierarchyDepth, BrfRefusesASkeletonDeeperThanTheLimit) {
  const auto ok = brfChain(40, 40);
  ASSERT_TRUE(ok) << ok.error().describe();
  EXPECT_EQ(ok->skeleton.bones.size(), 40u);
  const auto r = brfChain(40, 32);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("'b32'"), std::string::npos) << r.error().describe();
  EXPECT_NE(r.error().message.find("33 bones deep"), std::string::npos) << r.error().message;
}

// An ANI gives a mesh's bones their hierarchy (a skeleton comes with a mesh, dragonnest.h).
Result<Scene> dragonNestChain(std::size_t n, std::uint32_t maxDepth) {
  dragonnest::Ani ani;
  ani.version = 10;
  ani.names = {"Idle"};
  ani.lengths = {1};
  // Children before parents, as §5.2 allows: the chain is resolved by name.
  for (std::size_t i = n; i-- > 0;)
    ani.bones.push_back({"b" + std::to_string(i), i ? "b" + std::to_string(i - 1) : "Scene Root",
                         std::vector<dragonnest::AniTrack>(1)});
  const auto aniBytes = dragonnest::writeAni(ani);
  EXPECT_TRUE(aniBytes) << aniBytes.error().describe();
  const auto mshBytes = dragonnest::writeMsh(dragonnest::testing::characterMsh(13));
  EXPECT_TRUE(mshBytes) << mshBytes.error().describe();
  const dragonnest::Input in[] = {{*mshBytes, withDepth("Character.msh", maxDepth)},
                                  {*aniBytes, withDepth("chain.ani", maxDepth)}};
  return dragonnest::readModel(in);
}

TEST(HierarchyDepth, DragonNestRefusesAnAniChainDeeperThanTheLimit) {
  const auto ok = dragonNestChain(40, 40);
  ASSERT_TRUE(ok) << ok.error().describe();
  EXPECT_EQ(ok->skeleton.bones.size(), 43u);  // and the mesh's three
  const auto r = dragonNestChain(40, 32);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, "chain.ani");
  EXPECT_EQ(r.error().field, "bone 'b32'") << r.error().describe();
}

}  // namespace
}  // namespace marrow::formats
