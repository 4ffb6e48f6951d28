// Damaged cal3d text files: every prefix and every changed byte of small XSF, XAF and XRF files
// (documents written here, and the fixtures when they are there) and of .cfg files gives an error
// or something valid, never a crash (STYLE.md: meshoptimizer's decoder tests). Scenes are read
// through readModel, which stands in placeholder bones for an animation read alone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/parts.h"
#include "formats/io/file.h"
#include "formats/model/validate.h"

#include "tests/support/read_context.h"
#include "tests/support/skip.h"

namespace marrow::formats::cal3d {
namespace {

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/cal3d/";

struct TextFile {
  std::string name;
  std::vector<std::byte> bytes;
};

TextFile written(std::string name, std::string_view text) {
  const auto* p = reinterpret_cast<const std::byte*>(text.data());
  return {std::move(name), std::vector<std::byte>(p, p + text.size())};
}

// The fixture `relative`, when the fixtures are there.
std::optional<TextFile> fixtureFile(const std::string& relative) {
  auto data = readFile(kFixtures + relative);
  if (!data.ok()) return std::nullopt;
  return TextFile{relative.substr(relative.rfind('/') + 1), std::move(data).value()};
}

constexpr std::string_view kSkeleton = R"(<HEADER MAGIC="XSF" VERSION="1000"/>
<SKELETON NUMBONES="3">
  <BONE ID="0" NAME="root" NUMCHILD="1">
    <TRANSLATION>0 0 1</TRANSLATION>
    <ROTATION>0 0 0 1</ROTATION>
    <LOCALTRANSLATION>0 0 -1</LOCALTRANSLATION>
    <LOCALROTATION>0 0 0 1</LOCALROTATION>
    <PARENTID>-1</PARENTID>
    <CHILDID>1</CHILDID>
  </BONE>
  <BONE ID="1" NAME="arm" NUMCHILD="1">
    <TRANSLATION>1 0 0</TRANSLATION>
    <ROTATION>0 0 0.7071068 0.7071068</ROTATION>
    <LOCALTRANSLATION>0.5 0.25 -1</LOCALTRANSLATION>
    <LOCALROTATION>0 0 -0.7071068 0.7071068</LOCALROTATION>
    <PARENTID>0</PARENTID>
    <CHILDID>2</CHILDID>
  </BONE>
  <BONE ID="2" NAME="hand" NUMCHILD="0">
    <TRANSLATION>1 0 0</TRANSLATION>
    <ROTATION>0 0 0 1</ROTATION>
    <LOCALTRANSLATION>0 1 2</LOCALTRANSLATION>
    <LOCALROTATION>0.7071068 0 0 0.7071068</LOCALROTATION>
    <PARENTID>1</PARENTID>
  </BONE>
</SKELETON>
)";

constexpr std::string_view kAnimation = R"(<HEADER MAGIC="XAF" VERSION="1300"/>
<ANIMATION DURATION="1.0" NUMTRACKS="2">
  <TRACK BONEID="1" NUMKEYFRAMES="2">
    <KEYFRAME TIME="0">
      <TRANSLATION>1 0 0</TRANSLATION>
      <ROTATION>0 0 0 1</ROTATION>
    </KEYFRAME>
    <KEYFRAME TIME="0.5">
      <TRANSLATION>2 0 0</TRANSLATION>
      <ROTATION>0 0 0.7071068 0.7071068</ROTATION>
    </KEYFRAME>
  </TRACK>
  <TRACK BONEID="2" NUMKEYFRAMES="2" TRANSLATIONREQUIRED="1" TRANSLATIONISDYNAMIC="0">
    <KEYFRAME TIME="0">
      <TRANSLATION>0 2 0</TRANSLATION>
      <ROTATION>0 0 0 1</ROTATION>
    </KEYFRAME>
    <KEYFRAME TIME="0.9">
      <ROTATION>0.7071068 0 0 0.7071068</ROTATION>
    </KEYFRAME>
  </TRACK>
</ANIMATION>
)";

constexpr std::string_view kMaterial = R"(<HEADER MAGIC="XRF" VERSION="1300"/>
<MATERIAL NUMMAPS="2">
  <AMBIENT>255 128 0 0</AMBIENT>
  <DIFFUSE>255 255 255 255</DIFFUSE>
  <SPECULAR>10 20 30 40</SPECULAR>
  <SHININESS>0.5</SHININESS>
  <MAP>texture.tga</MAP>
  <MAP TYPE="Opacity">alpha.tga</MAP>
</MATERIAL>
)";

constexpr std::string_view kConfig =
    "# model\r\nscale=0.5\r\npath=data\\\\model \r\nskeleton=a.csf\r\n"
    "mesh = body 2.cmf\t\r\nmaterial=skin.xrf\r\nanimation=walk.caf\r\ncolour=red\r\n";

// Each damaged copy of `bytes`: every prefix, then every byte flipped (all bits, the lowest bit:
// digits become digits, '<' '=', '"' '#') and made a '-'.
template <class Fn>
void forEachDamagedCopy(std::vector<std::byte> bytes, Fn&& fn) {
  for (std::size_t n = 0; n < bytes.size(); ++n)
    fn(std::vector<std::byte>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)),
       "prefix of " + std::to_string(n) + " bytes");
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::byte original = bytes[i];
    for (const std::byte b :
         {original ^ std::byte{0xFF}, original ^ std::byte{0x01}, std::byte{'-'}}) {
      bytes[i] = b;
      fn(bytes, "byte " + std::to_string(i) + " changed");
    }
    bytes[i] = original;
  }
}

