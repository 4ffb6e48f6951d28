// The bundled demo character meets its requirements, checked on the model the generator builds.
#include "resources/demo/demo_character.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include "formats/model/validate.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

namespace {

using marrow::formats::Clip;
using marrow::formats::Mesh;
using marrow::formats::Scene;

const Scene& demo() {
  static const Scene scene = marrow::demo::makeDemoCharacter();
  return scene;
}

const Mesh& mesh() {
  return demo().meshes.front();
}

const Clip& clip(std::string_view name) {
  for (const auto& c : demo().clips)
    if (c.name == name) return c;
  ADD_FAILURE() << "no clip " << name;
  return demo().clips.front();
}

std::vector<glm::vec3> skinnedAt(const Clip* c, float t) {
  const auto pose = marrow::anim::evaluate(demo().skeleton, c, t);
  std::vector<glm::mat4> palette;
  marrow::anim::skinPalette(demo().skeleton, mesh(), pose, palette);
  std::vector<glm::vec3> out;
  marrow::anim::skin(mesh(), marrow::anim::packInfluences(mesh()), palette, out);
  return out;
}

// Vertices that move only with the given bones (weights summing to 1 over them).
std::vector<std::size_t> verticesOf(std::initializer_list<std::string_view> bones) {
  std::set<std::uint32_t> ids;
  for (auto b : bones) ids.insert(static_cast<std::uint32_t>(demo().skeleton.find(b)));
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < mesh().vertexCount(); ++v) {
    float w = 0.0f;
    for (const auto& i : mesh().influencesOf(v))
      if (ids.contains(i.bone)) w += i.weight;
    if (w > 0.999f) out.push_back(v);
  }
  return out;
}

int frameCount(const Clip& c) {
  return static_cast<int>(std::lround(c.duration * c.frameRate));
}

TEST(DemoCharacter, IsAValidScene) {
  const auto problems = marrow::formats::validate(demo());
  EXPECT_TRUE(problems.empty()) << problems.front();
}

TEST(DemoCharacter, IsDeterministic) {
  const Scene again = marrow::demo::makeDemoCharacter();
  ASSERT_EQ(again.meshes.size(), demo().meshes.size());
  EXPECT_EQ(again.meshes.front().positions, mesh().positions);
  EXPECT_EQ(again.meshes.front().indices, mesh().indices);
  ASSERT_EQ(again.clips.size(), demo().clips.size());
  for (std::size_t c = 0; c < again.clips.size(); ++c)
    for (std::size_t t = 0; t < again.clips[c].tracks.size(); ++t)
      EXPECT_EQ(again.clips[c].tracks[t].rotation.values,
                demo().clips[c].tracks[t].rotation.values);
}

TEST(DemoCharacter, HasAtLeastTwentyBones) {
  EXPECT_EQ(demo().skeleton.bones.size(), 27u);  // the requirement: at least 20
}

TEST(DemoCharacter, HasOneRootBone) {
  EXPECT_EQ(demo().skeleton.rootCount(), 1u);
}

TEST(DemoCharacter, HasAtLeastTwoThousandTriangles) {
  std::size_t triangles = 0;
  for (const auto& m : demo().meshes) triangles += m.triangleCount();
  EXPECT_EQ(triangles, 14652u);  // the requirement: at least 2000
}

TEST(DemoCharacter, ColoursEveryVertex) {
  ASSERT_EQ(mesh().colors.size(), mesh().vertexCount());
  for (const auto& c : mesh().colors)
    for (int k = 0; k < 4; ++k) {
      EXPECT_GE(c[k], 0.0f);
      EXPECT_LE(c[k], 1.0f);
    }
  // Not one flat colour: skin, clothes, hair and shoes differ.
  std::set<std::tuple<float, float, float>> distinct;
  for (const auto& c : mesh().colors) distinct.insert({c.r, c.g, c.b});
  // The palette has 13 colours (skin, blush, hair, shirt, trousers, belt, socks, shoes, soles, eyes,
  // mouth...) and the cheeks blend skin into blush. How many blend steps come out distinct depends
  // on how the compiler contracts the float arithmetic (gcc 25 in all, clang 26), so a lower bound.
  EXPECT_GE(distinct.size(), 13u);
}

