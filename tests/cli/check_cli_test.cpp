// marrow-cli check --target and convert --fix, end to end: a model written here as OMF with what
// Warband refuses (five influences on a vertex, a name with a space) is reported in the JSON
// shape scripts rely on, fixed on conversion to .brf, and the fixed file has no error.
#include <QJsonArray>
#include <QTemporaryDir>

#include "cli_util.h"
#include "tests/support/gltf_edit.h"
#include "tests/support/skip.h"
#include "formats/io/file.h"
#include "formats/write.h"

namespace {

using namespace marrow;

// A quad strip of 8 vertices on a chain of 6 bones, each vertex on 5 of them; a mesh named with
// a space.
formats::Scene hostileModel() {
  formats::Scene s;
  for (int b = 0; b < 6; ++b) {
    formats::Bone bone;
    bone.name = "bone" + std::to_string(b);
    bone.parent = b - 1;
    bone.translation = {0.0f, b == 0 ? 0.0f : 0.2f, 0.0f};
    s.skeleton.bones.push_back(bone);
  }
  formats::Mesh m;
  m.name = "my cape";
  for (int i = 0; i < 8; ++i) {
    m.positions.push_back({static_cast<float>(i % 2), 0.2f * static_cast<float>(i / 2), 0.0f});
    m.normals.push_back({0.0f, 0.0f, 1.0f});
    std::vector<formats::Influence> inf;
    for (std::uint32_t k = 0; k < 5; ++k) inf.push_back({(static_cast<std::uint32_t>(i / 2) + k) % 6, 0.1f + 0.1f * static_cast<float>(k)});
    float sum = 0.0f;
    for (auto& x : inf) sum += x.weight;
    for (auto& x : inf) x.weight /= sum;
    m.addInfluences(inf);
  }
  m.uvSets.push_back(std::vector<glm::vec2>(8, glm::vec2(0.5f)));
  for (std::uint32_t i = 0; i + 3 < 8; i += 2) m.indices.insert(m.indices.end(), {i, i + 1, i + 2, i + 1, i + 3, i + 2});
  s.meshes.push_back(std::move(m));
  return s;
}

TEST(CheckCli, ReportsWhatWarbandRefusesAndConvertFixesIt) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const formats::Scene s = hostileModel();
  formats::WriteSource source;
  source.scene = &s;
  const std::string omf = dir.filePath("cape.omf").toStdString();
  const auto written = formats::writeModel(source, omf);
  ASSERT_TRUE(written.ok()) << written.why();
  const std::vector<formats::FileToWrite> files{{written.files[0].path, written.files[0].bytes}};
  ASSERT_TRUE(formats::writeFilesAtomically(files).ok());

  const CliRun r = cli({"check", "--target", "warband", QString::fromStdString(omf), "--json"});
  EXPECT_EQ(r.code, 1) << r.err.toStdString();
  const QJsonObject j = r.json();
  EXPECT_EQ(j.value("target").toString(), "warband");
  QStringList codes;
  for (const auto& v : j.value("problems").toArray()) {
    const QJsonObject p = v.toObject();
    for (const char* key : {"severity", "code", "where", "message", "fix", "fixable"}) EXPECT_TRUE(p.contains(key)) << key;
    if (p.value("code") == "influences.count") {
      EXPECT_TRUE(p.value("fixable").toBool());
    }
    EXPECT_TRUE(p.value("severity") == "error" || p.value("severity") == "warning");
    codes << p.value("code").toString();
  }
  EXPECT_TRUE(codes.contains("influences.count")) << codes.join(' ').toStdString();
  EXPECT_TRUE(codes.contains("name.spaces")) << codes.join(' ').toStdString();

  // cal3d holds both: no error, exit 0.
  const CliRun c = cli({"check", "--target", "cal3d", QString::fromStdString(omf)});
  EXPECT_EQ(c.code, 0) << c.err.toStdString();
  EXPECT_TRUE(c.out.contains("0 error(s)")) << c.out.toStdString();

  // --fix: written, saying what changed; the result has no error.
  const QString brf = dir.filePath("cape.brf");
  const CliRun fix = cli({"convert", QString::fromStdString(omf), "-o", brf, "--fix"});
  EXPECT_EQ(fix.code, 0) << fix.err.toStdString();
  EXPECT_TRUE(fix.err.contains("fixed: ")) << fix.err.toStdString();
  const CliRun again = cli({"check", "--target", "warband", brf, "--json"});
  EXPECT_EQ(again.code, 0) << again.out.toStdString();
  EXPECT_EQ(again.json().value("errors").toInt(), 0);

  // Without --fix the report comes with the conversion.
  const CliRun plain = cli({"convert", QString::fromStdString(omf), "-o", dir.filePath("plain.brf")});
  EXPECT_EQ(plain.code, 0) << plain.err.toStdString();
  EXPECT_TRUE(plain.err.contains("error: influences.count")) << plain.err.toStdString();
}

