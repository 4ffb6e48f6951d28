// Binary cal3d mesh (.cmf) reader on the real fixtures: counts, the winding rule on cally's left
// meshes, DokuroChan's 1300 layout, and damaged copies of small files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "cal3d_cmf_test_util.h"
#include "formats/cal3d/cal3d.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;
using namespace testing::cmf;

// ---- fixtures ----

struct MeshFixture {
  const char* file;
  const char* skeleton;
  std::size_t submeshes, vertices, faces, maxMaps, lod, springs, morphs;
  bool flipped;  // the winding rule fires (single-submesh files)
};

const MeshFixture kMeshes[] = {
    {"cally/cally_calf_left.cmf", "cally/cally.csf", 1, 93, 164, 0, 71, 0, 0, true},
    {"cally/cally_calf_right.cmf", "cally/cally.csf", 1, 93, 164, 0, 71, 0, 0, false},
    {"cally/cally_chest.cmf", "cally/cally.csf", 1, 243, 442, 0, 195, 0, 0, false},
    {"cally/cally_foot_left.cmf", "cally/cally.csf", 1, 67, 124, 0, 59, 0, 0, true},
    {"cally/cally_foot_right.cmf", "cally/cally.csf", 1, 67, 124, 0, 59, 0, 0, false},
    {"cally/cally_hand_left.cmf", "cally/cally.csf", 1, 151, 290, 0, 145, 0, 0, true},
    {"cally/cally_hand_right.cmf", "cally/cally.csf", 1, 151, 290, 0, 145, 0, 0, false},
    {"cally/cally_head.cmf", "cally/cally.csf", 1, 327, 640, 0, 315, 0, 0, false},
    {"cally/cally_lowerarm_left.cmf", "cally/cally.csf", 1, 51, 86, 0, 35, 0, 0, true},
    {"cally/cally_lowerarm_right.cmf", "cally/cally.csf", 1, 51, 86, 0, 35, 0, 0, false},
    {"cally/cally_neck.cmf", "cally/cally.csf", 1, 36, 44, 0, 8, 0, 0, false},
    {"cally/cally_pelvis.cmf", "cally/cally.csf", 1, 121, 200, 0, 77, 0, 0, false},
    {"cally/cally_ponytail.cmf", "cally/cally.csf", 1, 37, 68, 0, 0, 128, 0, false},
    {"cally/cally_thigh_left.cmf", "cally/cally.csf", 1, 111, 194, 0, 83, 0, 0, true},
    {"cally/cally_thigh_right.cmf", "cally/cally.csf", 1, 111, 194, 0, 83, 0, 0, false},
    {"cally/cally_upperarm_left.cmf", "cally/cally.csf", 1, 67, 116, 0, 49, 0, 0, true},
    {"cally/cally_upperarm_right.cmf", "cally/cally.csf", 1, 67, 116, 0, 49, 0, 0, false},
    {"dokurochan_v1300/DokuroChan_mesh.001.cmf", "dokurochan_v1300/DokuroChan.csf", 11, 6861, 10979,
     1, 0, 0, 44, false},
    {"dokurochan_v1300/DokuroChan_mesh.014.cmf", "dokurochan_v1300/DokuroChan.csf", 1, 49, 31, 1, 0,
     0, 0, false},
    {"paladin/paladin_body.cmf", "paladin/paladin.csf", 17, 2164, 3353, 2, 1294, 0, 0, false},
    {"paladin/paladin_cape.cmf", "paladin/paladin.csf", 1, 25, 32, 1, 0, 129, 0, false},
    {"paladin/paladin_loincloth.cmf", "paladin/paladin.csf", 3, 46, 37, 1, 0, 46, 0, false},
};

TEST(Cal3dCmf, FixturesParseWithTheirCounts) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const auto& fx : kMeshes) {
    SCOPED_TRACE(fx.file);
    const auto skel = readCsf(fixture(fx.skeleton), context(fx.skeleton));
    ASSERT_TRUE(skel.ok());
    const BoneMap bones{&skel->skeleton, skel->modelIndexOfFileBone};
    const auto bytes = fixture(fx.file);
    const auto part = readOk(bytes, bones, fx.file);
    std::size_t vertices = 0, faces = 0, maps = 0, lod = 0, springs = 0, morphs = 0;
    for (const Mesh& m : part.meshes) {
      vertices += m.vertexCount();
      faces += m.triangleCount();
      maps = std::max(maps, m.uvSets.size());
      lod += m.lod.collapsible;
      springs += m.springs.size();
      morphs += m.morphs.size();
      EXPECT_EQ(m.physicalWeights.size(), m.springs.empty() ? 0 : m.vertexCount());
      EXPECT_TRUE(m.skinned());
    }
    EXPECT_EQ(part.meshes.size(), fx.submeshes);
    EXPECT_EQ(vertices, fx.vertices);
    EXPECT_EQ(faces, fx.faces);
    EXPECT_EQ(maps, fx.maxMaps);
    EXPECT_EQ(lod, fx.lod);
    EXPECT_EQ(springs, fx.springs);
    EXPECT_EQ(morphs, fx.morphs);
    EXPECT_TRUE(part.diagnostics.empty());
    if (fx.submeshes == 1) {
      // The file's faces are its last bytes: compare them with what the reader made of them.
      const Mesh& m = part.meshes[0];
      const std::size_t start = bytes.size() - 4 * m.indices.size();
      std::size_t differ = 0;
      for (std::size_t i = 0; i < m.indices.size(); ++i) {
        std::int32_t raw;
        std::memcpy(&raw, bytes.data() + start + 4 * i, 4);
        const std::size_t j = i % 3 == 0 ? i : i % 3 == 1 ? i + 1 : i - 1;  // (a, c, b)
        if (fx.flipped)
          EXPECT_EQ(m.indices[j], static_cast<std::uint32_t>(raw)) << i;
        else
          differ += m.indices[i] != static_cast<std::uint32_t>(raw);
      }
      EXPECT_EQ(differ, 0u);
    }
  }
}

