// Binary cal3d material (.crf) reader: files built here, then the four cally fixtures.
#include <gtest/gtest.h>

#include <limits>
#include <map>

#include "cal3d_binary_test_util.h"

#include "tests/support/read_context.h"

namespace marrow::formats::cal3d {
namespace {

using ::marrow::testing::namedWithFiles;

using namespace testing;

const std::string kFile = "skin.crf";

struct MapSpec {
  std::string file, type;
};

struct Crf {
  std::vector<std::byte> bytes;
  std::size_t shininess = 0, mapCount = 0;
  std::vector<std::size_t> map;
};

Crf build(const std::vector<MapSpec>& maps = {{"skin.png", "Diffuse Color"},
                                              {"dir\\alpha.tga", "Opacity"}},
          int version = 1300) {
  Crf f;
  ByteWriter w;
  header(w, "CRF", version);
  for (int c : {22, 16, 46, 0, 49, 49, 49, 255, 229, 229, 229, 0})
    w.u8(static_cast<std::uint8_t>(c));
  f.shininess = w.offset();
  w.f32(0.8f);
  f.mapCount = w.offset();
  w.i32(static_cast<std::int32_t>(maps.size()));
  const bool types = (version >= 911 && version <= 999) || version >= 1300;
  for (const auto& m : maps) {
    f.map.push_back(w.offset());
    string(w, m.file);
    if (types) string(w, m.type);
  }
  f.bytes = w.take();
  return f;
}

Result<MaterialPart> read(const std::vector<std::byte>& bytes,
                          const ReadContext& ctx = context(kFile)) {
  return readCrf(bytes, ctx);
}

MaterialPart readOk(const std::vector<std::byte>& bytes, const ReadContext& ctx = context(kFile)) {
  auto r = read(bytes, ctx);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? std::move(r).value() : MaterialPart{};
}

// ---- invalid input ----

TEST(Cal3dCrf, RejectsBadMagicAndVersions) {
  auto f = build();
  f.bytes[0] = std::byte{'X'};
  expectError(read(f.bytes), 0, "magic", kFile);
  for (int v : {698, 1302}) {
    f = build();
    put<std::int32_t>(f.bytes, 4, v);
    expectError(read(f.bytes), 4, "version", kFile);
  }
}

TEST(Cal3dCrf, RejectsEveryTruncationAndTrailingBytes) {
  for (int version : {700, 1300}) {
    auto f = build({{"a.png", "Diffuse Color"}}, version);
    for (std::size_t n = 0; n < f.bytes.size(); ++n)
      EXPECT_FALSE(read({f.bytes.begin(), f.bytes.begin() + static_cast<long>(n)}).ok()) << n;
    f.bytes.push_back(std::byte{0});
    EXPECT_FALSE(read(f.bytes).ok());
  }
}

TEST(Cal3dCrf, RejectsNegativeAndHugeMapCounts) {
  for (std::int32_t n : {-1, 0x7fffffff, 100}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.mapCount, n);
    expectError(read(f.bytes), f.mapCount, "mapCount", kFile);
  }
}

TEST(Cal3dCrf, RejectsNegativeAndHugeStringLengths) {
  for (std::int32_t n : {-7, 0x7fffffff}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.map[1], n);
    expectError(read(f.bytes), f.map[1], "map 1: filename", kFile);
    f = build();
    put<std::int32_t>(f.bytes, f.map[0] + 13, n);  // "skin.png\0" is 9 bytes
    expectError(read(f.bytes), f.map[0] + 13, "map 0: mapType", kFile);
  }
}

TEST(Cal3dCrf, RejectsNaNShininess) {
  auto f = build();
  put<float>(f.bytes, f.shininess, std::numeric_limits<float>::quiet_NaN());
  expectError(read(f.bytes), f.shininess, "shininess", kFile);
}

TEST(Cal3dCrf, FlippedBytesGiveAnErrorOrAMaterial) {
  auto bytes = build().bytes;
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] ^= std::byte{0xFF};
    const auto r = read(bytes);
    if (r.ok()) {
      ++accepted;
      EXPECT_EQ(r->textures.size(), r->material.maps.size());
    }
    bytes[i] ^= std::byte{0xFF};
  }
  EXPECT_GT(accepted, 0u);
}

