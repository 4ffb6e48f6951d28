// marrow-cli pose on BRF vertex animation: a mesh's stored frames (spec brf.md §7.3) come out as
// the frame clip's morph weights say, checked against the frames as the record layer reads them.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <vector>

#include "cli_util.h"
#include "formats/brf/document.h"
#include "formats/io/file.h"
#include "formats/model/scene.h"
#include "tests/support/temp_dir.h"

#include "tests/support/skip.h"

namespace {

namespace brf = marrow::formats::brf;

const char* const kFile = "brf/wfas_map_icons_c.brf";
const char* const kMesh = "icon_mule";
const QString kClip = QStringLiteral("icon_mule (frames)");

struct Fixture {
  brf::Document doc;
  const brf::Mesh* mesh = nullptr;
};

bool load(Fixture& f) {
  const QString path = fixture(kFile);
  if (path.isEmpty()) return false;
  std::ifstream in(path.toStdString(), std::ios::binary);
  std::vector<char> chars{std::istreambuf_iterator<char>(in), {}};
  std::vector<std::byte> bytes(chars.size());
  std::transform(chars.begin(), chars.end(), bytes.begin(), [](char c) { return std::byte(c); });
  marrow::formats::ReadContext ctx;
  ctx.name = kFile;
  auto doc = brf::parse(bytes, ctx);
  if (!doc) return false;
  f.doc = std::move(*doc);
  for (const auto& m : f.doc.meshes)
    if (m.name == kMesh) f.mesh = &m;
  return f.mesh != nullptr;
}

// A stored frame's time in seconds: BRF mesh frame times are in frames of 30 per second.
float seconds(const brf::VertexFrame& frame) {
  return static_cast<float>(frame.time) / 30.0f;
}

// Per vertex (wedge), its position in stored frame `k` (0-based into Mesh::frames).
std::vector<glm::vec3> framePositions(const brf::Mesh& m, std::size_t k) {
  std::vector<glm::vec3> out;
  for (const auto& v : m.vertices)
    out.push_back(m.frames[k].positions.at(static_cast<std::size_t>(v.position)));
  return out;
}

// The mesh's vertices as `pose --json` gives them at `time` of the frame clip.
std::vector<glm::vec3> posedVertices(float time) {
  const CliRun r =
      cli({QStringLiteral("pose"), fixture(kFile), QStringLiteral("--clip"), kClip,
           QStringLiteral("--time"), QString::number(time, 'g', 9), QStringLiteral("--json")});
  EXPECT_EQ(r.code, 0) << r.err.toStdString();
  std::vector<glm::vec3> out;
  for (const auto& m : r.json().value("meshes").toArray()) {
    const QJsonObject mesh = m.toObject();
    if (mesh.value("name").toString() != QLatin1String(kMesh)) continue;
    for (const auto& v : mesh.value("vertices").toArray()) {
      const QJsonArray p = v.toArray();
      out.emplace_back(p[0].toDouble(), p[1].toDouble(), p[2].toDouble());
    }
    break;
  }
  return out;
}

// Largest coordinate difference; the morph formula base + w·(target − base) may round by an ulp.
float maxDifference(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float d = 0.0f;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    d = std::max(d, glm::length(a[i] - b[i]));
  return d;
}

TEST(BrfMorphCli, StoredFrameTimesGiveTheStoredPositions) {
  Fixture f;
  if (!load(f)) MARROW_SKIP() << "fixture " << kFile << " is absent";
  const auto& frames = f.mesh->frames;
  ASSERT_EQ(frames.size(), 14u);
  for (std::size_t k : {std::size_t{1}, frames.size() / 2, frames.size() - 1}) {
    const std::vector<glm::vec3> expected = framePositions(*f.mesh, k);
    const std::vector<glm::vec3> got = posedVertices(seconds(frames[k]));
    ASSERT_EQ(got.size(), expected.size()) << "frame " << k;
    EXPECT_LT(maxDifference(got, expected), 1e-5f) << "frame " << k;
  }
}

TEST(BrfMorphCli, HalfwayBetweenFramesGivesTheirAverage) {
  Fixture f;
  if (!load(f)) MARROW_SKIP() << "fixture " << kFile << " is absent";
  const auto& frames = f.mesh->frames;
  ASSERT_EQ(frames.size(), 14u);
  const std::size_t k = frames.size() / 2;
  const std::vector<glm::vec3> a = framePositions(*f.mesh, k);
  const std::vector<glm::vec3> b = framePositions(*f.mesh, k + 1);
  ASSERT_GT(maxDifference(a, b), 1e-3f)
      << "the two frames should differ for this test to mean something";
  std::vector<glm::vec3> expected(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) expected[i] = (a[i] + b[i]) * 0.5f;
  const std::vector<glm::vec3> got =
      posedVertices((seconds(frames[k]) + seconds(frames[k + 1])) * 0.5f);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_LT(maxDifference(got, expected), 1e-5f);
}

TEST(BrfMorphCli, WithoutTheClipTheMeshIsAtRest) {
  Fixture f;
  if (!load(f)) MARROW_SKIP() << "fixture " << kFile << " is absent";
  const CliRun r = cli({QStringLiteral("pose"), fixture(kFile), QStringLiteral("--clip"),
                        QStringLiteral("none"), QStringLiteral("--json")});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  for (const auto& m : r.json().value("meshes").toArray()) {
    const QJsonObject mesh = m.toObject();
    if (mesh.value("name").toString() != QLatin1String(kMesh)) continue;
    const QJsonArray v0 = mesh.value("vertices").toArray().at(0).toArray();
    const glm::vec3 rest =
        f.mesh->positions.at(static_cast<std::size_t>(f.mesh->vertices.at(0).position));
    EXPECT_FLOAT_EQ(static_cast<float>(v0[0].toDouble()), rest.x);
    EXPECT_FLOAT_EQ(static_cast<float>(v0[1].toDouble()), rest.y);
    EXPECT_FLOAT_EQ(static_cast<float>(v0[2].toDouble()), rest.z);
    for (const auto& w : mesh.value("morph_weights").toArray()) EXPECT_EQ(w.toDouble(), 0.0);
    return;
  }
  FAIL() << "no mesh " << kMesh << " in the output";
}

// Per-frame meshes (issue 17): the fixture's frames written out as an OBJ sequence, one file per
// frame named by its frame number as Blender names an animation's OBJ files, come back through
// `convert --as-frames` as the same BRF frames at the same times. assimp reads the OBJ files.
brf::Document parseFile(const std::string& path) {
  auto bytes = marrow::formats::readFile(path);
  EXPECT_TRUE(bytes.ok());
  marrow::formats::ReadContext ctx;
  ctx.name = path;
  auto doc = brf::parse(bytes.ok() ? *bytes : std::vector<std::byte>{}, ctx);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().describe());
  return doc.ok() ? std::move(*doc) : brf::Document{};
}

