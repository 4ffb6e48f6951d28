// Browsing by picture (app/thumbnails.h, app/gui/gallery.h): which nodes a gallery lists in BRF
// files, paks and folders; thumbnails drawn as `marrow-cli render` draws the same record, kept
// in the disk cache by content; a damaged file gets a tile that says why; the service serves
// the newest request first; the gallery asks only for the tiles on screen; picking a tile shows
// its model, the filter narrows the tiles, and double-clicking an entry opens it.
#include <QDir>
#include <QFile>
#include <QListView>
#include <QProcess>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "app/gui/archive_dock.h"
#include "app/gui/gallery.h"
#include "app/gui/main_window.h"
#include "app/thumbnails.h"
#include "formats/load.h"
#include "formats/registry.h"
#include "tests/support/cal3d_folder.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/images.h"
#include "tests/support/pak_builder.h"
#include "tests/support/qskip.h"
#include "tests/support/warband_module.h"

using marrow::app::ArchiveDock;
using marrow::app::GalleryModel;
using marrow::app::MainWindow;
using marrow::app::ThumbnailCache;
using marrow::app::ThumbnailMaker;
using marrow::app::ThumbnailService;
using marrow::testing::openAndWait;
namespace vfs = marrow::formats::vfs;
namespace fs = std::filesystem;

namespace {

const QString kFixtures = QStringLiteral(MARROW_FIXTURES_DIR);

bool copy(const QString& from, const QString& to) {
  QDir().mkpath(QFileInfo(to).path());
  QFile::remove(to);
  return QFile::copy(from, to);
}

bool write(const QString& path, std::span<const std::byte> bytes) {
  QDir().mkpath(QFileInfo(path).path());
  QFile f(path);
  return f.open(QIODevice::WriteOnly) &&
         f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size())) ==
             static_cast<qint64>(bytes.size());
}

std::vector<std::string> names(const std::vector<vfs::Node>& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(n.name);
  return out;
}

// The archives of these files, as the viewer mounts them.
vfs::FileSystem mounted(const std::vector<std::string>& addresses) {
  auto loaded = marrow::formats::load(addresses);
  if (!loaded) qWarning("%s", loaded.error().describe().c_str());
  return loaded ? loaded->archives : vfs::FileSystem{};
}

// The pixels that differ from the corner's (the background), and their bounding box.
int drawnPixels(const QImage& image, QRect* box = nullptr) {
  const QColor background = image.pixelColor(0, 0);
  int n = 0;
  QRect r;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor p = image.pixelColor(x, y);
      if (std::abs(p.red() - background.red()) + std::abs(p.green() - background.green()) +
              std::abs(p.blue() - background.blue()) > 24) {
        ++n;
        r |= QRect(x, y, 1, 1);
      }
    }
  if (box) *box = r;
  return n;
}

// Waits for the gallery's models to be listed (in the background).
bool listed(ArchiveDock* dock) {
  return QTest::qWaitFor([&] { return !dock->galleryListing(); }, 30000);
}

// A window of 1200 × 800 with `files` open and the gallery of archive 0's root listed; whether
// all of that happened.
bool openGallery(MainWindow& w, const QStringList& files) {
  w.resize(1200, 800);
  w.show();
  if (!openAndWait(w, files)) return false;
  w.archive()->showGallery(0, "");
  return w.archive()->galleryShown() && listed(w.archive());
}

// The tile of that name, or an invalid index.
QModelIndex tileNamed(const QListView* view, const QString& name) {
  for (int r = 0; r < view->model()->rowCount(); ++r)
    if (view->model()->index(r, 0).data().toString() == name) return view->model()->index(r, 0);
  return {};
}

// A Dragon Nest pak: a skin with its mesh and animations, a mesh no skin wears, a table and a
// skin of garbage.
std::vector<std::byte> characterPak() {
  const auto character = marrow::formats::dragonnest::testing::writeCharacter(13);
  marrow::testing::PakBuilder pak;
  pak.add("char/character.skn", character.skn)
      .add("char/character.msh", character.msh)
      .add("char/character.ani", character.ani)
      .add("char/lone.msh", character.msh)
      .add("char/broken.skn", "not a skin at all")
      .add("table/items.dnt", "not a table either");
  return pak.bytes();
}

}  // namespace

class GalleryTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    marrow::testing::useTestSettings("MarrowGalleryTest");
    if (!QFile::exists(kFixtures + "/brf/wfas_boots_a.brf")) MARROW_QSKIP("the BRF fixtures are not here");
    QVERIFY(tmp_.isValid());
    // A folder as users keep them: BRF files, one of them cut short, a cal3d model with its .cfg
    // and textures in a folder of its own, an animation and a text file beside, a pak.
    const QString f = tmp_.filePath("folder");
    QVERIFY(copy(kFixtures + "/brf/wfas_boots_a.brf", f + "/boots.brf"));
    QFile boots(kFixtures + "/brf/wfas_boots_a.brf");
    QVERIFY(boots.open(QIODevice::ReadOnly));
    const QByteArray head = boots.read(300);
    QVERIFY(write(f + "/broken.brf", std::as_bytes(std::span(head.constData(), head.size()))));
    for (const char* part : {"paladin.cfg", "paladin.csf", "paladin_body.cmf", "paladin_cape.cmf",
                             "paladin_chest.xrf", "cape.png", "paladin_jog.caf"})
      QVERIFY(copy(kFixtures + "/cal3d/paladin/" + part, f + "/paladin/" + part));
    QVERIFY(copy(kFixtures + "/cal3d/paladin/paladin_idle.caf", f + "/idle.caf"));
    QVERIFY(write(f + "/notes.txt", marrow::testing::bytes("a modder's notes")));
    // A format assimp reads: the viewer reads it in marrow-cli's import process.
    QVERIFY(write(f + "/quad.obj", marrow::testing::bytes("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")));
    // A .pak of another game (not Dragon Nest's bytes): the folder stays a folder, and archives
    // are not models.
    QVERIFY(write(f + "/quake.pak", marrow::testing::bytes("PACK\x0c\0\0\0\0\0\0\0")));
    pak_ = tmp_.filePath("paks/resource00.pak");
    const auto pak = characterPak();
    QVERIFY(write(pak_, pak));
    folder_ = f;
  }

  // BRF files: their meshes, under a file only its own; a pak: skins and the meshes no skin
  // wears; a folder: each format's models, animations, images, text and archives left out.
  void aGalleryListsTheModelsUnderANode() {
    const std::string boots = (kFixtures + "/brf/wfas_boots_a.brf").toStdString();
    const std::string redux = (kFixtures + "/brf/openbrf_redux_reference.brf").toStdString();
    const auto brfs = mounted({boots, redux});
    QCOMPARE(brfs.archives().size(), std::size_t{1});
    const vfs::Archive& records = *brfs.archives().front();
    const auto all = marrow::app::galleryNodes(records, "");
    QCOMPARE(names(all), names(records.models("")));
    QCOMPARE(all.size(), std::size_t{8});
    QCOMPARE(names(marrow::app::galleryNodes(records, "0")), std::vector<std::string>{"boot_nomad_a"});
    const auto second = marrow::app::galleryNodes(records, "1");
    QCOMPARE(second.size(), std::size_t{7});
    for (const auto& n : second) QCOMPARE(n.kind, std::string("mesh"));
    QCOMPARE(marrow::app::galleryNodes(records, "", 3).size(), std::size_t{3});

    const auto paks = mounted({pak_.toStdString()});
    QCOMPARE(paks.archives().size(), std::size_t{1});
    auto pakNames = names(marrow::app::galleryNodes(*paks.archives().front(), ""));
    std::sort(pakNames.begin(), pakNames.end());
    QCOMPARE(pakNames, (std::vector<std::string>{"broken.skn", "character.skn", "lone.msh"}));
    QVERIFY(marrow::app::galleryNodes(*paks.archives().front(), "table").empty());

    // A Warband module: the meshes of every file it loads, in load order.
    marrow::testing::TestModule module;
    std::string missing;
    QVERIFY2(marrow::testing::makeTestModule(fs::path(tmp_.filePath("install").toStdString()),
                                             fs::path((kFixtures + "/brf").toStdString()), module, missing),
             missing.c_str());
    const auto library = mounted({module.module.string()});
    QCOMPARE(library.archives().size(), std::size_t{1});
    QCOMPARE(std::string(library.archives().front()->kind()), std::string("module"));
    const auto moduleMeshes = marrow::app::galleryNodes(*library.archives().front(), "");
    QCOMPARE(names(moduleMeshes), names(library.archives().front()->models("")));
    QVERIFY(moduleMeshes.size() >= 8);

    const auto folder = mounted({folder_.toStdString()});
    QCOMPARE(folder.archives().size(), std::size_t{1});
    QCOMPARE(names(marrow::app::galleryNodes(*folder.archives().front(), "")),
             (std::vector<std::string>{"boots.brf", "broken.brf", "quad.obj", "paladin.cfg"}));
    QCOMPARE(names(marrow::app::galleryNodes(*folder.archives().front(), "paladin")),
             std::vector<std::string>{"paladin.cfg"});
  }

  // A record's thumbnail is the picture `marrow-cli render` makes of it (the same camera, no
  // grid); a second time it comes from the disk cache, under a name made of its bytes.
  void aThumbnailIsDrawnAsRenderDrawsItAndCachedByContent() {
    const QString boots = kFixtures + "/brf/wfas_boots_a.brf";
    const auto archives = mounted({boots.toStdString()});
    const vfs::Archive& records = *archives.archives().front();
    const auto meshes = marrow::app::galleryNodes(records, "");
    QCOMPARE(meshes.size(), std::size_t{1});
    QTemporaryDir cacheDir;
    ThumbnailMaker maker{ThumbnailCache(cacheDir.path())};
    std::string error;
    if (!maker.create(&error)) MARROW_QSKIP(("no GL context: " + error).c_str());

    const auto made = maker.make(archives, 0, meshes.front().path);
    QVERIFY2(made.error.isEmpty(), qPrintable(made.error));
    QVERIFY(!made.cached);
    QCOMPARE(made.image.size(), QSize(marrow::app::kThumbnailSize, marrow::app::kThumbnailSize));
    QRect box;
    const int drawn = drawnPixels(made.image, &box);
    const int area = made.image.width() * made.image.height();
    QVERIFY2(drawn > area / 20 && drawn < area * 9 / 10, qPrintable(QString::number(drawn)));
    QVERIFY2(std::abs(box.center().x() - 64) < 16 && std::abs(box.center().y() - 64) < 16,
             qPrintable(QStringLiteral("drawn around %1, %2").arg(box.center().x()).arg(box.center().y())));

    // The same record through the CLI's own loading and drawing.
    const QString cli = qEnvironmentVariable("MARROW_CLI");
    if (!cli.isEmpty()) {
      const QString png = cacheDir.filePath("render.png");
      QProcess p;
      p.start(cli, {"render", boots + "::boot_nomad_a", "-o", png, "--size", "128x128", "--no-grid"});
      QVERIFY(p.waitForFinished(60000));
      QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
      const QImage rendered(png);
      QVERIFY(!rendered.isNull());
      const int differ = marrow::testing::differingPixels(made.image, rendered);
      QVERIFY2(differ < area / 50, qPrintable(QStringLiteral("%1 pixels differ").arg(differ)));
    }

    auto key = maker.keyFor(archives, 0, meshes.front().path);
    QVERIFY(key.ok());
    QVERIFY(QFile::exists(maker.cache().pathOf(*key)));
    const auto again = maker.make(archives, 0, meshes.front().path);
    QVERIFY(again.cached);
    QCOMPARE(marrow::testing::differingPixels(again.image, made.image), 0);
    // Other bytes, another picture; another size, another context, too.
    auto bytes = records.read(meshes.front().path, {});
    QVERIFY(bytes.ok());
    const QByteArray plain = maker.cache().keyOf(*bytes, marrow::app::kThumbnailSize);
    (*bytes)[bytes->size() / 2] ^= std::byte{1};
    QVERIFY(maker.cache().keyOf(*bytes, marrow::app::kThumbnailSize) != plain);
    QVERIFY(maker.cache().keyOf(*bytes, 64) != maker.cache().keyOf(*bytes, marrow::app::kThumbnailSize));
    QVERIFY(maker.cache().keyOf(*bytes, 64, "a.dds 10") != maker.cache().keyOf(*bytes, 64, "a.dds 11"));

    // A picture of another size put in its place (or damaged) is removed and drawn again.
    QImage planted(512, 512, QImage::Format_RGB32);
    planted.fill(Qt::red);
    QVERIFY(planted.save(maker.cache().pathOf(*key), "PNG"));
    QVERIFY(maker.cache().load(*key, marrow::app::kThumbnailSize).isNull());
    QVERIFY(!QFile::exists(maker.cache().pathOf(*key)));
    const auto redrawn = maker.make(archives, 0, meshes.front().path);
    QVERIFY(!redrawn.cached);
    QCOMPARE(marrow::testing::differingPixels(redrawn.image, made.image), 0);

    // The cache keeps to its size, dropping the oldest pictures.
    maker.cache().prune(0);
    QVERIFY(!QFile::exists(maker.cache().pathOf(*key)));
  }

  // Every model of the folder and the pak gets its picture or says why not (the .obj through the
  // import process); the damage names the file, and the service goes on.
  void aDamagedFileGetsATileThatSaysWhy() {
    const auto archives = mounted({folder_.toStdString(), pak_.toStdString()});
    QCOMPARE(archives.archives().size(), std::size_t{2});
    ThumbnailService service{QString()};
    if (!service.unavailable().isEmpty()) MARROW_QSKIP(qPrintable(service.unavailable()));
    service.setArchives(archives);
    std::map<std::string, std::pair<QImage, QString>> got;
    connect(&service, &ThumbnailService::ready, this,
            [&](int archive, const QByteArray& path, const QImage& image, const QString& error) {
              got[std::to_string(archive) + ":" + path.toStdString()] = {image, error};
            });
    std::size_t asked = 0;
    for (int a = 0; a < 2; ++a)
      for (const auto& n : marrow::app::galleryNodes(*archives.archives()[static_cast<std::size_t>(a)], "")) {
        service.request(a, n.path);
        ++asked;
      }
    QCOMPARE(asked, std::size_t{7});
    QVERIFY(QTest::qWaitFor([&] { return got.size() == asked; }, 60000));
    for (const auto& [key, result] : got) {
      const bool broken = key.find("broken") != std::string::npos;
      QVERIFY2(broken == result.first.isNull(), qPrintable(QString::fromStdString(key) + ": " + result.second));
      if (broken) QVERIFY2(result.second.contains(QStringLiteral("broken.")), qPrintable(result.second));
      else QVERIFY2(drawnPixels(result.first) > 100, key.c_str());
    }
  }

  // A file of a folder is drawn again when a file beside it changes (a part, a texture): the
  // key holds the folder's files; a pipe in the folder is refused, not waited on.
  void aChangeBesideAFileDrawsItAgain() {
    const QString dir = tmp_.filePath("beside");
    QVERIFY(copy(kFixtures + "/brf/wfas_boots_a.brf", dir + "/boots.brf"));
    QVERIFY(write(dir + "/boots.dds", marrow::testing::bytes("a texture")));
    QVERIFY(::mkfifo(QFile::encodeName(dir + "/trap.obj").constData(), 0600) == 0);
    const auto archives = mounted({dir.toStdString()});
    const auto nodes = marrow::app::galleryNodes(*archives.archives().front(), "");
    QCOMPARE(names(nodes), (std::vector<std::string>{"boots.brf", "trap.obj"}));
    ThumbnailMaker maker{ThumbnailCache()};
    const auto before = maker.keyFor(archives, 0, nodes[0].path);
    QVERIFY(before.ok());
    QTest::qWait(1100);  // a folder's files are looked at once a second at most
    QVERIFY(write(dir + "/boots.dds", marrow::testing::bytes("another texture")));
    const auto after = maker.keyFor(archives, 0, nodes[0].path);
    QVERIFY(after.ok());
    QVERIFY(*after != *before);
    const auto trap = maker.keyFor(archives, 0, nodes[1].path);
    QVERIFY(!trap.ok());
    QVERIFY2(QString::fromStdString(trap.error().describe()).contains("not a regular file"),
             trap.error().describe().c_str());
  }

  // Where GL contexts cannot be made in threads, the thread reads and the service's own thread
  // draws: the same pictures.
  void drawingOnTheGuiThreadGivesTheSamePictures() {
    const auto archives = mounted({(kFixtures + "/brf/openbrf_redux_reference.brf").toStdString()});
    const auto nodes = marrow::app::galleryNodes(*archives.archives().front(), "");
    QCOMPARE(nodes.size(), std::size_t{7});
    std::map<std::string, QImage> pictures[2];
    for (int mode = 0; mode < 2; ++mode) {
      ThumbnailService service{QString(), marrow::app::kThumbnailSize, nullptr,
                               mode ? ThumbnailService::Drawing::OnThisThread : ThumbnailService::Drawing::Auto};
      if (!service.unavailable().isEmpty()) MARROW_QSKIP(qPrintable(service.unavailable()));
      service.setArchives(archives);
      connect(&service, &ThumbnailService::ready, this,
              [&, mode](int, const QByteArray& path, const QImage& image, const QString&) {
                pictures[mode][path.toStdString()] = image;
              });
      for (const auto& n : nodes) service.request(0, n.path);
      QVERIFY(QTest::qWaitFor([&] { return pictures[mode].size() == nodes.size(); }, 60000));
    }
    for (const auto& n : nodes) {
      QVERIFY(!pictures[0][n.path].isNull());
      QCOMPARE(marrow::testing::differingPixels(pictures[0][n.path], pictures[1][n.path]), 0);
    }
  }

  // Asked for ten pictures at once, the service draws the last asked first (what a view paints
  // last is on screen now), after the one it had already started.
  void theNewestRequestIsServedFirst() {
    const QString dir = tmp_.filePath("ten");
    for (int i = 0; i < 10; ++i)
      QVERIFY(copy(kFixtures + "/brf/wfas_boots_a.brf", dir + QStringLiteral("/boots%1.brf").arg(i)));
    const auto archives = mounted({dir.toStdString()});
    const auto nodes = marrow::app::galleryNodes(*archives.archives().front(), "");
    QCOMPARE(nodes.size(), std::size_t{10});
    ThumbnailService service{QString()};
    if (!service.unavailable().isEmpty()) MARROW_QSKIP(qPrintable(service.unavailable()));
    service.setArchives(archives);
    std::vector<std::string> order;
    connect(&service, &ThumbnailService::ready, this,
            [&](int, const QByteArray& path, const QImage&, const QString&) { order.push_back(path.toStdString()); });
    for (const auto& n : nodes) service.request(0, n.path);
    QVERIFY(QTest::qWaitFor([&] { return order.size() == nodes.size(); }, 60000));
    // Whatever the thread took before the rest arrived, the rest come newest first.
    std::size_t started = 0;
    while (started < order.size() && order[started] != nodes.back().path) ++started;
    QVERIFY(started <= 2);
    for (std::size_t i = started + 1; i < order.size(); ++i)
      QVERIFY2(order[i] < order[i - 1], (order[i - 1] + " before " + order[i]).c_str());
  }

  // A gallery of 400 files asks only for the tiles on screen; scrolling to the end draws the
  // last tiles while the middle stays waiting.
  void theGalleryAsksOnlyForTheTilesOnScreen() {
    const QString dir = tmp_.filePath("many");
    for (int i = 0; i < 400; ++i)
      QVERIFY(copy(kFixtures + "/brf/wfas_boots_a.brf", dir + QStringLiteral("/boots%1.brf").arg(i, 3, 10, QLatin1Char('0'))));
    MainWindow w;
    QVERIFY(openGallery(w, {dir}));
    ArchiveDock* dock = w.archive();
    GalleryModel* model = dock->galleryModel();
    QVERIFY(model);
    QCOMPARE(model->rowCount(), 400);
    if (!dock->thumbnails()->unavailable().isEmpty()) MARROW_QSKIP(qPrintable(dock->thumbnails()->unavailable()));
    QSignalSpy ready(dock->thumbnails(), &ThumbnailService::ready);
    QVERIFY(QTest::qWaitFor([&] { return model->drawn() > 0; }, 30000));
    QTest::qWait(1500);  // what was asked for is drawn by now
    const int first = model->drawn();
    QVERIFY2(first < 100, qPrintable(QStringLiteral("%1 tiles drawn of 400").arg(first)));
    const auto state = [&](int row) {
      return static_cast<GalleryModel::State>(model->index(row).data(GalleryModel::kStateRole).toInt());
    };
    QCOMPARE(state(0), GalleryModel::State::Drawn);
    QCOMPARE(state(399), GalleryModel::State::Waiting);

    dock->gallery()->scrollToBottom();
    QVERIFY(QTest::qWaitFor([&] { return state(399) == GalleryModel::State::Drawn; }, 30000));
    QCOMPARE(state(200), GalleryModel::State::Waiting);
    QVERIFY(model->drawn() < 200);
  }

  // Picking a tile of BRF records shows that mesh; the filter narrows the tiles by name; the
  // tree comes back with the button.
  void pickingATileShowsItsModel() {
    MainWindow w;
    QVERIFY(openGallery(w, {kFixtures + "/brf/wfas_boots_a.brf", kFixtures + "/brf/openbrf_redux_reference.brf"}));
    ArchiveDock* dock = w.archive();
    QListView* view = dock->gallery();
    QCOMPARE(view->model()->rowCount(), 8);
    dock->setFilter(QStringLiteral("hand"));
    QCOMPARE(view->model()->rowCount(), 2);
    QVERIFY(dock->galleryShown());
    const QModelIndex tile = view->model()->index(0, 0);
    const QString name = tile.data(Qt::DisplayRole).toString();
    QVERIFY(name.contains(QStringLiteral("hand")));
    view->selectionModel()->select(tile, QItemSelectionModel::ClearAndSelect);
    QVERIFY(QTest::qWaitFor([&] {
      const auto& meshes = w.document()->scene->meshes;
      return meshes.size() == 1 && QString::fromStdString(meshes.front().name) == name;
    }, 10000));
    // A filter that hides the picked tile leaves the model shown as it is.
    dock->setFilter(QStringLiteral("nomad"));
    QCOMPARE(view->model()->rowCount(), 1);
    QTest::qWait(100);
    QCOMPARE(QString::fromStdString(w.document()->scene->meshes.front().name), name);
    QCOMPARE(w.document()->scene->meshes.size(), std::size_t{1});
    dock->setFilter({});
    QCOMPARE(view->model()->rowCount(), 8);
    dock->hideGallery();
    QVERIFY(!dock->galleryShown());
  }

  // Double-clicking a skin in a pak's gallery opens it, with its mesh, as the model.
  void activatingAnEntryOpensIt() {
    MainWindow w;
    QVERIFY(openGallery(w, {pak_}));
    ArchiveDock* dock = w.archive();
    QListView* view = dock->gallery();
    const QModelIndex skin = tileNamed(view, QStringLiteral("character.skn"));
    QVERIFY(skin.isValid());
    QSignalSpy open(dock, &ArchiveDock::openRequested);
    QVERIFY(marrow::testing::waitLoaded(w, [&] { emit view->activated(skin); }));
    QCOMPARE(open.size(), 1);
    QVERIFY(open.first().first().toStringList().first().endsWith(QStringLiteral("::char/character.skn")));
    QVERIFY(!w.document()->scene->meshes.empty());
    // The same paks are open: the gallery stays, its tiles as they were.
    QVERIFY(dock->galleryShown());
    QVERIFY(listed(dock));
    QCOMPARE(view->model()->rowCount(), 3);
  }

  // A folder of several cal3d characters without .cfg files opens on its models as pictures,
  // the parts that fit none in the Log; a model opens with its parts, as its .cfg makes it.
  void aFolderOfSeveralModelsOffersThem() {
    marrow::testing::Cal3dFolder folder;
    if (!QFile::exists(kFixtures + "/cal3d/dokurochan_v1300/DokuroChan.csf")) MARROW_QSKIP("no cal3d fixtures");
    QVERIFY(marrow::testing::makeCal3dFolder(fs::path(tmp_.filePath("characters").toStdString()),
                                             fs::path((kFixtures + "/cal3d").toStdString()), folder));
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(openAndWait(w, {tmp_.filePath("characters")}));
    ArchiveDock* dock = w.archive();
    QVERIFY(QTest::qWaitFor([&] { return dock->galleryShown(); }, 30000));  // worked out in the background
    QVERIFY(listed(dock));
    QListView* view = dock->gallery();
    QStringList tiles;
    for (int r = 0; r < view->model()->rowCount(); ++r) tiles << view->model()->index(r, 0).data().toString();
    tiles.sort(Qt::CaseInsensitive);
    QCOMPARE(tiles, (QStringList{"cally.csf", "DokuroChan.csf", "paladin.csf"}));
    const QString log = marrow::testing::logText(w);
    for (const std::string& f : folder.misfits) QVERIFY2(log.contains(QString::fromStdString(f)), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("3 models (cally, DokuroChan, paladin)")), qPrintable(log));

    // Opening a part brings its model; adding, playing or exporting it sends the part alone.
    const QStringList whole = dock->openAddresses(0, "cally_head.cmf", true);
    QVERIFY2(whole.size() > 20 && whole.first().endsWith(QStringLiteral("cally.csf")), qPrintable(whole.join(' ')));
    QCOMPARE(dock->openAddresses(0, "cally_head.cmf").first(), tmp_.filePath("characters/cally_head.cmf"));
    QCOMPARE(dock->openAddresses(0, "cally_head.cmf").size(), 2);  // the part and the folder
    QCOMPARE(dock->openAddresses(0, "cally_walk.caf", true).size(), 2);  // a clip plays on the open model

    auto reference = marrow::formats::loadFile((kFixtures + "/cal3d/paladin/paladin.cfg").toStdString());
    QVERIFY(reference.ok());
    const QModelIndex paladin = tileNamed(view, QStringLiteral("paladin.csf"));
    QVERIFY(marrow::testing::waitLoaded(w, [&] { emit view->activated(paladin); }));
    const auto& scene = *w.document()->scene;
    QCOMPARE(scene.skeleton.bones.size(), reference->skeleton.bones.size());
    QCOMPARE(scene.meshes.size(), reference->meshes.size());
    QVERIFY(scene.clips.size() >= reference->clips.size());  // and the clips the .cfg leaves out
    // The folder stays open with its pictures.
    QVERIFY(dock->galleryShown());
    QVERIFY(listed(dock));
    QCOMPARE(view->model()->rowCount(), 3);
  }

  // Opening a BRF file of a folder's gallery mounts it beside the folder: the folder's gallery
  // stays, where it was.
  void openingAFileOfAFolderKeepsItsGallery() {
    const QString dir = tmp_.filePath("keep");
    for (int i = 0; i < 3; ++i)
      QVERIFY(copy(kFixtures + "/brf/wfas_boots_a.brf", dir + QStringLiteral("/boots%1.brf").arg(i)));
    MainWindow w;
    QVERIFY(openGallery(w, {dir}));
    ArchiveDock* dock = w.archive();
    QListView* view = dock->gallery();
    QCOMPARE(view->model()->rowCount(), 3);
    QVERIFY(marrow::testing::waitLoaded(w, [&] { emit view->activated(view->model()->index(1, 0)); }));
    QVERIFY(w.document()->archives.archives().size() >= 2);  // the folder and the BRF file
    QVERIFY(dock->galleryShown());
    QVERIFY(listed(dock));
    QCOMPARE(view->model()->rowCount(), 3);
    QCOMPARE(view->model()->index(1, 0).data().toString(), QStringLiteral("boots1.brf"));
  }

 private:
  QTemporaryDir tmp_;
  QString folder_;
  QString pak_;
};

MARROW_QTEST_MAIN(GalleryTest)

#include "gallery_test.moc"
