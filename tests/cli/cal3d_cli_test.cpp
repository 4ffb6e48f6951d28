// cal3d through marrow-cli: parts read alone, several files as one model, .cfg files.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QImage>
#include <QTemporaryDir>

#include "cli_util.h"

#include "tests/support/skip.h"

namespace {

#define REQUIRE_FIXTURE(var, rel)                                                  \
  const QString var = fixture(rel);                                                \
  if (var.isEmpty()) MARROW_SKIP() << rel << " is absent (../shared/fixtures)"

// Per mesh: its name and the name of its material ("" for none).
std::vector<std::pair<QString, QString>> meshMaterials(const QJsonObject& info) {
  std::vector<std::pair<QString, QString>> out;
  for (const auto& m : info.value("meshes").toArray())
    out.emplace_back(m.toObject().value("name").toString(), m.toObject().value("material").toString());
  return out;
}

TEST(Cal3dCli, AMeshFileConvertedAloneKeepsItsInfluencesAndMaterialThread) {
  REQUIRE_FIXTURE(chest, "cal3d/cally/cally_chest.cmf");
  REQUIRE_FIXTURE(skeleton, "cal3d/cally/cally.csf");
  QTemporaryDir dir;
  const QString xmf = dir.filePath("chest.xmf");
  ASSERT_EQ(cli({"convert", chest, "-o", xmf}).code, 0);
  REQUIRE_FIXTURE(walk, "cal3d/cally/cally_walk.caf");
  // With its skeleton, the converted mesh poses exactly as the original (its influences kept).
  const QJsonObject want = cli({"pose", skeleton, chest, walk, "--json", "--time", "0.4"}).json();
  const QJsonObject got = cli({"pose", skeleton, xmf, walk, "--json", "--time", "0.4"}).json();
  EXPECT_EQ(want.value("meshes").toArray()[0].toObject().value("vertices"),
            got.value("meshes").toArray()[0].toObject().value("vertices"));
  QFile f(xmf);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QByteArray text = f.readAll();
  EXPECT_TRUE(text.contains("MATERIAL=\"2\"")) << "the thread id was lost";
  EXPECT_FALSE(text.contains("NUMINFLUENCES=\"0\""));
}

TEST(Cal3dCli, AnAnimationConvertedAloneKeepsItsTracks) {
  REQUIRE_FIXTURE(walk, "cal3d/cally/cally_walk.caf");
  QTemporaryDir dir;
  const QString xaf = dir.filePath("walk.xaf");
  const CliRun c = cli({"convert", walk, "-o", xaf});
  ASSERT_EQ(c.code, 0) << c.err.toStdString();
  const QJsonObject a = cli({"info", walk, "--json"}).json();
  const QJsonObject b = cli({"info", xaf, "--json"}).json();
  EXPECT_EQ(a.value("clips").toArray()[0].toObject().value("keys"),
            b.value("clips").toArray()[0].toObject().value("keys"));
}

TEST(Cal3dCli, MaterialFilesInAnyOrderFindTheirSubmeshesThroughTheCfgBesideThem) {
  REQUIRE_FIXTURE(cfg, "cal3d/paladin/paladin.cfg");
  const QDir dir = QFileInfo(cfg).dir();
  QStringList files{dir.filePath("paladin.csf")};
  for (const char* m : {"body", "cape", "loincloth"}) files << dir.filePath(QStringLiteral("paladin_%1.xmf").arg(m));
  QStringList materials = dir.entryList({"paladin_*.xrf"}, QDir::Files, QDir::Name | QDir::Reversed);
  for (const auto& m : materials) files << dir.filePath(m);
  const QJsonObject loose = cli(QStringList{"info", "--json"} << files).json();
  const QJsonObject whole = cli({"info", cfg, "--json"}).json();
  EXPECT_EQ(meshMaterials(loose), meshMaterials(whole));
}

TEST(Cal3dCli, AMissingMaterialKeepsItsPlaceInTheCfg) {
  REQUIRE_FIXTURE(cfg, "cal3d/cally/cally.cfg");
  QTemporaryDir dir;
  for (const auto& name : QDir(QFileInfo(cfg).path()).entryList(QDir::Files))
    QFile::copy(QFileInfo(cfg).dir().filePath(name), dir.filePath(name));
  ASSERT_TRUE(QFile::remove(dir.filePath("cally_skin.xrf")));  // material 0
  const auto with = meshMaterials(cli({"info", cfg, "--json"}).json());
  const auto without = meshMaterials(cli({"info", dir.filePath("cally.cfg"), "--json"}).json());
  ASSERT_EQ(with.size(), without.size());
  for (std::size_t i = 0; i < with.size(); ++i)
    if (with[i].second != "cally_skin") {
      EXPECT_EQ(with[i], without[i]) << "thread shifted";
    }
}

TEST(Cal3dCli, ACfgNamesFilesInNeighbouringFolders) {
  REQUIRE_FIXTURE(cfg, "cal3d/cally/cally.cfg");
  QTemporaryDir dir;
  QDir(dir.path()).mkpath("model");
  QFile in(cfg);
  ASSERT_TRUE(in.open(QIODevice::ReadOnly));
  QByteArray text = in.readAll();
  const QByteArray folder = QFileInfo(cfg).absolutePath().toUtf8() + "/";
  // One file by absolute path, the rest through "../", from a .cfg in another folder.
  text.replace("skeleton=", "skeleton=" + folder);
  for (const char* key : {"mesh=", "material=", "animation="}) text.replace(key, QByteArray(key) + "../fixture/");
  QDir(dir.path()).mkpath("fixture");
  for (const auto& name : QDir(QFileInfo(cfg).path()).entryList(QDir::Files))
    QFile::copy(QFileInfo(cfg).dir().filePath(name), dir.filePath("fixture/" + name));
  QFile out(dir.filePath("model/cally.cfg"));
  ASSERT_TRUE(out.open(QIODevice::WriteOnly));
  out.write(text);
  out.close();
  const QJsonObject info = cli({"info", out.fileName(), "--json"}).json();
  EXPECT_EQ(info.value("meshes").toArray().size(), 17);
  EXPECT_EQ(info.value("skeleton").toObject().value("bones").toArray().size(), 37);
}

TEST(Cal3dCli, AnAnimationOpenedBesideTheCfgJoinsItsModel) {
  REQUIRE_FIXTURE(cfg, "cal3d/cally/cally.cfg");
  REQUIRE_FIXTURE(wave, "cal3d/cally/cally_wave.caf");
  const QJsonObject info = cli({"info", cfg, wave, "--json"}).json();
  ASSERT_EQ(info.value("clips").toArray().size(), 2);
  EXPECT_TRUE(info.value("clips").toArray()[1].toObject().value("unmatched_tracks").toArray().isEmpty());
}

// pose --springs: the cloth hangs where cal3d's spring system puts it (render/anim/springs.h,
// checked against libcal3d in the reference tests); every other mesh is where skinning puts it.
TEST(Cal3dCli, PoseWithSpringsMovesTheClothAndNothingElse) {
  REQUIRE_FIXTURE(cfg, "cal3d/paladin/paladin.cfg");
  const QStringList common{"pose", cfg, "--clip", "paladin_walk", "--time", "0.75", "--json"};
  const CliRun rigid = cli(common);
  const CliRun cloth = cli(common + QStringList{"--springs"});
  ASSERT_EQ(rigid.code, 0) << rigid.err.toStdString();
  ASSERT_EQ(cloth.code, 0) << cloth.err.toStdString();
  const QJsonArray a = rigid.json().value("meshes").toArray(), b = cloth.json().value("meshes").toArray();
  ASSERT_EQ(a.size(), b.size());
  // The cape and one loincloth submesh have springs (the two the reference test finds).
  QStringList moved;
  for (qsizetype m = 0; m < a.size(); ++m)
    if (a[m].toObject().value("vertices") != b[m].toObject().value("vertices"))
      moved << a[m].toObject().value("name").toString();
  ASSERT_EQ(moved.size(), 2) << moved.join(' ').toStdString();
  EXPECT_EQ(moved[0], "paladin_cape");
  EXPECT_TRUE(moved[1].startsWith("paladin_loincloth")) << moved[1].toStdString();
}

// render --springs draws the same cloth: the image differs from the skinned one, and rendering
// it twice gives the same image (the simulation is afresh from the clip's start each time).
TEST(Cal3dCli, RenderWithSpringsDrawsTheCloth) {
  REQUIRE_FIXTURE(cfg, "cal3d/paladin/paladin.cfg");
  QTemporaryDir dir;
  const QStringList common{"render", cfg, "--clip", "paladin_walk", "--time", "0.75", "--size", "160x160",
                           "--yaw", "180", "--no-grid"};
  const QString rigid = dir.filePath("rigid.png"), cloth = dir.filePath("cloth.png"), again = dir.filePath("again.png");
  if (qEnvironmentVariableIsEmpty("DISPLAY")) MARROW_SKIP() << "render needs a display (Xvfb)";
  const CliRun a = cli(common + QStringList{"-o", rigid});
  ASSERT_EQ(a.code, 0) << a.err.toStdString();
  const CliRun b = cli(common + QStringList{"-o", cloth, "--springs"});
  ASSERT_EQ(b.code, 0) << b.err.toStdString();
  ASSERT_EQ(cli(common + QStringList{"-o", again, "--springs"}).code, 0);
  const QImage r(rigid), c(cloth), c2(again);
  ASSERT_FALSE(r.isNull());
  ASSERT_EQ(r.size(), c.size());
  int differing = 0;
  for (int y = 0; y < r.height(); ++y)
    for (int x = 0; x < r.width(); ++x) differing += r.pixel(x, y) != c.pixel(x, y);
  EXPECT_GT(differing, 20) << "the cape hangs elsewhere";
  EXPECT_EQ(c, c2);
}

TEST(Cal3dCli, ADamagedBinaryMagicIsReportedAsSuch) {
  REQUIRE_FIXTURE(csf, "cal3d/cally/cally.csf");
  QTemporaryDir dir;
  const QString bad = dir.filePath("cally.csf");
  QFile::copy(csf, bad);
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::ReadWrite));
  f.write("X");
  f.close();
  const CliRun r = cli({"info", bad});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("magic at offset 0")) << r.err.toStdString();
}

}  // namespace
