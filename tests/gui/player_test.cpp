// app/player without a window: the play mode a clip's own looping sets (Clip::loops, from a
// Warband action's arf_cyclic) until the user chooses one, and frames numbered as the file
// numbers them (Clip::sourceFrames of a clip cut from an animation).
#include "app/player.h"

#include <QTest>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>

#include "formats/model/scene.h"

using marrow::anim::PlayMode;
using marrow::app::Player;
using marrow::formats::Clip;
using marrow::formats::Scene;

namespace {

Clip clip(const char* name, std::optional<bool> loops, float duration = 1.0f) {
  Clip c;
  c.name = name;
  c.duration = duration;
  c.loops = loops;
  return c;
}

// Clip 0 loops, 1 plays once, 2 does not say.
std::shared_ptr<const Scene> threeClips() {
  auto s = std::make_shared<Scene>();
  s->clips = {clip("walk", true), clip("attack", false), clip("pose", std::nullopt)};
  return s;
}

// A clip cut from frames `first` to `last` of an animation at 30 frames per second.
Clip cut(int first, int last) {
  Clip c;
  c.name = "cut";
  c.group = "anim_human";
  const int frames = std::abs(last - first);
  c.frameRate = 30.0f;
  c.duration = static_cast<float>(frames) / c.frameRate;
  c.sourceFrames = Clip::FrameSpan{first, last};
  return c;
}

}  // namespace

class PlayerTest : public QObject {
  Q_OBJECT

 private slots:
  // Nothing to go on first: no scene, the rest pose, a clip that does not say.
  void withoutAClipTheModeAndFramesAreLeftAlone() {
    Player p;
    QCOMPARE(p.mode(), PlayMode::Loop);
    p.setClip(3);
    QCOMPARE(p.clipIndex(), -1);
    QCOMPARE(p.fileFrameOf(7), 7);
    QVERIFY(!p.modeChosen());
  }

  void aClipThatDoesNotSayLeavesTheModeAsItWas() {
    Player p;
    p.setScene(threeClips());
    p.setClip(1);
    QCOMPARE(p.mode(), PlayMode::Once);
    p.setClip(2);
    QCOMPARE(p.mode(), PlayMode::Once);
    p.setClip(0);
    QCOMPARE(p.mode(), PlayMode::Loop);
    p.setClip(2);
    QCOMPARE(p.mode(), PlayMode::Loop);
    p.setClip(-1);
    QCOMPARE(p.mode(), PlayMode::Loop);
  }

  void aClipThatLoopsLoopsAndOneThatDoesNotPlaysOnce() {
    Player p;
    auto s = std::make_shared<Scene>();
    s->clips = {clip("attack", false), clip("walk", true)};
    p.setScene(s);  // the first clip becomes current: it says Once
    QCOMPARE(p.clipIndex(), 0);
    QCOMPARE(p.mode(), PlayMode::Once);
    p.setClip(1);
    QCOMPARE(p.mode(), PlayMode::Loop);
    QVERIFY(!p.modeChosen());

    // And it plays that way: Once stops at the end, Loop goes round.
    p.setClip(0);
    p.play();
    p.advance(1.5);
    QVERIFY(!p.playing());
    QCOMPARE(p.time(), 1.0);
    p.setClip(1);
    p.play();
    p.advance(1.25);
    QVERIFY(p.playing());
    QVERIFY(std::abs(p.time() - 0.25) < 1e-9);
  }

  void theModeTheUserChoseOutlastsClipsAndScenes() {
    Player p;
    p.setScene(threeClips());
    QCOMPARE(p.mode(), PlayMode::Loop);
    p.setMode(PlayMode::PingPong);
    QVERIFY(p.modeChosen());
    p.setClip(1);
    QCOMPARE(p.mode(), PlayMode::PingPong);
    p.setClip(0);
    QCOMPARE(p.mode(), PlayMode::PingPong);
    // Choosing what a clip would have set is a choice too.
    p.setMode(PlayMode::Loop);
    p.setClip(1);
    QCOMPARE(p.mode(), PlayMode::Loop);
    // Another model in the same session: still the user's.
    auto s = std::make_shared<Scene>();
    s->clips = {clip("attack", false)};
    p.setScene(s);
    QCOMPARE(p.mode(), PlayMode::Loop);
  }