// A face corner's position in frame k.
glm::vec3 cornerAt(const brf::Mesh& m, std::size_t k, std::size_t face, int corner) {
  const auto& v = m.vertices.at(static_cast<std::size_t>(m.faces.at(face)[static_cast<std::size_t>(corner)]));
  return m.frames.at(k).positions.at(static_cast<std::size_t>(v.position));
}

TEST(BrfMorphCli, AnObjSequenceBecomesTheSameFrames) {
  Fixture f;
  if (!load(f)) MARROW_SKIP() << "fixture " << kFile << " is absent";
  const brf::Mesh& m = *f.mesh;
  marrow::testing::TempDir dir;
  QStringList args{QStringLiteral("convert")};
  const auto num = [](float x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(x));
    return std::string(text);
  };
  for (std::size_t k = 0; k < m.frames.size(); ++k) {
    // In the display's space, as the viewer shows the BRF (Z-up, facing +Y) and OBJ is read (Y-up).
    std::string obj = "o mule\n";
    const glm::mat4 display = marrow::formats::toDisplay(marrow::formats::Basis{marrow::formats::Axis::Z, true, 1.0f, +1});
    for (const auto& v : m.vertices) {
      const glm::vec3 p = glm::vec3(display * glm::vec4(m.frames[k].positions.at(static_cast<std::size_t>(v.position)), 1.0f));
      obj += "v " + num(p.x) + " " + num(p.y) + " " + num(p.z) + "\n";
    }
    for (const auto& v : m.vertices) obj += "vt " + num(v.uv.x) + " " + num(1.0f - v.uv.y) + "\n";
    for (const auto& face : m.faces) {
      obj += "f";
      for (int i : face) obj += " " + std::to_string(i + 1) + "/" + std::to_string(i + 1);
      obj += "\n";
    }
    char name[32];
    std::snprintf(name, sizeof name, "mule_%06d.obj", m.frames[k].time);
    args << QString::fromStdString(dir.write(name, {reinterpret_cast<const std::byte*>(obj.data()),
                                                    reinterpret_cast<const std::byte*>(obj.data() + obj.size())}));
  }
  const std::string out = (dir.path / "mule.brf").string();
  args << QStringLiteral("--as-frames") << QStringLiteral("-o") << QString::fromStdString(out);
  const CliRun r = cli(args);
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("joined as the frames of one vertex animation")) << r.err.toStdString();
  const brf::Document back = parseFile(out);
  ASSERT_EQ(back.meshes.size(), 1u);
  const brf::Mesh& got = back.meshes[0];
  ASSERT_EQ(got.frames.size(), m.frames.size());
  ASSERT_EQ(got.faces.size(), m.faces.size());
  float worst = 0.0f;
  for (std::size_t k = 0; k < m.frames.size(); ++k) {
    EXPECT_EQ(got.frames[k].time - got.frames[0].time, m.frames[k].time - m.frames[0].time) << "frame " << k;
    for (std::size_t face = 0; face < m.faces.size(); ++face)
      for (int c = 0; c < 3; ++c) worst = std::max(worst, glm::length(cornerAt(got, k, face, c) - cornerAt(m, k, face, c)));
  }
  EXPECT_LT(worst, 1e-6f);
}