// Faces whose (counter-clockwise) normal points the way their vertex normals do.
double frontFacing(const Mesh& m) {
  std::size_t agree = 0;
  for (std::size_t f = 0; f < m.indices.size(); f += 3) {
    const glm::vec3 a = m.positions[m.indices[f]], b = m.positions[m.indices[f + 1]],
                    c = m.positions[m.indices[f + 2]];
    const glm::vec3 n =
        m.normals[m.indices[f]] + m.normals[m.indices[f + 1]] + m.normals[m.indices[f + 2]];
    agree += glm::dot(glm::cross(b - a, c - a), n) > 0.0f;
  }
  return static_cast<double>(agree) / static_cast<double>(m.triangleCount());
}

TEST(Cal3dCmf, LeftMeshesAreFlippedToFaceTheWayTheirMirrorsDo) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const char* part : {"calf", "foot", "hand", "lowerarm", "thigh", "upperarm"}) {
    SCOPED_TRACE(part);
    const std::string left = std::string("cally/cally_") + part + "_left.cmf";
    const std::string right = std::string("cally/cally_") + part + "_right.cmf";
    const Mesh l = readOk(fixture(left), BoneMap{}, left).meshes[0];
    const Mesh r = readOk(fixture(right), BoneMap{}, right).meshes[0];
    // Mirrored, the left mesh is the right one; after the rule both face outwards.
    EXPECT_GT(frontFacing(l), 0.9);
    EXPECT_GT(frontFacing(r), 0.9);
    Mesh raw = l;  // the file's own winding, undone
    for (std::size_t f = 0; f < raw.indices.size(); f += 3)
      std::swap(raw.indices[f + 1], raw.indices[f + 2]);
    EXPECT_LT(frontFacing(raw), 0.1);
  }
}

TEST(Cal3dCmf, DokuroChanMeshesOf1300PickTheCountLayout) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto part = readOk(fixture("dokurochan_v1300/DokuroChan_mesh.001.cmf"), BoneMap{},
                           "DokuroChan_mesh.001.cmf");
  EXPECT_EQ(part.format, "cal3d CMF 1300 (count-prefixed morphs)");
  std::size_t blend = 0;
  for (const Mesh& m : part.meshes)
    for (const auto& t : m.morphs) blend += t.vertices.size();
  EXPECT_EQ(blend, 20093u);
}

TEST(Cal3dCmf, ErrorInAFileOfTheOtherLayoutComesFromThatLayout) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  // §1: the 1300 default (colour+sentinel) fails early on a count-layout file; the count
  // layout's own error, where the bytes end, is the one reported.
  auto bytes = fixture("dokurochan_v1300/DokuroChan_mesh.001.cmf");
  bytes.resize(bytes.size() / 2);
  const auto r = readCmf(bytes, context("m.cmf"), BoneMap{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 607882u) << r.error().describe();  // near the end of the half
  EXPECT_NE(r.error().field.find("blendCount"), std::string::npos) << r.error().describe();
}

TEST(Cal3dCmf, SmallFixturesRejectEveryTruncationAndSurviveFlippedBytes) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const char* file : {"dokurochan_v1300/DokuroChan_mesh.014.cmf", "cally/cally_neck.cmf"}) {
    SCOPED_TRACE(file);
    auto bytes = fixture(file);
    for (std::size_t n = 0; n < bytes.size(); ++n)
      EXPECT_FALSE(readCmf(std::span(bytes.data(), n), context(file), BoneMap{}).ok()) << n;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] ^= std::byte{0xFF};
      // Through readModel, which stands in placeholder bones for the file's bone ids.
      const Input in{bytes, context(file)};
      const auto r = readModel(std::span(&in, 1));
      if (r.ok()) {
        const auto problems = validate(*r);
        EXPECT_TRUE(problems.empty()) << i << ": " << problems.front();
      }
      bytes[i] ^= std::byte{0xFF};
    }
  }
}

}  // namespace
}  // namespace marrow::formats::cal3d
