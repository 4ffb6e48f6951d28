// Attachment points (dummies): an axis cross where the point projects in the current pose, with
// the skeleton overlay, and nothing with the overlay off.
#include <gtest/gtest.h>

#include <QImage>
#include <glm/gtc/matrix_transform.hpp>

#include "gl_fixture.h"
#include "render/gl/attachments.h"

namespace marrow {
namespace {

constexpr int kSize = 240;

// Two bones, the root at the origin and "Hand" 2 up, and a dummy "Weapon" 0.5 right and 0.5
// down of the hand (so at (0.5, 1.5, 0) at rest), turned a quarter about z.
std::shared_ptr<formats::Scene> bonesWithDummy() {
  auto s = std::make_shared<formats::Scene>();
  formats::Bone root;
  root.name = "Root";
  formats::Bone hand;
  hand.name = "Hand";
  hand.parent = 0;
  hand.translation = {0.0f, 2.0f, 0.0f};
  s->skeleton.bones = {root, hand};
  const glm::mat4 local = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(0.5f, -0.5f, 0.0f)),
                                      glm::radians(90.0f), glm::vec3(0.0f, 0.0f, 1.0f));
  s->attachments.push_back({"Weapon", "Hand", local});
  return s;
}

render::Camera frontCamera(const render::Renderer& r) {
  render::Camera cam;
  cam.setAngles(0.0f, 0.0f);
  const render::Bounds b = r.restBounds();
  cam.frame(b.center(), b.radius());
  return cam;
}

QImage shoot(render::OffscreenGL& gl, render::Renderer& r, const render::Camera& cam,
             bool overlay) {
  render::ViewOptions o;
  o.showGrid = false;
  o.showSkeleton = overlay;
  o.skeletonWhenNoMeshes = overlay;
  o.background = glm::vec3(0.0f);
  return gl.render(r, cam, kSize, kSize, o);
}

QPoint project(const render::Camera& cam, const glm::vec3& p) {
  const glm::vec4 clip = cam.projection(1.0f) * cam.view() * glm::vec4(p, 1.0f);
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return {static_cast<int>((ndc.x * 0.5f + 0.5f) * kSize),
          static_cast<int>((0.5f - ndc.y * 0.5f) * kSize)};
}

bool isRed(const QColor& c) {
  return c.red() > 100 && c.red() > 2 * c.green() && c.red() > 2 * c.blue();
}
bool isGreen(const QColor& c) {
  return c.green() > 100 && c.green() > 2 * c.red() && c.green() > c.blue() + 40;
}

// Whether a pixel within one of `at` passes `test` (a one-pixel line may land beside the
// rounded projection).
bool near(const QImage& img, QPoint at, bool (*test)(const QColor&)) {
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const QPoint p = at + QPoint(dx, dy);
      if (img.rect().contains(p) && test(img.pixelColor(p))) return true;
    }
  return false;
}

int count(const QImage& img, bool (*test)(const QColor&)) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) n += test(img.pixelColor(x, y));
  return n;
}

class AttachmentsRender : public testing::GlTest {};

TEST_F(AttachmentsRender, UnknownParentLeavesTheMatrixInModelSpace) {
  formats::Skeleton skeleton;
  const anim::Pose pose;
  const formats::Attachment a{"Loose", "NoSuchBone",
                              glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3))};
  EXPECT_EQ(render::attachmentModel(a, skeleton, pose), a.local);
}

TEST_F(AttachmentsRender, CrossArmsFollowTheDummysOwnAxes) {
  const auto s = bonesWithDummy();
  anim::Pose pose = anim::restPose(s->skeleton);
  anim::computeModel(s->skeleton, pose);
  const auto lines =
      render::attachmentCrosses(s->attachments, s->skeleton, pose, glm::mat4(1.0f), 0.25f);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_NEAR(glm::distance(lines[0].position, glm::vec3(0.5f, 1.5f, 0.0f)), 0.0f, 1e-5f);
  // Turned a quarter about z: its x axis points up.
  EXPECT_NEAR(glm::distance(lines[1].position, glm::vec3(0.5f, 1.75f, 0.0f)), 0.0f, 1e-5f);
}

TEST_F(AttachmentsRender, CrossShowsWhereTheDummyProjects) {
  renderer_.setScene(bonesWithDummy(), {});
  const render::Camera cam = frontCamera(renderer_);
  const QImage img = shoot(*gl_, renderer_, cam, true);
  ASSERT_FALSE(img.isNull());
  const float arm = render::attachmentCrossSize(renderer_.restBounds().radius());
  const glm::vec3 dummy(0.5f, 1.5f, 0.0f);
  // The x arm (red) runs up from the dummy, the y arm (green) to the left.
  EXPECT_TRUE(near(img, project(cam, dummy + glm::vec3(0.0f, arm * 0.6f, 0.0f)), isRed));
  EXPECT_TRUE(near(img, project(cam, dummy + glm::vec3(-arm * 0.6f, 0.0f, 0.0f)), isGreen));
  EXPECT_FALSE(near(img, project(cam, dummy + glm::vec3(0.0f, -arm * 0.6f, 0.0f)), isRed));
}

TEST_F(AttachmentsRender, CrossFollowsItsBoneInThePose) {
  const auto s = bonesWithDummy();
  renderer_.setScene(s, {});
  const render::Camera cam = frontCamera(renderer_);
  anim::Pose pose = anim::restPose(s->skeleton);
  pose.local[1].translation = {-0.5f, 1.0f, 0.0f};  // the hand moves left and down
  anim::computeModel(s->skeleton, pose);
  renderer_.setPose(pose);
  const QImage img = shoot(*gl_, renderer_, cam, true);
  const float arm = render::attachmentCrossSize(renderer_.restBounds().radius());
  const glm::vec3 moved(0.0f, 0.5f, 0.0f);
  EXPECT_TRUE(near(img, project(cam, moved + glm::vec3(0.0f, arm * 0.6f, 0.0f)), isRed));
  const glm::vec3 rest(0.5f, 1.5f, 0.0f);
  EXPECT_FALSE(near(img, project(cam, rest + glm::vec3(0.0f, arm * 0.6f, 0.0f)), isRed));
}

TEST_F(AttachmentsRender, OverlayOffDrawsNoCross) {
  renderer_.setScene(bonesWithDummy(), {});
  const render::Camera cam = frontCamera(renderer_);
  EXPECT_GT(count(shoot(*gl_, renderer_, cam, true), isRed), 3);
  EXPECT_EQ(count(shoot(*gl_, renderer_, cam, false), isRed), 0);
}

}  // namespace
}  // namespace marrow