// ---- reading ----

TEST(Cal3dCrf, ReadsColoursAsBytesOver255AndShininess) {
  const auto part = readOk(build({}).bytes);
  const Material& m = part.material;
  EXPECT_EQ(m.name, "skin");
  EXPECT_EQ(m.ambient, glm::vec4(22, 16, 46, 0) / 255.0f);
  EXPECT_EQ(m.diffuse, glm::vec4(49, 49, 49, 255) / 255.0f);
  EXPECT_EQ(m.specular, glm::vec4(229, 229, 229, 0) / 255.0f);
  EXPECT_EQ(m.shininess, 0.8f);
  EXPECT_TRUE(m.maps.empty());
  EXPECT_EQ(part.format, "cal3d CRF 1300");
  EXPECT_TRUE(part.diagnostics.empty());
}

TEST(Cal3dCrf, ReadsMapTypesAsKindsAndLabels) {
  const auto part = readOk(build({{"a.png", "Diffuse Color"},
                                  {"b.png", "Opacity"},
                                  {"c.png", "Normal Bump"},
                                  {"d.png", "Fancy Slot"}})
                               .bytes);
  const auto& maps = part.material.maps;
  ASSERT_EQ(maps.size(), 4u);
  EXPECT_EQ(maps[0].kind, "diffuse");
  EXPECT_EQ(maps[1].kind, "opacity");
  EXPECT_EQ(maps[2].kind, "normal");
  EXPECT_EQ(maps[3].kind, "unknown");  // common.h mapKind
  EXPECT_EQ(maps[1].label, "Opacity");
  EXPECT_EQ(maps[3].label, "Fancy Slot");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(maps[static_cast<std::size_t>(i)].uvSet, i);  // §6: map i ↔ uv set i
    EXPECT_EQ(maps[static_cast<std::size_t>(i)].texture, i);
  }
  EXPECT_EQ(part.textures[3].name, "d.png");
}

TEST(Cal3dCrf, MapZeroIsDiffuseWithoutATypeString) {
  const auto part = readOk(build({{"a.png", ""}, {"b.png", ""}}, 700).bytes);
  EXPECT_EQ(part.material.maps[0].kind, "diffuse");
  EXPECT_EQ(part.material.maps[0].label, "");
  EXPECT_EQ(part.material.maps[1].kind, "unknown");
  EXPECT_EQ(part.format, "cal3d CRF 700");
  // 911–999 store types as 1300 does.
  EXPECT_EQ(readOk(build({{"a.png", "Opacity"}}, 915).bytes).material.maps[0].kind, "opacity");
}

TEST(Cal3dCrf, FetchesTextureBytesByNameThenByBaseName) {
  const auto ctx = namedWithFiles(kFile, {{"skin.png", "PNG!"}, {"alpha.tga", "TGA!"}});
  const auto part = readOk(build().bytes, ctx);
  ASSERT_EQ(part.textures.size(), 2u);
  EXPECT_EQ(part.textures[0].name, "skin.png");
  EXPECT_EQ(part.textures[0].path, "skin.png");
  EXPECT_EQ(part.textures[0].data.size(), 4u);
  EXPECT_EQ(part.textures[1].name, "dir\\alpha.tga");  // as stored
  EXPECT_EQ(part.textures[1].path, "alpha.tga");       // where it was found
  EXPECT_EQ(static_cast<char>(part.textures[1].data[0]), 'T');
  EXPECT_TRUE(part.diagnostics.empty());
}

