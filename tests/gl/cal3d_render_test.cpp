// cal3d models as the viewer draws them, seen from the front (camera yaw 0): paladin, with its
// textures decoded, stands upright (spec §2: cal3d is Z-up) and wears its face the right way up
// (§10.6: v = 0 is the image's top row); cally, whose materials name no textures, is drawn in its
// material colours, each on its own part. Skipped where the fixtures are absent.
//
// The face check is made sensitive by its counterfactual: the same close-up with every texture
// turned upside down must fail it. MARROW_RENDER_DUMP=<dir> saves the frames there.
#include <gtest/gtest.h>

#include <QColor>
#include <QDir>
#include <QImage>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "app/document.h"
#include "gl_fixture.h"
#include "render/anim/pose.h"

#include "tests/support/skip.h"

namespace marrow {
namespace {

const std::string kFixtures = MARROW_FIXTURES_DIR "/cal3d";

constexpr int kSize = 400;

void dump(const QImage& img, const char* name) {
  if (const char* dir = std::getenv("MARROW_RENDER_DUMP"))
    img.save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name)));
}

// What is shown: the model in clip `clip` at `time` × its duration (the rest pose when empty),
// seen from the front (yaw 0, pitch 0: looking along display −Z), grid and bones off.
struct Shot {
  std::string clip;
  float time = 0.0f;
  // Framing: the whole figure, or a close-up of the sphere at `focus` (fractions of the pose's
  // bounds: 0 the low corner, 1 the high one) of radius `radius` × the bounds' height.
  bool closeUp = false;
  glm::vec3 focus{0.5f};
  float radius = 0.0f;
  bool textured = true;
  bool flipTexturesVertically = false;  // the counterfactual: every image upside down
};

QImage shoot(render::OffscreenGL& gl, render::Renderer& r, const app::Document& doc,
             const Shot& shot) {
  std::vector<QImage> textures = doc.textures;
  if (shot.flipTexturesVertically)
    for (QImage& t : textures) t = t.mirrored(false, true);
  r.setScene(doc.scene, textures);
  const formats::Clip* clip = nullptr;
  for (const auto& c : doc.scene->clips)
    if (!shot.clip.empty() && c.name == shot.clip) clip = &c;
  EXPECT_TRUE(shot.clip.empty() || clip) << "the model has no clip " << shot.clip;
  r.setPose(anim::evaluate(doc.scene->skeleton, clip, clip ? shot.time * clip->duration : 0.0f));
  render::Camera cam;
  cam.setAngles(0.0f, 0.0f);
  const render::Bounds b = r.poseBounds();
  if (shot.closeUp)
    cam.frame(b.lo + shot.focus * (b.hi - b.lo), shot.radius * (b.hi.y - b.lo.y));
  else
    cam.frame(b.center(), b.radius());
  render::ViewOptions o;
  o.showGrid = false;
  o.showSkeleton = false;
  o.skeletonWhenNoMeshes = false;
  o.textured = shot.textured;
  return gl.render(r, cam, kSize, kSize, o);
}

// ---- Reading the frames. ----

const QColor kBackground = [] {
  const glm::vec3 bg = render::ViewOptions{}.background;
  return QColor::fromRgbF(bg.r, bg.g, bg.b);
}();

bool isModel(const QColor& c) {
  return std::abs(c.red() - kBackground.red()) + std::abs(c.green() - kBackground.green()) +
             std::abs(c.blue() - kBackground.blue()) >
         12;
}

double luma(const QColor& c) {
  return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
}

// Lit skin of the paladin's face and hands: warm, red over green over blue, not the yellow cloth.
bool isSkin(const QColor& c) {
  return c.red() > 120 && c.red() > c.green() + 25 && c.green() > c.blue() + 5 &&
         c.green() - c.blue() < 60;
}

struct Region {
  int left = 1 << 30, right = -1, top = 1 << 30, bottom = -1, count = 0;
  double sumY = 0;
  int width() const { return right - left + 1; }
  int height() const { return bottom - top + 1; }
  double meanY() const { return count ? sumY / count : 0.0; }
};

Region pixels(const QImage& img, const std::function<bool(const QColor&)>& test,
              int x0 = 0, int x1 = -1) {
  Region r;
  if (x1 < 0) x1 = img.width();
  for (int y = 0; y < img.height(); ++y)
    for (int x = x0; x < x1; ++x)
      if (const QColor c = img.pixelColor(x, y); isModel(c) && test(c)) {
        r.left = std::min(r.left, x), r.right = std::max(r.right, x);
        r.top = std::min(r.top, y), r.bottom = std::max(r.bottom, y);
        ++r.count;
        r.sumY += y;
      }
  return r;
}

