// The viewport's inspection features as a user meets them: clicking bones and surfaces selects
// bones in the Bones dock (and the reverse), hovering names them, the weight views draw the
// colours their legends promise, hiding a subtree or a material removes its pixels; and the time
// to the first frame of the largest fixture model.
//
// The test model is made here with known geometry, written with the project's cal3d writer
// (which keeps weights as given, so a vertex can be stored with weights summing to 0.8) and
// opened as a user would open it. In display space (Y up, camera on +Z looking down -Z):
//
//   bones: 0 root (0,0,0); 1 left (-1.5,1,0), 3 leftTip (-1.5,2,0) under it; 2 right (1.5,1,0);
//          4 extra (0,2.5,0). The clip "lift" moves `right` from y 1 to y 2 over one second.
//   quads (z = 0), mesh "body" (material "skin"):
//     A x -2..-1, y 0.5..1.5   left 1                        (1 bone)
//     F x -2..-1, y 2..3       leftTip 1                     (1 bone)
//     C x -0.5..0.5, y 0.5..1.5  left 0.7 right 0.3 on its left corners, 0.3 / 0.7 on its right
//     D x -0.5..0.5, y 2..3    five bones 0.2 each           (more than 4)
//     E x -0.5..0.5, y -1..0   left 0.4 right 0.4            (sum 0.8: not normalised)
//   mesh "armour" (material "metal"):
//     B x 1..2, y 0.5..1.5     right 1
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <sys/mman.h>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "app/huge_pages.h"
#include "formats/cal3d/writer.h"
#include "render/gl/offscreen.h"
#include "render/gl/weight_view.h"
#include "tests/support/big_model.h"
#include "tests/support/gui_fixture.h"

using marrow::app::MainWindow;
using marrow::testing::openAndWait;
namespace formats = marrow::formats;
namespace render = marrow::render;

namespace {

// A mouse move delivered to the widget itself: QTest::mouseMove moves the pointer of the display,
// whose event goes to whichever window is on top there (other GUI tests share the Xvfb display).
void moveMouse(QWidget* w, QPoint p) {
  QMouseEvent e(QEvent::MouseMove, QPointF(p), QPointF(w->mapToGlobal(p)), Qt::NoButton, Qt::NoButton,
                Qt::NoModifier);
  QApplication::sendEvent(w, &e);
}

enum Bone { kRoot, kLeft, kRight, kLeftTip, kExtra };

void quad(formats::Mesh& m, float x0, float x1, float y0, float y1,
          const std::vector<std::vector<formats::Influence>>& corners) {
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  const glm::vec3 p[4] = {{x0, y0, 0}, {x1, y0, 0}, {x1, y1, 0}, {x0, y1, 0}};
  for (int i = 0; i < 4; ++i) {
    m.positions.push_back(p[i]);
    m.normals.emplace_back(0, 0, 1);
    m.uvSets.resize(1);
    m.uvSets[0].emplace_back(0, 0);
    m.addInfluences(corners[corners.size() == 1 ? 0 : static_cast<std::size_t>(i)]);
  }
  m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

formats::Scene testModel() {
  formats::Scene s;
  auto bone = [&](const char* name, int parent, glm::vec3 t) {
    formats::Bone b;
    b.name = name;
    b.parent = parent;
    b.translation = t;
    s.skeleton.bones.push_back(b);
  };
  bone("root", -1, {0, 0, 0});
  bone("left", kRoot, {-1.5f, 1, 0});
  bone("right", kRoot, {1.5f, 1, 0});
  bone("leftTip", kLeft, {0, 1, 0});
  bone("extra", kRoot, {0, 2.5f, 0});

  formats::Mesh body;
  body.name = "body";
  body.material = 0;
  quad(body, -2, -1, 0.5f, 1.5f, {{{kLeft, 1.0f}}});
  quad(body, -2, -1, 2, 3, {{{kLeftTip, 1.0f}}});
  const std::vector<formats::Influence> leftSide = {{kLeft, 0.7f}, {kRight, 0.3f}};
  const std::vector<formats::Influence> rightSide = {{kLeft, 0.3f}, {kRight, 0.7f}};
  quad(body, -0.5f, 0.5f, 0.5f, 1.5f, {leftSide, rightSide, rightSide, leftSide});
  quad(body, -0.5f, 0.5f, 2, 3,
       {{{kRoot, 0.2f}, {kLeft, 0.2f}, {kRight, 0.2f}, {kLeftTip, 0.2f}, {kExtra, 0.2f}}});
  quad(body, -0.5f, 0.5f, -1, 0, {{{kLeft, 0.4f}, {kRight, 0.4f}}});
  s.meshes.push_back(std::move(body));

  formats::Mesh armour;
  armour.name = "armour";
  armour.material = 1;
  quad(armour, 1, 2, 0.5f, 1.5f, {{{kRight, 1.0f}}});
  s.meshes.push_back(std::move(armour));

  for (const char* name : {"skin", "metal"}) {
    formats::Material m;
    m.name = name;
    m.diffuse = name[0] == 's' ? glm::vec4(0.9f, 0.6f, 0.5f, 1) : glm::vec4(0.6f, 0.6f, 0.9f, 1);
    s.materials.push_back(m);
  }

  formats::Clip lift;
  lift.name = "lift";
  lift.duration = 1.0f;
  formats::Track t;
  t.bone = "right";
  t.translation.add(0.0f, {1.5f, 1, 0});
  t.translation.add(1.0f, {1.5f, 2, 0});
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  t.rotation.add(1.0f, glm::quat(1, 0, 0, 0));
  lift.tracks.push_back(t);
  s.clips.push_back(lift);
  return s;
}

QColor toColor(const glm::vec3& c) {
  return QColor::fromRgbF(c.r, c.g, c.b);
}

bool near(const QColor& a, const QColor& b, int tolerance = 14) {
  return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance &&
         std::abs(a.blue() - b.blue()) <= tolerance;
}

// A one-pixel line may fall on either side of where it is projected, and be blended with what
// is behind it where multisampling covers it partly: any pixel within 2 of the kind wanted.
template <class Kind>
bool nearby(const QImage& img, const QPoint& p, Kind kind) {
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      if (img.valid(p + QPoint(dx, dy)) && kind(img.pixelColor(p + QPoint(dx, dy)))) return true;
  return false;
}

// The skeleton's light blue, the selection's orange, over the grey background.
bool boneBlue(const QColor& c) { return c.blue() - c.red() > 40 && c.blue() > 120; }
bool selectionOrange(const QColor& c) { return c.red() - c.blue() > 90 && c.green() > 70; }

QString describe(const QColor& c) {
  return QStringLiteral("(%1, %2, %3)").arg(c.red()).arg(c.green()).arg(c.blue());
}

}  // namespace

class ViewportInspectTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString cfg_;
  std::unique_ptr<MainWindow> w_;

