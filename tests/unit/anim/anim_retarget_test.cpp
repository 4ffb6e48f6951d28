// Retargeting a clip onto another skeleton: names, rest-pose differences, sizes, axes.
//
// Expected values come from the definition, not from the formula in render/anim/retarget.cpp:
// a skeleton is built twice from the same joint positions with different bone axes
// (world orientation W' = W·O per bone); the clip played on the first skeleton by the ordinary
// sampler gives joint positions P(t) and rotations R(t); played on the second after
// retargeting, the same joints must be at P(t) with rotations R(t)·O.
#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>
#include <random>

#include "render/anim/pose.h"
#include "render/anim/retarget.h"

namespace marrow::anim {
namespace {

using formats::Bone;
using formats::Clip;
using formats::Skeleton;
using formats::Track;

constexpr float kPi = 3.14159265358979f;

struct Joint {
  std::string name;
  int parent;
  glm::vec3 position;  // world, at rest
  glm::quat world;     // world orientation of the bone's axes, at rest
};

// Local rest transforms from world joints: R = W_parent⁻¹·W, t = W_parent⁻¹·(p − p_parent).
Skeleton build(const std::vector<Joint>& joints, const std::string& name = {}) {
  Skeleton s;
  s.name = name;
  for (const Joint& j : joints) {
    Bone b;
    b.name = j.name;
    b.parent = j.parent;
    const glm::quat pw = j.parent >= 0 ? joints[j.parent].world : glm::quat(1, 0, 0, 0);
    const glm::vec3 pp = j.parent >= 0 ? joints[j.parent].position : glm::vec3(0.0f);
    b.rotation = glm::normalize(glm::inverse(pw) * j.world);
    b.translation = glm::inverse(pw) * (j.position - pp);
    s.bones.push_back(b);
  }
  return s;
}

glm::quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> n;
  return glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
}

// pelvis → spine → head, spine → arm → hand: joints of one character.
std::vector<Joint> character(std::mt19937& rng, const char* prefix) {
  const std::string p = prefix;
  return {{p + "Pelvis", -1, {0.0f, 1.0f, 0.0f}, randomRotation(rng)},
          {p + "Spine", 0, {0.0f, 1.5f, 0.1f}, randomRotation(rng)},
          {p + "Head", 1, {0.0f, 2.1f, 0.0f}, randomRotation(rng)},
          {p + "L Arm", 1, {0.4f, 1.9f, 0.0f}, randomRotation(rng)},
          {p + "L Hand", 3, {0.9f, 1.7f, 0.1f}, randomRotation(rng)}};
}

// Rotation keys on every bone, root translation keys, and translation keys at the rest value
// elsewhere (as cal3d writes them), in the skeleton's own local terms.
Clip randomClip(const Skeleton& s, std::mt19937& rng) {
  Clip c;
  c.name = "moves";
  c.duration = 2.0f;
  for (std::size_t i = 0; i < s.bones.size(); ++i) {
    Track t;
    t.bone = s.bones[i].name;
    for (float time : {0.0f, 0.7f, 1.3f, 2.0f}) {
      t.rotation.add(time, randomRotation(rng));
      t.translation.add(time, s.bones[i].parent < 0 ? s.bones[i].translation +
                                                          glm::vec3(time * 0.3f, -0.1f * time, 0.2f)
                                                    : s.bones[i].translation);
    }
    c.tracks.push_back(t);
  }
  return c;
}

void expectNear(const glm::vec3& a, const glm::vec3& b, float tol, const std::string& what) {
  EXPECT_LT(glm::length(a - b), tol) << what << ": (" << a.x << ", " << a.y << ", " << a.z
                                     << ") vs (" << b.x << ", " << b.y << ", " << b.z << ")";
}

void expectNear(const glm::mat3& a, const glm::mat3& b, float tol, const std::string& what) {
  for (int c = 0; c < 3; ++c) expectNear(a[c], b[c], tol, what + " column " + std::to_string(c));
}

Clip retargetOnto(const Clip& clip, const Skeleton& source, const Skeleton& target,
                  RetargetReport* report = nullptr, glm::mat3 axes = glm::mat3(1.0f)) {
  const BoneMatcher m(target, nullptr, true);
  RetargetOptions o;
  o.source = &source;
  o.sourceToTarget = axes;
  return retarget(clip, target, m, o, report);
}

// ---- invalid and partial input first ------------------------------------------------------

TEST(Retarget, AClipWithNoMatchingBoneKeepsItsTracksAndMovesNothing) {
  std::mt19937 rng(1);
  const Skeleton source = build(character(rng, "Bip01 "));
  const Skeleton target =
      build({{"root", -1, {0, 0, 0}, {1, 0, 0, 0}}, {"tail", 0, {0, 1, 0}, {1, 0, 0, 0}}});
  const Clip clip = randomClip(source, rng);
  RetargetReport r;
  const Clip out = retargetOnto(clip, source, target, &r);
  EXPECT_TRUE(r.matched.empty());
  EXPECT_EQ(r.tracksWithoutBone.size(), 5u);
  EXPECT_EQ(r.bonesWithoutTrack, (std::vector<std::string>{"root", "tail"}));
  const Binding b = bind(out, target);
  EXPECT_EQ(b.matched(), 0u);
  EXPECT_EQ(b.tracksWithoutBone.size(), 5u);  // bind still reports them
  const Pose rest = evaluate(target, nullptr, 0.0f);
  const Pose p = evaluate(target, &out, 1.0f);
  for (std::size_t i = 0; i < target.bones.size(); ++i) EXPECT_EQ(p.model[i], rest.model[i]);
}

TEST(Retarget, ReportsUnmatchedTracksAndBonesAndDropsMorphTracks) {
  std::mt19937 rng(2);
  const Skeleton source = build(character(rng, "Bip01 "));
  std::vector<Joint> tj = character(rng, "");
  tj[3].name = "Left Arm";  // no track finds it: "left_arm" is not "l_arm"
  tj[4].name = "Left Hand";
  tj.push_back({"Tail", 0, {0, 0.9f, -0.2f}, {1, 0, 0, 0}});
  const Skeleton target = build(tj, "game");
  Clip clip = randomClip(source, rng);
  clip.skeleton = "biped";
  clip.morphTracks.resize(2);
  RetargetReport r;
  const Clip out = retargetOnto(clip, source, target, &r);
  EXPECT_EQ(r.matched.size(), 3u);
  EXPECT_EQ(r.looseMatches(), 3u);
  EXPECT_EQ(r.matched[0].track, "Bip01 Pelvis");
  EXPECT_EQ(r.matched[0].bone, "Pelvis");
  EXPECT_EQ(r.tracksWithoutBone, (std::vector<std::string>{"Bip01 L Arm", "Bip01 L Hand"}));
  EXPECT_EQ(r.bonesWithoutTrack, (std::vector<std::string>{"Left Arm", "Left Hand", "Tail"}));
  EXPECT_EQ(r.morphTracksDropped, 2u);
  EXPECT_TRUE(r.restCorrected);
  EXPECT_TRUE(out.morphTracks.empty());
  EXPECT_TRUE(out.skeleton.empty());
  const Binding b = bind(out, target);
  EXPECT_FALSE(b.otherSkeleton);
  EXPECT_EQ(b.matched(), 3u);
  EXPECT_EQ(b.tracksWithoutBone, r.tracksWithoutBone);
  EXPECT_EQ(b.bonesWithoutTrack, r.bonesWithoutTrack);
}

// ---- rest-pose differences ----------------------------------------------------------------

// By hand: the target's bones are turned 90° about X at rest (same joints). The clip turns the
// spine 90° about Z: the head swings from (0, 2, 0) to (−1, 1, 0). Copied as it is, the key
// would turn the target's spine about its own length and leave the head where it was.
TEST(Retarget, RestOrientationDifferencesAreCorrectedByHand) {
  const glm::quat none(1, 0, 0, 0);
  const glm::quat x90 = glm::angleAxis(kPi / 2, glm::vec3(1, 0, 0));
  const Skeleton source = build({{"Bip01 Pelvis", -1, {0, 0, 0}, none},
                                 {"Bip01 Spine", 0, {0, 1, 0}, none},
                                 {"Bip01 Head", 1, {0, 2, 0}, none}});
  const Skeleton target = build(
      {{"pelvis", -1, {0, 0, 0}, x90}, {"spine", 0, {0, 1, 0}, x90}, {"head", 1, {0, 2, 0}, x90}});
  // The target's spine hangs 1 along its parent's −Z: its axes are turned.
  expectNear(target.bones[1].translation, {0, 0, -1}, 1e-6f, "target spine rest translation");
  Clip clip;
  clip.name = "turn";
  clip.duration = 1.0f;
  Track spine;
  spine.bone = "Bip01 Spine";
  spine.rotation.add(0.0f, none);
  spine.rotation.add(1.0f, glm::angleAxis(kPi / 2, glm::vec3(0, 0, 1)));
  clip.tracks.push_back(spine);

  const Pose sourcePose = evaluate(source, &clip, 1.0f);
  expectNear(glm::vec3(sourcePose.model[2][3]), {-1, 1, 0}, 1e-5f, "source head");

  const Clip out = retargetOnto(clip, source, target);
  const Pose p = evaluate(target, &out, 1.0f);
  expectNear(glm::vec3(p.model[2][3]), {-1, 1, 0}, 1e-5f, "retargeted head");
  // The spine's axes: its rest axes (X turned 90°) turned 90° about Z in the world.
  const glm::mat3 expected(glm::vec3(0, 1, 0), glm::vec3(0, 0, 1), glm::vec3(1, 0, 0));
  expectNear(glm::mat3(p.model[1]), expected, 1e-5f, "retargeted spine axes");
  const Pose half = evaluate(target, &out, 0.5f);
  const float c = std::cos(kPi / 4), s = std::sin(kPi / 4);
  expectNear(glm::vec3(half.model[2][3]), {-s, 1 + c, 0}, 1e-5f, "retargeted head halfway");

  // Copied without the source's rest pose, the head does not move: the correction matters.
  Clip copied = clip;
  copied.tracks[0].bone = "spine";
  expectNear(glm::vec3(evaluate(target, &copied, 1.0f).model[2][3]), {0, 2, 0}, 1e-5f, "copied");
}

TEST(Retarget, TheSourceRestPoseGivesTheTargetRestPose) {
  std::mt19937 rng(3);
  const Skeleton source = build(character(rng, "Bip01 "));
  const Skeleton target = build(character(rng, "mixamorig:"));
  Clip rest;
  rest.name = "rest";
  rest.duration = 1.0f;
  for (const Bone& b : source.bones) {
    Track t;
    t.bone = b.name;
    t.rotation.add(0.0f, b.rotation);
    t.translation.add(0.0f, b.translation);
    t.scale.add(0.0f, b.scale);
    rest.tracks.push_back(t);
  }
  const Clip out = retargetOnto(rest, source, target);
  const Pose p = evaluate(target, &out, 0.0f);
  const std::vector<glm::mat4> expected = target.restModelMatrices();
  for (std::size_t i = 0; i < target.bones.size(); ++i) {
    expectNear(glm::vec3(p.model[i][3]), glm::vec3(expected[i][3]), 1e-5f, target.bones[i].name);
    expectNear(glm::mat3(p.model[i]), glm::mat3(expected[i]), 1e-5f, target.bones[i].name);
  }
}

// The same character built twice with different bone axes: every joint follows the source's
// motion, and every bone's axes keep their offset O from the source's.
TEST(Retarget, ASkeletonBuiltTwiceWithOtherRestAxesMovesTheSameJoints) {
  for (unsigned seed : {4u, 5u, 6u}) {
    std::mt19937 rng(seed);
    const std::vector<Joint> sj = character(rng, "Bip01 ");
    std::vector<Joint> tj = sj;
    std::vector<glm::quat> offset;
    for (Joint& j : tj) {
      offset.push_back(randomRotation(rng));
      j.world = j.world * offset.back();
      j.name = j.name.substr(6);  // "Bip01 Spine" → "Spine"
    }
    const Skeleton source = build(sj), target = build(tj);
    const Clip clip = randomClip(source, rng);
    RetargetReport r;
    const Clip out = retargetOnto(clip, source, target, &r);
    EXPECT_NEAR(r.sizeRatio, 1.0f, 1e-5f);
    ASSERT_EQ(r.matched.size(), 5u);
    for (float t : {0.0f, 0.35f, 1.0f, 1.62f, 2.0f}) {
      const Pose ps = evaluate(source, &clip, t);
      const Pose pt = evaluate(target, &out, t);
      for (std::size_t i = 0; i < source.bones.size(); ++i) {
        const std::string what =
            "seed " + std::to_string(seed) + " t " + std::to_string(t) + " " + target.bones[i].name;
        expectNear(glm::vec3(pt.model[i][3]), glm::vec3(ps.model[i][3]), 1e-4f, what);
        expectNear(glm::mat3(pt.model[i]), glm::mat3(ps.model[i]) * glm::mat3_cast(offset[i]),
                   1e-4f, what);
      }
    }
  }
}

TEST(Retarget, TranslationsScaleWithTheSkeletonSize) {
  std::mt19937 rng(7);
  const std::vector<Joint> sj = character(rng, "");
  std::vector<Joint> tj = sj;
  for (Joint& j : tj) j.position *= 2.0f;  // the same character, twice as big
  const Skeleton source = build(sj), target = build(tj);
  const Clip clip = randomClip(source, rng);
  RetargetReport r;
  const Clip out = retargetOnto(clip, source, target, &r);
  EXPECT_NEAR(r.sizeRatio, 2.0f, 1e-5f);
  for (float t : {0.0f, 0.9f, 2.0f}) {
    const Pose ps = evaluate(source, &clip, t);
    const Pose pt = evaluate(target, &out, t);
    for (std::size_t i = 0; i < source.bones.size(); ++i)
      expectNear(glm::vec3(pt.model[i][3]), 2.0f * glm::vec3(ps.model[i][3]), 1e-4f, sj[i].name);
  }
}

// A Z-up right-handed source (cal3d) on a Y-up left-handed target (Dragon Nest): the source's
// (x, y, z) is the target's (x, z, y). Joints land where the axes say.
TEST(Retarget, AxesOfAnotherBasisAreCarriedOver) {
  std::mt19937 rng(8);
  const std::vector<Joint> sj = character(rng, "Bip01 ");
  const glm::mat3 swapYZ(glm::vec3(1, 0, 0), glm::vec3(0, 0, 1), glm::vec3(0, 1, 0));
  std::vector<Joint> tj = sj;
  for (Joint& j : tj) {
    j.position = swapYZ * j.position;
    j.world = glm::normalize(glm::quat_cast(swapYZ * glm::mat3_cast(j.world) * swapYZ));
  }
  formats::Scene source, target;
  source.basis = {formats::Axis::Z, true, 0.01f, 0};
  target.basis = {formats::Axis::Y, false, 0.01f, 0};
  source.skeleton = build(sj);
  target.skeleton = build(tj);
  expectNear(axesBetween(source.basis, target.basis), swapYZ, 1e-6f, "axes");
  source.clips.push_back(randomClip(source.skeleton, rng));
  std::vector<RetargetReport> reports;
  const std::vector<Clip> out = retargetClips(source, target, nullptr, &reports);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].matched.size(), 5u);
  for (float t : {0.2f, 1.1f}) {
    const Pose ps = evaluate(source.skeleton, &source.clips[0], t);
    const Pose pt = evaluate(target.skeleton, &out[0], t);
    for (std::size_t i = 0; i < sj.size(); ++i)
      expectNear(glm::vec3(pt.model[i][3]), swapYZ * glm::vec3(ps.model[i][3]), 1e-4f, sj[i].name);
  }
}