// Mean luma of the model's pixels in rows [y0, y1) and columns [x0, x1).
double meanLuma(const QImage& img, int y0, int y1, int x0, int x1) {
  double sum = 0;
  int n = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, img.height()); ++y)
    for (int x = x0; x < x1; ++x)
      if (const QColor c = img.pixelColor(x, y); isModel(c)) sum += luma(c), ++n;
  return n ? sum / n : -1.0;
}

// The face close-up, read: the crown of the head (its top rows) against the face below it. Hair
// covers the crown when the texture is the right way up (face.png: hair in its top rows, the face
// under it); upside down, the crown shows the bare neck/chin skin of the image's bottom rows.
struct Head {
  int top = -1;            // the silhouette's first row in the central columns
  double crown = 0;        // mean luma of the first 40 rows
  double face = 0;         // mean luma of the next 100 rows (forehead, eyes, cheeks)
  double ratio() const { return face > 0 ? crown / face : 1e9; }
};

Head readHead(const QImage& img) {
  Head h;
  const int x0 = img.width() / 4, x1 = img.width() * 3 / 4;
  const Region model = pixels(img, [](const QColor&) { return true; }, x0, x1);
  if (model.count == 0) return h;
  h.top = model.top;
  h.crown = meanLuma(img, h.top, h.top + 40, x0, x1);
  h.face = meanLuma(img, h.top + 40, h.top + 140, x0, x1);
  return h;
}

}  // namespace

class Cal3dRender : public testing::GlTest {
 protected:
  // The model of `relative` (a .cfg) with its textures decoded; false when the fixture is absent.
  bool load(const std::string& relative, app::Document& doc) {
    const std::string path = kFixtures + "/" + relative;
    if (!std::filesystem::exists(path)) return false;
    auto loaded = app::loadDocument({QString::fromStdString(path)}, app::Textures::Decode);
    EXPECT_TRUE(loaded.ok()) << path << ": " << (loaded.ok() ? "" : loaded.error().describe());
    if (!loaded.ok()) return false;
    doc = std::move(loaded).value();
    return true;
  }
};

TEST_F(Cal3dRender, PaladinStandsUprightTexturedWithItsHeadOnTop) {
  app::Document doc;
  if (!load("paladin/paladin.cfg", doc)) MARROW_SKIP() << "the paladin fixture is absent";
  ASSERT_FALSE(doc.textures.empty());
  for (std::size_t t = 0; t < doc.textures.size(); ++t)
    EXPECT_FALSE(doc.textures[t].isNull()) << "texture " << doc.scene->textures[t].name;

  // Walking (its rest pose is a T-pose, as wide as it is tall): arms down, upright.
  const Shot walking{"paladin_walk", 0.0f};
  const QImage img = shoot(*gl_, renderer_, doc, walking);
  dump(img, "paladin_front.png");
  const Region figure = pixels(img, [](const QColor&) { return true; });
  ASSERT_GT(figure.count, 5000) << "nothing drawn";
  EXPECT_GT(figure.height(), 2 * figure.width())
      << "the figure is " << figure.width() << " × " << figure.height() << " pixels";

  // The head: skin-coloured pixels at the top of the figure (its first eighth: the face), more
  // there than anywhere else of that height but the hands.
  const int headEnd = figure.top + figure.height() / 8;
  const Region skin = pixels(img, isSkin);
  int headSkin = 0;
  for (int y = figure.top; y < headEnd; ++y)
    for (int x = 0; x < img.width(); ++x)
      if (const QColor c = img.pixelColor(x, y); isModel(c) && isSkin(c)) ++headSkin;
  EXPECT_GT(headSkin, 300) << "skin-coloured pixels in the top eighth of the figure";
  EXPECT_LT(skin.top, figure.top + figure.height() / 16) << "the topmost skin-coloured pixel";

  // Textured: the same frame without textures (material colours) differs on most of the figure.
  const QImage plain = shoot(*gl_, renderer_, doc, {"paladin_walk", 0.0f, false, {}, 0, false});
  dump(plain, "paladin_front_untextured.png");
  int differ = 0, both = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor a = img.pixelColor(x, y), b = plain.pixelColor(x, y);
      if (!isModel(a) || !isModel(b)) continue;
      ++both;
      differ += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
                    std::abs(a.blue() - b.blue()) >
                40;
    }
  EXPECT_GT(differ, both / 2) << "of " << both << " pixels, " << differ
                              << " change when the textures are off";
  std::printf("[ cal3d gl  ] paladin walking, front: %d × %d px, %d skin px in the top eighth, "
              "%d of %d px change without textures\n",
              figure.width(), figure.height(), headSkin, differ, both);
}