// readModel of `files` (the last one damaged): an error, or a scene validate() accepts.
void expectErrorOrValidScene(const std::vector<TextFile>& intact,
                             const std::vector<std::byte>& damaged, const std::string& what) {
  std::vector<Input> inputs;
  for (const TextFile& f : intact) {
    Input in;
    in.bytes = f.bytes;
    in.ctx.name = f.name;
    in.ctx.fetchTextures = false;
    inputs.push_back(std::move(in));
  }
  inputs.back().bytes = damaged;
  const auto scene = readModel(inputs);
  if (!scene.ok()) {
    EXPECT_EQ(scene.error().file, intact.back().name) << what;
    return;
  }
  const auto problems = validate(*scene);
  EXPECT_TRUE(problems.empty()) << what << ": " << problems.front();
  // What validate() leaves to the readers: rotations that can be renormalised (§8), and inverse
  // binds made from them.
  for (const Bone& b : scene->skeleton.bones) EXPECT_GT(glm::length(b.rotation), 0.0f) << what;
  for (const glm::mat4& m : scene->skeleton.inverseBind)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(m[c][r])) << what;
  for (const Clip& clip : scene->clips)
    for (const Track& t : clip.tracks)
      for (const glm::quat& q : t.rotation.values) EXPECT_GT(glm::length(q), 0.0f) << what;
}

void expectDamageIsAnErrorOrValid(const std::vector<TextFile>& files) {
  std::size_t copies = 0;
  forEachDamagedCopy(files.back().bytes,
                     [&](const std::vector<std::byte>& damaged, const std::string& what) {
                       ++copies;
                       expectErrorOrValidScene(files, damaged, what);
                     });
  EXPECT_GT(copies, files.back().bytes.size());
}

// Documents written here (which hold "0 0 0 1" rotations a changed byte makes zero), then the
// fixtures (the test skips, failing under CI, when they are not there).
TEST(Cal3dXsf, DamagedFilesGiveAnErrorOrAValidSkeleton) {
  expectDamageIsAnErrorOrValid({written("skeleton.xsf", kSkeleton)});
  const auto f = fixtureFile("xml_tests/base.xsf");
  if (!f) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  expectDamageIsAnErrorOrValid({*f});
}

TEST(Cal3dXaf, DamagedFilesGiveAnErrorOrAValidClipAlone) {
  expectDamageIsAnErrorOrValid({written("walk.xaf", kAnimation)});
  const auto f = fixtureFile("xml_tests/base.xaf");
  if (!f) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  expectDamageIsAnErrorOrValid({*f});
}

TEST(Cal3dXaf, DamagedFilesGiveAnErrorOrAValidClipWithTheirSkeleton) {
  expectDamageIsAnErrorOrValid(
      {written("skeleton.xsf", kSkeleton), written("walk.xaf", kAnimation)});
  auto skeleton = fixtureFile("xml_tests/base.xsf");
  auto animation = fixtureFile("xml_tests/base.xaf");
  if (!skeleton || !animation) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  expectDamageIsAnErrorOrValid({*skeleton, *animation});
}

TEST(Cal3dXrf, DamagedFilesGiveAnErrorOrAValidMaterial) {
  expectDamageIsAnErrorOrValid({written("skin.xrf", kMaterial)});
  const char* const fixtures[] = {"xml_tests/base.xrf", "cally/cally_skin.xrf"};
  std::size_t used = 0;
  for (const char* file : fixtures)
    if (auto f = fixtureFile(file)) expectDamageIsAnErrorOrValid({*f}), ++used;
  MARROW_EXPECT_ALL_USED(used, std::size(fixtures));
}

// What parseConfig gives, damaged input or not: entries that name a file (no trailing blanks, no
// backslashes) under a path that is empty or a folder, lines in order, a positive scale.
void expectAUsableConfig(const Result<ConfigFile>& cfg, const std::string& what) {
  if (!cfg.ok()) return;
  EXPECT_TRUE(std::isfinite(cfg->scale) && cfg->scale > 0.0f) << what;
  for (const auto* list : {&cfg->skeletons, &cfg->meshes, &cfg->materials, &cfg->animations}) {
    int line = 0;
    for (const ConfigEntry& e : *list) {
      EXPECT_FALSE(e.file.empty()) << what;
      EXPECT_EQ(e.file.find('\\'), std::string::npos) << what;
      EXPECT_EQ(e.file.find_last_not_of(" \t\r\v\f"), e.file.size() - 1) << what;
      EXPECT_TRUE(e.path.empty() || e.path.back() == '/') << what;
      EXPECT_GT(e.line, line) << what;
      line = e.line;
    }
  }
}

TEST(Cal3dConfig, DamagedFilesGiveAnErrorOrUsableEntries) {
  std::vector<TextFile> files{written("written.cfg", kConfig)};
  const char* const fixtures[] = {"cally/cally.cfg", "paladin/paladin.cfg"};
  for (const char* file : fixtures)
    if (auto f = fixtureFile(file)) files.push_back(std::move(*f));
  for (const TextFile& cfg : files) {
    SCOPED_TRACE(cfg.name);
    const ReadContext ctx = ::marrow::testing::named(cfg.name);
    forEachDamagedCopy(cfg.bytes,
                       [&](const std::vector<std::byte>& damaged, const std::string& what) {
                         expectAUsableConfig(parseConfig(damaged, ctx), what);
                       });
  }
  MARROW_EXPECT_ALL_USED(files.size() - 1, std::size(fixtures));
}

}  // namespace
}  // namespace marrow::formats::cal3d