  marrow::app::Viewport* view() { return w_->viewport(); }
  QPoint at(float x, float y) { return view()->project(glm::vec3(x, y, 0)).toPoint(); }
  QColor pixel(const QImage& img, float x, float y) { return img.pixelColor(at(x, y)); }
  const QColor kBackground = toColor(render::ViewOptions{}.background);

  // The test model, still, seen from the front, at clip time `t`; plain colours (no lights).
  void pose(double t) {
    w_->timeline()->pause();
    w_->timeline()->seek(t);
    QCoreApplication::processEvents();
  }

  QImage frame() {
    view()->update();
    return view()->grabFramebuffer();
  }

 private slots:
  void initTestCase() {
    marrow::testing::useTestSettings("MarrowViewportInspectTest");
    QVERIFY(dir_.isValid());
    formats::Diagnostics diagnostics;
    auto files = formats::cal3d::writeModel(testModel(), "probe", {}, diagnostics);
    QVERIFY2(files, files ? "" : files.error().describe().c_str());
    for (const auto& f : *files) {
      std::ofstream out(dir_.filePath(QString::fromStdString(f.name)).toStdString(),
                        std::ios::binary);
      out.write(reinterpret_cast<const char*>(f.bytes.data()),
                static_cast<std::streamsize>(f.bytes.size()));
    }
    cfg_ = dir_.filePath(QStringLiteral("probe.cfg"));
  }