TEST_F(Cal3dRender, PaladinFaceTextureIsTheRightWayUp) {
  app::Document doc;
  if (!load("paladin/paladin.cfg", doc)) MARROW_SKIP() << "the paladin fixture is absent";
  // A close-up of the head: at rest the top of the bounds is the top of the head.
  Shot closeUp{"", 0.0f, true, {0.5f, 0.93f, 0.5f}, 0.1f};
  const QImage img = shoot(*gl_, renderer_, doc, closeUp);
  dump(img, "paladin_head.png");
  closeUp.flipTexturesVertically = true;
  const QImage flipped = shoot(*gl_, renderer_, doc, closeUp);
  dump(flipped, "paladin_head_upside_down.png");

  const Head head = readHead(img), wrong = readHead(flipped);
  ASSERT_GE(head.top, 0) << "no head in the close-up";
  EXPECT_LT(head.top, kSize / 3) << "the top of the head is in the upper part of the close-up";
  EXPECT_GT(head.face, 100.0) << "the face is lit skin";
  // Hair (dark brown) on the crown, skin below: measured 0.61 the right way up, 1.31 upside down.
  EXPECT_LT(head.ratio(), 0.8) << "crown luma " << head.crown << ", face " << head.face;
  // The counterfactual fails the same check: it tells the two apart.
  EXPECT_GT(wrong.ratio(), 1.0) << "upside down: crown luma " << wrong.crown << ", face "
                                 << wrong.face;
  std::printf("[ cal3d gl  ] paladin head close-up: crown/face luma %.0f/%.0f = %.2f (textures "
              "upside down: %.0f/%.0f = %.2f)\n",
              head.crown, head.face, head.ratio(), wrong.crown, wrong.face, wrong.ratio());
}

TEST_F(Cal3dRender, CallyIsDrawnInItsMaterialColours) {
  app::Document doc;
  if (!load("cally/cally.cfg", doc)) MARROW_SKIP() << "the cally fixture is absent";
  ASSERT_TRUE(doc.scene->textures.empty()) << "cally's materials name no maps";
  const QImage img = shoot(*gl_, renderer_, doc, {});
  dump(img, "cally_front.png");
  const Region figure = pixels(img, [](const QColor&) { return true; });
  ASSERT_GT(figure.count, 5000) << "nothing drawn";

  // cally_skin.xrf diffuse 240 184 184: pink (red over green, green ≈ blue); cally_chest.xrf
  // 49 49 49: dark grey; cally_pelvis.xrf 224 224 224: light grey (the white specular highlights
  // on the skin are light grey too: the greys are read down the middle of the body only).
  const auto isPink = [](const QColor& c) {
    return c.red() > 110 && c.red() > c.green() + 25 && std::abs(c.green() - c.blue()) < 20;
  };
  const auto grey = [](const QColor& c) {
    return std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) < 14;
  };
  const int middle = (figure.left + figure.right) / 2;
  const Region skin = pixels(img, isPink);
  const Region chest = pixels(
      img, [&](const QColor& c) { return grey(c) && luma(c) < 90; }, middle - 12, middle + 13);
  const Region pelvis = pixels(
      img, [&](const QColor& c) { return grey(c) && luma(c) > 150; }, middle - 12, middle + 13);
  const auto fraction = [&](double row) { return (row - figure.top) / figure.height(); };
  EXPECT_GT(skin.count, figure.count / 3) << "pink skin pixels";
  EXPECT_GT(chest.count, 300) << "dark grey chest pixels down the middle";
  EXPECT_GT(pelvis.count, 60) << "light grey pelvis pixels down the middle";
  // Each colour on its part: the chest in the upper half under the head, the pelvis under it,
  // the head and the legs pink.
  EXPECT_GT(fraction(chest.meanY()), 0.15);
  EXPECT_LT(fraction(chest.meanY()), 0.4);
  EXPECT_GT(fraction(pelvis.meanY()), fraction(chest.meanY()) + 0.05)
      << "the pelvis is under the chest";
  EXPECT_LT(fraction(pelvis.meanY()), 0.55);
  const auto pinkShare = [&](double from, double to) {
    int pink = 0, all = 0;
    for (int y = figure.top + static_cast<int>(from * figure.height());
         y < figure.top + static_cast<int>(to * figure.height()); ++y)
      for (int x = figure.left; x <= figure.right; ++x)
        if (const QColor c = img.pixelColor(x, y); isModel(c)) all += 1, pink += isPink(c);
    return all ? static_cast<double>(pink) / all : 0.0;
  };
  const double headPink = pinkShare(0.0, 0.1), legPink = pinkShare(0.6, 0.95);
  EXPECT_GT(headPink, 0.6) << "the head is skin";
  EXPECT_GT(legPink, 0.75) << "the legs are skin";
  std::printf("[ cal3d gl  ] cally front: %d model px, %d pink; down the middle %d dark grey "
              "at %.2f of the height, %d light grey at %.2f; pink share: head %.2f, legs %.2f\n",
              figure.count, skin.count, chest.count, fraction(chest.meanY()), pelvis.count,
              fraction(pelvis.meanY()), headPink, legPink);
}

}  // namespace marrow
