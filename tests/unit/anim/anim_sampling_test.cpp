#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "render/anim/pose.h"

namespace marrow::anim {
namespace {

using formats::Bone;
using formats::Clip;
using formats::Skeleton;
using formats::Track;

Skeleton twoBones() {
  Skeleton s;
  s.bones.push_back(Bone{"root", -1, {0, 0, 0}, {1, 0, 0, 0}, {1, 1, 1}});
  s.bones.push_back(Bone{"child", 0, {0, 1, 0}, glm::angleAxis(0.3f, glm::vec3(0, 0, 1)), {1, 1, 1}});
  return s;
}

Clip oneTrackClip(const std::string& bone) {
  Clip c;
  c.name = "c";
  c.duration = 2.0f;
  Track t;
  t.bone = bone;
  t.translation.add(0.0f, {0, 0, 0});
  t.translation.add(1.0f, {2, 0, 0});
  t.translation.add(2.0f, {2, 4, 0});
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  t.rotation.add(2.0f, glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)));
  c.tracks.push_back(t);
  return c;
}

TEST(AnimBind, ReportsBonesMissingOnEitherSide) {
  const Skeleton s = twoBones();
  Clip c = oneTrackClip("root");
  c.tracks.push_back(oneTrackClip("nobody").tracks[0]);
  const Binding b = bind(c, s);
  ASSERT_EQ(b.boneOfTrack.size(), 2u);
  EXPECT_EQ(b.boneOfTrack[0], 0);
  EXPECT_EQ(b.boneOfTrack[1], -1);
  EXPECT_EQ(b.tracksWithoutBone, std::vector<std::string>{"nobody"});
  EXPECT_EQ(b.bonesWithoutTrack, std::vector<std::string>{"child"});
  EXPECT_EQ(b.matched(), 1u);
}

TEST(AnimSample, HoldsBeforeTheFirstAndAfterTheLastKey) {
  const Skeleton s = twoBones();
  Clip c = oneTrackClip("root");
  c.tracks[0].translation.times = {0.5f, 1.0f, 1.5f};
  Pose p = restPose(s);
  sample(c, bind(c, s), s, 0.0f, p);
  EXPECT_EQ(p.local[0].translation, glm::vec3(0, 0, 0));
  sample(c, bind(c, s), s, 2.0f, p);
  EXPECT_EQ(p.local[0].translation, glm::vec3(2, 4, 0));
}

TEST(AnimSample, InterpolatesTranslationLinearlyAndRotationBySlerp) {
  const Skeleton s = twoBones();
  const Clip c = oneTrackClip("root");
  Pose p = restPose(s);
  sample(c, bind(c, s), s, 0.5f, p);
  EXPECT_NEAR(p.local[0].translation.x, 1.0f, 1e-6f);
  sample(c, bind(c, s), s, 1.0f, p);
  const glm::quat half = glm::angleAxis(glm::radians(45.0f), glm::vec3(0, 1, 0));
  EXPECT_NEAR(std::fabs(glm::dot(p.local[0].rotation, half)), 1.0f, 1e-6f);
}

TEST(AnimSample, SlerpTakesTheShortestPath) {
  const Skeleton s = twoBones();
  Clip c = oneTrackClip("root");
  // The second key is the same rotation as 90° about Y, written as its negative: the path must
  // still be 45° at the middle, not 135°.
  c.tracks[0].rotation.values[1] = -c.tracks[0].rotation.values[1];
  Pose p = restPose(s);
  sample(c, bind(c, s), s, 1.0f, p);
  const float angle = glm::degrees(2.0f * std::acos(std::min(1.0f, std::fabs(p.local[0].rotation.w))));
  EXPECT_NEAR(angle, 45.0f, 1e-3f);
}

TEST(AnimSample, StepChannelsHoldTheEarlierKey) {
  const Skeleton s = twoBones();
  Clip c = oneTrackClip("root");
  c.tracks[0].translation.interpolation = formats::Interpolation::Step;
  Pose p = restPose(s);
  sample(c, bind(c, s), s, 0.99f, p);
  EXPECT_EQ(p.local[0].translation, glm::vec3(0, 0, 0));
  sample(c, bind(c, s), s, 1.0f, p);
  EXPECT_EQ(p.local[0].translation, glm::vec3(2, 0, 0));
}

