// glTF export of TGA textures: glTF core carries PNG and JPEG only (§5.20), so a material's TGA
// is decoded and written as PNG. The PNG is read back here with zlib and the PNG spec's chunk
// layout, independently of the writer's encoder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/gltf/gltf_writer.h"
#include "tests/support/png_pixels.h"

namespace marrow::formats {
namespace {

using Bytes = std::vector<std::byte>;
using testing::pngPixels;

std::uint32_t le32(const Bytes& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | std::to_integer<std::uint32_t>(b[at + i]);
  return v;
}

// A 2 × 2 uncompressed 32-bit TGA stored bottom row first (the default origin): the shown top
// row is red, green; the bottom row blue, half-transparent white.
Bytes tga2x2() {
  const std::uint8_t header[18] = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 8};
  const std::uint8_t pixels[16] = {
      255, 0, 0,   255, /* blue */ 255, 255, 255, 128, /* white, half */
      0,   0, 255, 255, /* red */ 0,    255, 0,   255, /* green */
  };
  Bytes b;
  for (auto v : header) b.push_back(std::byte(v));
  for (auto v : pixels) b.push_back(std::byte(v));
  return b;
}
const std::vector<std::uint8_t> kShownRgba = {255, 0, 0,   255, 0,   255, 0,   255,
                                              0,   0, 255, 255, 255, 255, 255, 128};

Scene texturedTriangle(Bytes image, std::string path) {
  Scene s;
  Mesh m;
  m.name = "tri";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.uvSets.push_back({{0, 0}, {1, 0}, {0, 1}});
  m.indices = {0, 1, 2};
  m.material = 0;
  s.meshes.push_back(m);
  Texture t;
  t.name = "skin";
  t.path = std::move(path);
  t.data = std::move(image);
  s.textures.push_back(t);
  Material mat;
  mat.name = "skin";
  mat.maps.push_back({"diffuse", 0, 0, ""});
  s.materials.push_back(mat);
  return s;
}

std::size_t find(const Bytes& b, std::string_view s, std::size_t from = 0) {
  auto it = std::search(b.begin() + from, b.end(), s.begin(), s.end(),
                        [](std::byte x, char c) { return std::to_integer<char>(x) == c; });
  return it == b.end() ? std::string::npos : std::size_t(it - b.begin());
}

TEST(GltfTgaTexture, GlbEmbedsTheTgaAsAPngOfTheSamePixels) {
  Diagnostics d;
  const auto glb = writeGlb(texturedTriangle(tga2x2(), "textures/skin.tga"), d);
  ASSERT_TRUE(glb);
  const std::uint32_t jsonLength = le32(*glb, 12);
  const std::string json(reinterpret_cast<const char*>(glb->data()) + 20, jsonLength);
  EXPECT_NE(json.find("\"mimeType\":\"image/png\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"baseColorTexture\""), std::string::npos) << json;
  for (const auto& item : d.items)
    EXPECT_EQ(item.message.find("left out"), std::string::npos) << item.message;

  const std::size_t pngAt = find(*glb, "\x89PNG", 20 + jsonLength);
  ASSERT_NE(pngAt, std::string::npos) << "no PNG in the binary chunk";
  std::uint32_t w = 0, h = 0;
  EXPECT_EQ(pngPixels(*glb, pngAt, w, h), kShownRgba);
  EXPECT_EQ(w, 2u);
  EXPECT_EQ(h, 2u);
}

TEST(GltfTgaTexture, GltfWritesTheTgaAsAPngFileBesideIt) {
  Diagnostics d;
  const auto files = writeGltf(texturedTriangle(tga2x2(), "skin.TGA"), "tri", d);
  ASSERT_TRUE(files);
  const auto image = std::find_if(files->files.begin(), files->files.end(), [](const auto& f) {
    return f.name.size() > 4 && f.name.substr(f.name.size() - 4) == ".png";
  });
  ASSERT_NE(image, files->files.end());
  std::uint32_t w = 0, h = 0;
  EXPECT_EQ(pngPixels(image->bytes, 0, w, h), kShownRgba);
  const auto& gltf = files->files[0];
  EXPECT_NE(find(gltf.bytes, "\"uri\":\"" + image->name + "\""), std::string::npos);
}

TEST(GltfTgaTexture, BrokenTgaIsLeftOutWithAWarningThatNamesWhy) {
  Bytes cut = tga2x2();
  cut.resize(25);  // the header and half a pixel
  Diagnostics d;
  const auto glb = writeGlb(texturedTriangle(cut, "skin.tga"), d);
  ASSERT_TRUE(glb);
  const std::string json(reinterpret_cast<const char*>(glb->data()) + 20, le32(*glb, 12));
  EXPECT_EQ(json.find("\"images\""), std::string::npos) << json;
  bool said = false;
  for (const auto& item : d.items)
    said |= item.message.find("TGA") != std::string::npos &&
            item.message.find("Image Data") != std::string::npos;
  EXPECT_TRUE(said) << "a warning names the TGA and the field that is cut short";
}

// A material of two maps (a cal3d material's diffuse and its edge alpha): the glTF material keeps
// the first diffuse map; the other is said, with its image's name, not dropped in silence.
TEST(GltfTgaTexture, MapsTheGltfMaterialDoesNotKeepAreSaid) {
  Scene s = texturedTriangle(tga2x2(), "skin.tga");
  Texture edge = s.textures[0];
  edge.name = "edgealpha";
  s.textures.push_back(edge);
  s.materials[0].maps.push_back({"diffuse", 1, 0, ""});
  s.materials[0].maps.push_back({"specular", 1, 0, ""});
  Diagnostics d;
  const auto glb = writeGlb(s, d);
  ASSERT_TRUE(glb);
  const std::string json(reinterpret_cast<const char*>(glb->data()) + 20, le32(*glb, 12));
  EXPECT_NE(json.find("\"baseColorTexture\":{\"index\":0}"), std::string::npos) << json;
  bool said = false;
  for (const auto& item : d.items)
    said |= item.message.find("2 maps are left out") != std::string::npos &&
            item.message.find("diffuse 'edgealpha'") != std::string::npos &&
            item.message.find("specular 'edgealpha'") != std::string::npos && item.field == "material 'skin'";
  EXPECT_TRUE(said);
  d = {};
  ASSERT_TRUE(writeGlb(texturedTriangle(tga2x2(), "skin.tga"), d));
  for (const auto& item : d.items) EXPECT_EQ(item.message.find("left out"), std::string::npos) << item.message;
}

// A texture on uv set 1 of a mesh that has only set 0 (assimp's Collada reader gives such
// materials) would be invalid glTF (§3.9.2: texCoord names a TEXCOORD_n the primitive has).
TEST(GltfTgaTexture, TextureOnAUvSetTheMeshLacksUsesSetZeroWithAWarning) {
  Scene s = texturedTriangle(tga2x2(), "skin.tga");
  s.materials[0].maps[0].uvSet = 1;
  Diagnostics d;
  auto glb = writeGlb(s, d);
  ASSERT_TRUE(glb);
  std::string json(reinterpret_cast<const char*>(glb->data()) + 20, le32(*glb, 12));
  EXPECT_NE(json.find("\"baseColorTexture\":{\"index\":0}"), std::string::npos) << json;
  bool said = false;
  for (const auto& item : d.items) said |= item.message.find("uv set 1") != std::string::npos;
  EXPECT_TRUE(said);

  s.meshes[0].uvSets.push_back({{1, 1}, {0, 1}, {1, 0}});  // now it has set 1
  d = {};
  glb = writeGlb(s, d);
  ASSERT_TRUE(glb);
  json.assign(reinterpret_cast<const char*>(glb->data()) + 20, le32(*glb, 12));
  EXPECT_NE(json.find("\"baseColorTexture\":{\"index\":0,\"texCoord\":1}"), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"TEXCOORD_1\""), std::string::npos);
}

}  // namespace
}  // namespace marrow::formats