// Frames given as BRF files are joined too, not copied as the records they are (and named
// f_2 … f_10, they play in the order of their numbers).
TEST(BrfMorphCli, BrfFramesAreJoinedNotCopied) {
  marrow::testing::TempDir dir;
  QStringList brfs;
  for (int f : {10, 1, 2}) {
    const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 " + std::to_string(f) + "\nf 1 2 3\n";
    const std::string name = "f_" + std::to_string(f);
    const QString objPath = QString::fromStdString(dir.write(name + ".obj", {reinterpret_cast<const std::byte*>(obj.data()),
                                                                             reinterpret_cast<const std::byte*>(obj.data() + obj.size())}));
    const QString brf = QString::fromStdString((dir.path / (name + ".brf")).string());
    ASSERT_EQ(cli({QStringLiteral("convert"), objPath, QStringLiteral("-o"), brf}).code, 0);
    brfs << brf;
  }
  const std::string out = (dir.path / "joined.brf").string();
  const CliRun r = cli(QStringList{QStringLiteral("convert")} + brfs +
                       QStringList{QStringLiteral("--as-frames"), QStringLiteral("-o"), QString::fromStdString(out)});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const brf::Document back = parseFile(out);
  ASSERT_EQ(back.meshes.size(), 1u);
  ASSERT_EQ(back.meshes[0].frames.size(), 3u);
  float heights[3];
  for (std::size_t k = 0; k < 3; ++k) {
    float top = 0.0f;
    for (const auto& p : back.meshes[0].frames[k].positions) top = std::max(top, std::abs(p.y) + std::abs(p.z));
    heights[k] = top;
  }
  EXPECT_LT(heights[0], heights[1]);  // 1, 2, 10
  EXPECT_LT(heights[1], heights[2]);
  EXPECT_EQ(back.meshes[0].frames[2].time - back.meshes[0].frames[0].time, 9);
}

TEST(BrfMorphCli, FramesOfOtherVerticesAreAnErrorNamingTheFrame) {
  marrow::testing::TempDir dir;
  const auto file = [&](const char* name, const std::string& text) {
    return QString::fromStdString(dir.write(name, {reinterpret_cast<const std::byte*>(text.data()),
                                                   reinterpret_cast<const std::byte*>(text.data() + text.size())}));
  };
  const QString a = file("wave_1.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  const QString b = file("wave_2.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n");
  const CliRun r = cli({QStringLiteral("convert"), a, b, QStringLiteral("--as-frames"), QStringLiteral("-o"),
                        QString::fromStdString((dir.path / "wave.brf").string())});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("wave_2.obj")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("4 vertices and 2 triangles, the first frame 3 and 1")) << r.err.toStdString();
  EXPECT_FALSE(std::filesystem::exists(dir.path / "wave.brf"));
}

}  // namespace