TEST(CheckCli, UsageErrorsSayWhatIsExpected) {
  const CliRun none = cli({"check", ":demo"});
  EXPECT_EQ(none.code, 2);
  EXPECT_TRUE(none.err.contains("--target")) << none.err.toStdString();
  const CliRun unknown = cli({"check", "--target", "skyrim", ":demo"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_TRUE(unknown.err.contains("warband, mb1011, dragonnest or cal3d")) << unknown.err.toStdString();
  QTemporaryDir dir;
  const CliRun gltf = cli({"convert", ":demo", "-o", dir.filePath("x.glb"), "--fix"});
  EXPECT_EQ(gltf.code, 2);
  EXPECT_TRUE(gltf.err.contains("--fix is for a game's output")) << gltf.err.toStdString();
  const CliRun demo = cli({"check", "--target", "warband", ":demo", "--json"});
  EXPECT_EQ(demo.code, 0) << demo.out.toStdString();
}

// The vertices of `pose --json` (the first mesh).
std::vector<glm::vec3> posedVertices(const CliRun& r) {
  std::vector<glm::vec3> out;
  for (const auto& v : r.json().value("meshes").toArray().at(0).toObject().value("vertices").toArray()) {
    const QJsonArray a = v.toArray();
    out.push_back({static_cast<float>(a[0].toDouble()), static_cast<float>(a[1].toDouble()), static_cast<float>(a[2].toDouble())});
  }
  return out;
}

// A Warband armour made into glTF, with a root joint above the skeleton as a DCC's rig has one (a
// tool's own skeleton), brought back onto the game's skel_human with --skeleton: the game's 20
// bones in the game's order, and it walks as the original does.
TEST(CheckCli, AModelFromAToolIsRiggedOntoTheGamesSkeleton) {
  const QString boots = fixture("brf/wfas_boots_a.brf"), skeletons = fixture("brf/wfas_skeletons.brf"),
                walk = fixture("brf/wfas_ani_walk_backward.brf");
  if (boots.isEmpty() || skeletons.isEmpty() || walk.isEmpty())
    MARROW_SKIP() << "BRF fixtures not found under " MARROW_FIXTURES_DIR "/brf (../shared/fixtures is not part of the project)";
  QTemporaryDir dir;
  const QString glb = dir.filePath("boots.glb"), brf = dir.filePath("boots.brf");
  ASSERT_EQ(cli({"convert", boots, skeletons, walk, "-o", glb}).code, 0);
  ASSERT_TRUE(marrow::testing::addRootJoint(glb, "RootNode"));
  const CliRun plain = cli({"check", "--target", "warband", glb, "--json"});
  bool notTheGames = false;
  for (const auto& p : plain.json().value("problems").toArray()) notTheGames |= p.toObject().value("code") == "skeleton.game";
  EXPECT_TRUE(notTheGames) << plain.out.toStdString();
  const CliRun rig = cli({"convert", glb, "-o", brf, "--skeleton", skeletons + "::skel_human"});
  ASSERT_EQ(rig.code, 0) << rig.err.toStdString();
  EXPECT_TRUE(rig.err.contains("20 bones by name")) << rig.err.toStdString();
  const CliRun info = cli({"info", brf, "--json"});
  ASSERT_EQ(info.code, 0);
  const QJsonObject skeleton = info.json().value("skeleton").toObject();
  EXPECT_EQ(skeleton.value("name").toString(), "skel_human");
  const QJsonArray bones = skeleton.value("bones").toArray();
  ASSERT_EQ(bones.size(), 20);
  EXPECT_EQ(bones[7].toObject().value("name").toString(), "spine") << "the game's order (§8)";
  const CliRun check = cli({"check", "--target", "warband", brf, "--json"});
  for (const auto& p : check.json().value("problems").toArray())
    EXPECT_NE(p.toObject().value("code").toString(), "skeleton.game");
  for (const char* t : {"0", "0.3", "0.7"}) {
    const auto want = posedVertices(cli({"pose", boots, skeletons, walk, "--clip", "walk_backward", "--time", t, "--json"}));
    const auto got = posedVertices(cli({"pose", brf, "--clip", "walk_backward", "--time", t, "--json"}));
    ASSERT_EQ(got.size(), want.size());
    ASSERT_FALSE(want.empty());
    float worst = 0.0f;
    for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, glm::length(got[i] - want[i]));
    EXPECT_LT(worst, 1e-4f) << "at " << t << " s";  // metres: the boots are about 0.3 m across
  }
}

// The demo character (its own names: pelvis, spine1, chest, shin_l…) onto Warband's skel_human:
// its bones find the game's by their joint, with no map; 18 of skel_human's 20 bones have a
// partner (the item bones have none in the demo), where names alone paired 11.
TEST(CheckCli, TheDemoFindsWarbandsBonesByTheirJointWithoutAMap) {
  const QString skeletons = fixture("brf/wfas_skeletons.brf");
  if (skeletons.isEmpty()) MARROW_SKIP() << "BRF fixtures not found under " MARROW_FIXTURES_DIR "/brf";
  QTemporaryDir dir;
  const CliRun rig = cli({"convert", ":demo", "-o", dir.filePath("demo.brf"), "--skeleton", skeletons + "::skel_human"});
  ASSERT_EQ(rig.code, 0) << rig.err.toStdString();
  EXPECT_TRUE(rig.err.contains("18 by their joint (Marrow demo onto Warband skel_human)")) << rig.err.toStdString();
  EXPECT_TRUE(rig.err.contains("9 without a partner")) << rig.err.toStdString();
}

}  // namespace
