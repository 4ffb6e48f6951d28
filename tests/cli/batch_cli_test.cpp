// marrow-cli convert in batch (-o FOLDER/): every model of a folder, of a pattern, of a pak's
// entries or a BRF's meshes converted on its own; a broken file is reported and the rest are
// converted; the exit status says whether anything failed. Outputs are read back by assimp
// (marrow::formats::loadFile on a .glb), independently of the writer.
#include <sys/stat.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <map>
#include <set>
#include <string>

#include "cli_util.h"
#include "formats/registry.h"

#include "tests/support/big_model.h"
#include "tests/support/cal3d_folder.h"
#include "tests/support/skip.h"

namespace {

bool copyInto(const QString& from, const QString& to) {
  QDir().mkpath(QFileInfo(to).path());
  return QFile::copy(from, to);
}

bool writeText(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).path());
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// The files under `dir`, relative, sorted.
std::set<std::string> filesUnder(const QString& dir) {
  std::set<std::string> out;
  QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) out.insert(QDir(dir).relativeFilePath(it.next()).toStdString());
  return out;
}

std::set<std::string> inputsOf(const QJsonArray& list) {
  std::set<std::string> out;
  for (const auto& v : list) out.insert(v.toObject().value("input").toString().toStdString());
  return out;
}

// The demo written as an OMF by marrow-cli itself: a known-good model file.
QString demoOmf(const QString& path) {
  QDir().mkpath(QFileInfo(path).path());
  const CliRun r = cli({"convert", ":demo", "-o", path});
  EXPECT_EQ(r.code, 0) << r.err.toStdString();
  return path;
}

}  // namespace

TEST(BatchConvert, FolderWithOneBrokenFileConvertsTheRestAndReportsIt) {
  QTemporaryDir tmp;
  const QString in = tmp.filePath("in"), out = tmp.filePath("out");
  demoOmf(in + "/a/knight.omf");
  demoOmf(in + "/b/deep/knight2.omf");
  QFile demo(in + "/a/knight.omf");
  ASSERT_TRUE(demo.open(QIODevice::ReadOnly));
  const QByteArray good = demo.readAll();
  ASSERT_TRUE(writeText(in + "/a/broken.omf", good.left(good.size() / 3)));  // truncated
  ASSERT_TRUE(writeText(in + "/a/readme.txt", "not a model"));               // not a model file: not tried
  const QString cfg = fixture("cal3d/paladin/paladin.cfg");
  if (!cfg.isEmpty()) {
    for (const QString& f : QDir(QFileInfo(cfg).path()).entryList(QDir::Files))
      ASSERT_TRUE(copyInto(QFileInfo(cfg).path() + "/" + f, in + "/paladin/" + f));
  }

  const CliRun r = cli({"convert", in, "-o", out + "/", "-j", "2", "--json"});
  EXPECT_EQ(r.code, 1) << "a failed model makes the batch fail\n" << r.err.toStdString();
  const QJsonObject json = r.json();
  std::set<std::string> converted = inputsOf(json.value("converted").toArray());
  std::set<std::string> expected = {(in + "/a/knight.omf").toStdString(),
                                    (in + "/b/deep/knight2.omf").toStdString()};
  if (!cfg.isEmpty()) expected.insert((in + "/paladin/paladin.cfg").toStdString());
  EXPECT_EQ(converted, expected);
  const QJsonArray failed = json.value("failed").toArray();
  ASSERT_EQ(failed.size(), 1);
  EXPECT_EQ(failed[0].toObject().value("input").toString(), in + "/a/broken.omf");
  EXPECT_FALSE(failed[0].toObject().value("error").toString().isEmpty());
  // The summary on stderr names the broken file and the count.
  EXPECT_NE(r.err.indexOf("FAILED " + (in + "/a/broken.omf").toUtf8()), -1) << r.err.toStdString();
  EXPECT_NE(r.err.indexOf("1 failed:"), -1) << r.err.toStdString();

  // The folder's layout is kept; every output reads back (through assimp) with the source's
  // bones and vertices.
  std::set<std::string> files = filesUnder(out);
  std::set<std::string> want = {"a/knight.glb", "b/deep/knight2.glb"};
  if (!cfg.isEmpty()) want.insert("paladin/paladin.glb");
  EXPECT_EQ(files, want);
  auto source = marrow::formats::loadFile((in + "/a/knight.omf").toStdString());
  auto back = marrow::formats::loadFile((out + "/a/knight.glb").toStdString());
  ASSERT_TRUE(source && back) << (back ? "" : back.error().describe());
  // (assimp adds the scene's own nodes above the skin's joints: every source bone is there.)
  std::set<std::string> backBones;
  for (const auto& b : back->skeleton.bones) backBones.insert(b.name);
  ASSERT_FALSE(source->skeleton.bones.empty());
  for (const auto& b : source->skeleton.bones) EXPECT_TRUE(backBones.count(b.name)) << b.name;
  std::size_t vs = 0, vb = 0;
  for (const auto& m : source->meshes) vs += m.positions.size();
  for (const auto& m : back->meshes) vb += m.positions.size();
  EXPECT_EQ(vb, vs);
  EXPECT_EQ(back->clips.size(), source->clips.size());
}

