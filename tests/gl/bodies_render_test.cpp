// Collision bodies: translucent shapes where they project, upright in display space, nothing when
// hidden; a file of bodies alone is framed and drawn.
#include <gtest/gtest.h>

#include <QFileInfo>
#include <QImage>

#include "app/document.h"
#include "gl_fixture.h"
#include "render/gl/bodies.h"

#include "tests/support/skip.h"

namespace marrow {
namespace {

constexpr int kSize = 240;
const glm::vec3 kBackground(0.0f);

using Kind = formats::BodyPart::Kind;

// A Z-up scene (as BRF is) of a capsule standing along native +Z at x = -1 and a sphere at x = +1.
std::shared_ptr<formats::Scene> capsuleAndSphere() {
  auto s = std::make_shared<formats::Scene>();
  s->basis = formats::Basis{formats::Axis::Z, true, 1.0f};
  formats::Body body;
  body.name = "bo_test";
  formats::BodyPart capsule;
  capsule.kind = Kind::Capsule;
  capsule.a = {-1.0f, 0.0f, -0.6f};
  capsule.b = {-1.0f, 0.0f, 0.6f};
  capsule.radius = 0.25f;
  formats::BodyPart sphere;
  sphere.kind = Kind::Sphere;
  sphere.a = {1.0f, 0.0f, 0.0f};
  sphere.radius = 0.4f;
  body.parts = {capsule, sphere};
  s->bodies.push_back(body);
  return s;
}

render::Camera frontCamera(const render::Renderer& r) {
  render::Camera cam;
  cam.setAngles(0.0f, 0.0f);
  const render::Bounds b = r.restBounds();
  cam.frame(b.center(), b.radius());
  return cam;
}

QImage shoot(render::OffscreenGL& gl, render::Renderer& r, const render::Camera& cam) {
  render::ViewOptions o;
  o.showGrid = false;
  o.background = kBackground;
  return gl.render(r, cam, kSize, kSize, o);
}

// Where a display-space point lands in the image (y down).
QPoint project(const render::Camera& cam, const glm::vec3& p) {
  const glm::vec4 clip = cam.projection(1.0f) * cam.view() * glm::vec4(p, 1.0f);
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return {static_cast<int>((ndc.x * 0.5f + 0.5f) * kSize),
          static_cast<int>((0.5f - ndc.y * 0.5f) * kSize)};
}

bool isBackground(const QColor& c) {
  return c.red() + c.green() + c.blue() < 6;
}

// Blue-green over black: green and blue well above red.
bool isRound(const QColor& c) {
  return c.green() > 30 && c.green() > c.red() + 20 && c.blue() > c.red() + 20;
}

// Orange over black: red above green above blue.
bool isFlat(const QColor& c) {
  return c.red() > 30 && c.red() > c.green() && c.green() > c.blue() + 5;
}

int countPixels(const QImage& img, bool (*test)(const QColor&)) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) n += test(img.pixelColor(x, y));
  return n;
}

class BodiesRender : public testing::GlTest {};

TEST_F(BodiesRender, ColoursDifferByPartKind) {
  const glm::vec4 capsule = render::bodyColor(Kind::Capsule);
  const glm::vec4 manifold = render::bodyColor(Kind::Manifold);
  EXPECT_EQ(capsule, render::bodyColor(Kind::Sphere));
  EXPECT_EQ(manifold, render::bodyColor(Kind::Face));
  EXPECT_NE(capsule, manifold);
  EXPECT_LT(capsule.a, 0.5f);  // translucent
}

TEST_F(BodiesRender, SceneOfBodiesAloneIsFramed) {
  renderer_.setScene(capsuleAndSphere(), {});
  const render::Bounds b = renderer_.restBounds();
  ASSERT_TRUE(b.valid);
  // Display space is Y-up: the capsule's native Z extent (±0.85) is the height.
  EXPECT_NEAR(b.lo.x, -1.25f, 1e-3f);
  EXPECT_NEAR(b.hi.x, 1.4f, 1e-3f);
  EXPECT_NEAR(b.lo.y, -0.85f, 1e-3f);
  EXPECT_NEAR(b.hi.y, 0.85f, 1e-3f);
  EXPECT_TRUE(renderer_.poseBounds().valid);
}