TEST(AnimSample, BonesWithoutTrackKeepTheirRestPose) {
  const Skeleton s = twoBones();
  const Clip c = oneTrackClip("root");
  Pose p = restPose(s);
  sample(c, bind(c, s), s, 1.3f, p);
  EXPECT_EQ(p.local[1].translation, s.bones[1].translation);
  EXPECT_EQ(p.local[1].rotation, s.bones[1].rotation);
}

TEST(AnimSample, AResetPoseIsTheRestPoseWhateverItHeldBefore) {
  const Skeleton s = twoBones();
  const Clip c = oneTrackClip("root");
  // A pose sampled away from the rest, and one of a bigger skeleton: both come back to the rest.
  Pose sampled = restPose(s);
  sample(c, bind(c, s), s, 1.3f, sampled);
  computeModel(s, sampled);
  ASSERT_NE(sampled.local[0].translation, s.bones[0].translation);
  Pose bigger;
  bigger.local.resize(7, Transform{glm::vec3(5.0f), glm::quat(0.0f, 1.0f, 0.0f, 0.0f), glm::vec3(2.0f)});
  bigger.model.resize(7);
  for (Pose* p : {&sampled, &bigger}) {
    resetToRest(s, *p);
    ASSERT_EQ(p->local.size(), s.bones.size());
    ASSERT_EQ(p->model.size(), s.bones.size());
    for (std::size_t i = 0; i < s.bones.size(); ++i) {
      EXPECT_EQ(p->local[i].translation, s.bones[i].translation) << i;
      EXPECT_EQ(p->local[i].rotation, s.bones[i].rotation) << i;
      EXPECT_EQ(p->local[i].scale, s.bones[i].scale) << i;
    }
  }
}

TEST(AnimSample, CachedSequentialPlaybackEqualsUncachedRandomSeeks) {
  const Skeleton s = twoBones();
  Clip c;
  c.duration = 10.0f;
  Track t;
  t.bone = "child";
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int k = 0; k <= 100; ++k) {
    t.translation.add(k * 0.1f, {u(rng), u(rng), u(rng)});
    t.rotation.add(k * 0.1f, glm::normalize(glm::quat(u(rng) + 2, u(rng), u(rng), u(rng))));
  }
  c.tracks.push_back(t);
  const Binding b = bind(c, s);
  SamplingCache cache;
  Pose cached = restPose(s), plain = restPose(s);
  std::vector<float> times;
  for (float x = -0.5f; x < 10.5f; x += 0.0137f) times.push_back(x);  // forwards, past both ends
  for (int i = 0; i < 200; ++i) times.push_back((u(rng) + 1.0f) * 5.0f);  // then random seeks
  for (float x : times) {
    sample(c, b, s, x, cached, &cache);
    sample(c, b, s, x, plain, nullptr);
    ASSERT_EQ(cached.local[1].translation, plain.local[1].translation) << "t=" << x;
    ASSERT_EQ(cached.local[1].rotation, plain.local[1].rotation) << "t=" << x;
  }
}

Skeleton twelveBones() {
  Skeleton s;
  for (int i = 0; i < 12; ++i)
    s.bones.push_back(Bone{"b" + std::to_string(i), i - 1, {0, 0, 0}, {1, 0, 0, 0}, {1, 1, 1}});
  return s;
}

