// Writing any model in any format of the table (formats/write.h), without a window: what a target format cannot hold is said of the output, what is
// asked for and missing is refused, and files are written whole or not at all. The written files
// are read back through the project's readers.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <memory>

#include "app/document.h"
#include "formats/format_table.h"
#include "formats/io/file.h"
#include "formats/registry.h"
#include "formats/write.h"

using namespace marrow;
using ExportResult = formats::WriteResult;

namespace {

// One bone, one triangle skinned to it, one material, one clip turning the bone.
formats::Scene triangle() {
  formats::Scene s;
  s.format = "test";
  formats::Bone root;
  root.name = "root";
  s.skeleton.bones = {root};
  formats::Mesh m;
  m.name = "tri";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.uvSets = {{{0, 0}, {1, 0}, {0, 1}}};
  m.indices = {0, 1, 2};
  const formats::Influence full{0, 1.0f};
  for (int v = 0; v < 3; ++v) m.addInfluences(std::span(&full, 1));
  m.material = 0;
  s.meshes = {m};
  formats::Material mat;
  mat.name = "skin";
  s.materials = {mat};
  formats::Clip c;
  c.name = "turn";
  c.duration = 1.0f;
  formats::Track t;
  t.bone = "root";
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  t.rotation.add(1.0f, glm::quat(0.7071068f, 0, 0.7071068f, 0));
  c.tracks = {t};
  s.clips = {c};
  return s;
}

app::Document documentOf(formats::Scene s) {
  app::Document doc;
  doc.paths = {QStringLiteral("test.model")};
  doc.scene = std::make_shared<const formats::Scene>(std::move(s));
  return doc;
}

ExportResult exportDocument(const app::Document& doc, const std::string& path,
                            const formats::WriteOptions& options = {}) {
  return formats::writeModel(doc.writeSource(), path, options);
}

formats::WrittenFiles writeFiles(const std::vector<formats::OutputFile>& out) {
  std::vector<formats::FileToWrite> files;
  for (const auto& f : out) files.push_back({f.path, f.bytes});
  return formats::writeFilesAtomically(files);
}

// The diagnostic of that field whose message contains `words`, or null.
const formats::Diagnostic* said(const ExportResult& r, const std::string& field,
                                const std::string& words) {
  for (const auto& d : r.diagnostics.items)
    if (d.field == field && d.message.find(words) != std::string::npos) return &d;
  return nullptr;
}

QString listed(const ExportResult& r) {
  QStringList out;
  for (const auto& d : r.diagnostics.items) out << QString::fromStdString(formats::describe(d));
  return out.join(QLatin1Char('\n'));
}

bool writeAll(const ExportResult& r) {
  return r.ok() && writeFiles(r.files).ok();
}

QByteArray contents(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class ExportCoreTest : public QObject {
  Q_OBJECT

 private slots:
  // ---- refusals and failures first ----

  void anUnknownExtensionIsRefusedNamingTheFormats() {
    const ExportResult r = exportDocument(documentOf(triangle()), "model.xyz");
    QCOMPARE(r.status, formats::WriteResult::Status::Refused);
    QVERIFY2(r.refusal.find(".glb") != std::string::npos, r.refusal.c_str());
    QVERIFY(r.files.empty());
  }

  void aPartTheModelLacksIsRefused() {
    formats::Scene s = triangle();
    s.skeleton.bones.clear();
    s.meshes[0].influenceStart.clear();
    s.meshes[0].influences.clear();
    s.clips.clear();
    const auto doc = documentOf(s);
    QCOMPARE(exportDocument(doc, "a.csf").refusal,
             std::string("the model has no skeleton to write"));
    QCOMPARE(exportDocument(doc, "a.caf").refusal,
             std::string("the model has no clip to write"));
    formats::WriteOptions o;
    o.clip = "walk";
    QCOMPARE(exportDocument(documentOf(triangle()), "a.caf", o).refusal,
             std::string("no clip 'walk' in the model"));
  }

  void aModelNotReadFromBrfIsWrittenAsRecordsMadeFromIt() {
    const ExportResult r = exportDocument(documentOf(triangle()), "out.brf");
    QVERIFY2(r.ok(), r.why().c_str());
    auto back = formats::readScene(r.files.at(0).bytes, formats::ReadContext{"out.brf", {}, {}});
    QVERIFY(back.ok());
    QCOMPARE(back->format, std::string("BRF (Warband)"));
    QCOMPARE(back->meshes.size(), std::size_t{1});
    formats::WriteOptions o;
    o.version = 3;
    QVERIFY(formats::checkWriteOptions(formats::outputFor("x.brf"), o).has_value());
  }

  void aFailedWriteLeavesNoPartOfTheExportAndTheOldFileAsItWas() {
    QTemporaryDir dir;
    const QString gltf = dir.filePath("hero.gltf");
    {
      QFile old(gltf);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old contents");
    }
    const std::vector<std::byte> some(100, std::byte{7});
    const std::vector<formats::OutputFile> files{
        {gltf.toStdString(), some}, {dir.filePath("missing/hero.bin").toStdString(), some}};
    const formats::WrittenFiles w = writeFiles(files);
    QVERIFY(!w.ok());
    QCOMPARE(QString::fromStdString(w.failedPath), dir.filePath("missing/hero.bin"));
    QVERIFY(!w.reason.empty());
    QVERIFY(w.written.empty());
    QCOMPARE(contents(gltf), QByteArray("old contents"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"hero.gltf"});
  }

  // ---- what the target cannot hold ----

  void cal3dOfAModelWithVertexColoursSaysWhichVersionKeepsThem() {
    formats::Scene s = triangle();
    s.meshes[0].colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
    QTemporaryDir dir;
    const std::string cfg = dir.filePath("coloured.cfg").toStdString();
    const ExportResult r = exportDocument(documentOf(s), cfg);
    QVERIFY2(r.ok(), r.why().c_str());
    const auto* note = said(r, "version", "vertex colours");
    QVERIFY2(note, qPrintable(listed(r)));
    QCOMPARE(note->file, cfg);
    QVERIFY(note->message.find("1300") != std::string::npos);
    QVERIFY(writeAll(r));
    // The colours are in the file (read back by the cal3d reader).
    const auto back = formats::loadFile(dir.filePath("tri.cmf").toStdString());
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().describe().c_str());
    QCOMPARE(back->meshes.at(0).colors.size(), std::size_t{3});

    // Asked for the version every cal3d opens, the colours are left out, and that is said.
    formats::WriteOptions o;
    o.version = 1100;
    const std::string cmf = dir.filePath("plain.cmf").toStdString();
    const ExportResult plain = exportDocument(documentOf(s), cmf, o);
    QVERIFY(plain.ok());
    QVERIFY(!said(plain, "version", "vertex colours"));
    const auto* lost = said(plain, "meshes", "vertex colours");
    QVERIFY2(lost, qPrintable(listed(plain)));
    QCOMPARE(lost->file, cmf);
    QVERIFY(writeAll(plain));
    const auto again = formats::loadFile(cmf);
    QVERIFY(again.ok());
    QVERIFY(again->meshes.at(0).colors.empty());
  }

  void binaryCal3dSaysTranslucentColoursLoseTheirAlpha() {
    formats::Scene s = triangle();
    s.meshes[0].colors = {{1, 0, 0, 0.5f}, {0, 1, 0, 1}, {0, 0, 1, 1}};
    const ExportResult r = exportDocument(documentOf(s), "t.cmf");
    QVERIFY(r.ok());
    QVERIFY2(said(r, "meshes", "1 vertex colour is not opaque"), qPrintable(listed(r)));
  }

  void cal3dOfAModelWithMorphTargetsSaysWhichVersionKeepsThem() {
    formats::Scene s = triangle();
    formats::MorphTarget smile;
    smile.name = "smile";
    smile.positions = {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
    s.meshes[0].morphs = {smile};
    const ExportResult r = exportDocument(documentOf(s), "m.cfg");
    QVERIFY2(r.ok(), r.why().c_str());
    QVERIFY2(said(r, "version", "morph targets"), qPrintable(listed(r)));
    QVERIFY(said(r, "version", "1301"));
  }

  // A clip of morph weights only becomes a cal3d morph animation beside the model (the version
  // the morph targets need holds them); OMF leaves it out, saying so.
  void aClipOfMorphWeightsOnlyIsWrittenAsACal3dMorphAnimation() {
    formats::Scene s = triangle();
    formats::MorphTarget open;
    open.name = "open";
    open.positions = {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
    s.meshes[0].morphs = {open};
    formats::Clip frames;
    frames.name = "tri (frames)";
    frames.duration = 1.0f;
    formats::MorphTrack w;
    w.mesh = "tri";
    w.target = "open";
    w.weight.add(0.0f, 0.0f);
    w.weight.add(1.0f, 1.0f);
    frames.morphTracks = {w};
    s.clips.push_back(frames);
    const ExportResult r = exportDocument(documentOf(s), "m.cfg");
    QVERIFY2(r.ok(), r.why().c_str());
    // The skeleton, the bone clip's animation, the morph animation, one mesh, one material, the
    // .cfg naming them.
    QCOMPARE(r.files.size(), std::size_t{6});
    bool morphFile = false;
    std::string cfg;
    for (const auto& f : r.files) {
      morphFile |= f.path.ends_with("tri__frames_.cpf");
      if (f.path.ends_with(".cfg")) cfg.assign(reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size());
    }
    QVERIFY2(morphFile, qPrintable(listed(r)));
    QVERIFY2(cfg.find("morphanim=tri__frames_.cpf") != std::string::npos, cfg.c_str());
    const auto omf = exportDocument(documentOf(s), "m.omf");
    QVERIFY(omf.ok());
    QVERIFY2(said(omf, "clips", "OMF cannot store"), qPrintable(listed(omf)));
  }

  void bodiesDummiesAndTablesAreSaidToBeLeftOut() {
    formats::Scene s = triangle();
    s.bodies.resize(2);
    s.attachments.resize(1);
    s.tables.resize(1);
    for (const char* out : {"b.glb", "b.omf", "b.cfg"}) {
      const ExportResult r = exportDocument(documentOf(s), out);
      QVERIFY2(r.ok(), r.why().c_str());
      QVERIFY2(said(r, "bodies", "2 collision bodies are not written"), qPrintable(listed(r)));
      QVERIFY(said(r, "attachments", "1 attachment point"));
      QVERIFY(said(r, "tables", "1 data table"));
      for (const auto& d : r.diagnostics.items) QVERIFY(!d.file.empty());
    }
  }

  void aClipForAnotherSkeletonIsLeftOutAndNamed() {
    formats::Scene s = triangle();
    s.skeleton.name = "skel_human";
    formats::Clip horse = s.clips[0];
    horse.name = "gallop";
    horse.skeleton = "skel_horse";
    s.clips.insert(s.clips.begin(), horse);
    const auto doc = documentOf(s);
    const ExportResult r = exportDocument(doc, "h.glb");
    QVERIFY(r.ok());
    QVERIFY2(said(r, "",
                  "clip 'gallop' is for the skeleton 'skel_horse', not 'skel_human': not written"),
             qPrintable(listed(r)));
    // The GUI names clips by their place in the document: the horse's is refused, the other found.
    formats::WriteOptions o;
    o.clipIndex = 0;
    QCOMPARE(exportDocument(doc, "h.caf", o).status, formats::WriteResult::Status::Refused);
    o.clipIndex = 1;
    QVERIFY(exportDocument(doc, "h.caf", o).ok());
  }

  // ---- the list of formats ----

  void formatsAreFoundByExtensionInAnyCase() {
    QVERIFY(formats::outputFor("/a/b/Hero.GLB"));
    QCOMPARE(formats::outputFor("/a/b/Hero.GLB").kind->extension, std::string_view("glb"));
    QCOMPARE(formats::outputFor("/a/b/Hero.GLB").format->id, std::string_view("gltf"));
    QVERIFY(!formats::outputFor("/a/b.glb/hero"));
    QVERIFY(!formats::outputFor("hero.png"));
    QCOMPARE(formats::outputFilter(*formats::outputFor("x.glb").kind), std::string("glTF 2.0 binary (*.glb)"));
    QCOMPARE(formats::outputExtensions(), std::string("omf|cfg|csf|cmf|caf|crf|cpf|xsf|xmf|xaf|xrf|xpf|brf|skn|msh|ani|glb|gltf"));
    for (const formats::FormatDescriptor* f : formats::formatTable())
      for (const auto& k : f->outputs) QCOMPARE(formats::outputFor(std::string("a.") + std::string(k.extension)).kind, &k);
  }
};

QTEST_GUILESS_MAIN(ExportCoreTest)
#include "export_core_test.moc"
