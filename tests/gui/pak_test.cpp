// Dragon Nest paks in the viewer's Archives dock: the tree shows the top folders of the open paks
// (one file system) and fills a folder when it opens, deleted and overridden entries say so, the filter finds entries deep in
// the tree, a double-clicked skin opens as the model with the paks still open, and extraction
// runs off the GUI thread: byte-exact, never outside the folder, stopped by Cancel.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QMenu>
#include <QTreeWidget>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "app/gui/archive_dock.h"
#include "app/gui/extraction.h"
#include "app/gui/main_window.h"
#include "app/gui/table_dock.h"
#include "app/gui/timeline_dock.h"
#include "render/anim/pose.h"
#include "formats/dragonnest/pak_archive.h"
#include "formats/dragonnest/pak_writer.h"
#include "render/gl/offscreen.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/pak_builder.h"
#include "tests/support/qt_bytes.h"

using marrow::app::MainWindow;
using marrow::app::ArchiveDock;
namespace dn = marrow::formats::dragonnest;
namespace vfs = marrow::formats::vfs;
using marrow::testing::openAndWait;
using marrow::testing::readBytes;
using marrow::testing::sample;
using marrow::testing::toBytes;
using marrow::testing::writeBytes;

namespace {

const QString kFixtures = QStringLiteral(MARROW_FIXTURES_DIR "/dragonnest/dnpak_py_tests/");

const QByteArray kTableOld = sample(777, 2), kTableNew = sample(901, 3), kIcon = sample(3000, 4),
                 kReadme = "read me";

QTreeWidgetItem* childNamed(QTreeWidgetItem* parent, const std::string& path) {
  for (int c = 0; c < parent->childCount(); ++c)
    if (ArchiveDock::rowPath(parent->child(c)) == path) return parent->child(c);
  return nullptr;
}

// The paks of the open document, as the archive they form.
const dn::PakArchive* paksOf(const MainWindow& w) {
  return dynamic_cast<const dn::PakArchive*>(w.document()->archives.first("pak").get());
}

// A figure of a node ("packed_size", "archive").
vfs::FigureValue figure(const vfs::Node& n, const char* key) {
  for (const auto& f : n.figures)
    if (f.key == key) return f.value;
  return std::string("(none)");
}

QString listed(const std::set<QString>& names) {
  return QStringList(names.begin(), names.end()).join(QStringLiteral(", "));
}

qsizetype bytesIn(const QTreeWidgetItem* row, int column) {
  return static_cast<qsizetype>(row->data(column, Qt::UserRole).toLongLong());
}

std::set<QString> filesUnder(const QString& root) {
  std::set<QString> out;
  QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) out.insert(QDir(root).relativeFilePath(it.next()));
  return out;
}

bool waitFor(marrow::app::Extraction* x) {
  return x && QTest::qWaitFor([x] { return x->done(); }, 60000);
}

}  // namespace

class PakTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    marrow::testing::useTestSettings("MarrowPakTest");
    QVERIFY(tmp_.isValid());
    haveFreeze_ =
        QFile::exists(kFixtures + "freeze.skn") && QFile::exists(kFixtures + "freeze.msh");
    const QByteArray skin = haveFreeze_ ? readBytes(kFixtures + "freeze.skn") : sample(500, 5);
    const QByteArray mesh = haveFreeze_ ? readBytes(kFixtures + "freeze.msh") : sample(600, 6);
    // The skin names its mesh by bare name: the file system finds it in another folder.
    const std::vector<dn::PakFile> files{
        {"\\Resource\\Char\\Warrior\\freeze.skn", toBytes(skin)},
        {"\\resource\\mesh\\npc\\freeze.msh", toBytes(mesh)},
        {"\\resource\\table\\items.dnt", toBytes(kTableOld)},
        {"\\resource\\ui\\deep\\er\\still\\Needle_Icon.dds", toBytes(kIcon)},
    };
    const auto base = dn::writePak(files);
    QVERIFY(base.ok());
    const QByteArray baseBytes(reinterpret_cast<const char*>(base->data()),
                               static_cast<qsizetype>(base->size()));
    basePak_ = tmp_.filePath("paks/resource00.pak");
    QVERIFY(writeBytes(basePak_, baseBytes));
    // "00patch.pak" sorts first: its items.dnt overrides the base's (§2.4).
    marrow::testing::PakBuilder patch;
    patch.addStored("\\Resource\\Table\\Items.dnt", toBytes(kTableNew));
    patch.addDeleted("\\resource\\old\\gone.txt");
    patch.addStored("\\..\\..\\evil.txt", "evil");
    patch.addStored("\\resource\\readme.txt", toBytes(kReadme));
    patchPak_ = tmp_.filePath("paks/00patch.pak");
    QVERIFY(writeBytes(patchPak_, std::span<const std::byte>(patch.bytes())));
    // Extracted under their stored names, in the stored case.
    expected_ = {{"resource/char/warrior/freeze.skn", skin},
                 {"resource/mesh/npc/freeze.msh", mesh},
                 {"Resource/Table/Items.dnt", kTableNew},
                 {"resource/ui/deep/er/still/needle_icon.dds", kIcon},
                 {"resource/readme.txt", kReadme}};
  }

  void openingAPakShowsItsTopFoldersOnly() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    QVERIFY(paksOf(w));
    QCOMPARE(paksOf(w)->paks()->size(), std::size_t{2});
    QVERIFY(w.document()->scene->meshes.empty());
    QVERIFY(w.archive()->isVisible());
    QTreeWidget* tree = w.archive()->tree();
    QCOMPARE(tree->topLevelItemCount(), 1);  // the paks, one file system
    QTreeWidgetItem* root = tree->topLevelItem(0);
    QCOMPARE(ArchiveDock::rowKind(root), ArchiveDock::Row::Archive);
    QCOMPARE(root->childCount(), 2);
    QCOMPARE(ArchiveDock::rowPath(root->child(0)), std::string(".."));
    QCOMPARE(ArchiveDock::rowPath(root->child(1)), std::string("resource"));
    for (int i = 0; i < 2; ++i) {  // nothing below is made before the folder opens
      QTreeWidgetItem* top = root->child(i);
      QCOMPARE(w.archive()->rowNode(top)->kind, std::string("folder"));
      QCOMPARE(top->childCount(), 1);
      QCOMPARE(ArchiveDock::rowKind(top->child(0)), ArchiveDock::Row::Placeholder);
    }
  }

  void openingAFolderShowsItsFilesWithSizesFoldersFirst() {
    MainWindow w;
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    QTreeWidgetItem* resource = w.archive()->tree()->topLevelItem(0)->child(1);
    resource->setExpanded(true);
    QStringList names;
    for (int c = 0; c < resource->childCount(); ++c)
      names << resource->child(c)->text(ArchiveDock::kName);
    // Folders in the stored spelling of the first pak that has them (00patch's "Table").
    QCOMPARE(names, QStringList({"char", "mesh", "old", "Table", "ui", "readme.txt"}));
    QTreeWidgetItem* readme = resource->child(5);
    const auto node = w.archive()->rowNode(readme);
    QVERIFY(node && !node->container);
    QCOMPARE(bytesIn(readme, ArchiveDock::kSize), kReadme.size());
    QVERIFY(std::get<std::uint64_t>(figure(*node, "packed_size")) > 0);
    QCOMPARE(readme->text(ArchiveDock::kDetails), QStringLiteral("00patch.pak"));
    QCOMPARE(childNamed(resource, "resource/table")->childCount(), 1);  // still not fetched
  }

  void anEntryHiddenByAnEarlierPakIsMarked() {
    MainWindow w;
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    QTreeWidgetItem* items = w.archive()->reveal(0, "resource/table/items.dnt");
    QVERIFY(items);
    QCOMPARE(items->text(ArchiveDock::kName), QStringLiteral("Items.dnt"));  // the stored case
    QCOMPARE(bytesIn(items, ArchiveDock::kSize), kTableNew.size());
    QCOMPARE(items->text(ArchiveDock::kDetails), QStringLiteral("00patch.pak, overrides resource00.pak"));
    QTreeWidgetItem* table = items->parent();
    QCOMPARE(table->childCount(), 2);
    QTreeWidgetItem* hidden = table->child(1);
    QVERIFY(w.archive()->rowNode(hidden)->has(vfs::Node::Overridden));
    QCOMPARE(hidden->text(ArchiveDock::kName), QStringLiteral("items.dnt (overridden)"));
    QCOMPARE(hidden->text(ArchiveDock::kDetails), QStringLiteral("resource00.pak"));
    QCOMPARE(bytesIn(hidden, ArchiveDock::kSize), kTableOld.size());
  }

  void aDeletedEntryIsShownAsDeleted() {
    MainWindow w;
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    QTreeWidgetItem* gone = w.archive()->reveal(0, "resource/old/gone.txt");
    QVERIFY(gone);
    QCOMPARE(gone->text(ArchiveDock::kName), QStringLiteral("gone.txt (deleted)"));
    QVERIFY(gone->font(ArchiveDock::kName).strikeOut());
    QVERIFY(gone->text(ArchiveDock::kSize).isEmpty());
    QVERIFY(w.archive()->rowNode(gone)->has(vfs::Node::Deleted));
  }

  void theFilterFindsAFileDeepInTheTree() {
    MainWindow w;
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    ArchiveDock* dock = w.archive();
    dock->setFilter(QStringLiteral("NEEDLE"));
    QTreeWidget* matches = dock->matches();
    QVERIFY(matches->isVisibleTo(dock));
    QCOMPARE(matches->topLevelItemCount(), 1);
    QCOMPARE(ArchiveDock::rowPath(matches->topLevelItem(0)),
             std::string("resource/ui/deep/er/still/needle_icon.dds"));
    QCOMPARE(bytesIn(matches->topLevelItem(0), ArchiveDock::kSize), kIcon.size());
    dock->setFilter(QStringLiteral("still/n"));  // with a '/': the whole path
    QCOMPARE(matches->topLevelItemCount(), 1);
    dock->setFilter(QStringLiteral("resource"));  // without: names only
    QCOMPARE(matches->topLevelItemCount(), 0);
    dock->setFilter({});
    QVERIFY(dock->tree()->isVisibleTo(dock));
  }

  void doubleClickingASkinOpensItAsTheModelWithThePaksStillOpen() {
    if (!haveFreeze_) MARROW_QSKIP("the Dragon Nest fixtures freeze.skn / freeze.msh are absent");
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    ArchiveDock* dock = w.archive();
    QTreeWidgetItem* skin = dock->reveal(0, "resource/char/warrior/freeze.skn");
    QVERIFY(skin);
    dock->tree()->scrollToItem(skin);
    QTest::qWait(100);  // the tree lays out the rows just fetched
    QSignalSpy loaded(&w, &MainWindow::documentLoaded);
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    // As a mouse does it: press and release, then the double click (QTest's alone has no press).
    // On the name, inside the viewport (the row may be wider than a narrow dock).
    const QRect row = dock->tree()->visualItemRect(skin);
    const QPoint at(std::min(row.left() + 40, dock->tree()->viewport()->width() - 8), row.center().y());
    QTest::mouseClick(dock->tree()->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(dock->tree()->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseRelease(dock->tree()->viewport(), Qt::LeftButton, {}, at);
    QVERIFY(QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 20000));
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    const auto& scene = *w.document()->scene;
    QCOMPARE(scene.meshes.size(), std::size_t{1});
    QCOMPARE(scene.meshes[0].positions.size(), std::size_t{27});
    QVERIFY(paksOf(w));
    QCOMPARE(paksOf(w)->paks()->size(), std::size_t{2});
    // The tree is as it was: the skin's folder open, the skin current.
    QVERIFY(dock->tree()->currentItem());
    QCOMPARE(ArchiveDock::rowPath(dock->tree()->currentItem()),
             std::string("resource/char/warrior/freeze.skn"));
  }

  void selectedFoldersAndFilesGiveEachEntryOnce() {
    MainWindow w;
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    ArchiveDock* dock = w.archive();
    QTreeWidgetItem* items = dock->reveal(0, "resource/table/items.dnt");
    QVERIFY(items);
    items->setSelected(true);
    items->parent()->setSelected(true);
    dock->reveal(0, "resource/old/gone.txt")->setSelected(true);  // deleted: nothing to write
    int archive = -1;
    const auto files = dock->selectedFiles(&archive);
    QCOMPARE(archive, 0);
    QCOMPARE(files.size(), std::size_t{1});
    QCOMPARE(files[0].path, std::string("resource/table/items.dnt"));
    QCOMPARE(std::get<std::string>(figure(files[0], "archive")), patchPak_.toStdString());
  }

  void extractingEverythingIsByteExactAndNothingLeavesTheFolder() {
    MainWindow w;
    QVERIFY(openAndWait(w, {basePak_, patchPak_}));
    QTemporaryDir outer;
    const QString out = outer.filePath("a/b/out");
    QVERIFY(QDir().mkpath(out));
    const int logged = w.log()->count();
    QSignalSpy finished(w.archive(), &ArchiveDock::extractionFinished);
    auto* x = w.archive()->extractAll(out);
    QVERIFY(waitFor(x));
    QCOMPARE(finished.size(), 1);
    const auto& report = x->report();
    QCOMPARE(report.written, expected_.size());
    QCOMPARE(report.refused.size(), std::size_t{1});
    QCOMPARE(report.refused[0].entry, std::string("\\..\\..\\evil.txt"));
    QVERIFY(report.failed.empty());
    QVERIFY(!report.cancelled);
    std::set<QString> want;
    for (const auto& [path, bytes] : expected_) {
      want.insert(path);
      QVERIFY2(QFile::exists(out + "/" + path), qPrintable(listed(filesUnder(outer.path()))));
      QCOMPARE(readBytes(out + "/" + path), bytes);
    }
    std::set<QString> written;
    for (const auto& p : want) written.insert("a/b/out/" + p);
    QVERIFY(filesUnder(outer.path()) == written);  // nothing above the folder, nothing else
    QVERIFY(w.log()->count() > logged);            // the summary and the refusal
    auto* box = w.archive()->findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY2(box->text().contains("1 refused"), qPrintable(box->text()));
    QVERIFY(box->text().contains("evil.txt"));
    box->close();
  }

  // An animation in the archive goes on the open model from the context menu: the clips join the
  // timeline and play on its skeleton; the model's meshes stay.
  void anAnimationInThePakIsAddedToTheOpenModel() {
    const auto character = dn::testing::writeCharacter(11);
    // The skin and its mesh in one pak, the animation in another folder; a second clip list
    // beside it, so that the clips come only from what is added.
    marrow::testing::PakBuilder pak;
    pak.add("resource/char/character.skn", character.skn);
    pak.add("resource/char/character.msh", character.msh);
    pak.add("resource/ani/character_extra.ani", character.ani);
    const QString path = tmp_.filePath("paks/character.pak");
    QVERIFY(writeBytes(path, std::span<const std::byte>(pak.bytes())));
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {path + "::resource/char/character.skn", path}));
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{3});
    QCOMPARE(w.player().clipCount(), 0);  // a skin alone: its mesh at rest
    QTreeWidgetItem* ani = w.archive()->reveal(0, "resource/ani/character_extra.ani");
    QVERIFY(ani);
    QMenu menu;
    w.archive()->fillMenu(menu, w.archive()->tree(), ani);
    QAction* add = nullptr;
    for (QAction* a : menu.actions())
      if (a->text() == QStringLiteral("Play on the Open Model")) add = a;
    QVERIFY(add);
    QVERIFY(add->isEnabled());
    QVERIFY(marrow::testing::waitLoaded(w, [&] { add->trigger(); }));
    const auto& scene = *w.document()->scene;
    QCOMPARE(scene.meshes.size(), std::size_t{3});
    QCOMPARE(w.player().clipCount(), 2);  // Wave and Idle
    QVERIFY(w.player().mismatch().empty());
    w.timeline()->setClip(0);
    w.timeline()->seek(0.1);
    const auto rest = marrow::anim::restPose(scene.skeleton);
    bool moved = false;
    for (std::size_t b = 0; b < rest.local.size(); ++b)
      moved |= w.player().pose().local[b].rotation != rest.local[b].rotation ||
               w.player().pose().local[b].translation != rest.local[b].translation;
    QVERIFY(moved);
  }

  // Issue 20: a double-clicked animation plays on the open model, a double-clicked table opens
  // in Tables beside it; neither throws the model away, and the tree keeps its height.
  void anAnimationAndATableDoubleClickedKeepTheModel() {
    const auto character = dn::testing::writeCharacter(11);
    marrow::formats::Table table;
    table.name = "weapons";
    table.columns = {{"_Name", 1}, {"_Level", 3}};
    table.rowIds = {1, 2};
    table.rows = {{std::string("sword"), std::int32_t{10}}, {std::string("staff"), std::int32_t{20}}};
    marrow::testing::PakBuilder pak;
    pak.add("resource/char/character.skn", character.skn);
    pak.add("resource/char/character.msh", character.msh);
    pak.add("resource/ani/character_extra.ani", character.ani);
    pak.add("resource/ext/weapons.dnt", dn::writeDnt(table).value());
    const QString path = tmp_.filePath("paks/beside.pak");
    QVERIFY(writeBytes(path, std::span<const std::byte>(pak.bytes())));
    QSettings().remove(QStringLiteral("window/state"));  // the first-show layout, not an earlier test's
    MainWindow w;
    w.resize(1100, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {path + "::resource/char/character.skn", path}));
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{3});
    QCOMPARE(w.player().clipCount(), 0);

    QTreeWidgetItem* ani = w.archive()->reveal(0, "resource/ani/character_extra.ani");
    QVERIFY(ani);
    emit w.archive()->tree()->itemActivated(ani, 0);
    QVERIFY(QTest::qWaitFor([&] { return w.player().clipCount() == 2; }, 20000));
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{3});
    QVERIFY(w.player().mismatch().empty());
    QVERIFY(marrow::testing::logText(w).contains(QStringLiteral("Playing")));

    QTreeWidgetItem* dnt = w.archive()->reveal(0, "resource/ext/weapons.dnt");
    QVERIFY(dnt);
    emit w.archive()->tree()->itemActivated(dnt, 0);
    QVERIFY(QTest::qWaitFor([&] { return w.tables()->isVisible(); }, 20000));
    QTest::qWait(50);
    QVERIFY(w.tables()->hasTables());
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{3});  // the model stays
    QCOMPARE(w.player().clipCount(), 2);
    // Tables get room for rows, and the tree keeps room for several.
    QVERIFY2(w.tables()->height() >= 150, qPrintable(QStringLiteral("tables %1 px").arg(w.tables()->height())));
    const int row = std::max(1, w.archive()->tree()->sizeHintForRow(0));
    QVERIFY2(w.archive()->tree()->viewport()->height() >= 8 * row,
             qPrintable(QStringLiteral("tree %1 px for rows of %2").arg(w.archive()->tree()->viewport()->height()).arg(row)));
    // Opening the model again (its archive still browsed) keeps the table beside it.
    QVERIFY(openAndWait(w, {path + "::resource/char/character.skn", path}));
    QVERIFY(w.tables()->isVisible());
    // A table with no model open opens as the document, as before.
    MainWindow alone;
    alone.show();
    QVERIFY(openAndWait(alone, {path + "::resource/ext/weapons.dnt", path}));
    QVERIFY(alone.tables()->isVisible());
  }

  void cancelStopsALongExtraction() {
    QTemporaryDir dir;
    std::vector<dn::PakFile> files;
    constexpr int kCount = 20000;
    for (int i = 0; i < kCount; ++i)
      files.push_back({"bulk/entry" + std::to_string(i) + ".bin", toBytes(sample(1024, i))});
    const auto bytes = dn::writePak(files);
    QVERIFY(bytes.ok());
    const QString path = dir.filePath("bulk.pak");
    QVERIFY(writeBytes(path, QByteArray(reinterpret_cast<const char*>(bytes->data()),
                                        static_cast<qsizetype>(bytes->size()))));
    auto set = dn::PakSet::open({path.toStdString()});
    QVERIFY(set.ok());
    vfs::FileSystem archives;
    archives.mount(std::make_shared<const dn::PakArchive>(std::make_shared<const dn::PakSet>(std::move(set).value())));
    ArchiveDock dock;
    dock.show();
    dock.setArchives(archives);
    QCOMPARE(dock.tree()->topLevelItemCount(), 1);
    QTreeWidgetItem* root = dock.tree()->topLevelItem(0);
    QCOMPARE(root->childCount(), 1);  // "bulk", its 20,000 files not made yet
    QCOMPARE(root->child(0)->childCount(), 1);
    dock.setFilter(QStringLiteral("entry"));  // a flat list, capped
    QCOMPARE(dock.matches()->topLevelItemCount(), ArchiveDock::kMaxMatches + 1);
    QCOMPARE(ArchiveDock::rowKind(dock.matches()->topLevelItem(ArchiveDock::kMaxMatches)),
             ArchiveDock::Row::More);
    dock.setFilter({});

    const QString out = dir.filePath("out");
    auto* x = dock.extractAll(out);
    QVERIFY(x);
    QVERIFY(!dock.extractAll(out));  // one at a time
    QVERIFY(QTest::qWaitFor([&] { return x->done() || x->dialog()->value() >= 3; }, 20000));
    QVERIFY2(!x->done(), "the extraction ended before it could be cancelled");
    auto* cancel = x->dialog()->findChild<QPushButton*>();
    QVERIFY(cancel);
    cancel->click();
    QVERIFY(waitFor(x));
    QVERIFY(x->report().cancelled);
    QVERIFY(x->report().written >= 3);
    QVERIFY(x->report().written < std::size_t{kCount});
    QCOMPARE(filesUnder(out).size(), x->report().written);
    if (auto* box = dock.findChild<QMessageBox*>()) {
      QVERIFY(box->text().contains("Cancelled"));
      box->close();
    }
  }

 private:
  QTemporaryDir tmp_;
  QString basePak_, patchPak_;
  bool haveFreeze_ = false;
  std::vector<std::pair<QString, QByteArray>> expected_;
};

MARROW_QTEST_MAIN(PakTest)

#include "pak_test.moc"