// Bones 1 to 11 keyed at the same 31 times, with every kind of key that gives the blends trouble.
Clip commonTimesClip(bool boneKeyedTwice) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  Clip shared;
  shared.duration = 3.0f;
  for (int i = 1; i < 12; ++i) {
    Track t;
    t.bone = "b" + std::to_string(i);
    for (int k = 0; k <= 30; ++k) {
      const float time = k * 0.1f;
      t.translation.add(time, {u(rng), u(rng), u(rng)});
      glm::quat q = glm::normalize(glm::quat(u(rng) + (i % 3 ? 4.0f : 0.0f), u(rng), u(rng), u(rng)));
      if (i == 4 && k % 2) q = -q;                            // the other hemisphere: flipped
      if (i == 5) q = glm::quat(0, 0, 0, 0);                  // no length: the identity
      if (i == 6) q = q * (k % 2 ? 3.0f : 0.25f);             // keys off unit length
      if (i == 7) q = glm::angleAxis(k * 0.5f, glm::vec3(0, 0, 1));  // far apart: slerp
      t.rotation.add(time, q);
      if (i == 8) t.scale.add(time, {1 + u(rng), 1, 1});
    }
    if (i == 9) t.rotation.interpolation = formats::Interpolation::Step;
    if (i == 10) t.translation.times.back() = 3.05f;  // agrees everywhere but the last interval
    shared.tracks.push_back(t);
  }
  if (boneKeyedTwice) {
    shared.tracks.push_back(shared.tracks[2]);  // a bone keyed twice: its last track wins
    shared.tracks.back().rotation.values[3] = glm::quat(0.5f, 0.5f, 0.5f, 0.5f);
  }
  return shared;
}

// The same tracks behind one keyed at other times: no channel agrees with the first track's
// interval, so each is searched on its own.
Clip behindASpoiler(const Clip& clip) {
  Clip alone = clip;
  Track spoiler;
  spoiler.bone = "b0";
  spoiler.rotation.add(0.013f, glm::quat(1, 0, 0, 0));
  spoiler.rotation.add(2.987f, glm::angleAxis(1.0f, glm::vec3(1, 0, 0)));
  alone.tracks.insert(alone.tracks.begin(), spoiler);
  return alone;
}

// Every bone but b0 (the spoiler's).
void expectSameFloats(const Skeleton& s, const Pose& p, const Pose& q, float t) {
  ASSERT_EQ(p.local.size(), q.local.size());
  for (std::size_t b = 0; b < p.local.size(); ++b) {
    if (s.bones[b].name == "b0") continue;
    const auto& x = p.local[b];
    const auto& y = q.local[b];
    ASSERT_EQ(0, std::memcmp(&x.translation, &y.translation, sizeof x.translation)) << "bone " << b << " t=" << t;
    ASSERT_EQ(0, std::memcmp(&x.rotation, &y.rotation, sizeof x.rotation)) << "bone " << b << " t=" << t;
    ASSERT_EQ(0, std::memcmp(&x.scale, &y.scale, sizeof x.scale)) << "bone " << b << " t=" << t;
  }
}

// Tracks keyed at the same times share one interval search, and their rotations are blended four
// at a time: the poses must be the very floats of each channel searched on its own. (A bone keyed
// twice keeps the cache from laying the keys out: this is the path without that table.)
TEST(AnimSample, TracksKeyedAtTheSameTimesGiveTheFloatsOfTracksSearchedAlone) {
  const Skeleton s = twelveBones();
  // The bone keyed twice, its second track stepped (sampled apart) or linear (blended in the same
  // batch of four as its first track: the last written must win).
  for (const auto second : {formats::Interpolation::Step, formats::Interpolation::Linear}) {
    SCOPED_TRACE(second == formats::Interpolation::Step ? "second track stepped" : "second track linear");
    Clip shared = commonTimesClip(true);
    shared.tracks.back().rotation.interpolation = second;
    const Clip alone = behindASpoiler(shared);
    const Binding bs = bind(shared, s), ba = bind(alone, s);
    SamplingCache cache;
    Pose p = restPose(s), q = restPose(s);
    for (float t = 0.0f; t < 3.2f; t += 0.0171f) {
      sample(shared, bs, s, t, p, &cache, true);
      sample(alone, ba, s, t, q, nullptr, true);
      expectSameFloats(s, p, q, t);
    }
    EXPECT_FALSE(cache.holdsTable());  // a bone keyed twice: no table
    // Spot checks against the definition: the identity for keys of no length, unit length otherwise.
    sample(shared, bs, s, 1.234f, p);
    EXPECT_EQ(p.local[5].rotation, glm::quat(1, 0, 0, 0));
    EXPECT_NEAR(glm::length(p.local[6].rotation), 1.0f, 1e-6f);
    // Bone b3's last track is the copy whose fourth key differs: that one wins.
    Clip last, first;
    last.tracks.push_back(shared.tracks.back());
    first.tracks.push_back(shared.tracks[2]);
    Pose r = restPose(s);
    sample(shared, bs, s, 0.35f, p, &cache);
    sample(last, bind(last, s), s, 0.35f, q);
    sample(first, bind(first, s), s, 0.35f, r);
    EXPECT_EQ(p.local[3].rotation, q.local[3].rotation);
    EXPECT_NE(p.local[3].rotation, r.local[3].rotation);
  }
}

