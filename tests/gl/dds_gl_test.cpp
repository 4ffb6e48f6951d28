// DDS on the GPU. The reference is the driver: random DXT1/3/5 blocks uploaded with
// glCompressedTexImage2D and read back decompressed (glGetTexImage) must be what the CPU decoder
// gives. Then the renderer: a DDS-textured quad drawn from the compressed levels looks as the
// same quad drawn from the decoded QImage, top row at the top. Skipped without GL or S3TC.
#include <gtest/gtest.h>

#include <QColor>
#include <QFile>
#include <QImage>
#include <QOpenGLContext>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLVersionFunctionsFactory>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "app/document.h"
#include "formats/image/dds.h"
#include "gl_fixture.h"
#include "render/gl/gpu_mesh.h"

#include "tests/support/skip.h"

namespace marrow {
namespace {

using formats::DdsFormat;
using formats::DdsImage;

class DdsGl : public testing::GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(gl_->makeCurrent());
    if (!gl_->context()->hasExtension(QByteArrayLiteral("GL_EXT_texture_compression_s3tc")))
      MARROW_SKIP() << "the driver does not offer GL_EXT_texture_compression_s3tc";
    f_ = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(gl_->context());
    ASSERT_NE(f_, nullptr);
  }

  // Level `level` of texture `tex` as the driver decompresses it, RGBA8, top row first.
  std::vector<std::uint8_t> readBack(GLuint tex, int level, std::uint32_t w, std::uint32_t h) {
    std::vector<std::uint8_t> out(std::size_t(w) * h * 4);
    f_->glBindTexture(GL_TEXTURE_2D, tex);
    f_->glPixelStorei(GL_PACK_ALIGNMENT, 1);
    f_->glGetTexImage(GL_TEXTURE_2D, level, GL_RGBA, GL_UNSIGNED_BYTE, out.data());
    f_->glBindTexture(GL_TEXTURE_2D, 0);
    EXPECT_EQ(f_->glGetError(), GLenum(GL_NO_ERROR));
    return out;
  }

  QOpenGLFunctions_3_3_Core* f_ = nullptr;
};

std::size_t blockBytes(DdsFormat f) {
  return f == DdsFormat::Dxt1 ? 8 : 16;
}

DdsImage randomImage(DdsFormat format, std::uint32_t w, std::uint32_t h, std::uint32_t levels,
                     std::mt19937& rng) {
  DdsImage img;
  img.format = format;
  img.width = w;
  img.height = h;
  for (std::uint32_t i = 0; i < levels; ++i) {
    formats::DdsLevel l;
    l.width = std::max(w >> i, 1u);
    l.height = std::max(h >> i, 1u);
    l.data.resize(formats::ddsLevelSize(format, 0, l.width, l.height));
    for (auto& b : l.data) b = std::byte(rng() & 0xFF);
    // Random endpoints give DXT1's 3-colour mode half the time; make a few blocks take the
    // corner cases too: equal endpoints, and DXT5 alpha endpoints equal.
    const std::size_t bb = blockBytes(format);
    for (std::size_t at = 0; at + bb <= l.data.size(); at += 7 * bb) {
      const std::size_t color = format == DdsFormat::Dxt1 ? at : at + 8;
      l.data[color] = l.data[color + 2];
      l.data[color + 1] = l.data[color + 3];
      if (format == DdsFormat::Dxt5) l.data[at] = l.data[at + 1];
    }
    img.levels.push_back(std::move(l));
  }
  return img;
}

int maxDifference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  if (a.size() != b.size()) return 1000;
  int d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(int(a[i]) - int(b[i])));
  return d;
}

// The S3TC spec leaves how interpolants round to the implementation (Mesa computes them its own
// way; the CPU decoder rounds to nearest): endpoints match exactly, the thirds, halves, sevenths
// and fifths may differ by 1, so 2 is allowed per channel.
constexpr int kRoundingTolerance = 2;