TEST(DemoCharacter, HasAUnitNormalOnEveryVertex) {
  ASSERT_EQ(mesh().normals.size(), mesh().vertexCount());
  for (const auto& n : mesh().normals) EXPECT_NEAR(glm::length(n), 1.0f, 1e-4f);
}

TEST(DemoCharacter, UsesItsMaterial) {
  ASSERT_FALSE(demo().materials.empty());
  for (const auto& m : demo().meshes) EXPECT_EQ(m.material, 0);
}

TEST(DemoCharacter, NamesFitInOmfSixteenByteFields) {
  for (const auto& b : demo().skeleton.bones) EXPECT_LE(b.name.size(), 16u) << b.name;
  for (const auto& c : demo().clips) EXPECT_LE(c.name.size(), 16u) << c.name;
  for (const auto& m : demo().meshes) EXPECT_LE(m.name.size(), 16u) << m.name;
  for (const auto& m : demo().materials) EXPECT_LE(m.name.size(), 16u) << m.name;
}

TEST(DemoCharacter, BoneNamesAreUnique) {
  std::set<std::string> names;
  for (const auto& b : demo().skeleton.bones) EXPECT_TRUE(names.insert(b.name).second) << b.name;
}

TEST(DemoCharacter, HasWalkWaveAndIdleClips) {
  std::set<std::string> names;
  for (const auto& c : demo().clips) names.insert(c.name);
  EXPECT_TRUE(names.contains(std::string(marrow::demo::kWalkClip)));
  EXPECT_TRUE(names.contains(std::string(marrow::demo::kWaveClip)));
  EXPECT_TRUE(names.contains(std::string(marrow::demo::kIdleClip)));
}

TEST(DemoCharacter, ClipsLastAsDesigned) {
  EXPECT_FLOAT_EQ(clip(marrow::demo::kWalkClip).duration, 1.1f);  // 1 to 1.2 s
  EXPECT_FLOAT_EQ(clip(marrow::demo::kWaveClip).duration, 2.8f);  // 2 to 3 s
}

TEST(DemoCharacter, EveryTrackBindsToABone) {
  for (const auto& c : demo().clips) {
    const auto binding = marrow::anim::bind(c, demo().skeleton);
    EXPECT_TRUE(binding.tracksWithoutBone.empty())
        << c.name << ": " << binding.tracksWithoutBone.front();
    EXPECT_EQ(binding.matched(), c.tracks.size()) << c.name;
  }
}

TEST(DemoCharacter, KeysFallOnWholeFramesAtThirtyFps) {
  for (const auto& c : demo().clips) {
    EXPECT_EQ(c.frameRate, 30.0f) << c.name;
    EXPECT_NEAR(c.duration * 30.0f, std::round(c.duration * 30.0f), 1e-3f) << c.name;
    for (const auto& t : c.tracks) {
      EXPECT_EQ(t.translation.times, t.rotation.times) << c.name << "/" << t.bone;
      EXPECT_TRUE(t.scale.empty()) << c.name << "/" << t.bone;
      for (float time : t.rotation.times) {
        EXPECT_NEAR(time * 30.0f, std::round(time * 30.0f), 1e-3f) << c.name << "/" << t.bone;
        EXPECT_LE(time, c.duration + 1e-6f);
      }
    }
  }
}

TEST(DemoCharacter, RotationsAreUnitQuaternions) {
  for (const auto& b : demo().skeleton.bones) EXPECT_NEAR(glm::length(b.rotation), 1.0f, 1e-6f);
  for (const auto& c : demo().clips)
    for (const auto& t : c.tracks)
      for (const auto& q : t.rotation.values) EXPECT_NEAR(glm::length(q), 1.0f, 1e-5f) << c.name;
}