// With a cache, the channels keyed at the common times are copied into a table four channels
// wide and blended from there; every other channel (other times, stepped, one key, none, a bone
// the skeleton lacks) goes its own way. The floats must be those of each channel searched alone,
// playing forwards, looping past the last key and seeking anywhere.
TEST(AnimSample, ACachesTableOfTheCommonKeysGivesTheFloatsOfTracksSearchedAlone) {
  const Skeleton s = twelveBones();
  Clip clip = commonTimesClip(false);
  clip.duration = 3.4f;  // past the last key: running on to the first one
  clip.wrapsToFirstKey = true;
  clip.tracks[2].translation = {};             // not keyed: the rest pose's
  clip.tracks[3].scale.add(0.5f, {2, 2, 2});   // one key
  clip.tracks[4].rotation.times[7] += 0.001f;  // one time off: not common
  Track ghost = clip.tracks[0];
  ghost.bone = "not in the skeleton";
  clip.tracks.insert(clip.tracks.begin() + 5, ghost);
  const Clip alone = behindASpoiler(clip);
  const Binding bc = bind(clip, s), ba = bind(alone, s);
  std::vector<float> times;
  for (float t = -0.1f; t < 3.6f; t += 0.0171f) times.push_back(t);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-0.2f, 3.6f);
  for (int i = 0; i < 300; ++i) times.push_back(u(rng));
  times.push_back(1.0f);  // on a key
  SamplingCache cache;
  Pose p = restPose(s), q = restPose(s);
  for (float t : times) {
    sample(clip, bc, s, t, p, &cache, true);
    sample(alone, ba, s, t, q, nullptr, true);
    expectSameFloats(s, p, q, t);
  }
  EXPECT_TRUE(cache.holdsTable());  // the floats above came through the table

  // A channel emptied since the table was made is not read: the clip is sampled track by track.
  clip.tracks[3].scale = {};
  const Clip emptied = behindASpoiler(clip);
  sample(clip, bc, s, 1.3f, p, &cache, true);
  sample(emptied, bind(emptied, s), s, 1.3f, q, nullptr, true);
  expectSameFloats(s, p, q, 1.3f);
  EXPECT_EQ(p.local[static_cast<std::size_t>(bc.boneOfTrack[3])].scale, glm::vec3(1.0f));
}

