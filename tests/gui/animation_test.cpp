// Animation in the viewer: a clip of another skeleton attached and retargeted (what plays, what
// the timeline and the Log say, what is drawn), a bone-name map, the selected bone's key ticks,
// stepped and smooth playback, Render Frames and Copy Pose as Text.
//
// The model is tests/support/retarget_test_character.h: an OMF skeleton and a cal3d skeleton + clip
// of the same character with other bone names, axes and up axis.
#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <glm/gtc/quaternion.hpp>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/scrub_bar.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/anim/pose.h"
#include "render/gl/offscreen.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/images.h"
#include "tests/support/qt_bytes.h"
#include "tests/support/retarget_test_character.h"

using marrow::app::MainWindow;
using marrow::testing::logText;
using marrow::testing::meanDifference;
using marrow::testing::waitLoaded;
using marrow::testing::writeBytes;

namespace {

constexpr int kLoadTimeoutMs = 30000;

int boneIndex(const MainWindow& w, const char* name) {
  return w.document()->scene->skeleton.find(name);
}

glm::vec3 modelPosition(MainWindow& w, const char* bone) {
  const int i = boneIndex(w, bone);
  if (i < 0) return glm::vec3(NAN);
  return glm::vec3(w.player().pose().model[static_cast<std::size_t>(i)][3]);
}

bool near(const glm::vec3& a, const glm::vec3& b) {
  return glm::length(a - b) < 1e-4f;
}

}  // namespace

class AnimationTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString csf_, caf_, omf_;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const auto c = marrow::testing::writeRetargetCharacter();
    csf_ = dir_.filePath(QStringLiteral("hero.csf"));
    caf_ = dir_.filePath(QStringLiteral("hero_nod.caf"));
    omf_ = dir_.filePath(QStringLiteral("target.omf"));
    QVERIFY(writeBytes(csf_, c.csf) && writeBytes(caf_, c.caf) && writeBytes(omf_, c.omf));
  }

  // Invalid input first: a bone map that is not one leaves everything as it was.
  void aBadBoneMapIsLoggedAndChangesNothing() {
    MainWindow w;
    w.show();
    QVERIFY(waitLoaded(w, [&] { w.openFiles({omf_}); }, kLoadTimeoutMs));
    const QString map = dir_.filePath(QStringLiteral("bad.map"));
    QFile f(map);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("Bip01 Tail sword\n");
    f.close();
    const int logged = w.log()->count();
    QVERIFY(!w.setBoneNameMap(map));
    QVERIFY(w.log()->count() > logged);
    QVERIFY(logText(w).contains(QStringLiteral("line 1")));
  }

  void aClipOfAnotherSkeletonIsRetargetedAndSaysWhatMatched() {
    MainWindow w;
    w.resize(900, 700);
    w.show();
    QVERIFY(waitLoaded(w, [&] { w.openFiles({omf_}); }, kLoadTimeoutMs));
    QCOMPARE(w.player().clipCount(), 0);
    const QImage rest = w.viewport()->grabFramebuffer();

    QVERIFY(waitLoaded(w, [&] { w.attachFiles({csf_, caf_}); }, kLoadTimeoutMs));
    QCOMPARE(w.document()->paths, QStringList{omf_});  // the model's files: the clips came apart
    QCOMPARE(w.player().clipCount(), 1);
    QCOMPARE(w.document()->scene->skeleton.bones.size(), std::size_t{4});  // no bone added
    QVERIFY(w.player().playing());
    const QString log = logText(w);
    QVERIFY2(log.contains(QStringLiteral("retargeted onto the model's skeleton")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("3 of 4 tracks play")), qPrintable(log));
    const QString binding = w.timeline()->bindingText();
    QVERIFY2(binding.contains(QStringLiteral("3 of 4 tracks")), qPrintable(binding));
    QVERIFY2(binding.contains(QStringLiteral("Bip01 Tail")), qPrintable(binding));
    QVERIFY2(binding.contains(QStringLiteral("1 bone without a track")), qPrintable(binding));

    // The matched bones move as the source's do (worked out in retarget_test_character.h). Once:
    // a looping cal3d cycle is back at its start at its end.
    w.timeline()->pause();
    w.player().setMode(marrow::anim::PlayMode::Once);
    w.timeline()->seek(1.0);
    QVERIFY(near(modelPosition(w, "pelvis"), {0.2f, 1, 0}));
    QVERIFY(near(modelPosition(w, "head"), {0.2f, 1.5f, 0.5f}));
    QVERIFY(near(modelPosition(w, "sword"), {0.5f, 1.5f, -0.1f}));
    // And the view draws it moved.
    const QImage moved = w.viewport()->grabFramebuffer();
    QVERIFY(meanDifference(rest, moved) > 0.01);

    // Reload keeps the attached clip.
    QVERIFY(waitLoaded(w, [&] { w.reload(); }, kLoadTimeoutMs));
    QCOMPARE(w.player().clipCount(), 1);
    QCOMPARE(QString::fromStdString(w.player().clip()->name), QStringLiteral("hero_nod"));

    // A bone map gives the tail the sword: every track plays, every bone has one.
    const QString map = dir_.filePath(QStringLiteral("bones.map"));
    QFile f(map);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# tail onto the sword\nBip01 Tail = sword\n");
    f.close();
    bool read = false;
    QVERIFY(waitLoaded(w, [&] { read = w.setBoneNameMap(map); }, kLoadTimeoutMs));
    QVERIFY(read);
    QCOMPARE(w.player().clipCount(), 1);
    QVERIFY2(w.timeline()->bindingText().isEmpty(), qPrintable(w.timeline()->bindingText()));
    QVERIFY(logText(w).contains(QStringLiteral("1 through the bone map")));
    w.setBoneNameMap({});  // the map goes with the test

    // Opening another model leaves the attached clips behind.
    QVERIFY(waitLoaded(w, [&] { w.openFiles({omf_}); }, kLoadTimeoutMs));
    QCOMPARE(w.player().clipCount(), 0);
  }

  // A clip made for a named skeleton of another bone count (a BRF animation) plays on a skeleton
  // whose bones it all names (the same game's armature under another name), and only then.
  void aClipOfAnotherBoneCountPlaysWhenEveryTrackNamesABone() {
    auto scene = std::make_shared<marrow::formats::Scene>();
    for (const char* name : {"root", "spine", "head", "weapon"}) {
      marrow::formats::Bone b;
      b.name = name;
      b.parent = static_cast<int>(scene->skeleton.bones.size()) - 1;
      b.translation = {0, 1, 0};
      scene->skeleton.bones.push_back(b);
    }
    marrow::formats::Clip c;
    c.name = "walk";
    c.duration = 1.0f;
    c.skeleton = "skel_human";  // three bones there
    for (const char* name : {"root", "spine", "head"}) {
      marrow::formats::Track t;
      t.bone = name;
      t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
      t.rotation.add(1.0f, glm::angleAxis(1.0f, glm::vec3(0, 0, 1)));
      c.tracks.push_back(t);
    }
    scene->clips.push_back(c);
    c.name = "other";
    c.tracks[2].bone = "tail";
    scene->clips.push_back(c);
    marrow::app::Player p;
    p.setScene(scene);
    p.setClip(0);
    QVERIFY2(p.mismatch().empty(), p.mismatch().c_str());
    p.setTime(0.5);
    QVERIFY(p.pose().local[1].rotation != glm::quat(1, 0, 0, 0));  // the spine turned
    p.setClip(1);
    QVERIFY(!p.mismatch().empty());
  }

  void keyTicksAreTheSelectedBonesKeyTimes() {
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(waitLoaded(w, [&] { w.openFiles({csf_, caf_}); }, kLoadTimeoutMs));
    QCOMPARE(w.player().clipCount(), 1);
    auto* scrub = w.timeline()->findChild<marrow::app::ScrubBar*>();
    QVERIFY(scrub);
    QVERIFY(scrub->keyTimes().empty());  // no bone selected

    // The head's track has keys at 0, 0.4 and 1 s; the spine's at 0 and 1 s.
    w.bones()->selectBone(boneIndex(w, "Bip01 Head"));
    QCOMPARE(scrub->keyTimes(), (std::vector<float>{0.0f, 0.4f, 1.0f}));
    w.bones()->selectBone(boneIndex(w, "Bip01 Spine"));
    QCOMPARE(scrub->keyTimes(), (std::vector<float>{0.0f, 1.0f}));

    // Drawn where the times fall: the key colour at the 0.4 s tick of the head, nowhere near
    // 0.6 s where it has none.
    w.bones()->selectBone(boneIndex(w, "Bip01 Head"));
    const QImage bar = scrub->grab().toImage();
    const auto keyColourInColumn = [&](double seconds) {
      const int x =
          static_cast<int>(std::lround(scrub->positionOf(seconds) * bar.devicePixelRatio()));
      for (int dx = -1; dx <= 1; ++dx)
        for (int y = 0; y < bar.height(); ++y) {
          const QColor c = bar.pixelColor(std::clamp(x + dx, 0, bar.width() - 1), y);
          const QColor k = marrow::app::ScrubBar::keyColor();
          if (std::abs(c.red() - k.red()) < 24 && std::abs(c.green() - k.green()) < 24 &&
              std::abs(c.blue() - k.blue()) < 24)
            return true;
        }
      return false;
    };
    w.timeline()->seek(0.0);  // the playhead out of the way
    QVERIFY(keyColourInColumn(0.4));
    QVERIFY(!keyColourInColumn(0.6));
    w.bones()->selectBone(-1);
    QVERIFY(scrub->keyTimes().empty());
  }

  // The handle sits under the cursor at every moment of a drag, paused or playing: its
  // position, the pixels drawn and the pose all follow the mouse before the button is released.
  void theScrubHandleFollowsTheDrag() {
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(waitLoaded(w, [&] { w.openFiles({csf_, caf_}); }, kLoadTimeoutMs));
    QCOMPARE(w.player().clipCount(), 1);
    const double duration = w.player().duration();
    QCOMPARE(duration, 1.0);  // hero_nod's
    auto* scrub = w.timeline()->findChild<marrow::app::ScrubBar*>();
    QVERIFY(scrub);
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const int y = scrub->height() / 2;
    // Sent to the bar itself: QTest's own moves may travel the shared display's pointer.
    const auto send = [&](QEvent::Type type, int x, Qt::MouseButtons held) {
      const QPointF local(x, y);
      const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
      QMouseEvent e(type, local, scrub->mapToGlobal(local), button, held, Qt::NoModifier);
      QCoreApplication::sendEvent(scrub, &e);
    };
    // The column where the handle's colour is drawn most, in the bar's pixels.
    const auto drawnHandleColumn = [&] {
      const QImage bar = scrub->grab().toImage();
      const QColor h = scrub->palette().color(QPalette::Highlight);
      int best = -1, bestCount = 0;
      for (int x = 0; x < bar.width(); ++x) {
        int count = 0;
        for (int r = 0; r < bar.height(); ++r) {
          const QColor c = bar.pixelColor(x, r);
          count += std::abs(c.red() - h.red()) < 30 && std::abs(c.green() - h.green()) < 30 &&
                   std::abs(c.blue() - h.blue()) < 30;
        }
        if (count > bestCount) best = x, bestCount = count;
      }
      return best / bar.devicePixelRatio();
    };
    for (const bool playing : {false, true}) {
      w.timeline()->seek(0.0);
      if (playing) w.timeline()->play();
      else w.timeline()->pause();
      QCOMPARE(w.player().playing(), playing);
      const int start = static_cast<int>(std::lround(scrub->positionOf(0.2 * duration)));
      send(QEvent::MouseButtonPress, start, Qt::LeftButton);
      QVERIFY(scrub->dragging());
      QVERIFY(!w.player().playing());  // held still while the button is down
      auto previous = w.player().pose().model;
      int moved = 0;
      for (const double at : {0.25, 0.4, 0.55, 0.8, 0.65, 0.3}) {
        const int x = static_cast<int>(std::lround(scrub->positionOf(at * duration)));
        send(QEvent::MouseMove, x, Qt::LeftButton);
        QTest::qWait(40);  // playback timers and repaints get their turn
        QVERIFY2(std::abs(scrub->handlePosition() - x) <= 1.0,
                 qPrintable(QStringLiteral("handle at %1 px, cursor at %2 px")
                                .arg(scrub->handlePosition())
                                .arg(x)));
        QVERIFY2(std::abs(drawnHandleColumn() - x) <= 2.0,
                 qPrintable(QStringLiteral("handle drawn at %1 px, cursor at %2 px")
                                .arg(drawnHandleColumn())
                                .arg(x)));
        QVERIFY(std::abs(w.player().time() - scrub->time()) < 1e-6);
        const auto now = w.player().pose().model;
        moved += now != previous;
        previous = now;
      }
      QVERIFY(moved >= 4);  // the pose followed too
      const int end = static_cast<int>(std::lround(scrub->positionOf(0.7 * duration)));
      send(QEvent::MouseButtonRelease, end, Qt::NoButton);
      QVERIFY(!scrub->dragging());
      QCOMPARE(w.player().playing(), playing);  // playback resumes where the drag let go
      if (!playing) {
        QVERIFY(std::abs(scrub->handlePosition() - end) <= 1.0);
        QVERIFY(std::abs(w.player().time() - 0.7 * duration) < duration / 100);
      }
    }
    w.timeline()->pause();
  }

  void steppedPlaybackShowsWholeFramesAndSmoothInterpolates() {
    MainWindow w;
    w.show();
    QVERIFY(waitLoaded(w, [&] { w.openFiles({csf_, caf_}); }, kLoadTimeoutMs));
    auto& player = w.player();
    const auto* clip = player.clip();
    QVERIFY(clip);
    const auto& skeleton = w.document()->scene->skeleton;
    const double fps = player.frameRate();
    QVERIFY(fps > 0.0);
    const double between = 7.5 / fps;  // halfway between frames 7 and 8
    w.timeline()->pause();

    auto* button = w.timeline()->findChild<QToolButton*>(QStringLiteral("stepped"));
    QVERIFY(button);
    QAction* menuAction = w.timeline()->steppedAction();
    if (player.stepped()) button->click();
    QVERIFY(!player.stepped());

    // Smooth: the pose at 7.5 frames, between the poses of frames 7 and 8.
    w.timeline()->seek(between);
    const bool loop = player.mode() == marrow::anim::PlayMode::Loop;
    const auto smooth = marrow::anim::evaluate(skeleton, clip, static_cast<float>(between), loop);
    const auto frame7 = marrow::anim::evaluate(skeleton, clip, static_cast<float>(7.0 / fps), loop);
    QCOMPARE(player.pose().model, smooth.model);
    QVERIFY(player.pose().model != frame7.model);

    // Stepped (the button, the same action as the Playback menu's): frame 7's pose.
    button->click();
    QVERIFY(player.stepped());
    QVERIFY(menuAction->isChecked());
    QCOMPARE(player.frame(), 7);
    QCOMPARE(player.pose().model, frame7.model);
    // While playing, every pose shown is a whole frame's.
    w.timeline()->seek(0.0);
    w.timeline()->play();
    int poses = 0;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 600) {
      QTest::qWait(20);
      const double f = player.sampleTime() * fps;
      QVERIFY2(std::abs(f - std::round(f)) < 1e-6, qPrintable(QString::number(f)));
      ++poses;
    }
    QVERIFY(poses > 5);
    QVERIFY(player.time() > 0.0);
    w.timeline()->pause();
    menuAction->trigger();  // back to smooth, as the other tests expect
    QVERIFY(!player.stepped());
  }

  void renderFramesWritesFramesThatMoveAndCopyPoseAsTextListsEveryBone() {
    MainWindow w;
    w.resize(800, 600);
    w.show();
    QVERIFY(waitLoaded(w, [&] { w.openFiles({csf_, caf_}); }, kLoadTimeoutMs));
    w.timeline()->pause();
    w.timeline()->seek(0.3);
    QSignalSpy rendered(w.timeline(), &marrow::app::TimelineDock::framesRendered);
    const QString out = dir_.filePath(QStringLiteral("frames/nod.png"));
    QVERIFY(QDir().mkpath(dir_.filePath(QStringLiteral("frames"))));
    QCOMPARE(w.timeline()->renderFrames(out, 3, 0.0), QString());
    QCOMPARE(rendered.size(), 1);
    QVERIFY(rendered.front()[0].toBool());
    std::vector<QImage> frames;
    for (int i = 1; i <= 3; ++i) {
      frames.emplace_back(
          dir_.filePath(QStringLiteral("frames/nod_%1.png").arg(i, 4, 10, QLatin1Char('0'))));
      QVERIFY(!frames.back().isNull());
    }
    QVERIFY(meanDifference(frames[0], frames[1]) > 0.01);
    QVERIFY(meanDifference(frames[1], frames[2]) > 0.01);
    QVERIFY(std::abs(w.player().time() - 0.3) < 1e-6);  // the playhead came back

    // Edit › Copy Pose as Text: a header, then per bone its name, parent, local and model matrix.
    QAction* copy = w.findChild<QAction*>(QStringLiteral("copyPoseAction"));
    QVERIFY(copy);
    w.player().setMode(marrow::anim::PlayMode::Once);
    w.timeline()->seek(1.0);
    copy->trigger();
    const QStringList lines =
        QGuiApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const auto& skeleton = w.document()->scene->skeleton;
    QCOMPARE(lines.size(), static_cast<int>(skeleton.bones.size()) + 1);
    QCOMPARE(lines[0].split(QLatin1Char('\t')).size(), 34);
    QCOMPARE(lines[0].split(QLatin1Char('\t'))[2], QStringLiteral("local[0][0]"));
    const auto expected = marrow::anim::evaluate(skeleton, w.player().clip(), 1.0f);
    for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
      const QStringList cells = lines[static_cast<int>(b) + 1].split(QLatin1Char('\t'));
      QCOMPARE(cells.size(), 34);
      QCOMPARE(cells[0], QString::fromStdString(skeleton.bones[b].name));
      const int parent = skeleton.bones[b].parent;
      QCOMPARE(cells[1],
               parent < 0 ? QString() : QString::fromStdString(skeleton.bones[parent].name));
      for (int k = 0; k < 16; ++k) {
        QVERIFY(std::abs(cells[2 + k].toDouble() - expected.local[b].matrix()[k / 4][k % 4]) <
                1e-6);
        QVERIFY(std::abs(cells[18 + k].toDouble() - expected.model[b][k / 4][k % 4]) < 1e-6);
      }
    }
    // The head at 1 s, in the cal3d file's own axes: (0.2, −0.5, 1.5).
    const int head = boneIndex(w, "Bip01 Head");
    const QStringList cells = lines[head + 1].split(QLatin1Char('\t'));
    QVERIFY(std::abs(cells[18 + 12].toDouble() - 0.2) < 1e-5);
    QVERIFY(std::abs(cells[18 + 13].toDouble() + 0.5) < 1e-5);
    QVERIFY(std::abs(cells[18 + 14].toDouble() - 1.5) < 1e-5);
  }
};

MARROW_QTEST_MAIN(AnimationTest)

#include "animation_test.moc"