TEST(DemoCharacter, WeightsSumToOneWithAtMostEightInfluences) {
  ASSERT_TRUE(mesh().skinned());
  EXPECT_LE(mesh().maxInfluences(), 8u);
  for (std::size_t v = 0; v < mesh().vertexCount(); ++v) {
    const auto inf = mesh().influencesOf(v);
    ASSERT_FALSE(inf.empty()) << "vertex " << v;
    float sum = 0.0f;
    for (const auto& i : inf) {
      EXPECT_GT(i.weight, 0.0f);
      sum += i.weight;
    }
    EXPECT_NEAR(sum, 1.0f, 1e-5f) << "vertex " << v;
  }
}

TEST(DemoCharacter, BlendsBonesAroundTheJoints) {
  // Elbows, knees, shoulders, hips and the spine all bend smoothly: somewhere a vertex is
  // shared between each of these pairs of bones.
  const std::pair<const char*, const char*> joints[] = {
      {"upperarm_l", "forearm_l"},  {"upperarm_r", "forearm_r"},
      {"thigh_l", "shin_l"},        {"thigh_r", "shin_r"},
      {"clavicle_l", "upperarm_l"}, {"chest", "clavicle_r"},
      {"pelvis", "thigh_r"},        {"spine1", "spine2"},
      {"forearm_l", "hand_l"},      {"neck", "head"}};
  for (const auto& [a, b] : joints) {
    const auto ia = static_cast<std::uint32_t>(demo().skeleton.find(a));
    const auto ib = static_cast<std::uint32_t>(demo().skeleton.find(b));
    bool shared = false;
    for (std::size_t v = 0; v < mesh().vertexCount() && !shared; ++v) {
      bool hasA = false, hasB = false;
      for (const auto& i : mesh().influencesOf(v)) {
        hasA = hasA || (i.bone == ia && i.weight > 0.2f);
        hasB = hasB || (i.bone == ib && i.weight > 0.2f);
      }
      shared = hasA && hasB;
    }
    EXPECT_TRUE(shared) << a << " / " << b;
  }
}

TEST(DemoCharacter, StandsOnTheGroundAtHumanHeight) {
  glm::vec3 lo, hi;
  ASSERT_TRUE(marrow::formats::restBounds(demo(), lo, hi));
  EXPECT_NEAR(lo.y, 0.0f, 0.002f);
  EXPECT_GE(hi.y - lo.y, 1.6f);
  EXPECT_LE(hi.y - lo.y, 1.9f);
  // Centred on the origin left to right.
  EXPECT_NEAR(lo.x + hi.x, 0.0f, 0.01f);
}

TEST(DemoCharacter, FacesPlusZ) {
  // The toes are in front of the ankles, the nose in front of the head's centre.
  const auto& bones = demo().skeleton;
  const auto rest = bones.restModelMatrices();
  for (const char* side : {"_l", "_r"}) {
    const int foot = bones.find(std::string("foot") + side);
    const int toe = bones.find(std::string("toe") + side);
    EXPECT_GT(rest[toe][3].z, rest[foot][3].z + 0.05f);
  }
  glm::vec3 lo, hi;
  marrow::formats::restBounds(demo(), lo, hi);
  const auto head = verticesOf({"head"});
  float front = -1.0f, back = 1.0f;
  for (auto v : head) {
    front = std::max(front, mesh().positions[v].z);
    back = std::min(back, mesh().positions[v].z);
  }
  EXPECT_GT(front, -back);
}

TEST(DemoCharacter, PartsAreClosedAndConsistentlyWound) {
  // Every directed edge appears once and its reverse once: each part is a closed surface and
  // all of its triangles wind the same way.
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  const auto& idx = mesh().indices;
  for (std::size_t t = 0; t + 2 < idx.size(); t += 3)
    for (int k = 0; k < 3; ++k) ++edges[{idx[t + k], idx[t + (k + 1) % 3]}];
  std::size_t bad = 0;
  for (const auto& [e, n] : edges)
    if (n != 1 || !edges.contains({e.second, e.first})) ++bad;
  EXPECT_EQ(bad, 0u);
}

