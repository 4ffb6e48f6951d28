// Marrow's TGA decoder on real files (the TGA textures of assimp's test models) against two
// independent decoders: Qt's TGA plugin (qt6-image-formats-plugins; it reads only uncompressed
// true-colour files that end with the TGA 2.0 footer) and ImageMagick's `convert`, when a real
// ImageMagick is installed. Each file must equal every reference that reads it, byte for byte.
// Then the viewer's texture decoding (app::decodeTextures) on TGAs that Qt's plugin misreads.
#include <gtest/gtest.h>

#include <QByteArray>
#include <QImage>
#include <QImageReader>
#include <QString>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/document.h"
#include "formats/image/tga.h"
#include "formats/io/file.h"

#include "tests/support/skip.h"

namespace marrow::formats {
namespace {

namespace fs = std::filesystem;

struct Rgba {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // top row first
};

std::optional<Rgba> readWithQt(const fs::path& file) {
  QImageReader reader(QString::fromStdString(file.string()), "tga");
  const QImage read = reader.read();
  if (read.isNull()) return std::nullopt;
  const QImage img = read.convertToFormat(QImage::Format_RGBA8888);
  Rgba out{static_cast<std::uint32_t>(img.width()), static_cast<std::uint32_t>(img.height()), {}};
  for (int y = 0; y < img.height(); ++y) {
    const uchar* row = img.constScanLine(y);
    out.pixels.insert(out.pixels.end(), row, row + img.width() * 4);
  }
  return out;
}

std::string run(const std::string& command) {
  std::string out;
  const std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return out;
  char buffer[1 << 16];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) out.append(buffer, n);
  return out;
}

// A real ImageMagick (a stand-in `convert` that only shows PNGs says it is not installed).
bool haveImageMagick() {
  static const bool have =
      run("convert -version 2>/dev/null").find("Version: ImageMagick") != std::string::npos;
  return have;
}

// -auto-orient: ImageMagick keeps a TGA's rows as stored and records the origin as the image's
// orientation, which the raw rgba: output ignores.
std::optional<Rgba> readWithImageMagick(const fs::path& file, std::uint32_t w, std::uint32_t h) {
  const std::string bytes =
      run("convert '" + file.string() + "' -auto-orient -depth 8 rgba:- 2>/dev/null");
  if (bytes.size() != std::size_t(w) * h * 4) return std::nullopt;
  return Rgba{w, h, std::vector<std::uint8_t>(bytes.begin(), bytes.end())};
}

// How many pixels differ, for a readable failure instead of a dump of megabytes.
std::size_t differingPixels(const std::vector<std::uint8_t>& a,
                            const std::vector<std::uint8_t>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4)
    n += a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3];
  return n;
}

class TgaReference : public ::testing::TestWithParam<const char*> {};

TEST_P(TgaReference, DecodesLikeQtAndImageMagick) {
  const fs::path file = fs::path(MARROW_ASSIMP_MODELS_DIR) / GetParam();
  if (!fs::exists(file))
    MARROW_SKIP() << file
                 << " is absent (Debian: assimp-testmodels, which scripts/deps.sh test "
                    "installs)";
  auto bytes = readFile(file.string());
  ASSERT_TRUE(bytes) << bytes.error().describe();
  ASSERT_TRUE(isTga(*bytes, file.string()));
  const auto ours = decodeTga(*bytes, file.string());
  ASSERT_TRUE(ours) << ours.error().describe();
  ASSERT_EQ(ours->rgba.size(), std::size_t(ours->width) * ours->height * 4);

  std::vector<std::string> compared, notes;
  const bool qtHasTga = QImageReader::supportedImageFormats().contains("tga");
  if (!qtHasTga) {
    notes.push_back("Qt has no TGA plugin (Debian: qt6-image-formats-plugins)");
  } else if (auto qt = readWithQt(file)) {
    EXPECT_EQ(qt->width, ours->width);
    EXPECT_EQ(qt->height, ours->height);
    EXPECT_EQ(differingPixels(qt->pixels, ours->rgba), 0u) << "against Qt";
    EXPECT_TRUE(qt->pixels == ours->rgba) << "against Qt";
    compared.push_back("Qt");
  } else {
    notes.push_back("Qt's TGA plugin does not read this file");
  }
  if (!haveImageMagick()) {
    notes.push_back("ImageMagick is not installed (Debian: imagemagick)");
  } else if (auto im = readWithImageMagick(file, ours->width, ours->height)) {
    EXPECT_EQ(differingPixels(im->pixels, ours->rgba), 0u) << "against ImageMagick";
    EXPECT_TRUE(im->pixels == ours->rgba) << "against ImageMagick";
    compared.push_back("ImageMagick");
  } else {
    ADD_FAILURE() << "ImageMagick read " << file << " as an image of another size";
  }
  std::string said;
  for (const auto& n : notes) said += (said.empty() ? "" : "; ") + n;
  if (compared.empty()) MARROW_SKIP() << "no reference decoder read " << file << ": " << said;
  std::string with;
  for (const auto& c : compared) with += (with.empty() ? "" : " and ") + c;
  RecordProperty("references", with);
  if (!said.empty())
    std::printf("%s: compared with %s; %s\n", GetParam(), with.c_str(), said.c_str());
}

