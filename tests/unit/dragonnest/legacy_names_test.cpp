// Names of Korean and Chinese clients (issue 16): a character whose entry names, bones,
// submeshes, materials, textures and clips are stored in CP949 opens from its pak by the UTF-8
// path `list` prints and reads in UTF-8, its texture and animation found by their stored names;
// a table's GBK text reads in UTF-8 on disk as in a pak; the archive's (or the user's) code page
// is taken when it explains every name and gives way to the file's own names when it does not.
// The stored bytes are made by
// iconv from UTF-8 (tests/support/encode.h), the files by the project's writers.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "formats/dragonnest/dragonnest.h"
#include "formats/load.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/encode.h"
#include "tests/support/pak_builder.h"
#include "tests/support/temp_dir.h"

namespace marrow::formats {
namespace {

namespace dn = dragonnest;
using ::marrow::testing::encodeIn;
using ::marrow::testing::TempDir;

// The test character's names, in Korean.
const std::vector<std::pair<std::string, std::string>> kKorean = {
    {"Spine", "척추"}, {"Arm", "오른팔"}, {"Body", "몸통"}, {"Skirt", "치마"}, {"BodyMat", "갑옷_재질"},
    {"Wave", "손흔들기"}, {"Idle", "대기_동작"}, {"Weapon", "무기_더미"}};

std::string korean(const std::string& name, const char* codepage = "CP949") {
  for (const auto& [en, ko] : kKorean)
    if (en == name) return encodeIn(ko, codepage);
  return name;
}

// The character with its names in `codepage`, its mesh and texture named 전사.
dn::testing::CharacterFiles koreanCharacter(const char* codepage = "CP949") {
  dn::Msh msh = dn::testing::characterMsh(11);
  for (auto& b : msh.bones) b.name = korean(b.name, codepage);
  for (auto& s : msh.submeshes) {
    s.name = korean(s.name, codepage);
    s.parent = korean(s.parent, codepage);
    for (auto& p : s.palette) p = korean(p, codepage);
  }
  for (auto& c : msh.collisions) c.parent = korean(c.parent, codepage);
  for (auto& d : msh.dummies) d.name = korean(d.name, codepage), d.parent = korean(d.parent, codepage);
  dn::Skn skn = dn::testing::characterSkn(11);
  skn.mesh = encodeIn("전사.msh", codepage);
  for (auto& m : skn.materials) {
    m.name = korean(m.name, codepage);
    for (auto& p : m.parameters)
      if (p.type == dn::SknParameter::Texture) p.texture = encodeIn("전사_피부.dds", codepage);
  }
  dn::Ani ani = dn::testing::characterAni(11);
  for (auto& n : ani.names) n = korean(n, codepage);
  for (auto& b : ani.bones) b.name = korean(b.name, codepage), b.parent = korean(b.parent, codepage);
  return {dn::writeMsh(msh).value(), dn::writeSkn(skn).value(), dn::writeAni(ani).value()};
}

std::vector<std::byte> koreanTable(const char* codepage) {
  Table t;
  t.name = "weapons";
  t.columns = {{"_Name", 1}, {"_Level", 3}};
  t.rowIds = {1, 2, 3};
  t.rows = {{encodeIn("불꽃의 검", codepage), std::int32_t{10}},
            {encodeIn("얼음 지팡이", codepage), std::int32_t{20}},
            {std::string("plain ascii"), std::int32_t{30}}};
  return dn::writeDnt(t).value();
}

std::vector<std::string> clipNames(const Scene& s) {
  std::vector<std::string> out;
  for (const Clip& c : s.clips) out.push_back(c.name);
  return out;
}

bool says(const Scene& s, const std::string& text) {
  return std::any_of(s.diagnostics.items.begin(), s.diagnostics.items.end(),
                     [&](const Diagnostic& d) { return d.message.find(text) != std::string::npos; });
}

TEST(LegacyNames, AKoreanCharacterOpensFromItsPakByTheShownPathAndReadsInUtf8) {
  const TempDir dir;
  const auto files = koreanCharacter();
  const std::string folder = "\\resource\\char\\" + encodeIn("전사", "CP949") + "\\";
  const std::string pak = dir.write("Resource00.pak",
                                    testing::PakBuilder()
                                        .addStored(folder + encodeIn("전사.skn", "CP949"), files.skn)
                                        .addStored(folder + encodeIn("전사.msh", "CP949"), files.msh)
                                        .addStored(folder + encodeIn("전사.ani", "CP949"), files.ani)
                                        .addStored(folder + encodeIn("전사_피부.dds", "CP949"), "DDS texture bytes")
                                        .bytes());
  // The address as `list` prints it: UTF-8.
  const std::vector<std::string> address = {pak + "::resource/char/전사/전사.skn"};
  auto loaded = load(address);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  const Scene& s = loaded->scene;
  for (const char* bone : {"척추", "오른팔", "Bip01"}) EXPECT_GE(s.skeleton.find(bone), 0) << bone;
  std::vector<std::string> meshes;
  for (const Mesh& m : s.meshes) meshes.push_back(m.name);
  EXPECT_NE(std::find(meshes.begin(), meshes.end(), "몸통"), meshes.end());
  EXPECT_NE(std::find(meshes.begin(), meshes.end(), "치마"), meshes.end());
  ASSERT_FALSE(s.materials.empty());
  EXPECT_EQ(s.materials[0].name, "갑옷_재질");
  // The texture was found by its stored name, and is named in UTF-8.
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.textures[0].name, "전사_피부.dds");
  EXPECT_FALSE(s.textures[0].data.empty());
  // The animation beside it (same name) was found; its clips and bones read as the skeleton's.
  EXPECT_EQ(clipNames(s), (std::vector<std::string>{"손흔들기", "대기_동작"}));
  for (const Clip& c : s.clips)
    for (const Track& t : c.tracks) EXPECT_GE(s.skeleton.find(t.bone), 0) << t.bone;
  ASSERT_EQ(s.attachments.size(), 1u);
  EXPECT_EQ(s.attachments[0].name, "무기_더미");
  EXPECT_GE(s.skeleton.find(s.attachments[0].parent), 0);
  EXPECT_TRUE(says(s, "names decoded from CP949")) << "the Log says which code page was used";