// Rotations between keys too far apart for the normalised lerp take the slerp, computed with the
// sampler's own acos and sin (pose.cpp) four lanes at a time or one by one: through the cache's
// table, through shared intervals without it and channel by channel, the same floats; and within
// a few float roundings of the slerp computed in double precision (for keys off unit length, of
// the angle whose cosine is their dot, as mix defines it). Keys at every angle up to 180°
// (flipped to the shortest path), just past the lerp's limit, near ones beside far ones in one
// batch of four, keys off unit length.
TEST(AnimSample, SlerpOfFarKeysIsTheSameEveryWayAndCloseToTheExactRotation) {
  const Skeleton s = twelveBones();
  std::mt19937 rng(11);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Clip clip;
  clip.duration = 4.0f;
  for (int i = 1; i < 12; ++i) {
    Track t;
    t.bone = "b" + std::to_string(i);
    glm::quat q(1, 0, 0, 0);
    for (int k = 0; k <= 40; ++k) {
      const glm::vec3 axis = glm::normalize(glm::vec3(g(rng), g(rng), g(rng)));
      // Angles between neighbouring keys: up to 360° (beyond 180° the shortest path flips),
      // around the lerp's limit (cos of the half angle 0.9995: 3.6°), or small.
      const float angle = i % 4 == 0   ? glm::radians(u(rng) * 360.0f)
                          : i % 4 == 1 ? glm::radians(3.0f + u(rng) * 1.2f)
                          : i % 4 == 2 ? glm::radians(u(rng) * 180.0f)
                                       : glm::radians(u(rng) * 2.0f);
      q = glm::normalize(glm::angleAxis(angle, axis) * q);
      glm::quat key = k % 3 == 0 ? -q : q;
      if (i == 6) key *= k % 2 ? 1.5f : 0.75f;  // off unit length
      t.rotation.add(static_cast<float>(k) * 0.1f, key);
    }
    clip.tracks.push_back(t);
  }
  const Clip alone = behindASpoiler(clip);
  const Binding bc = bind(clip, s), ba = bind(alone, s);
  SamplingCache cache;
  Pose table = restPose(s), shared = restPose(s), each = restPose(s);
  double worst = 0.0;
  int far = 0;
  for (float t = 0.003f; t < 3.99f; t += 0.0137f) {
    sample(clip, bc, s, t, table, &cache, true);
    sample(clip, bc, s, t, shared, nullptr, true);
    sample(alone, ba, s, t, each, nullptr, true);
    expectSameFloats(s, table, each, t);
    expectSameFloats(s, shared, each, t);
    const auto& times = clip.tracks[0].rotation.times;
    const std::size_t k = static_cast<std::size_t>(
        std::upper_bound(times.begin(), times.end(), t) - times.begin() - 1);
    const float f = (t - times[k]) / (times[k + 1] - times[k]);
    for (int i = 1; i < 12; ++i) {
      const auto& keys = clip.tracks[static_cast<std::size_t>(i - 1)].rotation.values;
      const glm::dquat a(keys[k]);
      glm::dquat b(keys[k + 1]);
      double c = glm::dot(a, b);
      if (c < 0.0) {
        b = -b;
        c = -c;
      }
      if (std::fabs(glm::dot(keys[k], keys[k + 1])) > 0.9995f) continue;  // the lerp's, as mix decides
      ++far;
      const double theta = std::acos(c);
      const glm::dquat exact =
          glm::normalize(a * std::sin((1.0 - f) * theta) + b * std::sin(f * theta));
      const glm::dquat got(table.local[static_cast<std::size_t>(i)].rotation);
      const double error = glm::length(glm::dvec4(got.x - exact.x, got.y - exact.y,
                                                  got.z - exact.z, got.w - exact.w));
      worst = std::max(worst, error);
      ASSERT_LT(error, 1e-6) << "bone " << i << " t=" << t << " angle " << 2.0 * theta;
    }
  }
  EXPECT_TRUE(cache.holdsTable());
  EXPECT_GT(far, 1000);
  std::printf("%d slerped rotations; worst distance from the double-precision slerp %.3g\n", far, worst);
}

// A cache given another clip, or the same clip bound to another skeleton, lays the keys out again.
TEST(AnimSample, ACacheGivenAnotherClipOrBindingSamplesThatOne) {
  const Skeleton s = twelveBones();
  Skeleton reversed;
  for (auto it = s.bones.rbegin(); it != s.bones.rend(); ++it) reversed.bones.push_back(*it);
  for (std::size_t i = 0; i < reversed.bones.size(); ++i) reversed.bones[i].parent = -1;
  const Clip a = commonTimesClip(false);
  Clip b = a;
  for (auto& track : b.tracks)
    for (auto& v : track.translation.values) v *= 2.0f;
  SamplingCache cache;
  const auto check = [&](const Clip& clip, const Skeleton& skeleton, float t) {
    const Binding binding = bind(clip, skeleton);
    Pose p = restPose(skeleton), q = restPose(skeleton);
    sample(clip, binding, skeleton, t, p, &cache);
    sample(behindASpoiler(clip), bind(behindASpoiler(clip), skeleton), skeleton, t, q, nullptr);
    expectSameFloats(skeleton, p, q, t);
    EXPECT_TRUE(cache.holdsTable());
  };
  check(a, s, 1.05f);
  check(b, s, 1.15f);
  check(b, reversed, 1.25f);
  check(a, s, 0.35f);
}