TEST(Retarget, WithoutASourceSkeletonKeysAreCopiedUnderTheTargetsNames) {
  std::mt19937 rng(9);
  const Skeleton source = build(character(rng, "Bip01_"));
  const Skeleton target = build(character(rng, ""));
  const Clip clip = randomClip(source, rng);
  const BoneMatcher m(target, nullptr, true);
  RetargetReport r;
  const Clip out = retarget(clip, target, m, RetargetOptions{}, &r);
  EXPECT_FALSE(r.restCorrected);
  ASSERT_EQ(out.tracks.size(), clip.tracks.size());
  for (std::size_t i = 0; i < out.tracks.size(); ++i) {
    EXPECT_EQ(out.tracks[i].bone, target.bones[i].name);
    EXPECT_EQ(out.tracks[i].rotation.values, clip.tracks[i].rotation.values);
    EXPECT_EQ(out.tracks[i].translation.values, clip.tracks[i].translation.values);
  }
}

TEST(RetargetClips, LeavesOutAClipMadeForYetAnotherSkeleton) {
  std::mt19937 rng(10);
  formats::Scene source, target;
  source.skeleton = build(character(rng, ""), "skel_human");
  target.skeleton = build(character(rng, ""));
  source.clips.push_back(randomClip(source.skeleton, rng));
  source.clips.push_back(source.clips[0]);
  source.clips[1].name = "horse";
  source.clips[1].skeleton = "skel_horse";
  source.clips[1].tracks[0].bone = "horse root";  // not every track names a bone of the source
  std::vector<RetargetReport> reports;
  const auto out = retargetClips(source, target, nullptr, &reports);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "moves");
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_FALSE(reports[0].leftOut);
  EXPECT_TRUE(reports[1].leftOut);
  EXPECT_TRUE(reports[1].matched.empty());
  EXPECT_EQ(reports[1].tracksWithoutBone.size(), 5u);
}

// ---- a clip made for a named skeleton ----------------------------------------------------

// Bound as it is, a clip of another named skeleton plays nothing even when its names match (a
// horse clip must not bend a human's bones of the same names); retargeted, it plays.
TEST(RetargetNamedSkeleton, BindsNothingAsItIsAndPlaysOnceRetargeted) {
  std::mt19937 rng(11);
  const Skeleton s = build(character(rng, ""), "skel_human");
  Clip c = randomClip(s, rng);
  c.skeleton = "skel_imported";
  const Binding b = bind(c, s);
  EXPECT_TRUE(b.otherSkeleton);
  EXPECT_EQ(b.matched(), 0u);
  const BoneMatcher m(s, nullptr, true);
  const Clip out = retarget(c, s, m, RetargetOptions{});
  EXPECT_TRUE(out.skeleton.empty());
  const Binding r = bind(out, s);
  EXPECT_FALSE(r.otherSkeleton);
  EXPECT_EQ(r.matched(), 5u);
}

}  // namespace
}  // namespace marrow::anim