  // The stored bytes open it too, and a path that is in no code page finds nothing.
  const std::vector<std::string> stored = {pak + "::" + folder.substr(1) + encodeIn("전사.skn", "CP949")};
  EXPECT_TRUE(load(stored).ok());
  EXPECT_FALSE(load(std::vector<std::string>{pak + "::resource/char/전사/궁수.skn"}).ok());
}

TEST(LegacyNames, TheSameCharacterInGbkReadsInUtf8) {
  // Hangul is not in GB18030's common range, but it is in the code page: detection goes by what
  // decodes everything, and a Chinese client's names are Chinese. Written in GB18030, the Korean
  // names still decode back exactly.
  const auto files = koreanCharacter("GB18030");
  ReadContext ctx;
  ctx.name = "char.skn";
  ctx.resolve = dn::testing::memoryResolver({{encodeIn("전사.msh", "GB18030"), files.msh}});
  auto s = dn::readFile(files.skn, ctx);
  ASSERT_TRUE(s.ok()) << s.error().describe();
  EXPECT_GE(s->skeleton.find("척추"), 0);
  EXPECT_EQ(s->materials[0].name, "갑옷_재질");
}

TEST(LegacyNames, ATablesTextDecodesOnDiskAndInAPak) {
  for (const char* codepage : {"CP949", "GB18030"}) {
    SCOPED_TRACE(codepage);
    const auto bytes = koreanTable(codepage);
    // On disk: no archive says anything; the table's own text decides.
    ReadContext ctx;
    ctx.name = "weapontable.dnt";
    auto s = dn::readFile(bytes, ctx);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    ASSERT_EQ(s->tables.size(), 1u);
    const Table& t = s->tables[0];
    ASSERT_EQ(t.rows.size(), 3u);
    EXPECT_EQ(std::get<std::string>(t.rows[0][0]), "불꽃의 검");
    EXPECT_EQ(std::get<std::string>(t.rows[1][0]), "얼음 지팡이");
    EXPECT_EQ(std::get<std::string>(t.rows[2][0]), "plain ascii");
    EXPECT_EQ(std::get<std::int32_t>(t.rows[1][1]), 20);
  }
}

TEST(LegacyNames, TheArchivesCodePageGivesWayToTheFilesOwnNames) {
  // A pak of CP949 names holding a table written in GB18030 (a mod made elsewhere): the hint
  // does not decode every name, so the table's own text decides.
  const auto bytes = koreanTable("GB18030");
  ReadContext ctx;
  ctx.name = "weapontable.dnt";
  ctx.codepage = "CP949";
  auto s = dn::readFile(bytes, ctx);
  ASSERT_TRUE(s.ok());
  const std::string first = std::get<std::string>(s->tables[0].rows[0][0]);
  // Hangul in GB18030 takes four bytes with a digit second (81 3x ..): no CP949. The hint gives
  // way and the text reads back.
  ASSERT_TRUE(testing::decodeFrom(encodeIn("불꽃의 검", "GB18030"), "CP949").empty());
  EXPECT_EQ(first, "불꽃의 검");
  // Text that decodes in the hint is read in it: the same GBK bytes read as Big5 when the user
  // says so, exactly as iconv reads them.
  Table t;
  t.name = "names";
  t.columns = {{"_Name", 1}};
  t.rows = {{encodeIn("战士的弓箭", "GB18030")}};
  ctx.codepage = "BIG5";
  const std::string asBig5 = testing::decodeFrom(encodeIn("战士的弓箭", "GB18030"), "BIG5");
  auto big5 = dn::readFile(dn::writeDnt(t).value(), ctx);
  ASSERT_TRUE(big5.ok());
  ASSERT_FALSE(asBig5.empty()) << "these GBK bytes are Big5 too (桵尪腔僮璋)";
  EXPECT_EQ(std::get<std::string>(big5->tables[0].rows[0][0]), asBig5);
  ctx.codepage.clear();
  auto detected = dn::readFile(dn::writeDnt(t).value(), ctx);
  ASSERT_TRUE(detected.ok());
  EXPECT_EQ(std::get<std::string>(detected->tables[0].rows[0][0]), "战士的弓箭");
}

TEST(LegacyNames, ANameInNoCodePageIsEscapedNeverMojibake) {
  Table t;
  t.name = "junk";
  t.columns = {{"_Name", 1}};
  t.rows = {{std::string("sword\xFF\xFE")}, {encodeIn("검", "CP949")}};
  ReadContext ctx;
  ctx.name = "junk.dnt";
  auto s = dn::readFile(dn::writeDnt(t).value(), ctx);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(std::get<std::string>(s->tables[0].rows[0][0]), "sword%FF%FE");
  // The rest decodes in the code page that explains the most names (Korean first on a tie).
  EXPECT_EQ(std::get<std::string>(s->tables[0].rows[1][0]), "검");
  EXPECT_TRUE(says(*s, "escaped"));
}

}  // namespace
}  // namespace marrow::formats
