// What the renderer draws: the model in its colours, upright whatever its basis.
#include <gtest/gtest.h>

#include <QImage>

#include "gl_fixture.h"
#include "tests/support/images.h"

namespace marrow {
namespace {

// A box of size (sx, sy, sz) with its base at the origin, in one colour.
formats::Mesh box(glm::vec3 size, glm::vec4 color, glm::vec3 at = glm::vec3(0.0f)) {
  formats::Mesh m;
  m.name = "box";
  const glm::vec3 lo = at - glm::vec3(size.x, 0, size.y) * 0.5f * glm::vec3(1, 0, 1);
  for (int i = 0; i < 8; ++i)
    m.positions.push_back(lo + glm::vec3(i & 1 ? size.x : 0, i & 2 ? size.y : 0, i & 4 ? size.z : 0));
  m.colors.assign(8, color);
  const std::uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                     {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces) m.indices.insert(m.indices.end(), {f[0], f[1], f[2], f[0], f[2], f[3]});
  return m;
}

using testing::redPixels;

QImage renderFront(render::OffscreenGL& gl, render::Renderer& r, std::shared_ptr<formats::Scene> s) {
  r.setScene(s, {});
  render::Camera cam;
  cam.setAngles(0.0f, 0.0f);
  const auto b = r.restBounds();
  cam.frame(b.center(), b.radius());
  render::ViewOptions o;
  o.showGrid = false;
  return gl.render(r, cam, 200, 200, o);
}

class OffscreenRender : public testing::GlTest {};

TEST_F(OffscreenRender, DrawsTheMeshInItsVertexColours) {
  auto s = std::make_shared<formats::Scene>();
  s->meshes.push_back(box({1, 1, 1}, {1, 0, 0, 1}));
  const QImage img = renderFront(*gl_, renderer_, s);
  ASSERT_FALSE(img.isNull());
  EXPECT_GT(redPixels(img).count, 2000);
}

TEST_F(OffscreenRender, ZUpModelsStandUpright) {
  auto s = std::make_shared<formats::Scene>();
  s->basis.up = formats::Axis::Z;
  s->meshes.push_back(box({0.3f, 0.3f, 2.0f}, {1, 0, 0, 1}));  // tall along native +Z
  const testing::RedArea e = redPixels(renderFront(*gl_, renderer_, s));
  ASSERT_GT(e.count, 0);
  EXPECT_GT(e.height(), 3 * e.width());
}

TEST_F(OffscreenRender, NativeXStaysOnTheRightSeenFromTheFrontInEveryBasis) {
  for (bool rightHanded : {true, false})
    for (formats::Axis up : {formats::Axis::Y, formats::Axis::Z}) {
      auto s = std::make_shared<formats::Scene>();
      s->basis.up = up;
      s->basis.rightHanded = rightHanded;
      s->meshes.push_back(box({0.2f, 0.2f, 0.2f}, {1, 0, 0, 1}, {1.0f, 0.0f, 0.0f}));
      s->meshes.push_back(box({0.2f, 0.2f, 0.2f}, {0, 0, 1, 1}, {-1.0f, 0.0f, 0.0f}));
      const QImage img = renderFront(*gl_, renderer_, s);
      const testing::RedArea red = redPixels(img);
      ASSERT_GT(red.count, 0);
      EXPECT_GT(red.left, img.width() / 2) << "up " << static_cast<int>(up) << " rh " << rightHanded;
    }
}

}  // namespace
}  // namespace marrow