// p.model against glm's translate * mat4_cast * scale and products, bone by bone, to the bit.
void expectModelMatricesOfGlm(const Skeleton& s, const Pose& p, const char* when) {
  ASSERT_EQ(p.model.size(), s.bones.size()) << when;
  std::vector<glm::mat4> expected;
  for (std::size_t i = 0; i < s.bones.size(); ++i) {
    const Transform& t = p.local[i];
    const glm::mat4 local = glm::translate(glm::mat4(1.0f), t.translation) * glm::mat4_cast(t.rotation) *
                            glm::scale(glm::mat4(1.0f), t.scale);
    const int parent = s.bones[i].parent;
    expected.push_back(parent >= 0 && parent < static_cast<int>(i) ? expected[static_cast<std::size_t>(parent)] * local
                                                                   : local);
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        ASSERT_EQ(p.model[i][c][r], expected[i][c][r]) << when << ": bone " << i << " [" << c << "][" << r << "]";
  }
}

// Model matrices are parent times T R S, the very floats of glm's translate * mat4_cast * scale
// and products, whichever instructions the CPU gives: bones in any order of parents, roots among
// them, a parent given after its child (taken as a root), keys off unit length or of none.
TEST(AnimPose, ModelMatricesAreTheFloatsOfGlmsProducts) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-2, 2);
  Skeleton s;
  Pose p;
  for (int i = 0; i < 64; ++i) {
    int parent = i == 0 || i % 13 == 0 ? -1 : static_cast<int>(rng() % static_cast<unsigned>(i));
    if (i == 20) parent = 40;
    s.bones.push_back(Bone{"b" + std::to_string(i), parent, {}, {1, 0, 0, 0}, {1, 1, 1}});
    Transform t{{u(rng), u(rng), u(rng)}, glm::quat(u(rng), u(rng), u(rng), u(rng)), {u(rng), u(rng), u(rng)}};
    if (i % 3 == 0) t.rotation = glm::normalize(t.rotation);
    if (i == 7) t.rotation = glm::quat(0, 0, 0, 0);
    if (i == 8) t.scale = {0, 1, -1};
    p.local.push_back(t);
  }
  computeModel(s, p);
  expectModelMatricesOfGlm(s, p, "random parents");
}

// computeModel keeps the order it multiplies in (by depth) for the last skeleton it saw: a
// skeleton whose parents change in place, or another skeleton of the same size, must not be
// multiplied in the old order (a child before its new parent would read a stale matrix).
TEST(AnimPose, ModelMatricesFollowParentsChangedInPlace) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-2, 2);
  Skeleton s;
  Pose p;
  // A chain of 20 bones, then 20 children of the root: by depth, bones 20–39 come before 2–19.
  for (int i = 0; i < 40; ++i) {
    s.bones.push_back(Bone{"b" + std::to_string(i), i < 20 ? i - 1 : 0, {}, {1, 0, 0, 0}, {1, 1, 1}});
    p.local.push_back(Transform{{u(rng), u(rng), u(rng)}, glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))),
                                {1, 1, 1}});
  }
  computeModel(s, p);
  expectModelMatricesOfGlm(s, p, "a chain and the root's children");
  // One chain of 40: in the order above, bone 20 would be multiplied before its new parent 19.
  for (int i = 20; i < 40; ++i) s.bones[static_cast<std::size_t>(i)].parent = i - 1;
  computeModel(s, p);
  expectModelMatricesOfGlm(s, p, "parents changed in place");
  Skeleton other = s;
  for (int i = 1; i < 40; ++i) other.bones[static_cast<std::size_t>(i)].parent = i % 3 == 0 ? 0 : i - 1;
  computeModel(other, p);
  expectModelMatricesOfGlm(other, p, "another skeleton");
  computeModel(s, p);
  expectModelMatricesOfGlm(s, p, "the first again");
}

TEST(AnimPose, MultiplyEachGivesTheFloatsOfGlmsProduct) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-3, 3);
  std::vector<glm::mat4> a(37), b(37), out(37);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) {
        a[i][c][r] = u(rng);
        b[i][c][r] = u(rng);  // not affine: every term counts
      }
  multiplyEach(a.data(), b.data(), out.data(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const glm::mat4 expected = a[i] * b[i];
    ASSERT_EQ(0, std::memcmp(&out[i], &expected, sizeof expected)) << i;
  }
}

