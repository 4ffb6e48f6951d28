// The demo character survives the OMF writer: the file written at build time, and an in-memory
// write and read, give back the same skeleton, mesh and clips.
#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "formats/io/file.h"
#include "formats/omf/omf.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"
#include "resources/demo/demo_character.h"

namespace {

using marrow::formats::Clip;
using marrow::formats::Scene;

const Scene& demo() {
  static const Scene scene = marrow::demo::makeDemoCharacter();
  return scene;
}

marrow::formats::ReadContext context(std::string name) {
  marrow::formats::ReadContext ctx;
  ctx.name = std::move(name);
  return ctx;
}

std::size_t triangles(const Scene& s) {
  std::size_t n = 0;
  for (const auto& m : s.meshes) n += m.triangleCount();
  return n;
}

const Clip* findClip(const Scene& s, const std::string& name) {
  for (const auto& c : s.clips)
    if (c.name == name) return &c;
  return nullptr;
}

// Skinned triangle corners of every mesh, in triangle order.
std::vector<glm::vec3> corners(const Scene& s, const Clip* clip, float t) {
  const auto pose = marrow::anim::evaluate(s.skeleton, clip, t);
  std::vector<glm::vec3> out;
  for (const auto& m : s.meshes) {
    std::vector<glm::mat4> palette;
    marrow::anim::skinPalette(s.skeleton, m, pose, palette);
    std::vector<glm::vec3> p;
    marrow::anim::skin(m, marrow::anim::packInfluences(m), palette, p);
    for (auto i : m.indices) out.push_back(p[i]);
  }
  return out;
}

void expectSameCharacter(const Scene& read) {
  ASSERT_EQ(read.skeleton.bones.size(), demo().skeleton.bones.size());
  for (std::size_t i = 0; i < read.skeleton.bones.size(); ++i) {
    EXPECT_EQ(read.skeleton.bones[i].name, demo().skeleton.bones[i].name);
    EXPECT_EQ(read.skeleton.bones[i].parent, demo().skeleton.bones[i].parent);
  }
  EXPECT_EQ(triangles(read), triangles(demo()));
  for (const auto& m : read.meshes) EXPECT_EQ(m.colors.size(), m.vertexCount()) << m.name;
  ASSERT_EQ(read.clips.size(), demo().clips.size());
  for (const auto& c : demo().clips) {
    const Clip* r = findClip(read, c.name);
    ASSERT_NE(r, nullptr) << c.name;
    EXPECT_NEAR(r->duration, c.duration, 1e-6f) << c.name;
    EXPECT_EQ(r->tracks.size(), c.tracks.size()) << c.name;
  }
}

TEST(DemoOmf, BuiltFileReadsBack) {
  auto bytes = marrow::formats::readFile(MARROW_DEMO_OMF);
  ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
  auto scene = marrow::formats::readOmf(*bytes, context(MARROW_DEMO_OMF));
  ASSERT_TRUE(scene.ok()) << scene.error().describe();
  expectSameCharacter(*scene);
}

TEST(DemoOmf, BuiltFileIsWhatTheGeneratorWritesNow) {
  auto bytes = marrow::formats::readFile(MARROW_DEMO_OMF);
  ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
  marrow::formats::Diagnostics diagnostics;
  auto written = marrow::formats::writeOmf(demo(), diagnostics);
  ASSERT_TRUE(written.ok()) << written.error().describe();
  EXPECT_TRUE(*bytes == *written) << "demo.omf is stale or the writer is not deterministic";
}

TEST(DemoOmf, WriterLosesNothing) {
  // Names fit, at most 8 influences, no scale keys, keys on whole frames: nothing to report.
  marrow::formats::Diagnostics diagnostics;
  auto written = marrow::formats::writeOmf(demo(), diagnostics);
  ASSERT_TRUE(written.ok()) << written.error().describe();
  for (const auto& d : diagnostics.items)
    EXPECT_EQ(d.severity, marrow::formats::Severity::Info) << marrow::formats::describe(d);
}

TEST(DemoOmf, RoundTripKeepsTheAnimatedShape) {
  marrow::formats::Diagnostics diagnostics;
  auto written = marrow::formats::writeOmf(demo(), diagnostics);
  ASSERT_TRUE(written.ok()) << written.error().describe();
  auto read = marrow::formats::readOmf(*written, context("demo.omf"));
  ASSERT_TRUE(read.ok()) << read.error().describe();
  expectSameCharacter(*read);
  for (const auto& c : demo().clips) {
    const Clip* r = findClip(*read, c.name);
    ASSERT_NE(r, nullptr);
    for (float f : {0.0f, 0.37f, 0.71f}) {
      const auto a = corners(demo(), &c, c.duration * f);
      const auto b = corners(*read, r, c.duration * f);
      ASSERT_EQ(a.size(), b.size());
      float worst = 0.0f;
      for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i] - b[i]));
      EXPECT_LT(worst, 1e-4f) << c.name << " at " << c.duration * f << " s";
    }
  }
}

}  // namespace
