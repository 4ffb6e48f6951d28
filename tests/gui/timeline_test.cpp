// The timeline with the hundreds of clips of Warband data: the clip list's filter and groups
// (app/gui/clip_picker.h), frame numbers of a clip cut from an animation as the animation's file
// numbers them, and the play mode a Warband action sets.
//
// The fixtures: wfas_skeletons.brf, whose anim_human is cut at its gaps into many clips, and a
// real module's actions.txt, which cuts it into named actions (../shared/fixtures/warband).
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QTest>
#include <QTreeView>
#include <algorithm>
#include <cmath>
#include <set>

#include "app/gui/clip_picker.h"
#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/scrub_bar.h"
#include "app/gui/timeline_dock.h"
#include "tests/support/gui_fixture.h"

using marrow::anim::PlayMode;
using marrow::app::ClipPicker;
using marrow::app::MainWindow;
using marrow::formats::Clip;
using marrow::testing::openAndWait;

namespace {

constexpr int kLoadTimeoutMs = 30000;

QString fixture(const char* path) {
  return QStringLiteral(MARROW_FIXTURES_DIR "/") + path;
}

const std::vector<Clip>& clipsOf(MainWindow& w) {
  return w.document()->scene->clips;
}

// What the filter should offer: the rest pose and every clip whose name or group holds `text`,
// in any case; sorted.
std::vector<int> expectedOffers(const std::vector<Clip>& clips, const QString& text) {
  std::vector<int> out;
  const auto holds = [&](const std::string& s) {
    return QString::fromStdString(s).contains(text, Qt::CaseInsensitive);
  };
  if (QStringLiteral("(rest pose)").contains(text, Qt::CaseInsensitive)) out.push_back(-1);
  for (std::size_t i = 0; i < clips.size(); ++i)
    if (holds(clips[i].name) || holds(clips[i].group)) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

int firstClip(const std::vector<Clip>& clips, const std::function<bool(const Clip&)>& wanted) {
  for (std::size_t i = 0; i < clips.size(); ++i)
    if (wanted(clips[i])) return static_cast<int>(i);
  return -1;
}

QComboBox* modeBox(MainWindow& w) {
  for (auto* box : w.timeline()->findChildren<QComboBox*>())
    if (!qobject_cast<ClipPicker*>(box)) return box;
  return nullptr;
}

// 10 animations, each with 99 clips cut from it: 1,000 clips.
std::vector<Clip> thousandClips() {
  std::vector<Clip> clips;
  for (int a = 0; a < 10; ++a) {
    Clip& whole = clips.emplace_back();
    whole.name = "anim_" + std::to_string(a);
    whole.duration = 10.0f;
    whole.frameIndexed = true;
  }
  for (int a = 0; a < 10; ++a)
    for (int k = 0; k < 99; ++k) {
      Clip& c = clips.emplace_back();
      c.name = "move_" + std::to_string(a) + "_" + std::to_string(k);
      c.group = "anim_" + std::to_string(a);
      c.duration = 1.0f;
      c.sourceFrames = Clip::FrameSpan{k * 10, k * 10 + 9};
    }
  return clips;
}

}  // namespace

class TimelineTest : public QObject {
  Q_OBJECT

  QString skeletons_ = fixture("brf/wfas_skeletons.brf");
  QString actions_ = fixture("warband/actions.txt");

 private slots:
  void initTestCase() { marrow::testing::useTestSettings("marrow-timeline-tests"); }

  // A filter that matches nothing offers nothing, and Enter then picks nothing.
  void aFilterThatMatchesNothingOffersNothing() {
    ClipPicker picker;
    picker.setClips(thousandClips());
    QSignalSpy picked(&picker, &ClipPicker::clipPicked);
    picker.setFilterText(QStringLiteral("no such clip"));
    QVERIFY(picker.offeredClips().empty());
    QCOMPARE(picker.highlightedClip(), ClipPicker::kNoClip);
    QTest::keyClick(picker.filterEdit(), Qt::Key_Return);
    QVERIFY(picked.isEmpty());
    QCOMPARE(picker.currentClip(), -1);
  }