TEST_F(DdsGl, TheDriverDecodesRandomBlocksAsTheCpuDecoderDoes) {
  std::mt19937 rng(20240607);
  for (DdsFormat format : {DdsFormat::Dxt1, DdsFormat::Dxt3, DdsFormat::Dxt5})
    for (auto [w, h] : {std::pair{64u, 64u}, std::pair{37u, 21u}}) {
      const DdsImage img = randomImage(format, w, h, 1, rng);
      const GLuint tex = render::uploadCompressedTexture(f_, img);
      ASSERT_NE(tex, 0u);
      const auto cpu = formats::decodeDdsLevel(img, 0);
      ASSERT_TRUE(cpu.ok());
      const auto gpu = readBack(tex, 0, w, h);
      f_->glDeleteTextures(1, &tex);
      int exact = 0;
      for (std::size_t i = 0; i < gpu.size(); ++i) exact += gpu[i] == (*cpu)[i];
      const int diff = maxDifference(*cpu, gpu);
      std::printf(
          "[ dds gl     ] %s %ux%u: max channel difference driver vs CPU %d, %.1f%% of "
          "channels equal\n",
          formats::ddsFormatName(format), w, h, diff, 100.0 * exact / double(gpu.size()));
      EXPECT_LE(diff, kRoundingTolerance) << formats::ddsFormatName(format) << " " << w << "x" << h;
    }
}

TEST_F(DdsGl, EveryLevelGoesUpCompressedAndReadsBackAsDecoded) {
  std::mt19937 rng(7);
  const DdsImage img = randomImage(DdsFormat::Dxt5, 16, 8, 5, rng);
  const GLuint tex = render::uploadCompressedTexture(f_, img);
  ASSERT_NE(tex, 0u);
  f_->glBindTexture(GL_TEXTURE_2D, tex);
  GLint compressed = 0, format = 0, maxLevel = 0, w4 = 0;
  f_->glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
  f_->glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
  f_->glGetTexLevelParameteriv(GL_TEXTURE_2D, 4, GL_TEXTURE_WIDTH, &w4);
  f_->glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, &maxLevel);
  f_->glBindTexture(GL_TEXTURE_2D, 0);
  EXPECT_EQ(compressed, GL_TRUE);
  EXPECT_EQ(format, 0x83F3);  // COMPRESSED_RGBA_S3TC_DXT5_EXT
  EXPECT_EQ(w4, 1);
  EXPECT_EQ(maxLevel, 4);
  for (std::uint32_t l = 0; l < 5; ++l) {
    const auto cpu = formats::decodeDdsLevel(img, l);
    ASSERT_TRUE(cpu.ok());
    EXPECT_LE(maxDifference(*cpu, readBack(tex, int(l), img.levels[l].width, img.levels[l].height)),
              kRoundingTolerance)
        << "level " << l;
  }
  f_->glDeleteTextures(1, &tex);
}

TEST_F(DdsGl, UncompressedImagesAreNotUploadedCompressed) {
  DdsImage img;
  img.format = DdsFormat::Uncompressed;
  img.width = img.height = 1;
  img.levels.push_back({1, 1, std::vector<std::byte>(4)});
  EXPECT_EQ(render::uploadCompressedTexture(f_, img), 0u);
}

// ---- The renderer. ----

void put32(std::vector<std::byte>& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(std::byte((v >> (8 * i)) & 0xFF));
}

// An 8×8 DXT1 file with a full mip chain; level 0's quadrants are red (top left), green (top
// right), blue (bottom left) and white, each 4×4 block one solid endpoint colour.
std::vector<std::byte> quadrantsDds() {
  std::vector<std::byte> b;
  put32(b, 0x20534444);  // "DDS "
  put32(b, 124);
  put32(b, 0x21007);  // CAPS | HEIGHT | WIDTH | PIXELFORMAT | MIPMAPCOUNT
  put32(b, 8);
  put32(b, 8);
  put32(b, 0);
  put32(b, 0);
  put32(b, 4);
  for (int i = 0; i < 11; ++i) put32(b, 0);
  put32(b, 32);
  put32(b, 0x4);
  put32(b, 0x31545844);  // "DXT1"
  for (int i = 0; i < 5; ++i) put32(b, 0);
  put32(b, 0x401008);  // COMPLEX | TEXTURE | MIPMAP
  for (int i = 0; i < 4; ++i) put32(b, 0);
  for (std::uint32_t c : {0xF800u, 0x07E0u, 0x001Fu, 0xFFFFu, 0x8410u, 0x8410u, 0x8410u})
    put32(b, c), put32(b, 0);  // color0 = c, color1 = black, every index 0
  return b;
}