TEST(BatchConvert, AllGoodExitsZeroAndJobCountDoesNotChangeTheResult) {
  QTemporaryDir tmp;
  for (int i = 0; i < 4; ++i) demoOmf(tmp.filePath(QString("in/m%1.omf").arg(i)));
  const CliRun one = cli({"convert", tmp.filePath("in"), "-o", tmp.filePath("one") + "/", "-j1", "--to", "omf"});
  const CliRun three = cli({"convert", tmp.filePath("in"), "-o", tmp.filePath("three"), "--jobs", "3", "--to", "omf"});
  ASSERT_EQ(one.code, 0) << one.err.toStdString();
  ASSERT_EQ(three.code, 0) << three.err.toStdString();
  EXPECT_NE(one.err.indexOf("converted 4 of 4 models"), -1) << one.err.toStdString();
  const auto files = filesUnder(tmp.filePath("one"));
  EXPECT_EQ(files, (std::set<std::string>{"m0.omf", "m1.omf", "m2.omf", "m3.omf"}));
  EXPECT_EQ(filesUnder(tmp.filePath("three")), files);
  for (const auto& f : files) {
    QFile a(tmp.filePath("one/" + QString::fromStdString(f))), b(tmp.filePath("three/" + QString::fromStdString(f)));
    ASSERT_TRUE(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    EXPECT_EQ(a.readAll(), b.readAll()) << f;
  }
}

TEST(BatchConvert, FilePatternsMatchAcrossFoldersWithDoubleStar) {
  QTemporaryDir tmp;
  demoOmf(tmp.filePath("in/x/a1.omf"));
  demoOmf(tmp.filePath("in/x/y/a2.omf"));
  demoOmf(tmp.filePath("in/b1.omf"));
  demoOmf(tmp.filePath("in/a0.omf"));
  // ** crosses folders (none included), * stays within a name, [..] is a class.
  const CliRun r = cli({"convert", tmp.filePath("in") + "/**/a*.omf", "-o", tmp.filePath("out") + "/", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_EQ(filesUnder(tmp.filePath("out")), (std::set<std::string>{"a0.glb", "x/a1.glb", "x/y/a2.glb"}));
  const CliRun s = cli({"convert", tmp.filePath("in") + "/*/[a-b]?.omf", "-o", tmp.filePath("out2") + "/"});
  ASSERT_EQ(s.code, 0) << s.err.toStdString();
  EXPECT_EQ(filesUnder(tmp.filePath("out2")), (std::set<std::string>{"x/a1.glb"}));
  const CliRun none = cli({"convert", tmp.filePath("in") + "/**/*.fbx", "-o", tmp.filePath("out3") + "/"});
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.indexOf("no file matches"), -1) << none.err.toStdString();
}

TEST(BatchConvert, PakEntryPatternsConvertTheMatchingSkins) {
  const QString skn = fixture("dragonnest/dnpak_py_tests/freeze.skn");
  const QString msh = fixture("dragonnest/dnpak_py_tests/freeze.msh");
  if (skn.isEmpty() || msh.isEmpty()) MARROW_SKIP() << "fixtures/dragonnest/dnpak_py_tests is absent";
  QTemporaryDir tmp;
  for (const char* where : {"char/warrior/", "char/archer/", "npc/"}) {
    ASSERT_TRUE(copyInto(skn, tmp.filePath(QString("src/") + where + "freeze.skn")));
    ASSERT_TRUE(copyInto(msh, tmp.filePath(QString("src/") + where + "freeze.msh")));
  }
  const QString pak = tmp.filePath("a.pak");
  const CliRun packed = cli({"pack", tmp.filePath("src"), "-o", pak});
  ASSERT_EQ(packed.code, 0) << packed.err.toStdString();

  const CliRun r = cli({"convert", pak + "::char/**/*.skn", "-o", tmp.filePath("out") + "/", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_EQ(inputsOf(r.json().value("converted").toArray()),
            (std::set<std::string>{(pak + "::char/archer/freeze.skn").toStdString(),
                                   (pak + "::char/warrior/freeze.skn").toStdString()}));
  EXPECT_EQ(filesUnder(tmp.filePath("out")),
            (std::set<std::string>{"char/archer/freeze.glb", "char/warrior/freeze.glb"}));
  // The skin found its mesh inside the archive: the output is what converting the skin beside its
  // mesh on disk gives, and it has geometry.
  const CliRun single = cli({"convert", skn, "-o", tmp.filePath("single.glb")});
  ASSERT_EQ(single.code, 0) << single.err.toStdString();
  QFile a(tmp.filePath("single.glb")), b(tmp.filePath("out/char/warrior/freeze.glb"));
  ASSERT_TRUE(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
  EXPECT_EQ(a.readAll(), b.readAll());
  auto back = marrow::formats::loadFile(tmp.filePath("out/char/warrior/freeze.glb").toStdString());
  ASSERT_TRUE(back) << back.error().describe();
  ASSERT_FALSE(back->meshes.empty());
  // freeze's mesh, vertex for vertex (glTF is read without joining vertices: it is indexed).
  auto source = marrow::formats::loadFile(skn.toStdString());
  ASSERT_TRUE(source) << source.error().describe();
  ASSERT_FALSE(source->meshes.empty());
  EXPECT_EQ(back->meshes.front().positions.size(), source->meshes.front().positions.size());
  EXPECT_EQ(back->meshes.front().positions.size(), 27u);

  // An archive on its own: its skins.
  const CliRun all = cli({"convert", pak, "-o", tmp.filePath("all") + "/"});
  ASSERT_EQ(all.code, 0) << all.err.toStdString();
  EXPECT_EQ(filesUnder(tmp.filePath("all")).size(), 3u);
  // A pattern that matches nothing is a failure that names it.
  const CliRun none = cli({"convert", pak + "::monster/*.skn", "-o", tmp.filePath("none") + "/"});
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.indexOf("monster/*.skn: no entry matches"), -1) << none.err.toStdString();
}

TEST(BatchConvert, BrfMeshPatternGivesOneModelPerMesh) {
  const QString brf = fixture("brf/openbrf_redux_reference.brf");
  if (brf.isEmpty()) MARROW_SKIP() << "fixtures/brf/openbrf_redux_reference.brf is absent";
  QTemporaryDir tmp;
  const CliRun r = cli({"convert", brf + "::SkinA.*", "-o", tmp.filePath("out") + "/", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const auto converted = inputsOf(r.json().value("converted").toArray());
  ASSERT_FALSE(converted.empty());
  for (const auto& c : converted) EXPECT_NE(c.find("::SkinA."), std::string::npos) << c;
  EXPECT_EQ(filesUnder(tmp.filePath("out")).size(), converted.size());
}

TEST(BatchConvert, AHangingInputIsStoppedAtTheTimeoutAndReported) {
  QTemporaryDir tmp;
  // A pipe nobody writes to would block its reader for ever: it is refused at once.
  const QString fifo = tmp.filePath("stuck.omf");
  ASSERT_EQ(mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
  // A model that takes longer than the timeout (a million triangles written as XML: over a
  // second here) is stopped.
  const QString big = tmp.filePath("big.glb");
  ASSERT_TRUE(marrow::testing::writeBigSkinnedGlb(big.toStdString()));
  const CliRun r = cli({"convert", fifo, big, "-o", tmp.filePath("out") + "/", "--to", "cfg", "--xml",
                        "--timeout", "0.3", "--json"});
  EXPECT_EQ(r.code, 1);
  const QJsonObject json = r.json();
  EXPECT_EQ(json.value("converted").toArray().size(), 0);
  std::map<QString, QString> failed;
  for (const auto& f : json.value("failed").toArray())
    failed[f.toObject().value("input").toString()] = f.toObject().value("error").toString();
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_TRUE(failed[fifo].contains("not a regular file")) << failed[fifo].toStdString();
  EXPECT_TRUE(failed[big].contains("longer than 0.3 s")) << failed[big].toStdString();
}

TEST(BatchConvert, UsageErrors) {
  QTemporaryDir tmp;
  const QString file = demoOmf(tmp.filePath("a.omf"));
  EXPECT_EQ(cli({"convert", file, "-o", tmp.filePath("x.glb"), "-j", "2"}).code, 2)
      << "-j is for batches (-o FOLDER/)";
  EXPECT_EQ(cli({"convert", file, "-o", file, "--to", "glb"}).code, 2) << "-o is an existing file";
  EXPECT_EQ(cli({"convert", file, "-o", tmp.filePath("o") + "/", "--to", "fbx"}).code, 2);
  EXPECT_EQ(cli({"convert", file, "-o", tmp.filePath("o") + "/", "-j", "0"}).code, 2);
  EXPECT_EQ(cli({"convert", file, "-o", tmp.filePath("b.glb"), "--json"}).code, 2)
      << "--json is for batches";
}

TEST(BatchConvert, FilesWithNothingToConvertAreSkippedNotFailed) {
  const QString shaders = fixture("brf/wfas_core_shaders.brf");  // shaders only: no mesh, no skeleton
  if (shaders.isEmpty()) MARROW_SKIP() << "fixtures/brf/wfas_core_shaders.brf is absent";
  QTemporaryDir tmp;
  demoOmf(tmp.filePath("in/knight.omf"));
  ASSERT_TRUE(copyInto(shaders, tmp.filePath("in/shaders.brf")));
  // On its own, convert says so with exit status 3 and writes nothing.
  const CliRun single = cli({"convert", tmp.filePath("in/shaders.brf"), "-o", tmp.filePath("s.glb")});
  EXPECT_EQ(single.code, 3) << single.err.toStdString();
  EXPECT_NE(single.err.indexOf("nothing to write"), -1) << single.err.toStdString();
  EXPECT_FALSE(QFile::exists(tmp.filePath("s.glb")));
  // In a batch it is skipped, and the batch succeeds.
  const CliRun r = cli({"convert", tmp.filePath("in"), "-o", tmp.filePath("out") + "/", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject json = r.json();
  EXPECT_EQ(inputsOf(json.value("converted").toArray()),
            std::set<std::string>{tmp.filePath("in/knight.omf").toStdString()});
  EXPECT_EQ(inputsOf(json.value("skipped").toArray()),
            std::set<std::string>{tmp.filePath("in/shaders.brf").toStdString()});
  EXPECT_TRUE(json.value("failed").toArray().isEmpty());
  EXPECT_EQ(filesUnder(tmp.filePath("out")), std::set<std::string>{"knight.glb"});
}

// A folder of several cal3d characters without .cfg files: one model per skeleton, each with
// the bones and vertices its own .cfg gives it (and every clip of its folder), the two misfits
// and the XML twins of binary parts listed as unfit (the batch succeeds: every model converted).
TEST(BatchConvert, AFolderOfSeveralCal3dModelsGivesOneModelPerSkeleton) {
  const QString cal3d = fixture("cal3d/dokurochan_v1300/DokuroChan.csf");
  if (cal3d.isEmpty()) MARROW_SKIP() << "no cal3d fixtures";
  const std::filesystem::path fixtures = std::filesystem::path(cal3d.toStdString()).parent_path().parent_path();
  QTemporaryDir tmp;
  marrow::testing::Cal3dFolder folder;
  ASSERT_TRUE(marrow::testing::makeCal3dFolder(std::filesystem::path(tmp.filePath("in").toStdString()), fixtures, folder));
  const QString in = tmp.filePath("in"), out = tmp.filePath("out");

  const CliRun r = cli({"convert", in, "-o", out + "/", "--json"});
  EXPECT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_EQ(filesUnder(out), (std::set<std::string>{"DokuroChan.glb", "cally.glb", "paladin.glb"}));
  const QJsonObject json = r.json();
  EXPECT_EQ(json.value("converted").toArray().size(), 3);
  std::set<std::string> misfits;
  for (const auto& v : json.value("unfit").toArray()) {
    const std::string file = QFileInfo(v.toObject().value("input").toString()).fileName().toStdString();
    const QString why = v.toObject().value("reason").toString();
    if (why.contains("in another form")) continue;  // an XML twin of a binary part
    misfits.insert(file);
    EXPECT_FALSE(why.isEmpty());
  }
  EXPECT_EQ(misfits, std::set<std::string>(folder.misfits.begin(), folder.misfits.end()));
  EXPECT_NE(r.err.indexOf("fit no model and were not converted"), -1) << r.err.toStdString();

  // Each character as its own files make it: its .cfg, or all of DokuroChan's files.
  const auto vertices = [](const marrow::formats::Scene& s) {
    std::size_t n = 0;
    for (const auto& m : s.meshes) n += m.positions.size();
    return n;
  };
  for (const auto& [skeleton, parts] : folder.files) {
    const std::string stem = std::filesystem::path(skeleton).stem().string();
    std::vector<std::string> own{(fixtures / "dokurochan_v1300" / skeleton).string()};
    for (const auto& p : parts) own.push_back((fixtures / "dokurochan_v1300" / p).string());
    auto reference = stem == "DokuroChan" ? marrow::formats::loadFiles(own)
                                          : marrow::formats::loadFile((fixtures / stem / (stem + ".cfg")).string());
    auto back = marrow::formats::loadFile((out + "/" + QString::fromStdString(stem) + ".glb").toStdString());
    ASSERT_TRUE(reference && back) << stem << ": " << (back ? reference.error().describe() : back.error().describe());
    EXPECT_EQ(vertices(*back), vertices(*reference)) << stem;
    EXPECT_GE(back->skeleton.bones.size(), reference->skeleton.bones.size()) << stem;
    EXPECT_GE(back->clips.size(), reference->clips.size()) << stem;
  }
}