TEST(DemoCharacter, FrontFacesPointOutwards) {
  // Parts: connected components of the index graph. A closed part wound counter-clockwise seen
  // from outside encloses a positive signed volume.
  std::vector<std::uint32_t> parent(mesh().vertexCount());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const auto& idx = mesh().indices;
  const auto& p = mesh().positions;
  for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
    parent[find(idx[t])] = find(idx[t + 1]);
    parent[find(idx[t + 1])] = find(idx[t + 2]);
  }
  std::map<std::uint32_t, double> volume;
  for (std::size_t t = 0; t + 2 < idx.size(); t += 3)
    volume[find(idx[t])] += glm::dot(glm::dvec3(p[idx[t]]), glm::cross(glm::dvec3(p[idx[t + 1]]),
                                                                       glm::dvec3(p[idx[t + 2]]))) /
                            6.0;
  EXPECT_EQ(volume.size(), 32u);  // the closed parts
  for (const auto& [root, v] : volume) EXPECT_GT(v, 0.0) << "part at vertex " << root;
}

TEST(DemoCharacter, NormalsAgreeWithWinding) {
  const auto& idx = mesh().indices;
  const auto& p = mesh().positions;
  const auto& n = mesh().normals;
  std::size_t disagree = 0;
  for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
    const glm::vec3 face = glm::cross(p[idx[t + 1]] - p[idx[t]], p[idx[t + 2]] - p[idx[t]]);
    if (glm::dot(face, n[idx[t]] + n[idx[t + 1]] + n[idx[t + 2]]) <= 0.0f) ++disagree;
  }
  EXPECT_EQ(disagree, 0u);
}

TEST(DemoCharacter, EveryClipLoops) {
  for (const auto& c : demo().clips) {
    const auto a = marrow::anim::evaluate(demo().skeleton, &c, 0.0f);
    const auto b = marrow::anim::evaluate(demo().skeleton, &c, c.duration);
    for (std::size_t i = 0; i < a.model.size(); ++i)
      for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 4; ++row)
          EXPECT_NEAR(a.model[i][col][row], b.model[i][col][row], 1e-5f)
              << c.name << " bone " << demo().skeleton.bones[i].name;
  }
}

TEST(DemoCharacter, WalkKeepsTheFeetOnTheGround) {
  const Clip& walk = clip(marrow::demo::kWalkClip);
  const int frames = frameCount(walk);
  for (const char* side : {"_l", "_r"}) {
    const auto foot = verticesOf({std::string("foot") + side, std::string("toe") + side});
    ASSERT_FALSE(foot.empty());
    int planted = 0;
    float lowest = 1.0f, highest = -1.0f;
    for (int f = 0; f < frames; ++f) {
      const auto pos = skinnedAt(&walk, static_cast<float>(f) / walk.frameRate);
      float y = 1.0f;
      for (auto v : foot) y = std::min(y, pos[v].y);
      if (y < 0.01f) ++planted;
      lowest = std::min(lowest, y);
      highest = std::max(highest, y);
    }
    // On the ground for about the stance phase (more than a third of the cycle), never far
    // through it, and lifted clear during the swing.
    EXPECT_GE(planted, frames * 4 / 10) << side;
    EXPECT_EQ(planted, std::string_view(side) == "_l" ? 22 : 23) << side;
    EXPECT_GE(lowest, -0.01f) << side;
    EXPECT_GE(highest, 0.04f) << side;
  }
}