  void filteringAThousandClipsIsFastAndExact() {
    const auto clips = thousandClips();
    ClipPicker picker;
    QElapsedTimer t;
    t.start();
    picker.setClips(clips);
    const QStringList filters{QStringLiteral("anim_3"),
                              QStringLiteral("move_7_1"),
                              QStringLiteral("MOVE_2_42"),
                              QStringLiteral("_"),
                              QString(),
                              QStringLiteral("9"),
                              QStringLiteral("nothing")};
    for (int round = 0; round < 3; ++round)
      for (const QString& f : filters) {
        picker.setFilterText(f);
        QCOMPARE(sorted(picker.offeredClips()), expectedOffers(clips, f));
      }
    const qint64 ms = t.elapsed();
    QVERIFY2(ms < 3000, qPrintable(QStringLiteral("%1 ms for 22 filters of 1,000 clips").arg(ms)));
    picker.setFilterText(QStringLiteral("anim_3"));
    QCOMPARE(picker.offeredClips().size(), std::size_t{100});  // the animation and its 99 clips
    picker.setFilterText(QStringLiteral("move_7_1"));
    QCOMPARE(picker.offeredClips().size(), std::size_t{11});  // move_7_1, move_7_10 … move_7_19
  }

  void typingFiltersTheClipsAndEnterPlaysTheOneHighlighted() {
    if (!QFile::exists(skeletons_)) MARROW_QSKIP("../shared/fixtures absent");
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(openAndWait(w, {skeletons_}, kLoadTimeoutMs));
    const auto& clips = clipsOf(w);
    QVERIFY2(clips.size() > 50, qPrintable(QString::number(clips.size())));
    ClipPicker* picker = w.timeline()->clipPicker();
    QVERIFY(picker);
    QCOMPARE(picker->offeredClips().size(), clips.size() + 1);  // and the rest pose

    // Search for the frames of a clip in the middle that lasts: "anim_human:F-L" by its "F-L".
    std::size_t m = clips.size() / 2;
    while (m < clips.size() && !(clips[m].duration > 0.0f)) ++m;
    QVERIFY(m < clips.size());
    const std::string& middle = clips[m].name;
    const QString frames = QString::fromStdString(middle.substr(middle.find(':') + 1));
    QVERIFY(!frames.isEmpty());
    picker->showPopup();
    QVERIFY(picker->popupVisible());
    QTest::keyClicks(picker->filterEdit(), frames);
    QCOMPARE(picker->filterText(), frames);
    const auto offered = picker->offeredClips();
    QVERIFY(!offered.empty());
    QVERIFY(offered.size() < clips.size() / 4);
    QCOMPARE(sorted(offered), expectedOffers(clips, frames));
    // In any case.
    picker->setFilterText(QStringLiteral("ANIM_HUMAN:") + frames);
    QCOMPARE(sorted(picker->offeredClips()), expectedOffers(clips, frames));

    // The current clip (the whole animation) is not offered: the first offered is highlighted,
    // Down the next; Enter plays it and closes the list.
    QVERIFY(std::find(offered.begin(), offered.end(), w.player().clipIndex()) == offered.end());
    QCOMPARE(picker->highlightedClip(), offered.front());
    int chosen = offered.front();
    if (offered.size() > 1) {
      QTest::keyClick(picker->filterEdit(), Qt::Key_Down);
      chosen = offered[1];
    }
    QCOMPARE(picker->highlightedClip(), chosen);
    w.timeline()->play();
    QTest::keyClick(picker->filterEdit(), Qt::Key_Return);
    QVERIFY(!picker->popupVisible());
    QCOMPARE(w.player().clipIndex(), chosen);
    QCOMPARE(picker->currentText(),
             QString::fromStdString(clips[static_cast<std::size_t>(chosen)].name));
    QVERIFY(w.player().playing());
    const double before = w.player().time();
    QVERIFY(QTest::qWaitFor([&] { return w.player().time() != before; }, 5000));

    // And by the mouse: a click on a clip of the list plays it.
    const std::string& other = clips[static_cast<std::size_t>(chosen) == 1 ? 2 : 1].name;
    picker->showPopup();
    picker->setFilterText(QString::fromStdString(other));
    QTreeView* list = picker->listView();
    QVERIFY(QTest::qWaitForWindowExposed(list->window()));
    const int target = picker->highlightedClip();
    QCOMPARE(clips[static_cast<std::size_t>(target)].name, other);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                      list->visualRect(list->currentIndex()).center());
    QVERIFY(!picker->popupVisible());
    QCOMPARE(w.player().clipIndex(), target);
    w.timeline()->pause();
  }