QImage toQImage(const DdsImage& img) {
  const auto px = formats::decodeDdsLevel(img, 0);
  QImage q(int(img.width), int(img.height), QImage::Format_RGBA8888);
  for (int y = 0; y < q.height(); ++y)
    std::memcpy(q.scanLine(y), px->data() + std::size_t(y) * img.width * 4, img.width * 4);
  return q;
}

// A 2×2 quad facing +Z (the camera at yaw 0 looks along −Z), v = 0 along its top edge.
std::shared_ptr<formats::Scene> quadScene(std::vector<std::byte> textureBytes) {
  auto s = std::make_shared<formats::Scene>();
  formats::Mesh m;
  m.name = "quad";
  m.positions = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  m.uvSets = {{{0, 1}, {1, 1}, {1, 0}, {0, 0}}};
  m.indices = {0, 1, 2, 0, 2, 3};
  m.material = 0;
  s->meshes.push_back(std::move(m));
  formats::Material mat;
  mat.name = "dds";
  mat.maps.push_back({"diffuse", 0, 0, ""});
  s->materials.push_back(std::move(mat));
  formats::Texture t;
  t.name = "quadrants.dds";
  t.data = std::move(textureBytes);
  s->textures.push_back(std::move(t));
  return s;
}

class DdsRender : public DdsGl {
 protected:
  QImage draw(std::shared_ptr<formats::Scene> scene, const QImage& image) {
    renderer_.setScene(scene, {image});
    render::Camera cam;
    cam.setAngles(0.0f, 0.0f);
    const auto b = renderer_.restBounds();
    cam.frame(b.center(), b.radius());
    render::ViewOptions o;
    o.showGrid = false;
    o.showSkeleton = false;
    o.skeletonWhenNoMeshes = false;
    o.lit = false;
    return gl_->render(renderer_, cam, 200, 200, o).convertToFormat(QImage::Format_RGBA8888);
  }
};

int maxDifference(const QImage& a, const QImage& b) {
  int d = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
      d = std::max({d, std::abs(p.red() - q.red()), std::abs(p.green() - q.green()),
                    std::abs(p.blue() - q.blue())});
    }
  return d;
}

TEST_F(DdsRender, TheCompressedLevelsDrawAsTheDecodedImageDoesTopRowAtTheTop) {
  const auto bytes = quadrantsDds();
  const auto dds = formats::readDds(bytes, "quadrants.dds");
  ASSERT_TRUE(dds.ok()) << dds.error().describe();
  ASSERT_EQ(dds->levels.size(), 4u);
  const QImage decoded = toQImage(*dds);

  const QImage compressed = draw(quadScene(bytes), decoded);
  const QImage fromQImage = draw(quadScene({}), decoded);  // no DDS bytes: the QImage path
  if (const char* dir = std::getenv("MARROW_RENDER_DUMP")) {
    compressed.save(QString::fromLocal8Bit(dir) + QStringLiteral("/dds_compressed.png"));
    fromQImage.save(QString::fromLocal8Bit(dir) + QStringLiteral("/dds_qimage.png"));
  }
  const int diff = maxDifference(compressed, fromQImage);
  std::printf(
      "[ dds gl     ] quad from DXT1 levels vs from the QImage: max channel difference %d\n", diff);
  EXPECT_LE(diff, kRoundingTolerance);

  // Where the quad is, and its quadrants' colours there: red top left, as the image has it.
  int left = 200, right = -1, top = 200, bottom = -1;
  const QColor bg = compressed.pixelColor(0, 0);
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 200; ++x)
      if (compressed.pixelColor(x, y) != bg) {
        left = std::min(left, x), right = std::max(right, x);
        top = std::min(top, y), bottom = std::max(bottom, y);
      }
  ASSERT_GT(right - left, 40);
  ASSERT_GT(bottom - top, 40);
  auto sample = [&](double fx, double fy) {
    return compressed.pixelColor(left + int(fx * (right - left)), top + int(fy * (bottom - top)));
  };
  EXPECT_EQ(sample(0.25, 0.25), QColor(255, 0, 0));
  EXPECT_EQ(sample(0.75, 0.25), QColor(0, 255, 0));
  EXPECT_EQ(sample(0.25, 0.75), QColor(0, 0, 255));
  EXPECT_EQ(sample(0.75, 0.75), QColor(255, 255, 255));
}