TEST(DemoCharacter, WalkDoesNotSkate) {
  // A planted sole moves backwards at one steady speed (the walking speed of an in-place
  // cycle): pick the lowest vertex of each foot at rest and follow it while it is on the ground.
  const Clip& walk = clip(marrow::demo::kWalkClip);
  const int frames = frameCount(walk);
  for (const char* side : {"_l", "_r"}) {
    const auto foot = verticesOf({std::string("foot") + side});
    std::size_t sole = foot.front();
    for (auto v : foot)
      if (std::fabs(mesh().positions[v].z) + mesh().positions[v].y * 10.0f <
          std::fabs(mesh().positions[sole].z) + mesh().positions[sole].y * 10.0f)
        sole = v;
    std::vector<float> speeds;
    glm::vec3 previous(0.0f);
    bool previousPlanted = false;
    for (int f = 0; f <= frames; ++f) {
      const glm::vec3 p = skinnedAt(&walk, static_cast<float>(f) / walk.frameRate)[sole];
      const bool planted = p.y < 0.003f;
      if (planted && previousPlanted) speeds.push_back((p.z - previous.z) * walk.frameRate);
      previous = p;
      previousPlanted = planted;
    }
    ASSERT_EQ(speeds.size(), std::string_view(side) == "_l" ? 11u : 10u) << side;
    std::sort(speeds.begin(), speeds.end());
    const float median = speeds[speeds.size() / 2];
    EXPECT_LT(median, -0.7f) << side << ": the ground should pass backwards at walking speed";
    for (float s : speeds) EXPECT_NEAR(s, median, 0.1f * std::fabs(median)) << side;
  }
}

TEST(DemoCharacter, PosesActuallyMove) {
  struct Expect {
    std::string_view clip;
    float atLeast;
  };
  for (const Expect e :
       {Expect{marrow::demo::kWalkClip, 0.3f}, Expect{marrow::demo::kWaveClip, 0.5f},
        Expect{marrow::demo::kIdleClip, 0.005f}}) {
    const Clip& c = clip(e.clip);
    const auto a = skinnedAt(&c, 0.0f);
    const auto b = skinnedAt(&c, c.duration * 0.5f);
    float most = 0.0f;
    for (std::size_t v = 0; v < a.size(); ++v) most = std::max(most, glm::length(a[v] - b[v]));
    EXPECT_GE(most, e.atLeast) << e.clip;
  }
}

TEST(DemoCharacter, WaveRaisesTheRightHandAboveTheShoulder) {
  const Clip& wave = clip(marrow::demo::kWaveClip);
  const auto right = verticesOf({"hand_r", "fingers_r", "thumb_r"});
  const auto left = verticesOf({"hand_l", "fingers_l", "thumb_l"});
  const auto pos = skinnedAt(&wave, wave.duration * 0.5f);
  float rightTop = 0.0f, leftTop = 0.0f;
  for (auto v : right) rightTop = std::max(rightTop, pos[v].y);
  for (auto v : left) leftTop = std::max(leftTop, pos[v].y);
  EXPECT_GT(rightTop, 1.55f);
  EXPECT_LT(leftTop, 1.1f);
  // The right hand is on the character's right (-X).
  float x = 0.0f;
  for (auto v : right) x += pos[v].x;
  EXPECT_LT(x / static_cast<float>(right.size()), -0.2f);
}

TEST(DemoCharacter, WaveWavesSeveralTimes) {
  // The hand's sideways position changes direction at least four times while the arm is up.
  const Clip& wave = clip(marrow::demo::kWaveClip);
  const auto hand = verticesOf({"fingers_r"});
  std::vector<float> xs;
  for (int f = 0; f <= frameCount(wave); ++f) {
    const auto pos = skinnedAt(&wave, static_cast<float>(f) / wave.frameRate);
    glm::vec3 sum(0.0f);
    for (auto v : hand) sum += pos[v];
    if (sum.y / static_cast<float>(hand.size()) > 1.5f)
      xs.push_back(sum.x / static_cast<float>(hand.size()));
  }
  int turns = 0;
  for (std::size_t i = 1; i + 1 < xs.size(); ++i)
    if ((xs[i] - xs[i - 1]) * (xs[i + 1] - xs[i]) < 0.0f) ++turns;
  EXPECT_EQ(turns, 10);  // at least four
}

}  // namespace