  void init() {
    w_ = std::make_unique<MainWindow>();
    w_->resize(1100, 760);
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    QVERIFY(openAndWait(*w_, {cfg_}));
    if (!view()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    QCOMPARE(w_->document()->scene->skeleton.bones.size(), std::size_t{5});
    auto& o = view()->options();
    o.showGrid = false;
    o.showSkeleton = false;
    o.lit = false;
    o.textured = false;
    view()->camera().setAngles(0.0f, 0.0f);
    pose(0.0);
    view()->frameAll();
  }

  void cleanup() { w_.reset(); }

  void clickingAJointSelectsItsBoneInTheDock() {
    view()->options().showSkeleton = true;
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(-1.5f, 2.0f));  // leftTip's joint
    QCOMPARE(w_->bones()->selectedBone(), int{kLeftTip});
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(0.0f, 2.5f));  // extra's, over quad D
    QCOMPARE(w_->bones()->selectedBone(), int{kExtra});
    QCOMPARE(view()->options().selectedBone, int{kExtra});
  }

  void clickingASurfaceSelectsTheHeaviestBoneOfTheNearestVertex() {
    // Quad C: its left corners weigh `left` most, its right corners `right`.
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(-0.35f, 1.0f));
    QCOMPARE(w_->bones()->selectedBone(), int{kLeft});
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(0.35f, 1.0f));
    QCOMPARE(w_->bones()->selectedBone(), int{kRight});
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(-1.5f, 2.6f));  // quad F
    QCOMPARE(w_->bones()->selectedBone(), int{kLeftTip});
  }

  void surfacePickingFollowsThePose() {
    pose(1.0);  // `right` lifted by 1: quad B now spans y 1.5..2.5
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(-1.5f, 0.7f));  // quad A: left
    QCOMPARE(w_->bones()->selectedBone(), int{kLeft});
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(1.5f, 0.7f));  // where B was: nothing
    QCOMPARE(w_->bones()->selectedBone(), int{kLeft});
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(1.5f, 2.3f));  // where B is
    QCOMPARE(w_->bones()->selectedBone(), int{kRight});
  }

  void aDragIsNoClick() {
    const QPoint from = at(1.5f, 1.0f);
    QTest::mousePress(view(), Qt::LeftButton, {}, from);
    QTest::mouseMove(view(), from + QPoint(40, 0));
    QTest::mouseRelease(view(), Qt::LeftButton, {}, from + QPoint(40, 0));
    QCOMPARE(w_->bones()->selectedBone(), -1);
  }

  void selectingInTheDockHighlightsTheBoneInTheViewport() {
    const QColor before = pixel(frame(), 1.5f, 1.0f);  // right's joint, over quad B
    w_->bones()->selectBone(kRight);
    QCOMPARE(view()->options().selectedBone, int{kRight});
    const QImage img = frame();
    const QColor selected = toColor({1.0f, 0.65f, 0.1f});
    QVERIFY2(near(pixel(img, 1.5f, 1.0f), selected),
             qPrintable(describe(pixel(img, 1.5f, 1.0f)) + " was " + describe(before)));
    // The segment from root to right, halfway along it.
    QVERIFY(nearby(img, at(0.75f, 0.5f), selectionOrange));
  }

  void hoverNamesTheBoneUnderTheMouse() {
    QSignalSpy hovered(view(), &marrow::app::Viewport::boneHovered);
    moveMouse(view(), at(-1.5f, 2.7f));  // quad F
    QVERIFY(QTest::qWaitFor([&] { return view()->hoveredBone() == kLeftTip; }, 3000));
    QCOMPARE(hovered.last().first().toInt(), int{kLeftTip});
    QVERIFY(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000));
    QCOMPARE(QToolTip::text(), QStringLiteral("leftTip"));
    moveMouse(view(), at(1.0f, 2.8f));  // nothing there
    QVERIFY(QTest::qWaitFor([&] { return view()->hoveredBone() == -1; }, 3000));
  }

  void transformsUpdateLiveWhilePlaying() {
    w_->bones()->selectBone(kRight);
    pose(0.0);
    const QString atStart = w_->bones()->transformsText();
    QVERIFY(atStart.contains(QStringLiteral("right")));
    w_->timeline()->play();
    QTest::qWait(400);
    QVERIFY(w_->player().playing());
    const QString later = w_->bones()->transformsText();
    QVERIFY2(later != atStart, qPrintable(later));
  }

  void boneWeightViewDrawsTheRamp() {
    w_->bones()->selectBone(kLeft);
    view()->setShading(render::Shading::BoneWeights);
    const QImage img = frame();
    const struct {
      float x, y, weight;
    } probes[] = {{-1.8f, 0.7f, 1.0f},  // A: left 1
                  {1.8f, 0.7f, 0.0f},   // B: right only
                  {0.0f, 1.0f, 0.5f},   // C's middle: 0.7 and 0.3 on either side
                  {-1.5f, 2.7f, 0.0f},  // F: leftTip, not left
                  {0.0f, 2.7f, 0.2f}};  // D: five bones of 0.2
    for (const auto& p : probes) {
      const QColor want = toColor(render::weightColor(p.weight));
      QVERIFY2(near(pixel(img, p.x, p.y), want),
               qPrintable(QStringLiteral("at (%1, %2): %3, want %4 for weight %5")
                              .arg(p.x)
                              .arg(p.y)
                              .arg(describe(pixel(img, p.x, p.y)))
                              .arg(describe(want))
                              .arg(p.weight)));
    }
    QVERIFY(view()->legend());
    QVERIFY(view()->legend()->text().contains(QStringLiteral("left")));
  }

  void influenceViewColoursByCountAndFlagsBadSums() {
    view()->setShading(render::Shading::InfluenceCount);
    const QImage img = frame();
    using render::InfluenceClass;
    const struct {
      float x, y;
      glm::vec3 color;
    } probes[] = {{-1.5f, 0.8f, render::influenceClassColor(InfluenceClass::One)},          // A
                  {1.5f, 0.8f, render::influenceClassColor(InfluenceClass::One)},           // B
                  {0.0f, 1.0f, render::influenceClassColor(InfluenceClass::Two)},           // C
                  {0.0f, 2.5f, render::influenceClassColor(InfluenceClass::MoreThanFour)},  // D
                  {0.0f, -0.5f, render::unnormalisedColor()}};                              // E
    for (const auto& p : probes)
      QVERIFY2(near(pixel(img, p.x, p.y), toColor(p.color)),
               qPrintable(QStringLiteral("at (%1, %2): %3, want %4")
                              .arg(p.x)
                              .arg(p.y)
                              .arg(describe(pixel(img, p.x, p.y)))
                              .arg(describe(toColor(p.color)))));
    // D's and E's corners carry the flag points.
    QVERIFY(near(pixel(img, -0.5f, 2.0f),
                 toColor(render::influenceClassColor(InfluenceClass::MoreThanFour))));
    QVERIFY(near(pixel(img, 0.5f, -1.0f), toColor(render::unnormalisedColor())));
    QVERIFY(view()->legend());
    const QString legend = view()->legend()->text();
    QVERIFY2(legend.contains(QStringLiteral("more than 4 bones: 4")), qPrintable(legend));
    QVERIFY2(legend.contains(QStringLiteral("weights not summing to 1: 4")), qPrintable(legend));
    QVERIFY2(legend.contains(QStringLiteral("1 bone: 12")), qPrintable(legend));
    view()->setShading(render::Shading::Material);
    QVERIFY(!view()->legend());
  }

  void hidingASubtreeRemovesItsPixels() {
    view()->options().showSkeleton = true;
    QImage img = frame();
    QVERIFY(!near(pixel(img, -1.8f, 0.7f), kBackground));                     // A
    QVERIFY(!near(pixel(img, -1.8f, 2.7f), kBackground));                     // F
    QVERIFY(!near(pixel(img, -1.5f, 2.0f), kBackground));                     // leftTip's joint
    QVERIFY(nearby(img, at(-1.5f, 1.8f), boneBlue));  // the segment left → leftTip
    const QColor b = pixel(img, 1.8f, 0.7f);
    QSignalSpy changed(w_->bones(), &marrow::app::BonesDock::hiddenBonesChanged);
    w_->bones()->setSubtreeHidden(kLeft, true);
    QCOMPARE(changed.size(), 1);
    const auto& hidden = w_->bones()->hiddenBones();
    QVERIFY(hidden[kLeft] && hidden[kLeftTip] && !hidden[kRight] && !hidden[kRoot]);
    img = frame();
    QVERIFY2(near(pixel(img, -1.8f, 0.7f), kBackground, 3),
             qPrintable(describe(pixel(img, -1.8f, 0.7f))));
    QVERIFY(near(pixel(img, -1.8f, 2.7f), kBackground, 3));
    QVERIFY(!nearby(img, at(-1.5f, 1.8f), boneBlue));  // its segment
    QCOMPARE(pixel(img, 1.8f, 0.7f), b);                                       // B stays
    // Hidden bones cannot be picked; their triangles neither.
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(-1.8f, 0.7f));
    QCOMPARE(w_->bones()->selectedBone(), -1);
    w_->bones()->showAllBones();
    img = frame();
    QVERIFY(!near(pixel(img, -1.8f, 0.7f), kBackground));
  }

  void uncheckingAMaterialHidesItsMeshes() {
    auto* scene = w_->findChild<marrow::app::SceneDock*>();
    QVERIFY(scene);
    QVERIFY(!near(pixel(frame(), 1.8f, 0.7f), kBackground));
    scene->setMaterialVisible(1, false);  // "metal": mesh armour, quad B
    QVERIFY(!scene->materialVisible(1));
    QImage img = frame();
    QVERIFY(near(pixel(img, 1.8f, 0.7f), kBackground, 3));
    QVERIFY(!near(pixel(img, -1.8f, 0.7f), kBackground));
    QTest::mouseClick(view(), Qt::LeftButton, {}, at(1.8f, 0.7f));  // not pickable either
    QCOMPARE(w_->bones()->selectedBone(), -1);
    scene->setMaterialVisible(1, true);
    QVERIFY(!near(pixel(frame(), 1.8f, 0.7f), kBackground));
  }

  void dualQuaternionSkinningIsOfferedWithItsCaveat() {
    auto* dq = [&]() -> QAction* {
      for (QAction* a : w_->findChildren<QAction*>())
        if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Dual Quaternion")) return a;
      return nullptr;
    }();
    QVERIFY(dq);
    QVERIFY(dq->toolTip().contains(QStringLiteral("non-uniform scale")));
    dq->trigger();
    QCOMPARE(view()->renderer().skinningMethod(), render::SkinningMethod::DualQuaternion);
    // Rigid quads look the same under either method.
    QVERIFY(!near(pixel(frame(), 1.8f, 0.7f), kBackground));
  }

  // The viewer starts itself again with glibc's malloc advising huge pages (app/huge_pages.h),
  // and so does this program (MARROW_QTEST_MAIN): a big allocation, as llvmpipe makes for a
  // big model's buffers, comes in huge pages, a fault per 2 MB instead of per 4 kB. The
  // programs it starts get GLIBC_TUNABLES as it was.
  void bigAllocationsComeInHugePages() {
    const auto firstLine = [](const char* path, const char* prefix) {
      std::ifstream in(path);
      for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) return line;
      return std::string();
    };
    const std::string mode = firstLine("/sys/kernel/mm/transparent_hugepage/enabled", "");
    const bool userSet = qEnvironmentVariable("GLIBC_TUNABLES").contains(QLatin1String("glibc.malloc.hugetlb"));
    if (mode.find("[madvise]") == std::string::npos || userSet ||
        qEnvironmentVariable("MARROW_HUGE_PAGES") == QLatin1String("0")) {
      QVERIFY(!marrow::app::restartedWithHugePages());
      qInfo("no restart here (transparent huge pages '%s', or the user's own setting)", mode.c_str());
      return;
    }
    QVERIFY(marrow::app::restartedWithHugePages());
    QVERIFY(!marrow::app::hugePagesAsked());  // given back as it was
    QVERIFY(!qEnvironmentVariableIsSet("MARROW_HUGE_PAGES_RESTARTED"));
    if (firstLine("/proc/self/status", "THP_enabled:").find('0') != std::string::npos) {
      qInfo("transparent huge pages are off for this process (prctl)");
      return;
    }
    const auto hugeKb = [&] {
      const std::string line = firstLine("/proc/self/smaps_rollup", "AnonHugePages:");
      return line.empty() ? -1L : std::atol(line.c_str() + 14);
    };
    const auto touch = [](char* p, std::size_t n) {
      std::memset(p, 1, n);
      asm volatile("" : : "r"(p) : "memory");  // the writes happen before the count is read
    };
    constexpr std::size_t kBytes = 64u << 20;
    // Can the kernel give huge pages now at all? A mapping that asks for them itself.
    const long control = hugeKb();
    if (control < 0) QSKIP("no /proc/self/smaps_rollup");
    void* mapped = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    QVERIFY(mapped != MAP_FAILED);
    madvise(mapped, kBytes, MADV_HUGEPAGE);
    touch(static_cast<char*>(mapped), kBytes);
    const long controlGot = hugeKb() - control;
    munmap(mapped, kBytes);
    if (controlGot < 16 * 1024) {
      qInfo("the kernel gave a mapping that asked for huge pages %ld kB of them: nothing to compare", controlGot);
      return;
    }
    // malloc's memory, asked for by glibc.
    const long before = hugeKb();
    auto* p = static_cast<char*>(std::malloc(kBytes));
    QVERIFY(p);
    touch(p, kBytes);
    const long after = hugeKb();
    std::free(p);
    QVERIFY2(after - before >= 16 * 1024,
             qPrintable(QStringLiteral("%1 kB in huge pages from malloc (a mapping that asked: %2 kB)")
                            .arg(after - before)
                            .arg(controlGot)));
  }

  // docs/viewport.md quotes these figures: from openFiles to the first frame drawn (loading off
  // the GUI thread, upload, framing, drawing), and frames drawn per second while playing.
  void timeToFirstFrameAndFrameRate_data() {
    QTest::addColumn<QStringList>("files");
    const QString fixtures = QStringLiteral(MARROW_FIXTURES_DIR);
    QTest::newRow("cal3d paladin") << QStringList{fixtures + "/cal3d/paladin/paladin.cfg"};
    QTest::newRow("brf openbrf_redux_reference")
        << QStringList{fixtures + "/brf/openbrf_redux_reference.brf"};
    // Issue 18's big model: the generated tube of 999,000 triangles and 64 bones, skinned, and
    // the same tube unskinned while the same clip plays (the frame time skinning is measured
    // against: the shader's unskinned path, the same pose work on the CPU).
    static QTemporaryDir big;
    const QString skinned = big.filePath("big_tube.glb"), rigid = big.filePath("big_tube_unskinned.glb");
    if (!QFile::exists(skinned)) marrow::testing::writeBigSkinnedGlb(skinned.toStdString(), true);
    if (!QFile::exists(rigid)) marrow::testing::writeBigSkinnedGlb(rigid.toStdString(), false);
    QTest::newRow("generated tube, skinned") << QStringList{skinned};
    QTest::newRow("generated tube, unskinned") << QStringList{rigid};
    // Any other models, to measure the same on files the project does not hold:
    // MARROW_FIRST_FRAME_FILES=a.glb:b.dae (a row each).
    for (const QString& f : qEnvironmentVariable("MARROW_FIRST_FRAME_FILES").split(QLatin1Char(':'), Qt::SkipEmptyParts))
      QTest::newRow(qPrintable(QFileInfo(f).fileName())) << QStringList{f};
  }

  void timeToFirstFrameAndFrameRate() {
    QFETCH(QStringList, files);
    if (!QFile::exists(files.front())) MARROW_QSKIP("input absent (MARROW_FIXTURES_DIR, or the big tube not written)");
    // A window of its own, as the viewer starts: GL is up, nothing was drawn with it yet (Mesa
    // compiles shader variants when they are first drawn with: that is part of the figure).
    w_ = std::make_unique<MainWindow>();
    w_->resize(1100, 760);
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    QVERIFY(QTest::qWaitFor([&] { return view()->glReady() || !view()->glError().isEmpty(); }));
    if (!view()->glReady()) MARROW_QSKIP("no OpenGL 3.3 core here");
    QElapsedTimer clock;
    qint64 loaded = -1, drawn = -1, sinceSetDocument = -1;
    connect(w_.get(), &MainWindow::documentLoaded, this, [&] { loaded = clock.elapsed(); });
    connect(view(), &marrow::app::Viewport::documentDrawn, this, [&](qint64 ms) {
      drawn = clock.elapsed();
      sinceSetDocument = ms;
    });
    clock.start();
    w_->openFiles(files);
    QVERIFY(QTest::qWaitFor([&] { return drawn >= 0; }, 30000));
    const auto& s = *w_->document()->scene;
    std::size_t triangles = 0, vertices = 0;
    for (const auto& m : s.meshes) triangles += m.triangleCount(), vertices += m.vertexCount();
    int frames = 0;
    connect(view(), &QOpenGLWidget::frameSwapped, this, [&] { ++frames; });
    double fps = 0.0;
    if (w_->player().clipCount() > 0) {
      w_->timeline()->setClip(0);
      w_->timeline()->play();
      QElapsedTimer playing;
      playing.start();
      QTest::qWait(3000);
      fps = frames * 1000.0 / static_cast<double>(playing.elapsed());
    }
    qInfo(
        "%s: %zu meshes, %zu vertices, %zu triangles, %zu bones: loaded after %lld ms, first "
        "frame after %lld ms (%lld ms after the document reached the viewport); %.1f frames/s "
        "while playing",
        qPrintable(QFileInfo(files.front()).fileName()), s.meshes.size(), vertices, triangles,
        s.skeleton.bones.size(), static_cast<long long>(loaded), static_cast<long long>(drawn),
        static_cast<long long>(sinceSetDocument), fps);
    QVERIFY2(drawn < 5000, "far beyond the 0.3 s goal: something is badly slow");
  }
};

MARROW_QTEST_MAIN(ViewportInspectTest)

#include "viewport_inspect_test.moc"