INSTANTIATE_TEST_SUITE_P(AssimpModels, TgaReference,
                         ::testing::Values("SMD/holygrail.tga", "Collada/duckCM.tga", "X/top.tga",
                                         "X/updown.tga", "X/bottom.tga"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           std::string name = p.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// The viewer decodes TGAs itself: holygrail.tga lacks a well-formed 2.0 footer (its signature
// starts a byte early), which Qt's plugin requires.
TEST(ViewerTga, TextureThatQtsPluginRefusesIsDecoded) {
  const fs::path file = fs::path(MARROW_ASSIMP_MODELS_DIR) / "SMD/holygrail.tga";
  if (!fs::exists(file)) MARROW_SKIP() << file << " is absent (Debian: assimp-testmodels)";
  Scene scene;
  scene.textures.push_back({"holygrail", file.string(), *readFile(file.string()), false});
  const auto images = app::decodeTextures(scene);
  ASSERT_EQ(images.size(), 1u);
  ASSERT_FALSE(images[0].isNull())
      << (scene.diagnostics.empty() ? std::string("no diagnostic")
                                    : describe(scene.diagnostics.items[0]));
  const auto ours = decodeTga(scene.textures[0].data, file.string());
  ASSERT_TRUE(ours);
  const QImage img = images[0].convertToFormat(QImage::Format_RGBA8888);
  ASSERT_EQ(img.width(), 256);
  ASSERT_EQ(img.height(), 512);
  std::vector<std::uint8_t> pixels;
  for (int y = 0; y < img.height(); ++y)
    pixels.insert(pixels.end(), img.constScanLine(y), img.constScanLine(y) + img.width() * 4);
  EXPECT_EQ(differingPixels(pixels, ours->rgba), 0u);
}

// 16-bit pixels (A RRRRR GGGGG BBBBB, spec field 7.1) with no attribute bits, in a file with the
// 2.0 footer that Qt's plugin does read: it would give red 31 and alpha 0 (an unscaled channel,
// bit 15 as alpha), where the spec gives red 255, opaque.
TEST(ViewerTga, SixteenBitTextureHasScaledChannelsAndNoAlphaWithoutAttributeBits) {
  std::vector<std::byte> tga;
  for (int v : {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 16, 0x20})
    tga.push_back(std::byte(v));
  for (int v : {0x00, 0x7C, 0xE0, 0x03}) tga.push_back(std::byte(v));  // red, green
  for (int i = 0; i < 8; ++i) tga.push_back(std::byte{0});
  for (char c : std::string("TRUEVISION-XFILE.")) tga.push_back(std::byte(c));
  tga.push_back(std::byte{0});
  Scene scene;
  scene.textures.push_back({"rg", "rg.tga", tga, false});
  const auto images = app::decodeTextures(scene);
  ASSERT_EQ(images.size(), 1u);
  ASSERT_FALSE(images[0].isNull());
  EXPECT_EQ(images[0].pixelColor(0, 0), QColor(255, 0, 0, 255));
  EXPECT_EQ(images[0].pixelColor(1, 0), QColor(0, 255, 0, 255));
}

}  // namespace
}  // namespace marrow::formats
