// Warband's actions.txt (warband_module.md §3): the real file of a Native-derived module, both
// header layouts, the spellings the game's scripts print, and hostile text; and the clips the
// actions cut out of animations (formats/model/actions.h), checked against the whole animation
// sampled at the same frame indices.
#include "formats/warband/actions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <filesystem>
#include <string>

#include "formats/io/file.h"
#include "formats/model/actions.h"
#include "formats/registry.h"
#include "render/anim/pose.h"
#include "tests/support/bytes.h"
#include "tests/support/read_context.h"
#include "tests/support/skip.h"

namespace marrow::formats {
namespace {

using testing::bytes;
using testing::named;

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/warband/";
const std::string kBrf = std::string(MARROW_FIXTURES_DIR) + "/brf/";

Result<std::vector<Action>> readText(const std::string& text) {
  return warband::readActions(bytes(text), named("actions.txt"));
}

TEST(WarbandActions, TheRealFileReadsWhole) {
  const std::string path = kFixtures + "actions.txt";
  if (!std::filesystem::exists(path)) MARROW_SKIP() << path << " is absent (../shared/fixtures)";
  auto data = readFile(path);
  ASSERT_TRUE(data.ok());
  const auto actions = warband::readActions(*data, named(path));
  ASSERT_TRUE(actions.ok()) << actions.error().describe();
  // Counted from the file's tokens with a script: 670 actions, 695 sequences, 7 actions of
  // several sequences, 216 cyclic sequences, 77 played backwards, 13 flags printed past 2^31.
  ASSERT_EQ(actions->size(), 670u);
  std::size_t sequences = 0, several = 0, cyclic = 0, backwards = 0, high = 0;
  for (const Action& a : *actions) {
    sequences += a.sequences.size();
    several += a.sequences.size() > 1;
    for (const ActionSequence& s : a.sequences) {
      cyclic += (s.flags & kActionCyclic) != 0;
      backwards += s.begin > s.end;
      high += s.flags >= 0x80000000u;
    }
  }
  EXPECT_EQ(sequences, 695u);
  EXPECT_EQ(several, 7u);
  EXPECT_EQ(cyclic, 216u);
  EXPECT_EQ(backwards, 77u);
  EXPECT_EQ(high, 13u);
  // The first action, field by field: " stand 0 16777216  4" then
  // "  3.000000 anim_human 50 52 1342177280 0 0.000000 0.000000 0.000000  0.250000 ".
  const Action& stand = actions->front();
  EXPECT_EQ(stand.name, "stand");
  EXPECT_EQ(stand.flags, 0u);
  EXPECT_EQ(stand.masterFlags, 16777216u);
  ASSERT_EQ(stand.sequences.size(), 4u);
  const ActionSequence& s = stand.sequences[0];
  EXPECT_EQ(s.duration, 3.0f);
  EXPECT_EQ(s.animation, "anim_human");
  EXPECT_EQ(s.begin, 50);
  EXPECT_EQ(s.end, 52);
  EXPECT_EQ(s.flags, 1342177280u);
  EXPECT_EQ(s.phase, 0.25f);
  EXPECT_EQ(actions->back().name, "unused_horse_anim_100");
  // "  1.000000 walk_backward 0 30 2415919364 58726 …": flags past 2^31 keep their 32 bits.
  bool found = false;
  for (const Action& a : *actions)
    for (const ActionSequence& q : a.sequences)
      if (q.animation == "walk_backward" && q.flags == 2415919364u && q.pack == 58726u) found = true;
  EXPECT_TRUE(found);
}

TEST(WarbandActions, BothHeaderLayoutsAndEverySpellingRead) {
  // The spec's example, in Warband's layout, then M&B 1.011's (no master flags), mixed in one
  // file as some mods have them; LF and CRLF; tabs; empty lines at the end.
  const auto a = readText(
      "3\n"
      " look_around 0 16777216  2\r\n"
      "  4.000000 anim_human 300 340 1342177280 0 0.000000 0.000000 0.000000  0.250000 \r\n"
      "\t4.0 anim_human 360 400 1342177280 0 0.0 0.0 0.0 0.5\n"
      " back_off 256  1\n"
      "  0.800000 anim_human 6040 6000 2 0 -0.5 0.0 0.0 0.0 \n"
      " none 0 0\n"
      "\r\n\n  \n");
  ASSERT_TRUE(a.ok()) << a.error().describe();
  ASSERT_EQ(a->size(), 3u);
  EXPECT_EQ((*a)[0].masterFlags, 16777216u);
  ASSERT_EQ((*a)[0].sequences.size(), 2u);
  EXPECT_EQ((*a)[0].sequences[1].begin, 360);
  EXPECT_EQ((*a)[0].sequences[1].phase, 0.5f);
  EXPECT_EQ((*a)[1].name, "back_off");
  EXPECT_EQ((*a)[1].flags, 256u);
  EXPECT_EQ((*a)[1].masterFlags, 0u);
  EXPECT_EQ((*a)[1].sequences[0].begin, 6040);
  EXPECT_EQ((*a)[1].sequences[0].end, 6000);
  EXPECT_EQ((*a)[1].sequences[0].offset.x, -0.5f);
  EXPECT_TRUE((*a)[2].sequences.empty());  // the writer's " none 0 0" for a missing action
}

TEST(WarbandActions, DamagedTextIsAnErrorNamingTheLineAndItsOffset) {
  struct Case {
    const char* text;
    const char* field;  // a part of the error's field
    std::size_t offset;
  };
  const Case cases[] = {
      {"", "action count", 0},
      {"many\n", "action count", 0},
      {"-1\n", "action count", 0},
      {"99999999999\n x 0 0 1\n", "action count", 0},
      {"2\n a 0 0  1\n  1.0 anim 0 1 0 0 0 0 0 0\n", "action 1", 12},  // the file ends: its last line
      {"1\n a 0 0 0 0 1\n", "action 0 header", 2},                     // 6 fields
      {"1\n a x 0 1\n  1.0 anim 0 1 0 0 0 0 0 0\n", "action 0 header", 2},
      {"1\n a 0 0  5\n  1.0 anim 0 1 0 0 0 0 0 0\n", "action 0 header", 2},  // 5 sequences, 1 line
      {"1\n a 0 0  1\n  1.0 anim 0 1 0 0 0 0 0\n", "sequence 0", 12},  // 9 fields
      {"1\n a 0 0  1\n  nan anim 0 1 0 0 0 0 0 0\n", "duration", 12},
      {"1\n a 0 0  1\n  -1.0 anim 0 1 0 0 0 0 0 0\n", "duration", 12},
      {"1\n a 0 0  1\n  1.0 anim 0 4294967296 0 0 0 0 0 0\n", "frames", 12},
      // Past 2^24 float times cannot hold whole frames (and index arithmetic would overflow).
      {"1\n a 0 0  1\n  1.0 anim 2147483600 2147483647 0 0 0 0 0 0\n", "frames", 12},
      {"1\n a 0 0  1\n  1.0 anim 0 -16777217 0 0 0 0 0 0\n", "frames", 12},
      {"1\n a 0 0  1\n  1.0 anim 0 1 x 0 0 0 0 0\n", "flags", 12},
      {"1\n a 0 0  1\n  1.0 anim 0 1 0 0 0 inf 0 0\n", "sequence 0", 12},
  };
  for (const Case& c : cases) {
    const auto r = readText(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().file, "actions.txt");
    EXPECT_NE(r.error().field.find(c.field), std::string::npos) << c.text << " → " << r.error().describe();
    EXPECT_NE(r.error().field.find("(line "), std::string::npos) << r.error().describe();
    EXPECT_EQ(r.error().offset, c.offset) << c.text << " → " << r.error().describe();
  }
}

TEST(WarbandActions, ACountPastTheLimitsIsRefusedBeforeAnythingIsRead) {
  ReadContext ctx = named("actions.txt");
  ctx.limits.maxClips = 3;
  std::string text = "4\n";
  for (int a = 0; a < 4; ++a) text += " a" + std::to_string(a) + " 0 0  1\n  1.0 anim 0 1 0 0 0 0 0 0\n";
  const auto r = warband::readActions(bytes(text), ctx);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("limit of 3"), std::string::npos) << r.error().describe();
}

TEST(WarbandActions, ContentSaysWhatTheFileIs) {
  EXPECT_TRUE(warband::looksLikeActions(bytes("2\r\n stand 0 16777216  1\r\n  3.0 anim_human 50 52 0 0 0 0 0 0\r\n")));
  EXPECT_TRUE(warband::looksLikeActions(bytes("1\n stand 0  1\n  3.0 anim_human 50 52 0 0 0 0 0 0\n")));
  EXPECT_FALSE(warband::looksLikeActions(bytes("2\nhello world\n")));
  EXPECT_FALSE(warband::looksLikeActions(bytes("2\n stand 0 0 1\n  a b c d e f g h i j\n")));
  EXPECT_FALSE(warband::looksLikeActions(bytes("")));
}

// ---- cutting -------------------------------------------------------------------------------

// A frame-indexed clip of one bone whose angle about Z is `degrees(i)` at key frame index i.
Clip ramp(const std::vector<int>& indices, float (*degrees)(int)) {
  Clip c;
  c.name = "ramp";
  c.frameRate = 30.0f;
  c.frameIndexed = true;
  Track t;
  t.bone = "root";
  for (int i : indices) {
    t.rotation.add(static_cast<float>(i) / 30.0f,
                   glm::angleAxis(glm::radians(degrees(i)), glm::vec3(0.0f, 0.0f, 1.0f)));
    t.translation.add(static_cast<float>(i) / 30.0f, glm::vec3(static_cast<float>(i), 0.0f, 0.0f));
  }
  c.tracks.push_back(t);
  c.duration = static_cast<float>(indices.back()) / 30.0f;
  return c;
}

// The one bone's pose as playback samples the clip (render/anim/pose.h).
anim::Transform localAt(const Clip& c, float t) {
  Skeleton one;
  one.bones.push_back(Bone{"root", -1, {}, {}, glm::vec3(1.0f)});
  return anim::evaluate(one, &c, t).local.at(0);
}
float angleAt(const Clip& c, float t) {
  const glm::quat q = localAt(c, t).rotation;
  return glm::degrees(2.0f * std::atan2(q.z, q.w));
}

TEST(ActionCut, PlaysTheRangeOverTheDurationForwardsAndBackwards) {
  const Clip whole = ramp({0, 10, 20, 30, 40}, [](int i) { return static_cast<float>(i); });
  // 10 → 30 over 2 s: the keys at 10, 20, 30, at 0, 1 and 2 s.
  const Clip fwd = cutClip(whole, 10, 30, 2.0f, "fwd");
  EXPECT_EQ(fwd.duration, 2.0f);
  ASSERT_TRUE(fwd.sourceFrames);
  EXPECT_EQ(fwd.sourceFrames->first, 10);
  EXPECT_EQ(fwd.sourceFrames->last, 30);
  ASSERT_EQ(fwd.tracks[0].rotation.times, (std::vector<float>{0.0f, 1.0f, 2.0f}));
  EXPECT_NEAR(angleAt(fwd, 0.0f), 10.0f, 1e-3f);
  EXPECT_NEAR(angleAt(fwd, 1.0f), 20.0f, 1e-3f);
  EXPECT_NEAR(angleAt(fwd, 2.0f), 30.0f, 1e-3f);
  EXPECT_EQ(fwd.frameRate, 10.0f);  // 20 source frames over 2 s
  // 35 → 5 over 3 s, backwards: the ends sampled between keys, the keys inside kept.
  const Clip back = cutClip(whole, 35, 5, 3.0f, "back");
  ASSERT_EQ(back.tracks[0].rotation.size(), 5u);  // 35, 30, 20, 10, 5
  EXPECT_NEAR(angleAt(back, 0.0f), 35.0f, 1e-3f);
  EXPECT_NEAR(angleAt(back, 0.5f), 30.0f, 1e-3f);
  EXPECT_NEAR(angleAt(back, 3.0f), 5.0f, 1e-3f);
  EXPECT_NEAR(localAt(back, 0.5f).translation.x, 30.0f, 1e-4f);
  // Equal ends: one pose.
  const Clip still = cutClip(whole, 20, 20, 1.0f, "still");
  ASSERT_EQ(still.tracks[0].rotation.size(), 1u);
  EXPECT_NEAR(angleAt(still, 0.7f), 20.0f, 1e-3f);
  // No duration, or one too short to play: the frames at the source's rate.
  EXPECT_NEAR(cutClip(whole, 0, 30, 0.0f, "rate").duration, 1.0f, 1e-6f);
  const Clip tiny = cutClip(whole, 0, 30, 1e-39f, "tiny");
  EXPECT_NEAR(tiny.duration, 1.0f, 1e-6f);
  EXPECT_EQ(tiny.frameRate, 30.0f);
  // Indices past the bound are clamped, not overflowed.
  const Clip far = cutClip(whole, -2147483647, 2147483647, 1.0f, "far");
  EXPECT_EQ(far.sourceFrames->first, -kMaxFrameIndex);
  EXPECT_EQ(far.sourceFrames->last, kMaxFrameIndex);
  EXPECT_TRUE(std::isfinite(far.frameRate));
  // Past the keys: the last pose held.
  EXPECT_NEAR(angleAt(cutClip(whole, 40, 60, 1.0f, "past"), 1.0f), 40.0f, 1e-3f);
}

TEST(ActionCut, ActionsNameTheirClipsAndGapsSplitWithoutThem) {
  Scene s;
  s.clips.push_back(ramp({0, 5, 10, 30, 35, 100, 111, 123}, [](int i) { return static_cast<float>(i) / 2.0f; }));
  Scene gaps = s;
  cutClips(gaps);
  // Gaps of more than 11 frame indices split: 10 → 30, 35 → 100 and 111 → 123 (12); 100 → 111
  // (11) does not.
  std::vector<std::string> names;
  for (const Clip& c : gaps.clips) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ramp", "ramp:0-10", "ramp:30-35", "ramp:100-111", "ramp:123-123"}));
  for (std::size_t k = 1; k < gaps.clips.size(); ++k) EXPECT_EQ(gaps.clips[k].group, "ramp");
  EXPECT_NEAR(gaps.clips[2].duration, 5.0f / 30.0f, 1e-6f);

  Scene acted = s;
  Action one{"ramp", 0, 0, {}};
  one.sequences.push_back({1.0f, "ramp", 0, 10, kActionCyclic, 0, {}, 0.0f, {}});
  Action two{"wave", 0, 0, {}};
  two.sequences.push_back({0.5f, "ramp", 35, 30, 0, 0, {}, 0.0f, {}});
  two.sequences.push_back({0.5f, "missing", 0, 1, 0, 0, {}, 0.0f, {}});
  acted.actions = {one, two};
  cutClips(acted);
  ASSERT_EQ(acted.clips.size(), 3u);  // no gap split when there are actions
  EXPECT_EQ(acted.clips[1].name, "ramp (action)");  // the animation has the name already
  EXPECT_EQ(acted.clips[1].loops, std::optional<bool>(true));
  EXPECT_EQ(acted.clips[2].name, "wave:1");
  EXPECT_EQ(acted.clips[2].loops, std::optional<bool>(false));
  EXPECT_EQ(acted.clips[2].group, "ramp");
  EXPECT_EQ(acted.actions[0].sequences[0].clip, "ramp (action)");
  EXPECT_EQ(acted.actions[1].sequences[0].clip, "wave:1");
  EXPECT_EQ(acted.actions[1].sequences[1].clip, "");
  ASSERT_EQ(acted.diagnostics.items.size(), 1u);
  EXPECT_NE(acted.diagnostics.items[0].message.find("'missing'"), std::string::npos);
  // Cut once: combining the model again adds nothing.
  cutClips(acted);
  EXPECT_EQ(acted.clips.size(), 3u);
}

TEST(ActionCut, CuttingStopsAtAKeyBudgetWithAWord) {
  Scene s;
  std::vector<int> indices;
  for (int i = 0; i <= 1000; ++i) indices.push_back(i);
  s.clips.push_back(ramp(indices, [](int i) { return static_cast<float>(i % 90); }));
  // 2 channels × ~1001 keys per cut: the budget of 2^23 keys lasts about 4,190 cuts.
  Action greedy{"greedy", 0, 0, {}};
  for (int k = 0; k < 6000; ++k) greedy.sequences.push_back({1.0f, "ramp", 0, 1000, 0, 0, {}, 0.0f, {}});
  s.actions = {greedy};
  cutClips(s);
  std::uint64_t keys = 0;
  for (std::size_t c = 1; c < s.clips.size(); ++c) keys += s.clips[c].keyCount();
  EXPECT_LE(keys, kMaxCutKeys);
  EXPECT_GT(s.clips.size(), 4000u);
  EXPECT_LT(s.clips.size(), 6001u);
  EXPECT_EQ(s.actions[0].sequences.back().clip, "");
  bool said = false;
  for (const auto& d : s.diagnostics.items) said |= d.message.find("keys in all") != std::string::npos;
  EXPECT_TRUE(said);
}

// The real module's actions on real animations: each action's clip at its start and end poses
// as the whole animation does at the begin and end frame indices.
TEST(ActionCut, RealActionsOnRealAnimationsPoseAsTheAnimationAtTheirFrames) {
  const std::string actions = kFixtures + "actions.txt";
  const std::string walk = kBrf + "wfas_ani_walk_backward.brf", skeletons = kBrf + "wfas_skeletons.brf";
  for (const std::string& p : {actions, walk, skeletons})
    if (!std::filesystem::exists(p)) MARROW_SKIP() << p << " is absent (../shared/fixtures)";
  auto read = [](const std::string& p) {
    auto d = readFile(p);
    EXPECT_TRUE(d.ok());
    return Input{std::move(d).value(), named(p), {}, p};
  };
  auto r = readInputs({read(skeletons), read(walk), read(actions)});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Scene& s = *r;
  EXPECT_EQ(s.actions.size(), 670u);
  const auto clip = [&](const std::string& name) -> const Clip* {
    for (const Clip& c : s.clips)
      if (c.name == name) return &c;
    return nullptr;
  };
  const Clip* whole = clip("anim_human");
  ASSERT_TRUE(whole);
  std::size_t checked = 0;
  for (const Action& a : s.actions)
    for (const ActionSequence& q : a.sequences) {
      if (q.animation != "anim_human" && q.animation != "walk_backward") {
        EXPECT_EQ(q.clip, "") << a.name;  // its animation is not open
        continue;
      }
      const Clip* c = clip(q.clip);
      ASSERT_TRUE(c) << a.name;
      EXPECT_EQ(c->duration, q.duration > 0 ? q.duration : std::abs(q.end - q.begin) / 30.0f) << a.name;
      EXPECT_EQ(c->loops, std::optional<bool>((q.flags & kActionCyclic) != 0));
      const Clip* from = clip(q.animation);
      const auto near = [&](float cutTime, int frame) {
        const anim::Pose x = anim::evaluate(s.skeleton, c, cutTime);
        const anim::Pose y = anim::evaluate(s.skeleton, from, static_cast<float>(frame) / 30.0f);
        float worst = 0.0f;
        for (std::size_t b = 0; b < x.model.size(); ++b)
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) worst = std::max(worst, std::abs(x.model[b][i][j] - y.model[b][i][j]));
        return worst;
      };
      EXPECT_LT(near(0.0f, q.begin), 1e-4f) << a.name << " at its begin frame " << q.begin;
      EXPECT_LT(near(c->duration, q.end), 1e-4f) << a.name << " at its end frame " << q.end;
      ++checked;
    }
  EXPECT_EQ(checked, 146u + 2u);  // every anim_human and walk_backward sequence of the file
}

}  // namespace
}  // namespace marrow::formats