TEST_F(BodiesRender, ShapesShowWhereTheyProjectAndBackgroundElsewhere) {
  renderer_.setScene(capsuleAndSphere(), {});
  const render::Camera cam = frontCamera(renderer_);
  const QImage img = shoot(*gl_, renderer_, cam);
  ASSERT_FALSE(img.isNull());
  // Native (x, y, z) → display (x, z, -y) for a right-handed Z-up basis.
  for (const glm::vec3 p :
       {glm::vec3(-1.0f, 0.0f, 0.0f), glm::vec3(-1.0f, 0.7f, 0.0f), glm::vec3(-1.0f, -0.7f, 0.0f),
        glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(1.0f, 0.25f, 0.0f)}) {
    const QPoint px = project(cam, p);
    EXPECT_TRUE(isRound(img.pixelColor(px))) << "at " << px.x() << "," << px.y();
  }
  // Between the shapes, above the sphere, beside the capsule's middle: background.
  for (const glm::vec3 p : {glm::vec3(0.0f, 0.0f, 0.0f), glm::vec3(1.0f, 0.7f, 0.0f),
                            glm::vec3(-1.5f, 0.0f, 0.0f), glm::vec3(-0.6f, 0.0f, 0.0f)}) {
    const QPoint px = project(cam, p);
    EXPECT_TRUE(isBackground(img.pixelColor(px))) << "at " << px.x() << "," << px.y();
  }
  EXPECT_TRUE(isBackground(img.pixelColor(0, 0)));
  EXPECT_TRUE(isBackground(img.pixelColor(kSize - 1, kSize - 1)));
}

TEST_F(BodiesRender, TranslucentBodiesLeaveTheFrameOpaque) {
  renderer_.setScene(capsuleAndSphere(), {});
  const QImage img = shoot(*gl_, renderer_, frontCamera(renderer_));
  ASSERT_GT(countPixels(img, isRound), 1000);
  EXPECT_EQ(countPixels(img, [](const QColor& c) { return c.alpha() != 255; }), 0);
}

TEST_F(BodiesRender, CapsuleStandsAlongNativeUp) {
  renderer_.setScene(capsuleAndSphere(), {});
  const QImage img = shoot(*gl_, renderer_, frontCamera(renderer_));
  int left = kSize, right = -1, top = kSize, bottom = -1;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize / 2; ++x)  // the capsule is the left shape
      if (isRound(img.pixelColor(x, y)))
        left = std::min(left, x), right = std::max(right, x), top = std::min(top, y),
        bottom = std::max(bottom, y);
  ASSERT_GE(right, left);
  EXPECT_GT(bottom - top, 2 * (right - left));
}

TEST_F(BodiesRender, HiddenBodiesDrawNothing) {
  EXPECT_TRUE(renderer_.bodiesVisible());
  renderer_.setScene(capsuleAndSphere(), {});
  renderer_.setBodiesVisible(false);
  const QImage img = shoot(*gl_, renderer_, frontCamera(renderer_));
  ASSERT_FALSE(img.isNull());
  EXPECT_EQ(countPixels(img, [](const QColor& c) { return !isBackground(c); }), 0);
  renderer_.setBodiesVisible(true);
  EXPECT_GT(countPixels(shoot(*gl_, renderer_, frontCamera(renderer_)), isRound), 1000);
}

TEST_F(BodiesRender, ManifoldPolygonsDrawInTheirOwnColour) {
  auto s = std::make_shared<formats::Scene>();
  formats::BodyPart box;  // a unit cube as six quads
  box.kind = Kind::Manifold;
  for (int i = 0; i < 8; ++i)
    box.positions.emplace_back(i & 1 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.5f : -0.5f);
  box.polygons = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                  {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  formats::BodyPart broken = box;  // an index out of range: that polygon is skipped
  broken.polygons = {{0, 1, 99}};
  s->bodies.push_back({"bo_box", {box, broken}});
  renderer_.setScene(s, {});
  const render::Camera cam = frontCamera(renderer_);
  const QImage img = shoot(*gl_, renderer_, cam);
  EXPECT_TRUE(isFlat(img.pixelColor(project(cam, glm::vec3(0.0f)))));
  EXPECT_EQ(countPixels(img, isRound), 0);
}

TEST_F(BodiesRender, BrfObjectBodiesFixtureDraws) {
  const QString path = QStringLiteral(MARROW_FIXTURES_DIR "/brf/wfas_object_bodies.brf");
  if (!QFileInfo::exists(path)) MARROW_SKIP() << "fixture missing: " << path.toStdString();
  auto doc = app::loadDocument({path});
  ASSERT_TRUE(doc) << doc.error().message;
  ASSERT_FALSE(doc->scene->bodies.empty());
  renderer_.setScene(doc->scene, doc->textures);
  ASSERT_TRUE(renderer_.restBounds().valid);
  const QImage img = shoot(*gl_, renderer_, frontCamera(renderer_));
  ASSERT_FALSE(img.isNull());
  EXPECT_GT(countPixels(img, [](const QColor& c) { return !isBackground(c); }), kSize * kSize / 50);
}

}  // namespace
}  // namespace marrow
