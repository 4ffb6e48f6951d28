// uploadTexture makes the mip chain itself (render/gl/gpu_mesh.h): every level down to 1×1, each
// the 2×2 box average of the one above, read back from the driver.
#include <gtest/gtest.h>

#include <QImage>
#include <QOpenGLContext>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLVersionFunctionsFactory>

#include "gl_fixture.h"
#include "render/gl/gpu_mesh.h"

namespace marrow {
namespace {

class TextureMips : public testing::GlTest {
 protected:
  QOpenGLFunctions_3_3_Core* f() {
    return QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(gl_->context());
  }
  std::vector<std::uint8_t> level(GLuint tex, int level, int& w, int& h) {
    f()->glBindTexture(GL_TEXTURE_2D, tex);
    f()->glGetTexLevelParameteriv(GL_TEXTURE_2D, level, GL_TEXTURE_WIDTH, &w);
    f()->glGetTexLevelParameteriv(GL_TEXTURE_2D, level, GL_TEXTURE_HEIGHT, &h);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
    f()->glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (!out.empty())
      f()->glGetTexImage(GL_TEXTURE_2D, level, GL_RGBA, GL_UNSIGNED_BYTE, out.data());
    return out;
  }
};

TEST_F(TextureMips, NullImageGivesNoTexture) {
  EXPECT_EQ(render::uploadTexture(f(), QImage()), 0u);
}

TEST_F(TextureMips, EveryLevelDownToOneTexelIsTheBoxAverageOfTheOneAbove) {
  // 4×2: left half red and white, right half blue and black (RGBA, straight alpha).
  QImage img(4, 2, QImage::Format_RGBA8888);
  img.setPixelColor(0, 0, QColor(255, 0, 0, 255));
  img.setPixelColor(1, 0, QColor(255, 0, 0, 255));
  img.setPixelColor(0, 1, QColor(255, 255, 255, 255));
  img.setPixelColor(1, 1, QColor(255, 255, 255, 255));
  img.setPixelColor(2, 0, QColor(0, 0, 255, 255));
  img.setPixelColor(3, 0, QColor(0, 0, 255, 255));
  img.setPixelColor(2, 1, QColor(0, 0, 0, 0));
  img.setPixelColor(3, 1, QColor(0, 0, 0, 0));
  const GLuint tex = render::uploadTexture(f(), img);
  ASSERT_NE(tex, 0u);
  int w = 0, h = 0;
  auto l1 = level(tex, 1, w, h);
  ASSERT_EQ(w, 2);
  ASSERT_EQ(h, 1);
  // Left: mean of red and white (255, 127.5, 127.5, 255), rounded half up.
  EXPECT_EQ((std::vector<std::uint8_t>(l1.begin(), l1.begin() + 4)),
            (std::vector<std::uint8_t>{255, 128, 128, 255}));
  // Right: mean of blue and transparent black.
  EXPECT_EQ((std::vector<std::uint8_t>(l1.begin() + 4, l1.end())),
            (std::vector<std::uint8_t>{0, 0, 128, 128}));
  auto l2 = level(tex, 2, w, h);
  ASSERT_EQ(w, 1);
  ASSERT_EQ(h, 1);
  // 2×1 → 1×1: the two texels (each counted twice: the last row of an odd size is its own pair).
  EXPECT_EQ(l2, (std::vector<std::uint8_t>{128, 64, 128, 192}));
  f()->glDeleteTextures(1, &tex);
}

TEST_F(TextureMips, OddSizesHalveDownwards) {
  QImage img(5, 3, QImage::Format_ARGB32);
  img.fill(QColor(10, 20, 30, 255));
  const GLuint tex = render::uploadTexture(f(), img);
  ASSERT_NE(tex, 0u);
  const int expected[][2] = {{5, 3}, {2, 1}, {1, 1}};
  for (int i = 0; i < 3; ++i) {
    int w = 0, h = 0;
    const auto texels = level(tex, i, w, h);
    EXPECT_EQ(w, expected[i][0]) << "level " << i;
    EXPECT_EQ(h, expected[i][1]) << "level " << i;
    for (std::size_t k = 0; k < texels.size(); k += 4)
      EXPECT_EQ(texels[k], 10) << "level " << i;  // a flat colour stays itself
  }
  f()->glDeleteTextures(1, &tex);
}

}  // namespace
}  // namespace marrow