TEST_F(DdsRender, TheCompressedPathIsTakenWhenTheDriverHasS3tc) {
  // The image handed in is all black: drawn from the DDS bytes, the quad still shows red.
  const auto bytes = quadrantsDds();
  QImage black(8, 8, QImage::Format_RGBA8888);
  black.fill(Qt::black);
  const QImage frame = draw(quadScene(bytes), black);
  const QImage reference = draw(quadScene(bytes), toQImage(*formats::readDds(bytes, "q.dds")));
  EXPECT_LE(maxDifference(frame, reference), 0);
  // An image of another size is not the file's decode: it is drawn instead.
  QImage small(4, 4, QImage::Format_RGBA8888);
  small.fill(Qt::black);
  EXPECT_GT(maxDifference(draw(quadScene(bytes), small), reference), 100);
}

// ---- The document: a .dds beside the model decodes to an RGBA8 QImage through the decoder. ----

void write(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

QByteArray asBytes(const std::vector<std::byte>& b) {
  return QByteArray(reinterpret_cast<const char*>(b.data()), static_cast<qsizetype>(b.size()));
}

// An OBJ quad whose material names `texture` beside it.
QString objBeside(const QTemporaryDir& dir, const std::vector<std::byte>& texture) {
  write(dir.filePath(QStringLiteral("quad.obj")),
        "mtllib quad.mtl\nv -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\n"
        "vt 0 1\nusemtl m\nf 1/1 2/2 3/3\nf 1/1 3/3 4/4\n");
  write(dir.filePath(QStringLiteral("quad.mtl")), "newmtl m\nKd 1 1 1\nmap_Kd quadrants.dds\n");
  write(dir.filePath(QStringLiteral("quadrants.dds")), asBytes(texture));
  return dir.filePath(QStringLiteral("quad.obj"));
}

TEST(DdsDocument, ATextureBesideTheModelDecodesToRgba8TopRowFirst) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const auto doc = app::loadDocument({objBeside(dir, quadrantsDds())});
  ASSERT_TRUE(doc.ok()) << doc.error().describe();
  ASSERT_EQ(doc->textures.size(), 1u);
  const QImage& img = doc->textures[0];
  ASSERT_FALSE(img.isNull()) << "the DDS did not decode";
  EXPECT_EQ(img.format(), QImage::Format_RGBA8888);
  EXPECT_EQ(img.size(), QSize(8, 8));
  EXPECT_EQ(img.pixelColor(0, 0), QColor(255, 0, 0));
  EXPECT_EQ(img.pixelColor(7, 0), QColor(0, 255, 0));
  EXPECT_EQ(img.pixelColor(0, 7), QColor(0, 0, 255));
  EXPECT_TRUE(formats::isDds(doc->scene->textures[0].data));  // kept for the compressed upload
}

TEST(DdsDocument, ADamagedTextureIsReportedWithItsFieldAndLeftOut) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  auto bytes = quadrantsDds();
  bytes.resize(130);  // the header, and 2 bytes of level 0
  const auto doc = app::loadDocument({objBeside(dir, bytes)});
  ASSERT_TRUE(doc.ok()) << doc.error().describe();
  ASSERT_EQ(doc->textures.size(), 1u);
  EXPECT_TRUE(doc->textures[0].isNull());
  bool reported = false;
  for (const auto& d : doc->scene->diagnostics.items)
    reported |= d.field == "mip level 0" && d.offset == 128 &&
                d.file.find("quadrants.dds") != std::string::npos;
  EXPECT_TRUE(reported) << "no diagnostic names the DDS's mip level 0 at offset 128";
}

}  // namespace
}  // namespace marrow
