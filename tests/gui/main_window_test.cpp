// The viewer as a user meets it: the demo opens, plays on the GPU and moves; a bad file leaves
// the model open and shows its error; the transport controls drive the clock.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFocusEvent>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTreeWidgetItemIterator>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/anim/springs.h"
#include "render/gl/offscreen.h"
#include "tests/support/coloured_box.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/images.h"

using marrow::app::MainWindow;
using marrow::testing::differingPixels;
using marrow::testing::openAndWait;

namespace {

// Pixels that are neither the background nor the grey grid: the character's coloured surface.
int colouredPixels(const QImage& img) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      const int spread = std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()});
      n += spread > 30;
    }
  return n;
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { marrow::testing::useTestSettings("MarrowGuiTest"); }

  void demoOpensDrawsAndMovesWhilePlaying() {
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    if (!w.viewport()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    QCOMPARE(w.document()->scene->skeleton.bones.size(), std::size_t{27});  // the demo's
    QVERIFY(w.player().playing());  // a model with clips starts playing

    QTest::qWait(200);
    const QImage first = w.viewport()->grabFramebuffer();
    const int drawn = colouredPixels(first);
    QVERIFY2(drawn > first.width() * first.height() / 200,
             qPrintable(QStringLiteral("only %1 coloured pixels").arg(drawn)));
    const double t0 = w.player().time();
    QTest::qWait(400);
    const QImage second = w.viewport()->grabFramebuffer();
    QVERIFY(w.player().time() != t0);
    const int moved = differingPixels(first, second);
    QVERIFY2(moved > 200, qPrintable(QStringLiteral("only %1 pixels changed").arg(moved)));
  }

  void screenshotsAreSavedAtAnySize() {
    MainWindow w;
    w.resize(900, 600);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    if (!w.viewport()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    w.timeline()->pause();
    QTemporaryDir dir;
    for (const QSize size : {QSize(1920, 1080), QSize(300, 600)}) {
      const QString path = dir.filePath(QStringLiteral("shot_%1x%2.png").arg(size.width()).arg(size.height()));
      QVERIFY(w.saveScreenshotTo(path, size));
      const QImage img(path);
      QCOMPARE(img.size(), size);
      // The character is in the picture: a good share of it is not background.
      const int drawn = colouredPixels(img);
      QVERIFY2(drawn > size.width() * size.height() / 100,
               qPrintable(QStringLiteral("only %1 coloured pixels at %2x%3").arg(drawn).arg(size.width()).arg(size.height())));
    }
    // Without a size: the viewport as shown.
    const QString shown = dir.filePath(QStringLiteral("shown.png"));
    QVERIFY(w.saveScreenshotTo(shown));
    QCOMPARE(QImage(shown).size(), w.viewport()->grabFramebuffer().size());
  }

  // Files given to the constructor (the viewer's command line) load while the window is built,
  // and open once the event loop runs: once, busy cursor and Cancel put away, the model drawn.
  void filesGivenAtConstructionOpenOnceTheWindowIsUp() {
    MainWindow w({marrow::app::kDemoPath});
    QSignalSpy loaded(&w, &MainWindow::documentLoaded);
    QCOMPARE(w.document(), nullptr);  // read, maybe, but shown only by the event loop
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(QTest::qWaitFor([&] { return !loaded.isEmpty(); }, 20000));
    if (!w.viewport()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    QTest::qWait(200);
    QCOMPARE(loaded.size(), 1);
    QVERIFY(!w.loading());
    QCOMPARE(QApplication::overrideCursor(), nullptr);
    QCOMPARE(w.document()->scene->skeleton.bones.size(), std::size_t{27});
    QVERIFY(marrow::testing::logText(w).contains(QStringLiteral("Opened :/demo/demo.omf")));
    const QImage frame = w.viewport()->grabFramebuffer();
    const int drawn = colouredPixels(frame);
    QVERIFY2(drawn > frame.width() * frame.height() / 200,
             qPrintable(QStringLiteral("only %1 coloured pixels").arg(drawn)));
  }

  // What a script runs: `marrow FILES --screenshot PICTURE --after 0` starts, draws the model,
  // saves the whole window and quits, with exit code 0; files that do not open are pictured too,
  // with exit code 1.
  void theCommandLinesScreenshotShowsTheModelAndQuits() {
    if (marrow::render::probeRendererName().empty()) MARROW_QSKIP("no OpenGL 3.3 core here");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::string error;
    const QStringList files =
        marrow::testing::writeColouredCal3dBox(QDir(dir.path()), glm::vec4(0.9f, 0.05f, 0.05f, 1.0f), &error);
    QVERIFY2(files.size() == 3, error.c_str());
    QString output;
    auto shoot = [&](const QStringList& inputs, const QString& picture) {
      QProcess viewer;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("XDG_CONFIG_HOME"), picture + QStringLiteral(".config"));  // its own settings
      env.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
      viewer.setProcessEnvironment(env);
      viewer.setProcessChannelMode(QProcess::MergedChannels);
      viewer.start(QStringLiteral(MARROW_VIEWER),
                   inputs + QStringList{QStringLiteral("--screenshot"), picture, QStringLiteral("--after"), QStringLiteral("0")});
      if (!viewer.waitForFinished(30000)) {
        viewer.kill();
        viewer.waitForFinished();
        output = QStringLiteral("the viewer did not quit");
        return -1;
      }
      output = QString::fromLocal8Bit(viewer.readAll());
      return viewer.exitStatus() == QProcess::NormalExit ? viewer.exitCode() : -1;
    };
    const QString picture = dir.filePath(QStringLiteral("shot.png"));
    const int code = shoot(files, picture);
    QVERIFY2(code == 0, qPrintable(QStringLiteral("exit code %1: %2").arg(code).arg(output)));
    const QImage shot(picture);
    QVERIFY2(!shot.isNull(), qPrintable(output));
    QVERIFY(shot.width() >= 640 && shot.height() >= 400);  // the whole window, docks and all
    // The red box, framed by the camera: nothing else in the window is that red.
    const int red = marrow::testing::redPixels(shot).count;
    QVERIFY2(red > shot.width() * shot.height() / 100,
             qPrintable(QStringLiteral("only %1 red pixels in %2x%3").arg(red).arg(shot.width()).arg(shot.height())));

    const QString failed = dir.filePath(QStringLiteral("failed.png"));
    const int failedCode = shoot({dir.filePath(QStringLiteral("absent.cmf"))}, failed);
    QVERIFY2(failedCode == 1, qPrintable(QStringLiteral("exit code %1: %2").arg(failedCode).arg(output)));
    const QImage failedShot(failed);
    QVERIFY2(!failedShot.isNull(), qPrintable(output));
    QCOMPARE(failedShot.size(), shot.size());
  }

  void badFileShowsItsErrorAndKeepsTheModelOpen() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    const auto* before = w.document();
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("broken.omf"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("OMF1 this is not a model");
    f.close();
    const int logged = w.log()->count();
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFiles({bad});
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("broken.omf")));
    QCOMPARE(w.document(), before);
    QVERIFY(w.log()->count() > logged);
  }

  void transportControlsStepAndStop() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    auto* tl = w.timeline();
    tl->pause();
    tl->firstFrame();
    QCOMPARE(w.player().frame(), 0);
    tl->stepForward();
    tl->stepForward();
    QCOMPARE(w.player().frame(), 2);
    tl->stepBackward();
    QCOMPARE(w.player().frame(), 1);
    tl->lastFrame();
    QCOMPARE(w.player().frame(), w.player().frameCount() - 1);
    tl->togglePlay();
    QVERIFY(w.player().playing());
    tl->stop();
    QVERIFY(!w.player().playing());
    QCOMPARE(w.player().time(), 0.0);
    // Space toggles play anywhere in the window.
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(w.viewport(), Qt::Key_Space);
    QVERIFY(w.player().playing());
    QTest::keyClick(w.viewport(), Qt::Key_Space);
    QVERIFY(!w.player().playing());
  }

  void severalFilesOpenAsOneModel() {
    const QString gltf = QStringLiteral(MARROW_ASSIMP_MODELS_DIR "/glTF2/simple_skin/simple_skin.gltf");
    if (!QFile::exists(gltf)) MARROW_QSKIP("assimp-testmodels absent");
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {gltf, marrow::app::kDemoPath}));
    const auto& s = *w.document()->scene;
    QCOMPARE(s.meshes.size(), std::size_t{2});
    QCOMPARE(s.clips.size(), std::size_t{4});  // simple_skin's and the demo's
    QVERIFY(w.document()->title().contains(QStringLiteral("+ 1 more")));
  }

  void reloadKeepsTheClipTheTimeAndTheCamera() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    w.timeline()->setClip(1);
    w.timeline()->pause();
    w.player().setTime(0.7);
    w.viewport()->camera().setAngles(60.0f, 20.0f);
    QSignalSpy loaded(&w, &MainWindow::documentLoaded);
    w.reload();
    QVERIFY(loaded.wait(20000));
    QCOMPARE(w.player().clipIndex(), 1);
    QVERIFY(std::abs(w.player().time() - 0.7) < 1e-6);
    QVERIFY(!w.player().playing());
    QCOMPARE(w.viewport()->camera().yaw(), 60.0f);
  }

  void texturedModelDecodesItsTexture() {
    const QString duck = QStringLiteral(MARROW_ASSIMP_MODELS_DIR "/Collada/duck.dae");
    if (!QFile::exists(duck)) MARROW_QSKIP("assimp-testmodels absent");
    auto doc = marrow::app::loadDocument({duck});
    QVERIFY(doc.ok());
    QCOMPARE(doc->textures.size(), std::size_t{1});
    QVERIFY2(!doc->textures[0].isNull(), "the TGA texture did not decode");
    QCOMPARE(doc->textures[0].width(), 512);
  }

  void aClipWithoutDurationDoesNotPlay() {
    auto scene = std::make_shared<marrow::formats::Scene>();
    scene->skeleton.bones.push_back({"root", -1, {}, {1, 0, 0, 0}, {1, 1, 1}});
    scene->clips.emplace_back().name = "still";
    marrow::app::Player p;
    p.setScene(scene);
    p.play();
    QVERIFY(!p.playing());
  }

  void pingPongSeekOnTheWayBackKeepsGoingBack() {
    auto scene = std::make_shared<marrow::formats::Scene>();
    scene->clips.emplace_back().name = "c";
    scene->clips.back().duration = 2.0f;
    marrow::app::Player p;
    p.setScene(scene);
    p.setMode(marrow::anim::PlayMode::PingPong);
    p.play();
    p.advance(3.0);  // 1 s into the way back: clip time 1
    QVERIFY(std::abs(p.time() - 1.0) < 1e-9);
    p.setTime(1.5);
    p.advance(0.25);  // going back: 1.25
    QVERIFY(std::abs(p.time() - 1.25) < 1e-9);
  }

  void morphTargetsGetASliderEachThatDrivesTheirWeight() {
    const QString dir = QStringLiteral(MARROW_FIXTURES_DIR "/cal3d/dokurochan_v1300/");
    if (!QFile::exists(dir + "DokuroChan_mesh.001.cmf")) MARROW_QSKIP("../shared/fixtures absent");
    auto doc = marrow::app::loadDocument({dir + "DokuroChan.csf", dir + "DokuroChan_mesh.001.cmf"});
    QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
    const auto& meshes = doc->scene->meshes;
    int withMorphs = -1;
    for (std::size_t m = 0; m < meshes.size() && withMorphs < 0; ++m)
      if (!meshes[m].morphs.empty()) withMorphs = static_cast<int>(m);
    QVERIFY(withMorphs >= 0);
    marrow::app::MeshControls controls;
    controls.reset(*doc->scene);
    marrow::app::PropertiesDock dock;
    dock.show(*doc, controls, marrow::app::ItemKind::Mesh, withMorphs);
    const auto& mesh = meshes[static_cast<std::size_t>(withMorphs)];
    std::set<std::string> names;
    for (const auto& t : mesh.morphs) names.insert(t.name);
    const auto sliders = dock.findChildren<QSlider*>();
    QCOMPARE(sliders.size(), static_cast<qsizetype>(names.size() + (mesh.lod.empty() ? 0 : 1)));
    QSignalSpy changed(&dock, &marrow::app::PropertiesDock::morphWeightChanged);
    sliders.back()->setValue(500);
    QCOMPARE(changed.size(), 1);
    QVERIFY(std::abs(changed.first().at(1).toFloat() - 0.5f) < 1e-6f);
    // Targets are weighted by name: every mesh's target of that name gets the weight.
    controls.morphWeights[mesh.morphs.front().name] = 0.25f;
    QCOMPARE(controls.weightsFor(mesh).front(), 0.25f);
    // Names the exporter stored as hex UTF-8 are shown decoded.
    QVERIFY(marrow::app::morphDisplayName("e5a4a7e58fa3").startsWith(QString::fromUtf8("大口")));
    QCOMPARE(marrow::app::morphDisplayName("smile"), QStringLiteral("smile"));
  }

  // A morph animation (.xpf) played: the sliders of the targets it drives follow the weights
  // playing and cannot be dragged; another clip gives them back.
  void theSlidersFollowAPlayingMorphAnimation() {
    const QString dir = QStringLiteral(MARROW_FIXTURES_DIR "/cal3d/dokurochan_v1300/");
    if (!QFile::exists(dir + "DokuroChan_Key_test_facial.xpf")) MARROW_QSKIP("../shared/fixtures absent");
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {dir + "DokuroChan.csf", dir + "DokuroChan_mesh.001.cmf",
                            dir + "DokuroChan_test_bone.caf", dir + "DokuroChan_Key_test_facial.xpf"}));
    const auto& scene = *w.document()->scene;
    int morphClip = -1, boneClip = -1;
    for (std::size_t c = 0; c < scene.clips.size(); ++c)
      (scene.clips[c].morphTracks.empty() ? boneClip : morphClip) = static_cast<int>(c);
    QVERIFY(morphClip >= 0 && boneClip >= 0);
    // Target 16 of the face: 1 from 6.17 s to 6.23 s, 0 at 6.27 s (the file's keys).
    const std::string target = scene.meshes[0].morphs.at(16).name;
    w.properties()->show(*w.document(), {}, marrow::app::ItemKind::Mesh, 0);
    auto* tree = w.properties()->findChild<QTreeWidget*>();
    QVERIFY(tree);
    QSlider* slider = nullptr;
    for (QTreeWidgetItemIterator it(tree); *it && !slider; ++it)
      if ((*it)->text(0) == marrow::app::morphDisplayName(target))
        slider = qobject_cast<QSlider*>(tree->itemWidget(*it, 1));
    QVERIFY(slider);
    w.timeline()->setClip(morphClip);
    w.timeline()->seek(6.2);
    QTRY_COMPARE(slider->value(), 1000);
    QVERIFY(!slider->isEnabled());
    w.timeline()->seek(6.3);
    QTRY_COMPARE(slider->value(), 0);
    w.timeline()->seek(6.2);
    QTRY_COMPARE(slider->value(), 1000);
    w.timeline()->setClip(boneClip);
    QTRY_VERIFY(slider->isEnabled());
    QCOMPARE(slider->value(), 0);  // its own weight again
  }

  // View › Simulate Springs: the paladin's cape and loincloth are drawn where the spring system
  // puts them at the playhead (the same cloth `pose --springs` gives there), the rest skinned;
  // switched off, the cloth is skinned too.
  void simulateSpringsDrawsTheClothAtThePlayhead() {
    const QString cfg = QStringLiteral(MARROW_FIXTURES_DIR "/cal3d/paladin/paladin.cfg");
    if (!QFile::exists(cfg)) MARROW_QSKIP("../shared/fixtures absent");
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {cfg}));
    if (!w.viewport()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    const auto& scene = *w.document()->scene;
    int walk = -1;
    for (std::size_t c = 0; c < scene.clips.size(); ++c)
      if (scene.clips[c].name == "paladin_walk") walk = static_cast<int>(c);
    QVERIFY(walk >= 0);
    QAction* springs = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == QStringLiteral("Simulate &Springs")) springs = a;
    QVERIFY(springs);
    QVERIFY(springs->isChecked());  // on by default
    w.timeline()->setClip(walk);
    w.timeline()->pause();
    w.timeline()->seek(0.75);
    const marrow::anim::ClothPlayback expected = [&] {
      marrow::anim::ClothPlayback c(scene);
      c.moveTo(0.75f, scene.clips[walk].duration, true, [&](float t) {
        return marrow::anim::evaluate(scene.skeleton, &scene.clips[walk], t, true);
      });
      return c;
    }();
    QCOMPARE(expected.meshes().size(), std::size_t{2});  // the cape and a loincloth
    const std::size_t cape = expected.meshes()[0];
    const auto& r = w.viewport()->renderer();
    QTRY_VERIFY(r.placed(cape));
    const glm::mat4 display = marrow::formats::toDisplay(scene.basis);
    const std::vector<glm::vec3> shown = r.displayPositions(cape);
    QCOMPARE(shown.size(), expected.positions(0).size());
    float worst = 0.0f;
    for (std::size_t v = 0; v < shown.size(); ++v)
      worst = std::max(worst, glm::length(shown[v] - glm::vec3(display * glm::vec4(expected.positions(0)[v], 1.0f))));
    QVERIFY2(worst < 1e-3f, qPrintable(QString::number(worst)));
    springs->setChecked(false);
    QVERIFY(!r.placed(cape));
    springs->setChecked(true);
    QVERIFY(r.placed(cape));
  }

  // A character whose meshes store black at every vertex (cal3d's "no colours") and have no
  // material is drawn lit in the default shade, and the Log and Properties say why.
  void aModelWithBlackColoursAndNoMaterialIsReadableAndSaysWhy() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::string error;
    const QStringList files =
        marrow::testing::writeColouredCal3dBox(QDir(dir.path()), glm::vec4(0, 0, 0, 1), &error);
    QVERIFY2(files.size() == 3, error.c_str());
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, files));
    if (!w.viewport()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    QVERIFY(w.log()->findChild<QTreeWidget*>());
    const QString log = marrow::testing::logText(w);
    QVERIFY2(log.contains(QStringLiteral("read as no colours")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("no material: drawn in the default shade")), qPrintable(log));

    w.timeline()->pause();
    const QImage frame = w.viewport()->grabFramebuffer();
    int bright = 0, black = 0;
    for (int y = 0; y < frame.height(); ++y)
      for (int x = 0; x < frame.width(); ++x) {
        const QColor c = frame.pixelColor(x, y);
        bright += std::min({c.red(), c.green(), c.blue()}) > 150;
        black += std::max({c.red(), c.green(), c.blue()}) < 20;
      }
    QVERIFY2(bright > frame.width() * frame.height() / 50,
             qPrintable(QStringLiteral("%1 bright pixels").arg(bright)));
    QVERIFY2(black < bright / 10, qPrintable(QStringLiteral("%1 black pixels").arg(black)));

    marrow::app::PropertiesDock& props = *w.properties();
    props.show(*w.document(), marrow::app::MeshControls{}, marrow::app::ItemKind::Mesh, 0);
    auto* rows = props.findChild<QTreeWidget*>();
    QVERIFY(rows);
    const auto drawn = rows->findItems(QStringLiteral("Drawn with"), Qt::MatchExactly, 0);
    QCOMPARE(drawn.size(), 1);
    QCOMPARE(drawn[0]->text(1), QStringLiteral("no material: drawn in the default shade"));
  }

  void selectingABoneShowsItsTransforms() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    w.bones()->selectBone(3);
    QCOMPARE(w.bones()->selectedBone(), 3);
    QCOMPARE(w.viewport()->options().selectedBone, 3);
    // The quaternion's w is on the rotation's line, whole.
    const QStringList lines = w.bones()->transformsText().split(QLatin1Char('\n'));
    const auto quat = std::find_if(lines.begin(), lines.end(), [](const QString& l) { return l.contains(QStringLiteral("quaternion")); });
    QVERIFY(quat != lines.end() && quat + 1 != lines.end());
    QCOMPARE((quat + 1)->split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), 4);
    w.bones()->selectBone(-1);
    QCOMPARE(w.viewport()->options().selectedBone, -1);
  }

  // Issue 20: Tab into the Bones dock moves focus, not the selected bone.
  void tabbingIntoTheBonesSelectsNothing() {
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    auto* tree = w.bones()->findChild<QTreeWidget*>();
    QVERIFY(tree);
    QVERIFY(!tree->currentItem());
    // What Tab does to a view: a focus-in, which makes the first row current.
    QFocusEvent in(QEvent::FocusIn, Qt::TabFocusReason);
    QApplication::sendEvent(tree, &in);
    QVERIFY(tree->currentItem());  // the view moved its cursor…
    QCOMPARE(w.bones()->selectedBone(), -1);  // …but no bone was selected
    QCOMPARE(w.viewport()->options().selectedBone, -1);
  }
  // File › Open as Frames (issue 17): an OBJ sequence is one mesh whose frames play; a reload
  // reads the files as frames again.
  void anObjSequenceOpensAsOneMeshWithItsFrames() {
    QTemporaryDir dir;
    QStringList files;
    for (int f : {1, 2, 10}) {  // flag_10 is the last frame, not the second
      const QString path = dir.filePath(QStringLiteral("flag_%1.obj").arg(f));
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(QStringLiteral("v 0 0 0\nv 1 0 0\nv 0 1 %1\nv 1 1 0\nf 1 2 3\nf 2 4 3\n").arg(f * 0.1).toLatin1());
      files << path;
    }
    MainWindow w;
    w.resize(900, 650);
    w.show();
    QVERIFY(marrow::testing::waitLoaded(w, [&] { w.openFrames(files); }, 30000));
    const auto check = [&] {
      const auto& s = *w.document()->scene;
      QCOMPARE(s.meshes.size(), std::size_t{1});
      QCOMPARE(s.meshes[0].morphs.size(), std::size_t{3});
      QCOMPARE(s.meshes[0].morphs[2].positions[2].z, 1.0f);
      QCOMPARE(s.clips.size(), std::size_t{1});
      QCOMPARE(s.clips[0].name, std::string("flag (frames)"));
      QCOMPARE(s.clips[0].duration, 9.0f / 30.0f);
    };
    check();
    QVERIFY(marrow::testing::waitLoaded(w, [&] { w.reload(); }, 30000));
    check();
  }
  // File › Watch Files (issue 19): a model whose file changes is read again once the file has
  // settled; a half-written file is never read; with watching off nothing happens.
  void aChangedFileIsReloadedOnceItSettles() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("wave.obj"));
    const auto write = [&](const QByteArray& text) {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(text);
    };
    const QByteArray three("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    const QByteArray four("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n");
    const QByteArray five("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\nf 1 2 3\nf 2 4 3\nf 2 5 4\n");
    write(three);
    MainWindow w;
    w.setSettleInterval(150);
    w.show();
    QVERIFY(openAndWait(w, {path}));
    QVERIFY(w.findChild<QAction*>("watchAction")->isChecked());  // on by default
    QCOMPARE(w.watchedFiles(), QStringList{path});
    const auto vertices = [&] { return w.document()->scene->meshes.front().vertexCount(); };
    QCOMPARE(vertices(), std::size_t{3});
    const auto camera = w.viewport()->camera();

    QTest::qWait(50);  // a later modification time than the first write's
    write(four);
    QVERIFY(QTest::qWaitFor([&] { return !w.loading() && vertices() == 4; }, 15000));
    QVERIFY(marrow::testing::logText(w).contains("its files changed on disk"));
    QCOMPARE(w.viewport()->camera().distance(), camera.distance());  // the view kept

    // Written in two goes, 30 ms apart: only the whole file is read.
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    QSignalSpy loaded(&w, &MainWindow::documentLoaded);
    write("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\nf 1 2 3\nf 2 4 ");
    QTest::qWait(30);
    write(five);
    QVERIFY(QTest::qWaitFor([&] { return !w.loading() && vertices() == 5; }, 15000));
    QTest::qWait(400);   // a second reload, had the half file been read, would have come by now
    QCOMPARE(loaded.size(), 1);  // the whole file, read once
    QVERIFY(failed.isEmpty());

    // Watching off: a change is left alone.
    w.findChild<QAction*>("watchAction")->setChecked(false);
    QVERIFY(w.watchedFiles().isEmpty());
    write(three);
    QTest::qWait(600);
    QCOMPARE(vertices(), std::size_t{5});
    w.findChild<QAction*>("watchAction")->setChecked(true);  // the setting is kept: back on
  }
};

MARROW_QTEST_MAIN(MainWindowTest)

#include "main_window_test.moc"
