// BRF files in the viewer: the Archives dock lists the records of every open file by kind, a
// filter finds them by name, picked records make the model shown, a clip made for another
// skeleton says so and stays at rest, vertex frames play on the timeline, materials show their
// textures.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cstdio>
#include <cstdlib>

#include "app/gui/archive_dock.h"
#include "formats/brf/archive.h"
#include "formats/registry.h"
#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/gl/offscreen.h"
#include "tests/support/gltf_edit.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/images.h"
#include "tests/support/qskip.h"
#include "tests/support/read_context.h"
#include "tests/support/warband_module.h"

using marrow::app::MainWindow;
using marrow::testing::differingPixels;
using marrow::testing::openAndWait;
namespace brf = marrow::formats::brf;

namespace {

const QString kBrfDir = QStringLiteral(MARROW_FIXTURES_DIR "/brf/");

QString fixture(const char* name) { return kBrfDir + QString::fromLatin1(name); }

// Runs marrow-cli (the one built here: $MARROW_CLI) to make a test's input; whether it succeeded.
bool runCli(const QString& program, const QStringList& args) {
  QProcess p;
  p.start(program, args);
  return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

// The open BRF files, the archive the dock shows first.
const marrow::formats::vfs::Archive& brfArchive(const MainWindow& w) {
  return *w.archive()->archiveAt(0);
}

// The path of the record of that kind whose name ends with `name` ("light_leather_boots" finds
// "SkinA.light_leather_boots"), in any open file.
std::optional<std::string> record(const MainWindow& w, const char* kind, const std::string& name) {
  const auto& a = brfArchive(w);
  for (const auto& file : a.children(""))
    for (const auto& group : a.children(file.path))
      for (const auto& r : a.children(group.path)) {
        const std::string& n = r.name;
        if (r.kind == kind && n.size() >= name.size() &&
            n.compare(n.size() - name.size(), name.size(), name) == 0)
          return r.path;
      }
  return std::nullopt;
}

void pick(MainWindow& w, const std::vector<std::string>& paths) { w.archive()->selectNodes(0, paths); }

// The rows the dock shows of a kind of record (the filter's list when a filter is set).
int visible(const MainWindow& w, const char* kind) {
  QTreeWidget* view = w.archive()->filter().isEmpty() ? w.archive()->tree() : w.archive()->matches();
  int n = 0;
  for (QTreeWidgetItemIterator it(view); *it; ++it) {
    const auto node = w.archive()->rowNode(*it);
    if (!node || node->kind != kind || (*it)->isHidden()) continue;
    bool shown = true;
    for (QTreeWidgetItem* p = (*it)->parent(); p; p = p->parent()) shown = shown && !p->isHidden();
    n += shown;
  }
  return n;
}

int clipNamed(const MainWindow& w, const std::string& name) {
  const auto& clips = w.document()->scene->clips;
  for (std::size_t c = 0; c < clips.size(); ++c)
    if (clips[c].name == name) return static_cast<int>(c);
  return -1;
}

QTreeWidgetItem* findRow(QTreeWidget* tree, const QString& name) {
  for (QTreeWidgetItemIterator it(tree); *it; ++it)
    if ((*it)->text(0) == name) return *it;
  return nullptr;
}

bool restPose(MainWindow& w) {
  const auto rest = marrow::anim::restPose(w.document()->scene->skeleton);
  const auto& pose = w.player().pose();
  if (pose.local.size() != rest.local.size()) return false;
  for (std::size_t b = 0; b < rest.local.size(); ++b)
    if (pose.local[b].translation != rest.local[b].translation ||
        pose.local[b].rotation != rest.local[b].rotation)
      return false;
  return true;
}

}  // namespace

class ArchiveTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    marrow::testing::useTestSettings("MarrowArchiveTest");
    if (!QFile::exists(fixture("openbrf_redux_reference.brf")))
      MARROW_QSKIP("the BRF fixtures are absent (../shared/fixtures/brf)");
  }

  void treeGroupsTheRecordsByKindWithTheirCounts() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf")}));
    QTreeWidget* tree = w.archive()->tree();
    QCOMPARE(tree->topLevelItemCount(), 1);
    QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("openbrf_redux_reference.brf"));
    QVERIFY(findRow(tree, QStringLiteral("Meshes (7)")));
    QVERIFY(findRow(tree, QStringLiteral("Skeletons (2)")));
    QVERIFY(findRow(tree, QStringLiteral("Animations (7)")));
    QCOMPARE(visible(w, "mesh"), 7);
    QCOMPARE(visible(w, "skeleton"), 2);
    QCOMPARE(visible(w, "animation"), 7);
    // Key figures beside each record.
    QTreeWidgetItem* horse = findRow(tree, QStringLiteral("skel_horse"));
    QVERIFY(horse);
    QCOMPARE(horse->text(marrow::app::ArchiveDock::kDetails), QStringLiteral("28 bones"));
    QTreeWidgetItem* walk = findRow(tree, QStringLiteral("man_walk"));
    QVERIFY(walk);
    QCOMPARE(walk->text(marrow::app::ArchiveDock::kDetails), QStringLiteral("20 bones; 33 frames, 0–32"));
    QVERIFY(w.archive()->isVisible());  // something browsable is open
  }

  void filterFindsRecordsByNameInEveryFile() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf"), fixture("wfas_boots_a.brf")}));
    w.archive()->setFilter(QStringLiteral("BOOT"));
    QCOMPARE(visible(w, "mesh"), 2);  // one in each file
    QCOMPARE(visible(w, "animation"), 0);
    QCOMPARE(visible(w, "skeleton"), 0);
    // Picking from the matches shows the record, as in the tree.
    w.archive()->matches()->topLevelItem(0)->setSelected(true);
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{1});
    w.archive()->setFilter({});
    QCOMPARE(visible(w, "animation"), 7);
  }

  void pickedMeshesAreExactlyWhatIsShownAndTheyPlay() {
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf")}));
    const auto boots = record(w, "mesh", "light_leather_boots");
    const auto sword = record(w, "mesh", "bastard_sword");
    QVERIFY(boots && sword);
    pick(w, {*boots, *sword});
    const auto& s = *w.document()->scene;
    QCOMPARE(s.meshes.size(), std::size_t{2});
    QCOMPARE(w.viewport()->document()->scene->meshes.size(), std::size_t{2});
    QCOMPARE(s.skeleton.name, std::string("skel_human"));
    QCOMPARE(w.archive()->selectedNodes().size(), std::size_t{2});

    const int walk = clipNamed(w, "man_walk");
    QVERIFY(walk >= 0);
    w.timeline()->setClip(walk);
    w.timeline()->pause();
    QVERIFY(w.player().mismatch().empty());
    if (!w.viewport()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    w.timeline()->seek(0.0);
    const QImage first = w.viewport()->grabFramebuffer();
    w.timeline()->seek(0.5);
    const QImage later = w.viewport()->grabFramebuffer();
    const int moved = differingPixels(first, later);
    QVERIFY2(moved > 100, qPrintable(QStringLiteral("only %1 pixels changed").arg(moved)));
  }

  void aClipForAnotherSkeletonSaysSoAndStaysAtRest() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf")}));
    pick(w, {*record(w, "mesh", "light_leather_boots"), *record(w, "mesh", "bastard_sword")});
    w.timeline()->setClip(clipNamed(w, "anim_horse"));
    w.timeline()->seek(1.0);
    QCOMPARE(w.timeline()->mismatchText(),
             QStringLiteral("animation 'anim_horse' is for skel_horse (28 bones); the model's "
                            "skeleton is skel_human (20 bones)"));
    QVERIFY(restPose(w));

    // The user picks the horse's skeleton: the human clips cannot play on it.
    const auto horse = record(w, "skeleton", "skel_horse");
    QVERIFY(horse);
    w.archive()->chooseSkeleton(horse);
    QCOMPARE(w.document()->scene->skeleton.name, std::string("skel_horse"));
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{2});
    QCOMPARE(w.archive()->chosenSkeleton(), horse);
    w.timeline()->setClip(clipNamed(w, "man_walk"));
    w.timeline()->seek(0.5);
    QCOMPARE(w.timeline()->mismatchText(),
             QStringLiteral("animation 'man_walk' is for skel_human (20 bones); the model's "
                            "skeleton is skel_horse (28 bones)"));
    QVERIFY(restPose(w));
    // anim_horse now fits.
    w.timeline()->setClip(clipNamed(w, "anim_horse"));
    w.timeline()->seek(1.0);
    QVERIFY(w.timeline()->mismatchText().isEmpty());
    QVERIFY(!restPose(w));
  }

  void pickingNothingShowsTheWholeFileAgain() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf")}));
    const auto whole = w.document()->scene;
    pick(w, {*record(w, "mesh", "bastard_sword")});
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{1});
    pick(w, {});
    QCOMPARE(w.document()->scene, whole);
  }

  void aSkeletonRecordShowsItWithTheAnimationsThatFit() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf")}));
    pick(w, {*record(w, "skeleton", "skel_horse")});
    const auto& s = *w.document()->scene;
    QCOMPARE(s.skeleton.name, std::string("skel_horse"));
    QVERIFY(s.meshes.empty());
    QVERIFY(!s.clips.empty());
    QCOMPARE(s.clips.front().name, std::string("anim_horse"));
    for (std::size_t c = 1; c < s.clips.size(); ++c) {  // the rest: its motions, cut at the gaps
      QCOMPARE(s.clips[c].group, std::string("anim_horse"));
      QVERIFY(s.clips[c].sourceFrames.has_value());
    }
  }

  void vertexFramesPlayOnTheTimeline() {
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {fixture("wfas_map_icons_c.brf")}));
    pick(w, {*record(w, "mesh", "icon_mule")});
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{1});
    const int frames = clipNamed(w, "icon_mule (frames)");
    QVERIFY(frames >= 0);
    w.timeline()->setClip(frames);
    w.timeline()->pause();
    // Frame times as the file gives them (0, 100, 104, …), one file time per timeline frame.
    w.timeline()->seek(100.0 / 30.0);
    QCOMPARE(w.player().frame(), 100);
    const std::vector<std::vector<float>> none(1, std::vector<float>(w.document()->scene->meshes[0].morphs.size()));
    const auto at100 = w.player().morphWeights(none);
    QCOMPARE(at100[0][1], 1.0f);  // "frame 2" is the file's frame at time 100
    const QImage first = w.viewport()->grabFramebuffer();
    w.timeline()->seek(120.0 / 30.0);
    const auto at120 = w.player().morphWeights(none);
    QVERIFY(at100 != at120);
    if (!w.viewport()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    const QImage later = w.viewport()->grabFramebuffer();
    const int moved = differingPixels(first, later);
    QVERIFY2(moved > 20, qPrintable(QStringLiteral("only %1 pixels changed").arg(moved)));
  }

  void anAnimationInAnotherFilePlaysOnTheMeshesShown() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {fixture("wfas_boots_a.brf"), fixture("wfas_skeletons.brf"),
                            fixture("wfas_ani_walk_backward.brf")}));
    QCOMPARE(w.archive()->tree()->topLevelItemCount(), 1);  // the BRF files, one archive
    QCOMPARE(w.archive()->tree()->topLevelItem(0)->childCount(), 3);
    pick(w, {*record(w, "animation", "walk_backward")});
    const auto& s = *w.document()->scene;
    QCOMPARE(s.meshes.size(), std::size_t{1});
    QCOMPARE(s.meshes[0].name, std::string("boot_nomad_a"));
    QCOMPARE(s.skeleton.name, std::string("skel_human"));
    QVERIFY(w.player().clip());
    QCOMPARE(w.player().clip()->name, std::string("walk_backward"));
    QVERIFY(w.player().playing());
    w.timeline()->seek(0.5);
    QVERIFY(w.player().mismatch().empty());
    QVERIFY(!restPose(w));
  }

  void aMaterialShowsItsFieldsAndTextures() {
    // A PNG under the .dds name the material asks for: the decoder reads it by its magic.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(fixture("wfas_oim_flora_materials.brf"), dir.filePath("flora.brf")));
    QImage leaves(32, 16, QImage::Format_RGBA8888);
    leaves.fill(Qt::darkGreen);
    QVERIFY(leaves.save(dir.filePath("oim_leafs.dds"), "PNG"));
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {dir.filePath("flora.brf")}));
    const auto shown = w.document()->scene;
    pick(w, {*record(w, "material", "oim_leafs")});
    QCOMPARE(w.document()->scene, shown);  // a material alone leaves the model as it is
    auto* tree = w.properties()->findChild<QTreeWidget*>();
    QVERIFY(tree);
    QTreeWidgetItem* shader = findRow(tree, QStringLiteral("shader"));
    QVERIFY(shader);
    QCOMPARE(shader->text(1), QStringLiteral("flora_shader"));
    QTreeWidgetItem* diffuse = findRow(tree, QStringLiteral("diffuse map"));
    QVERIFY(diffuse);
    QVERIFY(diffuse->text(1).endsWith(QStringLiteral("oim_leafs.dds")));
    QCOMPARE(diffuse->childCount(), 1);
    auto* thumbnail = qobject_cast<QLabel*>(tree->itemWidget(diffuse->child(0), 1));
    QVERIFY(thumbnail);
    QCOMPARE(thumbnail->pixmap().size(), QSize(128, 64));

    pick(w, {*record(w, "material", "oim_bark_03")});
    QTreeWidgetItem* missing = findRow(tree, QStringLiteral("diffuse map"));
    QVERIFY(missing && missing->text(1).endsWith(QStringLiteral("(not found)")));
  }

  void bodiesAreShownAndCanBeHidden() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {fixture("wfas_object_bodies.brf")}));
    QTreeWidgetItem* barrel = findRow(w.archive()->tree(), QStringLiteral("bobarrel"));
    QVERIFY(barrel);
    QCOMPARE(barrel->text(marrow::app::ArchiveDock::kDetails), QStringLiteral("1 part: 1 capsule"));
    pick(w, {*record(w, "body", "bobarrel")});
    QCOMPARE(w.document()->scene->bodies.size(), std::size_t{1});
    QVERIFY(w.document()->scene->meshes.empty());
    QAction* toggle = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == QStringLiteral("Collision &Bodies")) toggle = a;
    QVERIFY(toggle);
    QVERIFY(toggle->isChecked());
    QVERIFY(w.viewport()->bodiesVisible());
    toggle->setChecked(false);
    QVERIFY(!w.viewport()->bodiesVisible());
  }

  void choiceRulesWithoutAWindow() {
    auto doc = marrow::app::loadDocument({fixture("openbrf_redux_reference.brf")},
                                         marrow::app::Textures::Skip);
    QVERIFY(doc.ok());
    const auto archive = std::dynamic_pointer_cast<const brf::BrfArchive>(doc->archives.first("brf"));
    QVERIFY(archive);
    const auto& sources = archive->sources();
    using What = marrow::formats::ModelArchive::Shown::What;
    // Only a material: the model stays.
    const brf::RecordRef material{0, brf::Section::Material, 0};
    QVERIFY(brf::pickRecords(sources, std::span(&material, 1), std::nullopt, std::nullopt, std::nullopt).what ==
            What::Inspect);
    // Nothing: the whole file.
    QVERIFY(brf::pickRecords(sources, {}, std::nullopt, std::nullopt, std::nullopt).what == What::WholeFiles);
    // An animation with no meshes shown: the skeleton of its bone count.
    brf::RecordRef horseAnim{0, brf::Section::Animation, 0};
    for (std::size_t i = 0; i < sources[0].doc->animations.size(); ++i)
      if (sources[0].doc->animations[i].name == "anim_horse") horseAnim.index = i;
    const std::vector<brf::RecordRef> none;
    const auto c = brf::pickRecords(sources, std::span(&horseAnim, 1), none, none, std::nullopt);
    QVERIFY(c.selection.skeleton);
    QCOMPARE(sources[0].doc->skeletons[c.selection.skeleton->index].name, std::string("skel_horse"));
    QCOMPARE(c.clip, std::string("anim_horse"));
  }

  // Issue 20: a file of many different meshes opens on its first, selected in the tree, not on
  // a heap of them all.
  void aPackOfManyMeshesOpensOnTheFirst() {
    QFile bootsFile(fixture("wfas_boots_a.brf"));
    if (!bootsFile.open(QIODevice::ReadOnly)) MARROW_QSKIP("wfas_boots_a.brf is absent (../shared/fixtures)");
    const QByteArray raw = bootsFile.readAll();
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(raw.constData()), static_cast<std::size_t>(raw.size()));
    auto boots = marrow::formats::brf::parse(bytes, ::marrow::testing::named("wfas_boots_a.brf"));
    QVERIFY(boots.ok());
    marrow::formats::brf::Document pack;
    pack.version = boots->version;
    pack.hasVersionToken = boots->hasVersionToken;
    for (int i = 0; i < 20; ++i) {
      pack.meshes.push_back(boots->meshes.at(0));
      pack.meshes.back().name = "armour_" + std::to_string(i);
    }
    const auto written = marrow::formats::brf::write(pack);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pack.brf"));
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(reinterpret_cast<const char*>(written.data()), static_cast<qint64>(written.size()));
    }
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {path}));
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{1});
    QCOMPARE(w.document()->scene->meshes[0].name, std::string("armour_0"));
    const auto picked = w.archive()->selectedNodes();
    QCOMPARE(picked.size(), std::size_t{1});
  }

  // Issue 20: a BRF cut short opens with what comes before the damage, marked partial, and the
  // Log names the damage.
  void aDamagedBrfOpensInPart() {
    QFile whole(fixture("openbrf_redux_reference.brf"));
    if (!whole.open(QIODevice::ReadOnly)) MARROW_QSKIP("openbrf_redux_reference.brf is absent (../shared/fixtures)");
    const QByteArray bytes = whole.readAll();
    QTemporaryDir dir;
    const QString cut = dir.filePath(QStringLiteral("cut.brf"));
    {
      QFile f(cut);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(bytes.left(bytes.size() / 10));
    }
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {cut}));
    QVERIFY(w.document()->scene->partial);
    QVERIFY(!w.document()->scene->meshes.empty());
    QVERIFY2(w.windowTitle().contains(QStringLiteral("partial")), qPrintable(w.windowTitle()));
    QVERIFY(marrow::testing::logText(w).contains(QStringLiteral("damaged")));
  }

  // A BRF inside a Warband module opens the module (File › Open Module of This File): every file
  // module.ini loads, each saying its line, found across by kind and name; the module's actions
  // on the timeline.
  void aBrfInAModuleOpensItsModule() {
    QTemporaryDir dir;
    marrow::testing::TestModule m;
    std::string missing;
    if (!marrow::testing::makeTestModule(dir.path().toStdString(), kBrfDir.toStdString(), m, missing))
      MARROW_QSKIP(qPrintable(QString::fromStdString(missing + " is absent (../shared/fixtures)")));
    MainWindow w;
    w.show();
    QAction* open = w.findChild<QAction*>(QStringLiteral("openLibraryAction"));
    QVERIFY(open);
    QVERIFY(openAndWait(w, {fixture("wfas_boots_a.brf")}));
    QVERIFY(!open->isEnabled());  // a BRF outside a module
    QVERIFY(openAndWait(w, {QString::fromStdString((m.resource / "Boots_A.BRF").string())}));
    QVERIFY(open->isEnabled());
    QSignalSpy loaded(&w, &MainWindow::documentLoaded);
    open->trigger();
    QVERIFY(loaded.wait(20000));
    QCOMPARE(w.document()->archives.archives().size(), std::size_t{1});
    QCOMPARE(brfArchive(w).title(), std::string("Test Module"));
    QVERIFY(!open->isEnabled());  // it is open
    // Each file says where it comes from.
    QTreeWidgetItem* boots = findRow(w.archive()->tree(), QStringLiteral("Boots_A.BRF"));
    QVERIFY(boots);
    QVERIFY2(boots->text(marrow::app::ArchiveDock::kDetails).contains(QStringLiteral("module.ini line 6")),
             qPrintable(boots->text(marrow::app::ArchiveDock::kDetails)));
    // KIND:TEXT finds across the module.
    w.archive()->setFilter(QStringLiteral("mesh:boot"));
    QCOMPARE(visible(w, "mesh"), 2);
    QCOMPARE(visible(w, "material"), 0);
    w.archive()->setFilter(QStringLiteral("skeleton:"));
    QCOMPARE(visible(w, "skeleton"), 4);
    w.archive()->setFilter({});
    // The actions are clips.
    QVERIFY(clipNamed(w, "stand:2") >= 0);
    QVERIFY(clipNamed(w, "back_off") >= 0);
    // A record's context menu lists what uses it; a record among them is selected when picked.
    w.archive()->setFilter(QStringLiteral("texture:oim_bark_03_bump"));
    QTreeWidgetItem* bump = findRow(w.archive()->matches(), QStringLiteral("oim_bark_03_bump.dds"));
    QVERIFY(bump);
    QMenu menu;
    w.archive()->fillMenu(menu, bump->treeWidget(), bump);
    QMenu* usedBy = menu.findChild<QMenu*>(QStringLiteral("usedByMenu"));
    QVERIFY(usedBy);
    QCOMPARE(usedBy->actions().size(), 1);
    QAction* material = usedBy->actions().at(0);
    QCOMPARE(material->text(), QStringLiteral("material 'oim_bark_03'"));
    QVERIFY(material->isEnabled());
    w.archive()->setFilter({});
    material->trigger();
    const auto picked = w.archive()->selectedNodes();
    QCOMPARE(picked.size(), std::size_t{1});
    const auto node = w.document()->archives.archives().at(0)->node(picked[0].path);
    QVERIFY(node);
    QCOMPARE(node->kind, std::string("material"));
    QCOMPARE(node->name, std::string("oim_bark_03"));
  }

  // Issue 19: Reload (Ctrl+R) read the whole files again and showed them, dropping the records
  // picked; now it picks them again, with the clip and the time.
  void reloadKeepsTheRecordsPicked() {
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf")}));
    const auto boots = record(w, "mesh", "light_leather_boots");
    QVERIFY(boots);
    pick(w, {*boots});
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{1});
    const int walk = clipNamed(w, "man_walk");
    QVERIFY(walk >= 0);
    w.timeline()->setClip(walk);
    w.timeline()->pause();
    w.timeline()->seek(0.4);
    QVERIFY(marrow::testing::waitLoaded(w, [&] { w.reload(); }));
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{1});
    QCOMPARE(w.document()->scene->meshes[0].name.ends_with("light_leather_boots"), true);
    QCOMPARE(w.archive()->selectedPaths(0), std::vector<std::string>{*boots});
    QVERIFY(w.player().clip() && w.player().clip()->name == "man_walk");
    QVERIFY(std::abs(w.player().time() - 0.4) < 1e-6);
  }

  // Issue 19: a layout saved with the Archives dock showing showed it again with nothing to browse.
  void theArchivesDockShowsOnlyWithSomethingToBrowse() {
    {
      MainWindow w;
      w.show();
      QVERIFY(openAndWait(w, {fixture("openbrf_redux_reference.brf")}));
      QVERIFY(w.archive()->isVisible());
      w.close();  // saves the layout
    }
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.archive()->isVisible());
    QVERIFY(openAndWait(w, {fixture("wfas_boots_a.brf")}));
    QVERIFY(w.archive()->isVisible());
  }

  // Issue 19: a BRF's level meshes (NAME.lod1 …) were drawn on top of their mesh. Level 0 is
  // drawn; the Properties dock picks another; the mesh's Properties list each level's figures.
  void levelMeshesAreDrawnOneLevelAtATime() {
    const QString cliPath = qEnvironmentVariable("MARROW_CLI");
    const QString paladin = QStringLiteral(MARROW_FIXTURES_DIR "/cal3d/paladin/paladin.cfg");
    if (cliPath.isEmpty() || !QFile::exists(paladin)) MARROW_QSKIP("needs marrow-cli and the cal3d fixtures");
    QTemporaryDir dir;
    const QString brf = dir.filePath("paladin.brf");
    QVERIFY(runCli(cliPath, {"convert", paladin, "-o", brf}));
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(openAndWait(w, {brf}));
    // 21 meshes: a heap, opened on its first mesh and its level; picking nothing shows them all.
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{2});
    QCOMPARE(w.document()->scene->meshes[1].name, w.document()->scene->meshes[0].name + ".lod1");
    pick(w, {});
    const auto& s = *w.document()->scene;
    const auto drawn = [&] {
      std::vector<std::string> out;
      for (std::size_t m = 0; m < s.meshes.size(); ++m)
        if (w.viewport()->renderer().meshVisible(m)) out.push_back(s.meshes[m].name);
      return out;
    };
    for (const std::string& name : drawn()) QVERIFY2(name.find(".lod") == std::string::npos, name.c_str());
    const std::size_t levelZero = drawn().size();
    QVERIFY(levelZero > 0 && levelZero < s.meshes.size());
    // The whole model's Properties: the level drawn (the last pick's rows are deleted first).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    auto* spin = w.properties()->findChild<QSpinBox*>("meshLevel");
    QVERIFY(spin);
    QCOMPARE(spin->maximum(), 3);
    spin->setValue(3);
    const auto deepest = drawn();
    QCOMPARE(deepest.size(), levelZero);
    QVERIFY(std::count_if(deepest.begin(), deepest.end(), [](const std::string& n) { return n.ends_with(".lod3"); }) > 0);
    // A mesh's Properties: its levels' figures.
    int head = -1;  // a mesh with three levels
    for (std::size_t m = 0; m < s.meshes.size() && head < 0; ++m)
      if (std::find(deepest.begin(), deepest.end(), s.meshes[m].name + ".lod3") != deepest.end()) head = static_cast<int>(m);
    QVERIFY(head >= 0);
    w.properties()->show(*w.document(), {}, marrow::app::ItemKind::Mesh, head);
    QVERIFY2(marrow::testing::treeText(*w.properties()).contains("3: "), qPrintable(marrow::testing::treeText(*w.properties())));
  }

  // File › Rig onto Skeleton (issue 17): a model from a tool (the game's boots, walk and
  // skeleton made into a glTF of 22 bones) rigged onto the game's skel_human, picked among the
  // file's skeletons; exported as BRF it has the game's bones in the game's order; a reload rigs
  // it again; Back to Own Skeleton shows the glTF's. The skeletons are the game's human and
  // horse, in one file.
  void aModelFromAToolIsRiggedOntoTheGamesSkeleton() {
    const QString cliPath = qEnvironmentVariable("MARROW_CLI");
    if (cliPath.isEmpty()) MARROW_QSKIP("MARROW_CLI is not set");
    QTemporaryDir dir;
    const QString glb = dir.filePath("boots.glb"), brfOut = dir.filePath("boots.brf"),
                  skeletons = dir.filePath("skeletons.brf");
    for (const QStringList& args : {QStringList{"convert", fixture("wfas_boots_a.brf"), fixture("wfas_skeletons.brf"),
                                                fixture("wfas_ani_walk_backward.brf"), "-o", glb},
                                    QStringList{"convert", fixture("wfas_horse_skeleton.brf"),
                                                fixture("wfas_skeletons.brf"), "-o", skeletons}})
      QVERIFY(runCli(cliPath, args));
    QVERIFY(marrow::testing::addRootJoint(glb, "RootNode"));  // a DCC rig's root joint
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(openAndWait(w, {glb}));
    const std::size_t ownBones = w.document()->scene->skeleton.bones.size();
    QCOMPARE(ownBones, std::size_t{21});
    QStringList offered;
    w.setSkeletonChooser([&](const QStringList& inFile) {
      offered = inFile;
      for (const QString& s : inFile)
        if (s.endsWith("::skel_human")) return s;
      return QString();
    });
    QVERIFY(marrow::testing::waitLoaded(w, [&] { w.rigOntoSkeleton(skeletons); }));
    QCOMPARE(offered.size(), 2);
    const auto& rigged = *w.document()->scene;
    QCOMPARE(w.document()->rig, skeletons + "::skel_human");
    QVERIFY(w.windowTitle().contains("boots.glb on skel_human"));
    QCOMPARE(rigged.skeleton.bones.size(), std::size_t{20});
    QCOMPARE(rigged.skeleton.bones[7].name, std::string("spine"));  // the game's order
    QVERIFY(marrow::testing::logText(w).contains("Rigged onto"));
    QVERIFY(w.findChild<QAction*>("ownSkeletonAction")->isEnabled());
    QVERIFY(w.archive()->isHidden());  // no record of the files is the model shown

    QSignalSpy exported(&w, &MainWindow::exportFinished);
    w.exportTo(brfOut);
    QVERIFY(QTest::qWaitFor([&] { return !exported.isEmpty(); }, 60000));
    QVERIFY2(exported.front().at(0).toBool(), qPrintable(exported.front().at(1).toString()));
    auto back = marrow::formats::loadFile(brfOut.toStdString());
    QVERIFY(back.ok());
    QCOMPARE(back->skeleton.name, std::string("skel_human"));
    QCOMPARE(back->skeleton.bones.size(), std::size_t{20});
    QCOMPARE(back->meshes.size(), rigged.meshes.size());

    // A reload reads the glTF again and rigs it again.
    w.reload();
    QVERIFY(QTest::qWaitFor([&] { return !w.loading() && w.document()->scene->skeleton.bones.size() == 20; }, 30000));
    QCOMPARE(w.document()->rig, skeletons + "::skel_human");

    w.showOwnSkeleton();
    QCOMPARE(w.document()->scene->skeleton.bones.size(), ownBones);
    QVERIFY(w.document()->rig.isEmpty());
    QVERIFY(!w.findChild<QAction*>("ownSkeletonAction")->isEnabled());
  }

  // A file with no skeleton is refused in the Log; the model stays.
  void riggingOntoAFileWithoutASkeletonSaysWhy() {
    MainWindow w;
    QVERIFY(openAndWait(w, {fixture("wfas_boots_a.brf"), fixture("wfas_skeletons.brf") + "::skel_human"}));
    const auto shown = w.document()->scene;
    QString failure;
    QVERIFY(!marrow::testing::waitLoaded(w, [&] { w.rigOntoSkeleton(fixture("wfas_ani_walk_backward.brf")); }, 20000, &failure));
    QVERIFY2(failure.contains("skeleton"), qPrintable(failure));
    QCOMPARE(w.document()->scene, shown);
  }
};

MARROW_QTEST_MAIN(ArchiveTest)

#include "archive_test.moc"
