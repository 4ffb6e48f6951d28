// Dragon Nest data in the viewer: a .dnt in the Tables dock (sort, filter, CSV export), and a
// written character (.skn + .msh) that gets its .ani attached, shows its dummy and its material
// parameters.
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "app/gui/clip_picker.h"
#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/table_dock.h"
#include "app/gui/table_model.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/gl/offscreen.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/qt_bytes.h"

using marrow::app::MainWindow;
using marrow::testing::openAndWait;
using marrow::testing::writeBytes;
using marrow::app::TableDock;

namespace {

const QString kTables = QStringLiteral(MARROW_FIXTURES_DIR "/dragonnest/maze_static_ext");

// The item of a tree whose first column reads `name`, or null.
QTreeWidgetItem* findItem(QTreeWidget* tree, const QString& name) {
  const auto found = tree->findItems(name, Qt::MatchExactly | Qt::MatchRecursive, 0);
  return found.isEmpty() ? nullptr : found.front();
}

}  // namespace

class TablesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { marrow::testing::useTestSettings("MarrowTablesTest"); }

  void init() {
    if (QString(QTest::currentTestFunction()).startsWith(QLatin1String("table")) &&
        !QFileInfo::exists(kTables + QStringLiteral("/jobtable.dnt")))
      MARROW_QSKIP("Dragon Nest table fixtures are absent (shared/fixtures/dragonnest/maze_static_ext)");
  }

  void tableDockShowsEveryColumnAndRow() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {kTables + QStringLiteral("/jobtable.dnt")}));
    TableDock* dock = w.tables();
    QVERIFY(dock->hasTables());
    QVERIFY(dock->isVisible());
    QCOMPARE(dock->model()->columnCount(), 35);
    QCOMPARE(dock->proxy()->rowCount(), 73);
    QCOMPARE(dock->rowCountText(), QStringLiteral("73 of 73 rows"));
    const auto& table = w.document()->scene->tables.front();
    for (int c = 0; c < 35; ++c) {
      const auto& col = table.columns[static_cast<std::size_t>(c)];
      QCOMPARE(dock->model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString(),
               QString::fromStdString(col.name));
      QVERIFY(dock->model()
                  ->headerData(c, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .contains(marrow::app::tableTypeName(col.type)));
    }
  }

  void tableHeaderClickSortsNumbersNumerically() {
    MainWindow w;
    w.resize(1300, 850);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {kTables + QStringLiteral("/jobtable.dnt")}));
    TableDock* dock = w.tables();
    const auto& table = *dock->model()->table();
    // A number column whose text order differs from its numeric order (9 before 10).
    int column = -1;
    for (std::size_t c = 0; c < table.columns.size() && column < 0; ++c) {
      if (table.columns[c].type == marrow::formats::kText) continue;
      QStringList texts;
      std::vector<double> values;
      for (int r = 0; r < dock->model()->rowCount(); ++r) {
        texts << dock->model()->text(r, static_cast<int>(c));
        values.push_back(
            dock->model()->index(r, static_cast<int>(c)).data(Qt::UserRole).toDouble());
      }
      QStringList byText = texts;
      byText.sort();
      std::sort(values.begin(), values.end());
      for (int r = 0; r < texts.size(); ++r)
        if (byText[r].toDouble() != values[static_cast<std::size_t>(r)]) {
          column = static_cast<int>(c);
          break;
        }
    }
    QVERIFY2(column >= 0, "jobtable.dnt has a number column that text sorting would misorder");

    QTableView* view = dock->view();
    view->scrollTo(dock->proxy()->index(0, column));
    QHeaderView* header = view->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(header->sortIndicatorSection(), column);
    double previous = -std::numeric_limits<double>::infinity();
    const bool ascending = header->sortIndicatorOrder() == Qt::AscendingOrder;
    for (int r = 0; r < dock->proxy()->rowCount(); ++r) {
      const double v = dock->proxy()->index(r, column).data(Qt::UserRole).toDouble();
      if (r > 0)
        QVERIFY2(ascending ? v >= previous : v <= previous, qPrintable(QString::number(r)));
      previous = v;
    }
  }

  void tableFilterReducesRowsByAnyCellOrByColumn() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {kTables + QStringLiteral("/jobtable.dnt")}));
    TableDock* dock = w.tables();
    const auto& table = *dock->model()->table();
    // A text cell's value that not every row has.
    int column = -1;
    QString needle;
    for (std::size_t c = 0; c < table.columns.size() && column < 0; ++c) {
      if (table.columns[c].type != marrow::formats::kText) continue;
      const QString first = dock->model()->text(0, static_cast<int>(c));
      if (first.size() < 3) continue;
      int having = 0;
      for (int r = 0; r < dock->model()->rowCount(); ++r)
        having += dock->model()->text(r, static_cast<int>(c)).contains(first, Qt::CaseInsensitive);
      if (having < dock->model()->rowCount()) column = static_cast<int>(c), needle = first;
    }
    QVERIFY(column >= 0);

    dock->setFilter(needle.toUpper());  // case does not matter
    const int any = dock->proxy()->rowCount();
    QCOMPARE(any, 1);  // one of the 73 rows
    QCOMPARE(dock->rowCountText(), QStringLiteral("%1 of 73 rows").arg(any));

    const QString name =
        QString::fromStdString(table.columns[static_cast<std::size_t>(column)].name);
    dock->setFilter(name + QStringLiteral(":") + needle);
    const int inColumn = dock->proxy()->rowCount();
    QCOMPARE(inColumn, 1);  // that row
    for (int r = 0; r < inColumn; ++r)
      QVERIFY(
          dock->proxy()->index(r, column).data().toString().contains(needle, Qt::CaseInsensitive));

    dock->setFilter(QStringLiteral("no cell holds this \x7f"));
    QCOMPARE(dock->proxy()->rowCount(), 0);
    dock->setFilter({});
    QCOMPARE(dock->proxy()->rowCount(), 73);
  }

  void tableCsvExportWritesTheWholeTable() {
    MainWindow w;
    QVERIFY(openAndWait(w, {kTables + QStringLiteral("/jobtable.dnt")}));
    TableDock* dock = w.tables();
    dock->setFilter(QStringLiteral("1"));  // the export is of the whole table, not the view
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("jobtable.csv"));
    QVERIFY(dock->exportCsv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    const qsizetype count = lines.size() - (lines.back().isEmpty() ? 1 : 0);
    QCOMPARE(count, 73 + 1);
    QStringList names;
    for (const auto& c : dock->model()->table()->columns) names << QString::fromStdString(c.name);
    const QString header = QString::fromUtf8(lines.front()).trimmed();
    QCOMPARE(header, QStringLiteral("_RowID,") + names.join(QLatin1Char(',')));
  }

  void tableLargeOneStaysFast() {
    const QString path = kTables + QStringLiteral("/weapontable.dnt");
    if (!QFileInfo::exists(path)) MARROW_QSKIP("weapontable.dnt is absent");
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {path}));
    TableDock* dock = w.tables();
    QCOMPARE(dock->model()->columnCount(), 65);
    QCOMPARE(dock->model()->rowCount(), 2908);
    QElapsedTimer clock;
    clock.start();
    dock->setFilter(QStringLiteral("zz-nowhere"));
    dock->setFilter(QStringLiteral("1"));
    dock->view()->sortByColumn(3, Qt::DescendingOrder);
    QCoreApplication::processEvents();
    qInfo("filtering twice and sorting 2908 x 65: %lld ms",
          static_cast<long long>(clock.elapsed()));
    QVERIFY(clock.elapsed() < 3000);
    QCOMPARE(dock->proxy()->rowCount(), 2908);  // every row holds a "1" somewhere
  }

  void characterGetsAttachedClipsDummyAndMaterialParameters() {
    namespace dn = marrow::formats::dragonnest;
    QTemporaryDir dir;
    if (qEnvironmentVariableIsSet("MARROW_KEEP_CHARACTER")) {  // to look at it in the viewer
      dir.setAutoRemove(false);
      qInfo("character written to %s", qPrintable(dir.path()));
    }
    const dn::testing::CharacterFiles files = dn::testing::writeCharacter(13);
    const QString skn = dir.filePath(QStringLiteral("Character.skn"));
    const QString ani = dir.filePath(QStringLiteral("Character.ani"));
    QVERIFY(writeBytes(dir.filePath(QStringLiteral("Character.msh")), files.msh));
    QVERIFY(writeBytes(skn, files.skn));
    QVERIFY(writeBytes(ani, files.ani));

    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {skn}));
    QVERIFY(!w.tables()->isVisible());
    // The animation of its name beside it plays without being asked for (issue 16), and the
    // Log says where it came from.
    QCOMPARE(w.document()->scene->clips.size(), std::size_t{2});
    QCOMPARE(w.document()->scene->clips[0].group, std::string("Character.ani"));
    QVERIFY(marrow::testing::logText(w).contains(QStringLiteral("found beside it: Character.ani")));
    QVERIFY(!w.document()->scene->meshes.empty());

    // The dummy, with its bone, in the Scene dock.
    auto* sceneDock = w.findChild<marrow::app::SceneDock*>();
    QVERIFY(sceneDock);
    auto* tree = sceneDock->findChild<QTreeWidget*>();
    QTreeWidgetItem* dummies = findItem(tree, QStringLiteral("Dummies"));
    QVERIFY(dummies);
    QCOMPARE(dummies->text(1), QStringLiteral("1"));
    QTreeWidgetItem* weapon = findItem(tree, QStringLiteral("Weapon"));
    QVERIFY(weapon);
    QVERIFY(weapon->text(1).contains(QStringLiteral("Arm"), Qt::CaseInsensitive));

    // Every SKN parameter of the first material in the Properties dock.
    tree->setCurrentItem(findItem(tree, QStringLiteral("BodyMat")));
    auto* props = w.properties()->findChild<QTreeWidget*>();
    for (const char* name : {"g_MaterialAmbient", "g_MaterialDiffuse", "g_DiffuseTex",
                             "g_EmissivePower", "g_UseSpecular", "effect"})
      QVERIFY2(findItem(props, QString::fromLatin1(name)), name);
    QCOMPARE(findItem(props, QStringLiteral("g_UseSpecular"))->text(1), QStringLiteral("7"));
    QCOMPARE(findItem(props, QStringLiteral("g_EmissivePower"))->text(1).toDouble(), 0.5);
    QCOMPARE(findItem(props, QStringLiteral("g_DiffuseTex"))->text(1),
             QStringLiteral("character.dds"));

    // Attaching the .ani keeps the camera, lists its clips and plays them.
    w.viewport()->camera().setAngles(70.0f, 15.0f);
    QSignalSpy loaded(&w, &MainWindow::documentLoaded);
    w.attachFiles({ani});
    QVERIFY(loaded.wait(20000));
    QCOMPARE(w.document()->paths.size(), 2);
    QCOMPARE(w.player().clipCount(), 2);
    QCOMPARE(w.viewport()->camera().yaw(), 70.0f);
    QVERIFY(findItem(tree, QStringLiteral("Wave")));
    QVERIFY(findItem(tree, QStringLiteral("Idle")));
    // The timeline lists it.
    marrow::app::ClipPicker* clips = w.timeline()->clipPicker();
    clips->setFilterText(QStringLiteral("Wave"));
    QCOMPARE(clips->offeredClips().size(), std::size_t{1});
    clips->setFilterText({});
    QVERIFY(w.player().playing());
    QVERIFY(findItem(tree, QStringLiteral("Weapon")));  // the dummy stays

    w.timeline()->setClip(0);
    w.timeline()->pause();
    w.player().setTime(0.0);
    const std::vector<glm::mat4> start = w.player().pose().model;
    w.timeline()->play();
    QVERIFY(QTest::qWaitFor([&] { return w.player().time() > 0.2; }, 5000));
    QVERIFY(w.player().pose().model != start);
  }
};

MARROW_QTEST_MAIN(TablesTest)

#include "tables_test.moc"