// Each image once: a material naming one big image on thousands of maps (by one name or by
// several that find the same bytes) holds it once, not once per map.
TEST(Cal3dCrf, HoldsEachImageOnceHoweverManyMapsNameIt) {
  std::vector<MapSpec> maps;
  for (int i = 0; i < 2000; ++i) maps.push_back({i % 3 == 2 ? "dir\\big.png" : "big.png", ""});
  maps.push_back({"copy.png", ""});
  maps.push_back({"other.png", ""});
  maps.push_back({"missing.png", ""});
  maps.push_back({"missing.png", ""});
  const std::string big(1 << 20, 'x');
  int fetched = 0;
  ReadContext ctx = namedWithFiles(kFile, {{"big.png", big}, {"copy.png", big}, {"other.png", "PNG!"}});
  ctx.resolve = [inner = ctx.resolve, &fetched](const std::string& name) {
    ++fetched;
    return inner(name);
  };
  const auto part = readOk(build(maps).bytes, ctx);
  ASSERT_EQ(part.material.maps.size(), 2004u);
  // big.png, dir\big.png, copy.png (the same bytes: one texture), other.png, missing.png.
  ASSERT_EQ(part.textures.size(), 3u);
  EXPECT_EQ(part.textures[0].name, "big.png");
  EXPECT_EQ(part.textures[0].data.size(), big.size());
  EXPECT_EQ(part.textures[1].name, "other.png");
  EXPECT_EQ(part.textures[2].name, "missing.png");
  EXPECT_TRUE(part.textures[2].data.empty());
  for (std::size_t i = 0; i < 2001; ++i) ASSERT_EQ(part.material.maps[i].texture, 0) << i;
  EXPECT_EQ(part.material.maps[2001].texture, 1);
  EXPECT_EQ(part.material.maps[2002].texture, 2);
  EXPECT_EQ(part.material.maps[2003].texture, 2);
  // Each name is looked up once (dir\big.png as named, then by its base name).
  EXPECT_EQ(fetched, 6);
}

TEST(Cal3dCrf, WarnsForEachMapWhoseFileIsMissing) {
  const auto part = readOk(build().bytes, namedWithFiles(kFile, {{"skin.png", "PNG!"}}));
  EXPECT_TRUE(part.textures[1].data.empty());
  EXPECT_EQ(part.textures[1].path, "dir\\alpha.tga");
  ASSERT_EQ(part.diagnostics.count(Severity::Warning), 1u);
  EXPECT_EQ(part.diagnostics.items[0].field, "map 1: filename");
  // Without any resolver every map is missing.
  EXPECT_EQ(readOk(build().bytes).diagnostics.count(Severity::Warning), 2u);
}

// ---- fixtures ----

TEST(Cal3dCrf, CallyFixturesCarryTheirColours) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  struct Expected {
    const char* file;
    std::array<int, 12> colours;
    float shininess;
  };
  for (const Expected& e :
       {Expected{"cally/cally_chest.crf", {22, 16, 46, 0, 49, 49, 49, 0, 229, 229, 229, 0}, 0.8f},
        Expected{"cally/cally_pelvis.crf",
                 {128, 128, 128, 0, 224, 224, 224, 0, 255, 255, 255, 0},
                 0.05f},
        Expected{"cally/cally_ponytail.crf",
                 {82, 85, 128, 0, 163, 169, 255, 0, 229, 229, 229, 0},
                 0.05f},
        Expected{
            "cally/cally_skin.crf", {128, 98, 98, 0, 240, 184, 184, 0, 229, 229, 229, 0}, 0.05f}}) {
    SCOPED_TRACE(e.file);
    const auto part = readOk(fixture(e.file), context(e.file));
    const Material& m = part.material;
    const auto c = e.colours;
    EXPECT_EQ(colorToBytes(m.ambient),
              (std::array<std::uint8_t, 4>{std::uint8_t(c[0]), std::uint8_t(c[1]),
                                           std::uint8_t(c[2]), std::uint8_t(c[3])}));
    EXPECT_EQ(colorToBytes(m.diffuse),
              (std::array<std::uint8_t, 4>{std::uint8_t(c[4]), std::uint8_t(c[5]),
                                           std::uint8_t(c[6]), std::uint8_t(c[7])}));
    EXPECT_EQ(colorToBytes(m.specular),
              (std::array<std::uint8_t, 4>{std::uint8_t(c[8]), std::uint8_t(c[9]),
                                           std::uint8_t(c[10]), std::uint8_t(c[11])}));
    EXPECT_NEAR(m.shininess, e.shininess, 1e-6f);
    EXPECT_TRUE(m.maps.empty());
    EXPECT_EQ(part.format, "cal3d CRF 700");
  }
}

}  // namespace
}  // namespace marrow::formats::cal3d
