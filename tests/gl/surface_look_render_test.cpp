// A model is never drawn as a black silhouette in silence. The case that did it: a cal3d v1300
// character (skeleton, meshes, clips; no material file) whose meshes store (0, 0, 0) at every
// vertex, which cal3d's exporters write for "no colours" (spec §5). Written here as such files,
// read back as the viewer reads them, and drawn: the pixels of the figure must be lit, not black.
// Beside it, the renderer's own guard for any format (black vertex colours, black materials,
// alphas of 0), each checked against its counterfactual: the file's colours, shown as they are,
// are black, so the check would fail without the guard; colours that are not black stay as
// they are.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "app/document.h"
#include "gl_fixture.h"
#include "render/anim/pose.h"
#include "render/gl/surface_look.h"
#include "tests/support/coloured_box.h"

namespace marrow {
namespace {

constexpr int kSize = 240;

struct Figure {
  std::size_t pixels = 0;  // differing from the background
  std::size_t black = 0;   // of those, nearly black
  double meanLuminance = 0.0;
  double meanRed = 0.0, meanGreen = 0.0, meanBlue = 0.0;
};

Figure measure(const QImage& frame, const glm::vec3& background) {
  Figure f;
  const QImage img = frame.convertToFormat(QImage::Format_RGB32);
  const QColor bg = QColor::fromRgbF(background.r, background.g, background.b);
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      if (std::abs(c.red() - bg.red()) + std::abs(c.green() - bg.green()) +
              std::abs(c.blue() - bg.blue()) < 12)
        continue;
      ++f.pixels;
      const double lum = (0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue()) / 255.0;
      f.black += lum < 0.06;
      f.meanLuminance += lum;
      f.meanRed += c.red() / 255.0;
      f.meanGreen += c.green() / 255.0;
      f.meanBlue += c.blue() / 255.0;
    }
  if (f.pixels) {
    const double n = static_cast<double>(f.pixels);
    f.meanLuminance /= n;
    f.meanRed /= n;
    f.meanGreen /= n;
    f.meanBlue /= n;
  }
  return f;
}

class SurfaceLookRender : public testing::GlTest {
 protected:
  // `again`: the scene drawn last is drawn again as it is on the GPU, in another shading.
  Figure draw(std::shared_ptr<const formats::Scene> scene, render::Shading shading,
              const char* dumpName, bool again = false) {
    if (!again) renderer_.setScene(scene, {});
    renderer_.setPose(anim::evaluate(scene->skeleton, &scene->clips[0], 0.5f));
    render::Camera cam;
    cam.setAngles(0.6f, 0.2f);
    const render::Bounds b = renderer_.poseBounds();
    cam.frame(b.center(), b.radius());
    render::ViewOptions o;
    o.showGrid = false;
    o.showSkeleton = false;
    o.skeletonWhenNoMeshes = false;
    o.shading = shading;
    const QImage frame = gl_->render(renderer_, cam, kSize, kSize, o);
    if (const char* dir = std::getenv("MARROW_RENDER_DUMP"))
      frame.save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(dumpName)));
    return measure(frame, o.background);
  }
};

// The figure fills a fair part of the frame and is lit: few black pixels, a bright mean.
void expectReadable(const Figure& f, const char* what) {
  EXPECT_GT(f.pixels, static_cast<std::size_t>(kSize * kSize / 20)) << what;
  EXPECT_LT(f.black, f.pixels / 50) << what << ": " << f.black << " of " << f.pixels
                                    << " pixels black";
  EXPECT_GT(f.meanLuminance, 0.35) << what;
}

TEST_F(SurfaceLookRender, ACal3dCharacterWithBlackVertexColoursAndNoMaterialIsNotDrawnBlack) {
  // The files, as the v1300 colour layout stores them: (0, 0, 0) at every vertex.
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  std::string error;
  const QStringList paths = testing::writeColouredCal3dBox(QDir(dir.path()), glm::vec4(0, 0, 0, 1), &error);
  ASSERT_EQ(paths.size(), 3) << "skeleton, mesh, clip: " << error;
  auto loaded = app::loadDocument(paths, app::Textures::Decode);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  const auto scene = loaded->scene;
  ASSERT_EQ(scene->meshes.size(), 1u);
  EXPECT_TRUE(scene->materials.empty());
  EXPECT_TRUE(scene->meshes[0].colors.empty()) << "(0, 0, 0) everywhere is no colours";
  bool said = false;
  for (const auto& d : scene->diagnostics.items)
    said |= d.field == "vertexColor" && d.message.find("no colours") != std::string::npos;
  EXPECT_TRUE(said) << "the reader says what it made of the colours";

  expectReadable(draw(scene, render::Shading::Material, "cal3d_black_colours.png"),
                 "the cal3d character");
}

