// marrow-cli on Mount&Blade BRF files: info / list record counts and frame times against the
// values of fixtures/brf/SOURCES.md, convert back to the same bytes, record addresses, pose's
// golden values (man_walk frame 8), errors.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>

#include <map>
#include <set>

#include "cli_util.h"

#include "tests/support/skip.h"

namespace {

#define REQUIRE_BRF(var, name)                                                            \
  const QString var = fixture("brf/" name);                                              \
  if (var.isEmpty())                                                                      \
  MARROW_SKIP() << "BRF fixture " name " not found under " MARROW_FIXTURES_DIR "/brf "     \
                  "(../shared/fixtures is not part of the project)"

std::map<std::string, int> kindCounts(const QJsonArray& records) {
  std::map<std::string, int> out;
  for (const auto& r : records) ++out[r.toObject()["kind"].toString().toStdString()];
  return out;
}

QJsonObject recordNamed(const QJsonArray& records, const QString& name) {
  for (const auto& r : records)
    if (r.toObject()["name"].toString() == name) return r.toObject();
  return {};
}

QByteArray bytesOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

TEST(BrfCli, InfoGivesRecordCountsAndFrameTimes) {
  REQUIRE_BRF(icons, "wfas_map_icons_c.brf");
  const CliRun r = cli({"info", icons, "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject j = r.json();
  EXPECT_EQ(j["meshes"].toArray().size(), 2);
  const QJsonArray records = j["records"].toArray();
  EXPECT_EQ(kindCounts(records), (std::map<std::string, int>{{"mesh", 2}}));
  const QJsonObject mule = recordNamed(records, "icon_mule");
  EXPECT_EQ(mule["positions"].toInt(), 321);
  EXPECT_EQ(mule["vertices"].toInt(), 392);
  EXPECT_EQ(mule["faces"].toInt(), 597);
  EXPECT_EQ(mule["tangents"].toBool(), true);
  const QJsonArray times = mule["frame_times"].toArray();
  const std::vector<int> want = {0, 100, 104, 108, 110, 116, 120, 125, 128, 130, 132, 135, 137, 140};
  ASSERT_EQ(times.size(), static_cast<int>(want.size()));
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_EQ(times[static_cast<int>(k)].toInt(), want[k]);
  // The frames play as a clip of the file's times (30 per second).
  bool found = false;
  for (const auto& c : j["clips"].toArray())
    if (c.toObject()["name"].toString() == "icon_mule (frames)") {
      found = true;
      EXPECT_NEAR(c.toObject()["duration"].toDouble(), 140.0 / 30.0, 1e-6);
      EXPECT_EQ(c.toObject()["frame_rate"].toDouble(), 30.0);
    }
  EXPECT_TRUE(found);
}

TEST(BrfCli, ListCountsEveryKindOfRecord) {
  REQUIRE_BRF(ref, "openbrf_redux_reference.brf");
  REQUIRE_BRF(shaders, "wfas_core_shaders.brf");
  REQUIRE_BRF(bodies, "m1866_object_bodies.brf");
  REQUIRE_BRF(flora, "wfas_oim_flora_materials.brf");
  const CliRun r = cli({"list", ref, shaders, bodies, flora, "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonArray records = r.json()["records"].toArray();
  EXPECT_EQ(kindCounts(records), (std::map<std::string, int>{{"mesh", 7},
                                                             {"skeleton", 2},
                                                             {"animation", 7},
                                                             {"shader", 139},
                                                             {"body", 19},
                                                             {"texture", 9},
                                                             {"material", 5}}));
  const QJsonObject cheer = recordNamed(records, "man_cheer");
  EXPECT_EQ(cheer["bones"].toInt(), 20);
  EXPECT_EQ(cheer["translation_keys"].toInt(), 1598);
  EXPECT_EQ(cheer["min_keys_per_bone"].toInt(), 2);
  EXPECT_EQ(cheer["max_keys_per_bone"].toInt(), 1494);
  EXPECT_EQ(cheer["last_time"].toInt(), 1597);
  const QJsonObject horse = recordNamed(records, "anim_horse");
  EXPECT_EQ(horse["frames"].toInt(), 555);
  EXPECT_EQ(horse["last_time"].toInt(), 908);
  const QJsonObject armour = recordNamed(records, "SkinA.hard_lthr_a");
  EXPECT_EQ(armour["rigged_bones"].toInt(), 11);
  EXPECT_EQ(armour["max_bone"].toInt(), 17);
  const QJsonObject def = recordNamed(records, "def_shader");
  EXPECT_EQ(def["technique"].toString(), "notexture");
  EXPECT_EQ(def["fallback"].toString(), "def_shader_ffp");
  const QJsonObject cart = recordNamed(records, "bocart");
  EXPECT_EQ(cart["parts"].toInt(), 4);
  EXPECT_TRUE(cart["composite"].toBool());
  EXPECT_EQ(cart["kinds"].toObject()["capsule"].toInt(), 3);
}

// A BRF cut short (issue 20): an error without --partial; with it, what came before the damage,
// marked partial, the damage among the diagnostics, and convert writes it.
TEST(BrfCli, ACutFileIsAnErrorUnlessPartIsAskedFor) {
  REQUIRE_BRF(whole, "openbrf_redux_reference.brf");
  QTemporaryDir dir;
  const QByteArray bytes = bytesOf(whole);
  const QString cut = dir.filePath(QStringLiteral("cut.brf"));
  {
    QFile f(cut);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes.left(bytes.size() / 10));
  }
  const CliRun refused = cli({"info", cut, "--json"});
  EXPECT_EQ(refused.code, 1);
  EXPECT_TRUE(refused.err.contains("cut.brf")) << refused.err.toStdString();
  const CliRun part = cli({"info", cut, "--partial", "--json"});
  ASSERT_EQ(part.code, 0) << part.err.toStdString();
  const QJsonObject j = part.json();
  EXPECT_TRUE(j["partial"].toBool());
  const CliRun full = cli({"info", whole, "--json"});
  ASSERT_EQ(full.code, 0);
  EXPECT_FALSE(full.json()["partial"].toBool());
  const int meshes = j["meshes"].toArray().size();
  EXPECT_GT(meshes, 0);
  EXPECT_LT(meshes, full.json()["meshes"].toArray().size());
  bool named = false;
  for (const auto& d : j["diagnostics"].toArray())
    named |= d.toObject()["severity"].toString() == QStringLiteral("error") &&
             d.toObject()["message"].toString().contains(QStringLiteral("damaged"));
  EXPECT_TRUE(named) << part.out.toStdString().substr(0, 2000);
  const QString glb = dir.filePath(QStringLiteral("cut.glb"));
  EXPECT_EQ(cli({"convert", cut, "-o", glb}).code, 1);
  const CliRun converted = cli({"convert", cut, "--partial", "-o", glb});
  EXPECT_EQ(converted.code, 0) << converted.err.toStdString();
  EXPECT_TRUE(QFile::exists(glb));
}

TEST(BrfCli, ConvertToBrfGivesBackTheBytes) {
  REQUIRE_BRF(boots, "wfas_boots_a.brf");
  QTemporaryDir dir;
  const char* const files[] = {"wfas_boots_a.brf",    "openbrf_cfcohen_reference.brf",
                               "m1866_object_bodies.brf", "wfas_skeletons.brf",
                               "wfas_core_shaders.brf", "wfas_test.brf"};
  std::size_t converted = 0;
  for (const char* name : files) {
    const QString in = fixture((std::string("brf/") + name).c_str());
    if (in.isEmpty()) continue;
    const QString out = dir.filePath(QString::fromLatin1(name));
    const CliRun r = cli({"convert", in, "-o", out});
    ASSERT_EQ(r.code, 0) << name << ": " << r.err.toStdString();
    EXPECT_EQ(bytesOf(out), bytesOf(in)) << name;
    ++converted;
  }
  MARROW_EXPECT_ALL_USED(converted, std::size(files));
}

// Issue 19: a BRF's level meshes (NAME.lod1 …) were posed and drawn on top of their mesh. info
// says which mesh each is a level of; pose gives one level (0 unless --level asks).
TEST(BrfCli, LevelMeshesArePosedOneLevelAtATime) {
  const QString paladin = fixture("cal3d/paladin/paladin.cfg");
  if (paladin.isEmpty()) MARROW_SKIP() << "the cal3d fixtures are absent (../shared/fixtures/cal3d)";
  QTemporaryDir dir;
  const QString brf = dir.filePath("paladin.brf");
  ASSERT_EQ(cli({"convert", paladin, "-o", brf}).code, 0);  // a progressive mesh: NAME.lod1 … lod3
  const CliRun info = cli({"info", brf, "--json"});
  ASSERT_EQ(info.code, 0);
  std::map<QString, int> levelOf;  // mesh → level
  std::map<QString, QString> baseOf;
  for (const auto& m : info.json().value("meshes").toArray()) {
    const QJsonObject o = m.toObject();
    levelOf[o.value("name").toString()] = o.value("level").toInt(-1);
    if (o.contains("level_of")) baseOf[o.value("name").toString()] = o.value("level_of").toString();
  }
  ASSERT_FALSE(baseOf.empty());
  for (const auto& [mesh, base] : baseOf) {
    EXPECT_EQ(mesh, base + ".lod" + QString::number(levelOf[mesh]));
    EXPECT_EQ(levelOf[base], 0) << base.toStdString();
  }
  const auto posedNames = [&](const QStringList& extra) {
    QStringList args{"pose", brf, "--json"};
    const CliRun r = cli(args + extra);
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    std::set<QString> names;
    for (const auto& m : r.json().value("meshes").toArray()) names.insert(m.toObject().value("name").toString());
    return names;
  };
  // Level 0: the meshes themselves; level 3: each at its deepest up to 3.
  std::set<QString> zero, three;
  for (const auto& [mesh, level] : levelOf)
    if (level == 0) zero.insert(mesh);
  for (const QString& base : zero) {
    QString deepest = base;
    for (int l = 1; l <= 3; ++l)
      if (levelOf.count(base + ".lod" + QString::number(l))) deepest = base + ".lod" + QString::number(l);
    three.insert(deepest);
  }
  EXPECT_EQ(posedNames({}), zero);
  EXPECT_EQ(posedNames({"--level", "3"}), three);
  EXPECT_EQ(cli({"pose", brf, "--level", "10"}).code, 2);
}

TEST(BrfCli, ConvertChosenRecordsAndVersions) {
  REQUIRE_BRF(ref, "openbrf_redux_reference.brf");
  QTemporaryDir dir;
  const QString wb = dir.filePath("boots_wb.brf"), back = dir.filePath("boots_v0.brf");
  CliRun r = cli({"convert", ref + "::SkinA.light_leather_boots", ref + "::skel_human", "-o", wb,
                  "--version", "1"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("uv2")) << "says the second uv set is not kept";
  r = cli({"list", wb, "--json"});
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(kindCounts(r.json()["records"].toArray()),
            (std::map<std::string, int>{{"mesh", 1}, {"skeleton", 1}}));
  EXPECT_TRUE(bytesOf(wb).startsWith(QByteArray("\x06\x00\x00\x00rfver ", 10)));
  // Back to 1.011: the same positions and faces; and the boots pose like the original.
  r = cli({"convert", wb, "-o", back, "--version", "0"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const CliRun a = cli({"pose", ref + "::SkinA.light_leather_boots", "--clip", "none", "--json"});
  const CliRun b = cli({"pose", back, "--clip", "none", "--json"});
  ASSERT_EQ(a.code, 0);
  ASSERT_EQ(b.code, 0) << b.err.toStdString();
  EXPECT_EQ(a.json()["meshes"].toArray(), b.json()["meshes"].toArray());
}

TEST(BrfCli, ConvertToOtherFormatsLeavesOutClipsOfAnotherSkeleton) {
  REQUIRE_BRF(ref, "openbrf_redux_reference.brf");
  QTemporaryDir dir;
  const QString omf = dir.filePath("ref.omf");
  const CliRun r = cli({"convert", ref, "-o", omf});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("anim_horse")) << r.err.toStdString();
  const CliRun i = cli({"info", omf, "--json"});
  ASSERT_EQ(i.code, 0);
  const QJsonObject j = i.json();
  EXPECT_EQ(j["meshes"].toArray().size(), 7);
  EXPECT_EQ(j["skeleton"].toObject()["bones"].toArray().size(), 20);
  EXPECT_EQ(j["clips"].toArray().size(), 6);  // the human ones; anim_horse is for skel_horse
}

TEST(BrfCli, PoseReproducesManWalkFrame8) {
  REQUIRE_BRF(ref, "openbrf_redux_reference.brf");
  const CliRun r = cli({"pose", ref + "::SkinA.bastard_sword", "--clip", "man_walk", "--time",
                        QString::number(8.0 / 30.0, 'g', 9), "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject j = r.json();
  const QJsonArray v0 = j["meshes"].toArray()[0].toObject()["vertices"].toArray()[0].toArray();
  // SOURCES.md: sword position 0 (vertex 0) skinned to (0.230299, -0.072858, 0.963609).
  EXPECT_NEAR(v0[0].toDouble(), 0.230299, 2e-5);
  EXPECT_NEAR(v0[1].toDouble(), -0.072858, 2e-5);
  EXPECT_NEAR(v0[2].toDouble(), 0.963609, 2e-5);
  for (const auto& bone : j["bones"].toArray())
    if (bone.toObject()["name"].toString() == "head") {
      const QJsonArray m = bone.toObject()["model"].toArray();
      EXPECT_NEAR(m[12].toDouble(), -0.06670, 2e-5);
      EXPECT_NEAR(m[13].toDouble(), -0.13460, 2e-5);
      EXPECT_NEAR(m[14].toDouble(), 1.59064, 2e-5);
    }
  // Shown upright (display space): the head is above the feet, on +Y.
  const CliRun d = cli({"pose", ref + "::skel_human", "--clip", "none", "--space", "display", "--json"});
  ASSERT_EQ(d.code, 0);
  double head = 0, foot = 0;
  for (const auto& bone : d.json()["bones"].toArray()) {
    const QJsonArray m = bone.toObject()["model"].toArray();
    if (bone.toObject()["name"].toString() == "head") head = m[13].toDouble();
    if (bone.toObject()["name"].toString() == "foot.L") foot = m[13].toDouble();
  }
  EXPECT_GT(head - foot, 1.4);
}

TEST(BrfCli, AnUnknownRecordIsALoadErrorNamingIt) {
  REQUIRE_BRF(ref, "openbrf_redux_reference.brf");
  const CliRun r = cli({"info", ref + "::nothing_here"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("nothing_here")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("openbrf_redux_reference.brf")) << r.err.toStdString();
}

TEST(BrfCli, TruncatedFilesAreErrorsWithAnOffset) {
  REQUIRE_BRF(boots, "wfas_boots_a.brf");
  QTemporaryDir dir;
  const QByteArray all = bytesOf(boots);
  for (qsizetype cut : {qsizetype{3}, qsizetype{10}, qsizetype{25}, qsizetype{400}, all.size() / 2, all.size() - 1}) {
    const QString path = dir.filePath(QStringLiteral("cut%1.brf").arg(cut));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(all.left(cut));
    f.close();
    const CliRun r = cli({"info", path});
    EXPECT_EQ(r.code, 1) << cut;
    EXPECT_TRUE(r.err.contains("offset")) << cut << ": " << r.err.toStdString();
  }
}

}  // namespace
