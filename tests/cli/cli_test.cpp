// marrow-cli as scripts use it: exit codes, and the JSON shapes the issues fix.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QVector3D>

#include <cmath>
#include <functional>


#include "cli_util.h"

#include "tests/support/skip.h"

namespace {

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(cli({}).code, 2);
  EXPECT_EQ(cli({"frobnicate", ":demo"}).code, 2);
  EXPECT_EQ(cli({"info"}).code, 2);
  EXPECT_EQ(cli({"info", ":demo", "--bogus"}).code, 2);
  EXPECT_EQ(cli({"pose", ":demo", "--time", "soon"}).code, 2);
  EXPECT_EQ(cli({"pose", ":demo", "--space", "sideways"}).code, 2);
  EXPECT_EQ(cli({"convert", ":demo"}).code, 2);
  EXPECT_EQ(cli({"render", ":demo", "-o", "x.png", "--json"}).code, 2);
}

TEST(Cli, LoadErrorsExitWithOneAndNameTheFile) {
  const CliRun r = cli({"info", "/nonexistent/model.omf"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("/nonexistent/model.omf")) << r.err.toStdString();
  QTemporaryDir dir;
  const QString bad = dir.filePath(QStringLiteral("bad.omf"));
  std::ofstream(bad.toStdString()) << "OMF1\x05\x00";
  const CliRun b = cli({"info", bad});
  EXPECT_EQ(b.code, 1);
  EXPECT_TRUE(b.err.contains("bad.omf")) << b.err.toStdString();
  EXPECT_TRUE(b.err.contains("offset")) << b.err.toStdString();
}

TEST(Cli, AClipTheModelDoesNotHaveIsAUsageErrorListingTheClips) {
  const CliRun r = cli({"pose", ":demo", "--clip", "no-such-clip"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("walk")) << r.err.toStdString();
}

TEST(Cli, InfoJsonHasTheContractedShape) {
  const CliRun r = cli({"info", ":demo", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject o = r.json();
  for (const char* list : {"meshes", "clips", "materials", "textures", "diagnostics"})
    EXPECT_TRUE(o.value(QLatin1String(list)).isArray()) << list;
  ASSERT_TRUE(o.value("skeleton").toObject().value("bones").isArray());
  const QJsonArray meshes = o.value("meshes").toArray();
  ASSERT_FALSE(meshes.isEmpty());
  std::int64_t triangles = 0;
  for (const auto& m : meshes) {
    const QJsonObject mesh = m.toObject();
    EXPECT_TRUE(mesh.value("name").isString());
    // Counts are plain integers, not strings or floats.
    EXPECT_TRUE(mesh.value("vertices").isDouble());
    EXPECT_EQ(mesh.value("vertices").toDouble(), std::floor(mesh.value("vertices").toDouble()));
    triangles += mesh.value("triangles").toInteger();
    EXPECT_TRUE(mesh.value("max_influences").isDouble());
  }
  // The demo character as resources/demo makes it.
  EXPECT_EQ(triangles, 14652);
  EXPECT_EQ(o.value("skeleton").toObject().value("bones").toArray().size(), 27);
  const QJsonArray clips = o.value("clips").toArray();
  ASSERT_EQ(clips.size(), 3);
  for (const auto& c : clips) {
    const QJsonObject clip = c.toObject();
    EXPECT_TRUE(clip.value("name").isString());
    EXPECT_GT(clip.value("duration").toDouble(), 0.0);
    EXPECT_GT(clip.value("frame_rate").toDouble(), 0.0);
    EXPECT_GT(clip.value("tracks").toInteger(), 0);
    EXPECT_GT(clip.value("keys").toInteger(), 0);
  }
  for (const auto& m : o.value("materials").toArray()) {
    EXPECT_TRUE(m.toObject().value("name").isString());
    EXPECT_TRUE(m.toObject().value("textures").isArray());
  }
}

TEST(Cli, PoseJsonHasTheContractedShape) {
  const CliRun r = cli({"pose", ":demo", "--clip", "0", "--time", "0.4", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject o = r.json();
  EXPECT_TRUE(o.value("clip").isString());
  EXPECT_DOUBLE_EQ(o.value("time").toDouble(), 0.4);
  const QJsonArray bones = o.value("bones").toArray();
  ASSERT_FALSE(bones.isEmpty());
  int roots = 0;
  for (const auto& b : bones) {
    const QJsonObject bone = b.toObject();
    EXPECT_TRUE(bone.value("name").isString());
    EXPECT_TRUE(bone.contains("parent"));
    roots += bone.value("parent").isNull();
    ASSERT_EQ(bone.value("model").toArray().size(), 16);
    EXPECT_DOUBLE_EQ(bone.value("model").toArray().at(15).toDouble(), 1.0);  // column-major
  }
  EXPECT_EQ(roots, 1);  // the demo has one root bone
  const QJsonArray meshes = o.value("meshes").toArray();
  ASSERT_FALSE(meshes.isEmpty());
  for (const auto& m : meshes) {
    const QJsonArray verts = m.toObject().value("vertices").toArray();
    ASSERT_FALSE(verts.isEmpty());
    EXPECT_EQ(verts.at(0).toArray().size(), 3);
  }
}

TEST(Cli, PoseMovesBetweenTimesAndRestPoseNeedsNoClip) {
  const QJsonObject a = cli({"pose", ":demo", "--clip", "0", "--time", "0", "--json"}).json();
  const QJsonObject b = cli({"pose", ":demo", "--clip", "0", "--time", "0.3", "--json"}).json();
  EXPECT_NE(a.value("meshes"), b.value("meshes"));
  const QJsonObject rest = cli({"pose", ":demo", "--clip", "none", "--json"}).json();
  EXPECT_TRUE(rest.value("clip").isNull());
}

TEST(Cli, DisplaySpaceEqualsNativeSpaceForAYUpMetreModel) {
  // OMF is Y-up, right-handed, metres: display space changes nothing (Z-up and left-handed
  // conversions are checked in the unit tests of formats::toDisplay and convertBasis).
  const QJsonObject n = cli({"pose", ":demo", "--json", "--time", "0.2"}).json();
  const QJsonObject d = cli({"pose", ":demo", "--json", "--time", "0.2", "--space", "display"}).json();
  EXPECT_EQ(n.value("meshes"), d.value("meshes"));
  EXPECT_EQ(d.value("space").toString(), QStringLiteral("display"));
}

// Display space of a Z-up model (Valve SMD) and of a centimetre one (FBX): vertices map by the
// basis matrix C, bone matrices by C·M·C⁻¹.
void expectDisplayIs(const QString& model, const std::function<QVector3D(QVector3D)>& c) {
  if (model.isEmpty()) MARROW_SKIP() << "assimp-testmodels absent";
  const QJsonObject n = cli({"pose", model, "--json", "--time", "0.3"}).json();
  const QJsonObject d = cli({"pose", model, "--json", "--time", "0.3", "--space", "display"}).json();
  const QJsonArray nm = n.value("meshes").toArray(), dm = d.value("meshes").toArray();
  ASSERT_EQ(nm.size(), dm.size());
  ASSERT_FALSE(nm.isEmpty());
  auto vec = [](const QJsonValue& v) {
    const QJsonArray a = v.toArray();
    return QVector3D(static_cast<float>(a[0].toDouble()), static_cast<float>(a[1].toDouble()),
                     static_cast<float>(a[2].toDouble()));
  };
  for (qsizetype m = 0; m < nm.size(); ++m) {
    const QJsonArray a = nm[m].toObject().value("vertices").toArray();
    const QJsonArray b = dm[m].toObject().value("vertices").toArray();
    ASSERT_EQ(a.size(), b.size());
    for (qsizetype i = 0; i < a.size(); i += 7) {
      const QVector3D want = c(vec(a[i])), got = vec(b[i]);
      ASSERT_LT((want - got).length(), 1e-4f * (1.0f + want.length())) << "vertex " << i;
    }
  }
  // A bone's origin moves like a point; its axes keep their length (the unit scales positions).
  const QJsonArray nb = n.value("bones").toArray(), db = d.value("bones").toArray();
  ASSERT_EQ(nb.size(), db.size());
  for (qsizetype i = 0; i < nb.size(); ++i) {
    const QJsonArray a = nb[i].toObject().value("model").toArray();
    const QJsonArray b = db[i].toObject().value("model").toArray();
    const QVector3D origin(static_cast<float>(a[12].toDouble()), static_cast<float>(a[13].toDouble()),
                           static_cast<float>(a[14].toDouble()));
    const QVector3D want = c(origin);
    const QVector3D got(static_cast<float>(b[12].toDouble()), static_cast<float>(b[13].toDouble()),
                        static_cast<float>(b[14].toDouble()));
    ASSERT_LT((want - got).length(), 1e-4f * (1.0f + want.length())) << "bone " << i;
    const QVector3D axisN(static_cast<float>(a[0].toDouble()), static_cast<float>(a[1].toDouble()),
                          static_cast<float>(a[2].toDouble()));
    const QVector3D axisD(static_cast<float>(b[0].toDouble()), static_cast<float>(b[1].toDouble()),
                          static_cast<float>(b[2].toDouble()));
    ASSERT_NEAR(axisD.length(), axisN.length(), 1e-4f * (1.0f + axisN.length())) << "bone " << i;
  }
}

TEST(Cli, DisplaySpaceOfAZUpModelTurnsZUpIntoYUp) {
  expectDisplayIs(assimpModel("SMD/WusonSMD.smd"),
                  [](QVector3D p) { return QVector3D(p.x(), p.z(), -p.y()); });
}

TEST(Cli, DisplaySpaceOfACentimetreModelIsInMetres) {
  expectDisplayIs(assimpModel("FBX/huesitos.fbx"), [](QVector3D p) { return p * 0.01f; });
}

TEST(Cli, ConvertWritesAnOmfThatReadsBackTheSame) {
  QTemporaryDir dir;
  const QString out = dir.filePath(QStringLiteral("demo-copy.omf"));
  const CliRun c = cli({"convert", ":demo", "-o", out});
  ASSERT_EQ(c.code, 0) << c.err.toStdString();
  const QJsonObject a = cli({"info", ":demo", "--json"}).json();
  const QJsonObject b = cli({"info", out, "--json"}).json();
  EXPECT_EQ(a.value("meshes"), b.value("meshes"));
  EXPECT_EQ(a.value("skeleton"), b.value("skeleton"));
  EXPECT_EQ(a.value("clips"), b.value("clips"));
}

// --clip (repeatable) keeps those clips in whatever the output: a .glb, an .omf, BRF records.
TEST(Cli, ConvertClipRestrictsEveryOutputToTheClipsNamed) {
  QTemporaryDir dir;
  const QJsonArray all = cli({"info", ":demo", "--json"}).json().value("clips").toArray();
  ASSERT_GE(all.size(), 3);
  const QString first = all[0].toObject().value("name").toString(), last = all[2].toObject().value("name").toString();
  for (const char* name : {"two.glb", "two.omf"}) {
    const QString out = dir.filePath(QLatin1String(name));
    const CliRun c = cli({"convert", ":demo", "-o", out, "--clip", last, "--clip", first});
    ASSERT_EQ(c.code, 0) << c.err.toStdString();
    const QJsonArray clips = cli({"info", out, "--json"}).json().value("clips").toArray();
    ASSERT_EQ(clips.size(), 2) << name;
    EXPECT_EQ(clips[0].toObject().value("name").toString(), first) << "in the model's order";
    EXPECT_EQ(clips[1].toObject().value("name").toString(), last);
    EXPECT_EQ(clips[0].toObject().value("duration"), all[0].toObject().value("duration"));
  }
  const CliRun unknown = cli({"convert", ":demo", "-o", dir.filePath("x.glb"), "--clip", "no such clip"});
  EXPECT_EQ(unknown.code, 2) << unknown.err.toStdString();
  EXPECT_TRUE(unknown.err.contains("no such clip")) << unknown.err.toStdString();

  // BRF records written as they are: only the animations named.
  const QString skeletons = fixture("brf/wfas_skeletons.brf");
  if (skeletons.isEmpty()) MARROW_SKIP() << "../shared/fixtures/brf is absent";
  const QString walk = fixture("brf/wfas_ani_walk_backward.brf");
  const QString out = dir.filePath("walk.brf");
  const CliRun c = cli({"convert", skeletons, walk, "-o", out, "--clip", "walk_backward"});
  ASSERT_EQ(c.code, 0) << c.err.toStdString();
  int animations = 0;
  for (const QJsonValue r : cli({"list", out, "--json"}).json().value("records").toArray())
    if (r.toObject().value("kind").toString() == "animation") {
      ++animations;
      EXPECT_EQ(r.toObject().value("name").toString(), "walk_backward");
    }
  EXPECT_EQ(animations, 1);
}

// The largest distance between two pose outputs' vertices, over the size of the first.
double poseDistance(const QJsonObject& a, const QJsonObject& b) {
  const QJsonArray am = a.value("meshes").toArray(), bm = b.value("meshes").toArray();
  EXPECT_EQ(am.size(), bm.size());
  double worst = 0, lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
  for (qsizetype m = 0; m < am.size() && m < bm.size(); ++m) {
    const QJsonArray av = am[m].toObject().value("vertices").toArray();
    const QJsonArray bv = bm[m].toObject().value("vertices").toArray();
    EXPECT_EQ(av.size(), bv.size());
    for (qsizetype i = 0; i < av.size() && i < bv.size(); ++i) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double x = av[i].toArray()[k].toDouble(), y = bv[i].toArray()[k].toDouble();
        d2 += (x - y) * (x - y);
        lo[k] = std::min(lo[k], x);
        hi[k] = std::max(hi[k], x);
      }
      worst = std::max(worst, std::sqrt(d2));
    }
  }
  const double size = std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                (hi[2] - lo[2]) * (hi[2] - lo[2]));
  return worst / std::max(size, 1e-9);
}

TEST(Cli, ConvertToACal3dModelKeepsThePoses) {
  QTemporaryDir dir;
  for (const bool xml : {false, true}) {
    const QString cfg = dir.filePath(xml ? QStringLiteral("xml/demo.cfg") : QStringLiteral("bin/demo.cfg"));
    QDir().mkpath(QFileInfo(cfg).path());
    QStringList args{"convert", ":demo", "-o", cfg};
    if (xml) args << "--xml";
    const CliRun c = cli(args);
    ASSERT_EQ(c.code, 0) << c.err.toStdString();
    for (const char* clip : {"walk", "wave"})
      for (const char* t : {"0", "0.37", "1.05"}) {
        const QJsonObject want = cli({"pose", ":demo", "--json", "--space", "display", "--clip", clip, "--time", t}).json();
        const QJsonObject got = cli({"pose", cfg, "--json", "--space", "display", "--clip", clip, "--time", t}).json();
        EXPECT_LT(poseDistance(want, got), 1e-4) << clip << " at " << t << (xml ? " (XML)" : "");
      }
  }
}

TEST(Cli, SeveralInputsFormOneModel) {
  const QString gltf = assimpModel("glTF2/simple_skin/simple_skin.gltf");
  if (gltf.isEmpty()) MARROW_SKIP() << "assimp-testmodels absent";
  const QJsonObject one = cli({"info", gltf, "--json"}).json();
  const QJsonObject two = cli({"info", gltf, ":demo", "--json"}).json();
  EXPECT_EQ(two.value("meshes").toArray().size(),
            one.value("meshes").toArray().size() +
                cli({"info", ":demo", "--json"}).json().value("meshes").toArray().size());
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