TEST_F(SurfaceLookRender, BlackVertexColoursOfAnyFormatAreLeftOutAndSaidSo) {
  auto scene = std::make_shared<formats::Scene>(testing::twoBoneBox(glm::vec4(0, 0, 0, 1)));
  // The counterfactual: the colours as stored are black, so without the guard the figure is.
  const Figure stored = draw(scene, render::Shading::VertexColors, "black_as_stored.png");
  EXPECT_GT(stored.pixels, 0u);
  EXPECT_GT(stored.black, stored.pixels * 9 / 10);
  expectReadable(draw(scene, render::Shading::Material, "black_colours.png"), "black colours");

  const formats::Diagnostics notes = render::surfaceNotes(*scene);
  ASSERT_EQ(notes.items.size(), 2u);  // the colours, and no material
  EXPECT_NE(notes.items[0].message.find("mesh 'box' has vertex colours that are all black"),
            std::string::npos)
      << notes.items[0].message;
  EXPECT_NE(notes.items[1].message.find("no material"), std::string::npos);
}

TEST_F(SurfaceLookRender, ColoursThatAreNotBlackAreDrawnAsStored) {
  auto scene = std::make_shared<formats::Scene>(testing::twoBoneBox(glm::vec4(0.9f, 0.1f, 0.1f, 1)));
  const Figure f = draw(scene, render::Shading::Material, "red_colours.png");
  EXPECT_GT(f.pixels, static_cast<std::size_t>(kSize * kSize / 20));
  EXPECT_LT(f.black, f.pixels / 50);
  EXPECT_GT(f.meanRed, 2.5 * f.meanGreen);
  EXPECT_GT(f.meanRed, 2.5 * f.meanBlue);
  const formats::Diagnostics notes = render::surfaceNotes(*scene);
  ASSERT_EQ(notes.items.size(), 1u);  // only the missing material
  EXPECT_NE(notes.items[0].message.find("no material"), std::string::npos);
}

TEST_F(SurfaceLookRender, ABlackMaterialIsDrawnInTheDefaultShade) {
  formats::Scene s = testing::twoBoneBox(glm::vec4(1.0f));
  s.meshes[0].colors.clear();
  formats::Material black;
  black.name = "soot";
  black.diffuse = glm::vec4(0, 0, 0, 1);
  s.materials.push_back(black);
  s.meshes[0].material = 0;
  auto scene = std::make_shared<formats::Scene>(std::move(s));
  expectReadable(draw(scene, render::Shading::Material, "black_material.png"), "black material");
  const formats::Diagnostics notes = render::surfaceNotes(*scene);
  ASSERT_EQ(notes.items.size(), 1u);
  EXPECT_NE(notes.items[0].message.find("diffuse colour is black"), std::string::npos);
  EXPECT_EQ(render::surfaceLook(*scene, scene->meshes[0]).why(),
            "its material's diffuse colour is black: drawn in the default shade");
}

TEST_F(SurfaceLookRender, VertexAlphasThatAreAllZeroDoNotHideTheMesh) {
  auto scene = std::make_shared<formats::Scene>(testing::twoBoneBox(glm::vec4(0.8f, 0.8f, 0.8f, 0.0f)));
  expectReadable(draw(scene, render::Shading::Material, "zero_alpha.png"), "zero alpha");
  EXPECT_EQ(render::surfaceLook(*scene, scene->meshes[0]).vertexColors,
            render::VertexColorUse::RgbOnly);
}

// A mesh without colours has no colour array on the GPU (gpu_mesh.h): the attribute reads the
// constant white the renderer sets, so the vertex colour view shows it lit white, as it shows a
// mesh whose colours are all white — also after the influence view bound colours of its own.
TEST_F(SurfaceLookRender, AMeshWithoutColoursIsWhiteInTheVertexColourView) {
  auto white = std::make_shared<formats::Scene>(testing::twoBoneBox(glm::vec4(1.0f)));
  const Figure stored = draw(white, render::Shading::VertexColors, "white_colours.png");
  formats::Scene s = testing::twoBoneBox(glm::vec4(1.0f));
  s.meshes[0].colors.clear();
  auto none = std::make_shared<formats::Scene>(std::move(s));
  const Figure missing = draw(none, render::Shading::VertexColors, "no_colours.png");
  expectReadable(missing, "no colours");
  EXPECT_NEAR(missing.meanLuminance, stored.meanLuminance, 0.02);
  EXPECT_NEAR(missing.meanRed, missing.meanBlue, 0.02) << "white, not tinted";
  const Figure influences = draw(none, render::Shading::InfluenceCount, "no_colours_influences.png", true);
  EXPECT_GT(std::abs(influences.meanLuminance - missing.meanLuminance), 0.1) << "the influence view draws its own colours";
  const Figure again = draw(none, render::Shading::VertexColors, "no_colours_again.png", true);
  EXPECT_NEAR(again.meanLuminance, missing.meanLuminance, 0.01);
}

}  // namespace
}  // namespace marrow