  void aCutClipsFramesAreItsSourcesFrameIndices() {
    Player p;
    auto s = std::make_shared<Scene>();
    s->clips = {cut(1205, 1240)};
    p.setScene(s);
    QCOMPARE(p.frameCount(), 36);
    QCOMPARE(p.fileFrame(), 1205);
    p.setFrame(5);
    QCOMPARE(p.fileFrame(), 1210);
    p.setFrame(35);
    QCOMPARE(p.fileFrame(), 1240);
    QCOMPARE(p.fileFrameOf(0), 1205);
  }

  void aClipCutBackwardsCountsDown() {
    Player p;
    auto s = std::make_shared<Scene>();
    s->clips = {cut(120, 110)};
    p.setScene(s);
    QCOMPARE(p.frameCount(), 11);
    QCOMPARE(p.fileFrameOf(0), 120);
    QCOMPARE(p.fileFrameOf(3), 117);
    QCOMPARE(p.fileFrameOf(10), 110);
  }

  // An action may last longer than its frames at the file's rate: the clip's own rate is slower,
  // and its first and last frames are still the source's first and last.
  void aStretchedCutClipStillEndsOnItsLastSourceFrame() {
    Player p;
    auto s = std::make_shared<Scene>();
    Clip c = cut(50, 52);
    c.duration = 3.0f;
    c.frameRate = 2.0f / 3.0f;
    s->clips = {c};
    p.setScene(s);
    QCOMPARE(p.frameCount(), 3);
    QCOMPARE(p.fileFrameOf(0), 50);
    QCOMPARE(p.fileFrameOf(1), 51);
    QCOMPARE(p.fileFrameOf(2), 52);
    p.setTime(3.0);
    QCOMPARE(p.fileFrame(), 52);
  }

  void aWholeClipsFramesAreItsOwn() {
    Player p;
    auto s = std::make_shared<Scene>();
    Clip c = clip("anim_human", std::nullopt, 10.0f);
    c.frameIndexed = true;
    s->clips = {c};
    p.setScene(s);
    p.setFrame(42);
    QCOMPARE(p.fileFrame(), 42);
  }

  void aSingleFrameCutIsItsFirstFrame() {
    QCOMPARE(marrow::app::sourceFrameIndex(7, 7, 0, 0), 7);
    QCOMPARE(marrow::app::sourceFrameIndex(7, 9, 5, 0), 7);  // no frames to share out
    QCOMPARE(marrow::app::sourceFrameIndex(7, 9, 9, 2), 9);  // past the end: the last
  }

  // Issue 19: Warband's skeletons with an armour and walk_backward opened on anim_human
  // (3,333 s). The model opens on the shortest whole clip that plays on it; with actions, on the
  // first clip an action cut.
  void aModelOpensOnItsShortestWholeClipThatFits() {
    auto s = std::make_shared<Scene>();
    for (const char* name : {"root", "spine"}) {
      marrow::formats::Bone b;
      b.name = name;
      b.parent = s->skeleton.bones.empty() ? -1 : 0;
      s->skeleton.bones.push_back(b);
    }
    const auto animated = [](const char* name, float duration, const char* bone) {
      Clip c = clip(name, std::nullopt, duration);
      marrow::formats::Track t;
      t.bone = bone;
      t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
      c.tracks.push_back(t);
      return c;
    };
    Clip piece = animated("anim_human:270-290", 0.667f, "spine");
    piece.sourceFrames = Clip::FrameSpan{270, 290};
    s->clips = {animated("anim_human", 3333.0f, "root"), animated("tail_wag", 0.3f, "tail"),
                animated("walk_backward", 1.0f, "spine"), piece, animated("idle", 2.0f, "root")};
    Player p;
    p.setScene(s);
    QCOMPARE(p.clipIndex(), 2);  // not the piece cut at a gap, not the tail's clip
    // With actions, the first clip an action cut.
    auto withActions = std::make_shared<Scene>(*s);
    withActions->actions.push_back({});
    p.setScene(withActions);
    QCOMPARE(p.clipIndex(), 3);
    // No clip that fits: the first.
    auto none = std::make_shared<Scene>(*s);
    none->clips = {animated("a", 2.0f, "x"), animated("b", 1.0f, "y")};
    p.setScene(none);
    QCOMPARE(p.clipIndex(), 0);
  }
};

QTEST_GUILESS_MAIN(PlayerTest)

#include "player_test.moc"
