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

}  // namespace