  void aCutClipIsListedUnderTheAnimationItWasCutFrom() {
    if (!QFile::exists(skeletons_)) MARROW_QSKIP("../shared/fixtures absent");
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {skeletons_}, kLoadTimeoutMs));
    const auto& clips = clipsOf(w);
    ClipPicker* picker = w.timeline()->clipPicker();
    const int whole = firstClip(clips, [](const Clip& c) { return c.name == "anim_human"; });
    const int cut = firstClip(clips, [](const Clip& c) { return c.sourceFrames.has_value(); });
    QVERIFY(whole >= 0 && cut >= 0);
    QCOMPARE(clips[static_cast<std::size_t>(cut)].group, std::string("anim_human"));
    QCOMPARE(picker->listedUnder(whole), QString());  // a whole animation: at the top level
    QCOMPARE(picker->listedUnder(-1), QString());
    QCOMPARE(picker->listedUnder(cut), QStringLiteral("anim_human"));
    int under = 0;
    for (std::size_t i = 0; i < clips.size(); ++i)
      under += picker->listedUnder(static_cast<int>(i)) == QStringLiteral("anim_human");
    QCOMPARE(under, static_cast<int>(clips.size()) - 1);
    // The group's name finds the animation and every clip cut from it; the rest pose not.
    picker->setFilterText(QStringLiteral("anim_human"));
    QCOMPARE(picker->offeredClips().size(), clips.size());
    QCOMPARE(picker->offeredClips().front(), whole);  // the group's header comes first
  }

  void theCurrentClipStaysHighlightedWhileTheFilterListsIt() {
    if (!QFile::exists(skeletons_)) MARROW_QSKIP("../shared/fixtures absent");
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {skeletons_}, kLoadTimeoutMs));
    const auto& clips = clipsOf(w);
    ClipPicker* picker = w.timeline()->clipPicker();
    const int current = static_cast<int>(clips.size()) - 1;
    w.timeline()->setClip(current);  // from elsewhere (the Scene dock): the box follows
    QCOMPARE(picker->currentClip(), current);
    QCOMPARE(picker->currentText(), QString::fromStdString(clips.back().name));
    picker->showPopup();
    QCOMPARE(picker->highlightedClip(), current);
    picker->setFilterText(QStringLiteral("anim_"));
    QCOMPARE(picker->highlightedClip(), current);
    picker->setFilterText(QString::fromStdString(clips.back().name));
    QCOMPARE(picker->highlightedClip(), current);
    // Filtered out: the first clip listed is highlighted, nothing changes until one is picked.
    picker->setFilterText(QString::fromStdString(clips[1].name));
    QVERIFY(picker->highlightedClip() != current);
    QCOMPARE(w.player().clipIndex(), current);
    QCOMPARE(picker->currentClip(), current);
    // Escape clears the filter (the current clip is highlighted again), then closes the list.
    QTest::keyClick(picker->filterEdit(), Qt::Key_Escape);
    QVERIFY(picker->filterText().isEmpty());
    QVERIFY(picker->popupVisible());
    QCOMPARE(picker->highlightedClip(), current);
    QCOMPARE(picker->offeredClips().size(), clips.size() + 1);
    QTest::keyClick(picker->filterEdit(), Qt::Key_Escape);
    QVERIFY(!picker->popupVisible());
    QCOMPARE(w.player().clipIndex(), current);
    // Up and Down on the closed box step through the clips listed.
    picker->setFocus();
    QTest::keyClick(picker, Qt::Key_Up);
    QCOMPARE(w.player().clipIndex(), current - 1);
    QTest::keyClick(picker, Qt::Key_Down);
    QCOMPARE(w.player().clipIndex(), current);
  }

  void aCutClipShowsItsSourcesFrameNumbers() {
    if (!QFile::exists(skeletons_)) MARROW_QSKIP("../shared/fixtures absent");
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(openAndWait(w, {skeletons_}, kLoadTimeoutMs));
    const auto& clips = clipsOf(w);
    const int cut = firstClip(clips, [](const Clip& c) {
      return c.sourceFrames && c.sourceFrames->first > 0 &&
             c.sourceFrames->last - c.sourceFrames->first >= 10;
    });
    QVERIFY(cut >= 0);
    const auto span = *clips[static_cast<std::size_t>(cut)].sourceFrames;
    w.timeline()->setClip(cut);
    w.timeline()->firstFrame();
    const QString first = w.timeline()->readoutText();
    QVERIFY2(first.contains(QStringLiteral("frame 0 / %1").arg(span.last - span.first)),
             qPrintable(first));
    QVERIFY2(first.endsWith(QStringLiteral("anim_human %1").arg(span.first)), qPrintable(first));
    w.timeline()->stepForward();
    QVERIFY2(
        w.timeline()->readoutText().endsWith(QStringLiteral("anim_human %1").arg(span.first + 1)),
        qPrintable(w.timeline()->readoutText()));
    w.timeline()->lastFrame();
    QVERIFY2(w.timeline()->readoutText().endsWith(QStringLiteral("anim_human %1").arg(span.last)),
             qPrintable(w.timeline()->readoutText()));

    // The scrub bar's numbers and key ticks are the source's too.
    auto* scrub = w.timeline()->findChild<marrow::app::ScrubBar*>();
    QVERIFY(scrub);
    QCOMPARE(scrub->frameNumberAt(0.0), span.first);
    QCOMPARE(scrub->frameNumberAt(w.player().duration()), span.last);
    w.bones()->selectBone(0);
    const auto keys = scrub->keyTimes();
    QVERIFY(keys.size() >= 2);
    QCOMPARE(scrub->frameNumberAt(keys.front()), span.first);  // the cut samples both ends
    QCOMPARE(scrub->frameNumberAt(keys.back()), span.last);
    for (float k : keys) {
      const int n = scrub->frameNumberAt(k);
      QVERIFY(n >= span.first && n <= span.last);
    }
    QCOMPARE(scrub->toolTipAt(keys.front()), QStringLiteral("key at frame %1").arg(span.first));

    // A whole animation's frames are its own: no source named.
    w.timeline()->setClip(0);
    w.timeline()->firstFrame();
    w.timeline()->stepForward();
    QVERIFY2(w.timeline()->readoutText().contains(QStringLiteral("frame 1 /")),
             qPrintable(w.timeline()->readoutText()));
    QVERIFY(!w.timeline()->readoutText().contains(QStringLiteral("anim_human")));
    QCOMPARE(scrub->frameNumberAt(1.0 / w.player().frameRate()), 1);
  }

  // With a module's actions.txt: named actions, some that loop and some that play once; the
  // mode follows them until the user chooses one.
  void actionsSetThePlayModeUntilTheUserChoosesOne() {
    if (!QFile::exists(skeletons_) || !QFile::exists(actions_))
      MARROW_QSKIP("../shared/fixtures absent");
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {skeletons_, actions_}, kLoadTimeoutMs));
    const auto& clips = clipsOf(w);
    const int loops = firstClip(clips, [](const Clip& c) { return c.loops == true; });
    const int once = firstClip(clips, [](const Clip& c) { return c.loops == false; });
    const int unsaid = firstClip(clips, [](const Clip& c) { return !c.loops; });
    QVERIFY2(loops >= 0 && once >= 0 && unsaid >= 0, qPrintable(QString::number(clips.size())));
    QComboBox* mode = modeBox(w);
    QVERIFY(mode);

    w.timeline()->setClip(once);
    QCOMPARE(w.player().mode(), PlayMode::Once);
    QCOMPARE(mode->currentText(), QStringLiteral("Once"));
    w.timeline()->setClip(unsaid);
    QCOMPARE(w.player().mode(), PlayMode::Once);
    w.timeline()->setClip(loops);
    QCOMPARE(w.player().mode(), PlayMode::Loop);
    QCOMPARE(mode->currentText(), QStringLiteral("Loop"));

    // Actions are found by name too, and sit under the animation they are cut from.
    ClipPicker* picker = w.timeline()->clipPicker();
    picker->setFilterText(QStringLiteral("parry"));
    const auto parries = picker->offeredClips();
    QVERIFY(!parries.empty());
    QCOMPARE(sorted(parries), expectedOffers(clips, QStringLiteral("parry")));
    const auto& parry = clips[static_cast<std::size_t>(parries.front())];
    QCOMPARE(parry.group, std::string("anim_human"));
    QCOMPARE(picker->listedUnder(parries.front()), QStringLiteral("anim_human"));

    // The user's choice stands from now on.
    mode->setCurrentIndex(mode->findText(QStringLiteral("Ping-pong")));
    QCOMPARE(w.player().mode(), PlayMode::PingPong);
    w.timeline()->setClip(once);
    QCOMPARE(w.player().mode(), PlayMode::PingPong);
    w.timeline()->setClip(loops);
    QCOMPARE(w.player().mode(), PlayMode::PingPong);
    QCOMPARE(mode->currentText(), QStringLiteral("Ping-pong"));

    // A clip cut backwards counts down from its first frame to its last.
    const int backwards = firstClip(clips, [](const Clip& c) {
      return c.sourceFrames && c.sourceFrames->last < c.sourceFrames->first;
    });
    if (backwards >= 0) {
      const auto span = *clips[static_cast<std::size_t>(backwards)].sourceFrames;
      w.timeline()->setClip(backwards);
      w.timeline()->firstFrame();
      QVERIFY2(w.timeline()->readoutText().endsWith(QStringLiteral(" %1").arg(span.first)),
               qPrintable(w.timeline()->readoutText()));
      w.timeline()->lastFrame();
      QVERIFY2(w.timeline()->readoutText().endsWith(QStringLiteral(" %1").arg(span.last)),
               qPrintable(w.timeline()->readoutText()));
    }
  }
};

MARROW_QTEST_MAIN(TimelineTest)

#include "timeline_test.moc"