TEST(AnimClipTime, LoopWrapsAndReachesTheDuration) {
  EXPECT_FLOAT_EQ(clipTime(2.0f, 2.0f, PlayMode::Loop), 2.0f);  // the last key is reached
  EXPECT_NEAR(clipTime(2.5f, 2.0f, PlayMode::Loop), 0.5f, 1e-6f);
  EXPECT_NEAR(clipTime(-0.5f, 2.0f, PlayMode::Loop), 1.5f, 1e-6f);
}

TEST(AnimClipTime, OnceClampsAndPingPongReflects) {
  EXPECT_FLOAT_EQ(clipTime(3.0f, 2.0f, PlayMode::Once), 2.0f);
  EXPECT_FLOAT_EQ(clipTime(-1.0f, 2.0f, PlayMode::Once), 0.0f);
  EXPECT_NEAR(clipTime(2.5f, 2.0f, PlayMode::PingPong), 1.5f, 1e-6f);
  EXPECT_NEAR(clipTime(4.5f, 2.0f, PlayMode::PingPong), 0.5f, 1e-6f);
}

TEST(AnimClipTime, ZeroDurationAndNonFiniteTimesGiveZero) {
  EXPECT_EQ(clipTime(1.0f, 0.0f, PlayMode::Loop), 0.0f);
  EXPECT_EQ(clipTime(NAN, 2.0f, PlayMode::Loop), 0.0f);
}

TEST(AnimPose, ModelMatricesComposeParentThenChild) {
  const Skeleton s = twoBones();
  const Pose p = evaluate(s, nullptr, 0.0f);
  const glm::vec3 childAt(p.model[1][3]);
  EXPECT_NEAR(childAt.y, 1.0f, 1e-6f);
  const auto rest = s.restModelMatrices();
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(p.model[i][c][r], rest[i][c][r], 1e-6f);
}

}  // namespace
}  // namespace marrow::anim

namespace marrow::anim {
namespace {

TEST(AnimSample, LoopingCyclicClipRunsFromTheLastKeyBackToTheFirstAtTheDuration) {
  const Skeleton s = twoBones();
  Clip c = oneTrackClip("root");
  c.duration = 3.0f;  // the last key is at 2 s
  c.wrapsToFirstKey = true;
  Pose p = restPose(s);
  sample(c, bind(c, s), s, 2.5f, p, nullptr, /*looping=*/true);
  EXPECT_NEAR(p.local[0].translation.y, 2.0f, 1e-6f);  // halfway from (2,4,0) back to (0,0,0)
  sample(c, bind(c, s), s, 3.0f, p, nullptr, true);
  EXPECT_NEAR(glm::length(p.local[0].translation), 0.0f, 1e-6f);
  // Played once, or a clip that does not wrap, holds the last key.
  sample(c, bind(c, s), s, 2.5f, p, nullptr, false);
  EXPECT_EQ(p.local[0].translation, glm::vec3(2, 4, 0));
  c.wrapsToFirstKey = false;
  sample(c, bind(c, s), s, 2.5f, p, nullptr, true);
  EXPECT_EQ(p.local[0].translation, glm::vec3(2, 4, 0));
}

}  // namespace
}  // namespace marrow::anim

namespace marrow::anim {
namespace {

TEST(AnimSample, LoopingCyclicClipShowsItsFirstKeyAtTheDurationEvenWithAClosingKeyThere) {
  const Skeleton s = twoBones();
  Clip c = oneTrackClip("root");  // translation keys at 0, 1, 2 s: (0,0,0), (2,0,0), (2,4,0)
  c.duration = 2.0f;
  c.wrapsToFirstKey = true;
  Pose p = restPose(s);
  sample(c, bind(c, s), s, 2.0f, p, nullptr, /*looping=*/true);
  EXPECT_EQ(p.local[0].translation, glm::vec3(0, 0, 0));
  sample(c, bind(c, s), s, 2.0f, p, nullptr, /*looping=*/false);
  EXPECT_EQ(p.local[0].translation, glm::vec3(2, 4, 0));
}

}  // namespace
}  // namespace marrow::anim
