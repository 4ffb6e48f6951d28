// formats::joinIdenticalVertices: what joins (equal bit for bit, directions within their
// tolerance), what does not (any other attribute differing, even in one bit), what it leaves
// alone, that a joined mesh draws the same triangles, and that hostile meshes stay linear.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

#include "formats/model/join.h"

namespace marrow::formats {
namespace {

// Triangle corners of a mesh as positions, uvs and influences: what must not change.
struct Corner {
  glm::vec3 position, normal;
  glm::vec2 uv;
  std::vector<Influence> influences;
  bool operator==(const Corner&) const = default;
};

std::vector<Corner> corners(const Mesh& m) {
  std::vector<Corner> out;
  for (const std::uint32_t i : m.indices) {
    const auto infl = m.influencesOf(i);
    out.push_back({m.positions[i], m.normals.empty() ? glm::vec3(0) : m.normals[i],
                   m.uvSets.empty() ? glm::vec2(0) : m.uvSets[0][i],
                   std::vector<Influence>(infl.begin(), infl.end())});
  }
  return out;
}

// A strip of unindexed triangles, as SMD stores them: every corner its own vertex, shared
// corners repeated.
Mesh cornersOnly(std::size_t quads) {
  Mesh m;
  m.uvSets.resize(1);
  auto add = [&](float x, float y) {
    m.positions.push_back({x, y, 0.0f});
    m.normals.push_back({0.0f, 0.0f, 1.0f});
    m.uvSets[0].push_back({x, y});
    m.indices.push_back(static_cast<std::uint32_t>(m.indices.size()));
  };
  for (std::size_t q = 0; q < quads; ++q) {
    const float x = static_cast<float>(q);
    add(x, 0);
    add(x + 1, 0);
    add(x, 1);
    add(x, 1);
    add(x + 1, 0);
    add(x + 1, 1);
  }
  return m;
}

TEST(JoinVertices, RepeatedCornersBecomeOneVertexInFirstOccurrenceOrder) {
  Mesh m = cornersOnly(3);  // 18 corners, 8 distinct points
  const auto before = corners(m);
  EXPECT_EQ(joinIdenticalVertices(m), 10u);
  ASSERT_EQ(m.vertexCount(), 8u);
  EXPECT_EQ(corners(m), before);
  // Numbered by first occurrence: (0,0) (1,0) (0,1) (1,1) (2,0) (2,1) (3,0) (3,1).
  EXPECT_EQ(m.positions[3], glm::vec3(1, 1, 0));
  EXPECT_EQ(m.positions[4], glm::vec3(2, 0, 0));
  EXPECT_EQ((std::vector<std::uint32_t>(m.indices.begin(), m.indices.begin() + 6)),
            (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3}));
  EXPECT_EQ(joinIdenticalVertices(m), 0u);  // already joined
}

TEST(JoinVertices, AnyAttributeDifferingKeepsVerticesApart) {
  // Vertex 1 repeats vertex 0 except in one attribute each time; vertex 2 repeats it exactly.
  auto twins = [] {
    Mesh m;
    m.positions = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
    m.normals = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
    m.tangents = {{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}};
    m.uvSets = {{{0.5f, 0.5f}, {0.5f, 0.5f}, {0.5f, 0.5f}}, {{0, 0}, {0, 0}, {0, 0}}};
    m.colors = {{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
    for (int v = 0; v < 3; ++v) m.addInfluences(std::vector<Influence>{{2, 0.75f}, {5, 0.25f}});
    MorphTarget t;
    t.name = "smile";
    t.positions = {{1, 2, 4}, {1, 2, 4}, {1, 2, 4}};
    m.morphs.push_back(t);
    m.indices = {0, 1, 2};
    return m;
  };
  Mesh same = twins();
  EXPECT_EQ(joinIdenticalVertices(same), 2u);
  ASSERT_EQ(same.vertexCount(), 1u);
  EXPECT_EQ(same.indices, (std::vector<std::uint32_t>{0, 0, 0}));
  ASSERT_EQ(same.morphs[0].positions.size(), 1u);
  EXPECT_EQ(same.influencesOf(0).size(), 2u);

  const std::vector<std::function<void(Mesh&)>> changes = {
      [](Mesh& m) { m.positions[1].z = std::nextafter(3.0f, 4.0f); },  // one bit
      [](Mesh& m) { m.normals[1] = {0, -1, 0}; },
      [](Mesh& m) { m.tangents[1].w = -1; },  // the bitangent's sign only
      [](Mesh& m) { m.uvSets[1][1] = {0, 1}; },  // the second uv set
      [](Mesh& m) { m.colors[1].a = 0.5f; },
      [](Mesh& m) { m.positions[1].x = -0.0f, m.positions[0].x = 0.0f, m.positions[2].x = 0.0f; },
      [](Mesh& m) { m.morphs[0].positions[1] = {1, 2, 5}; },  // only a blend shape tells them apart
      [](Mesh& m) {  // the same bones, other weights
        m.influences[2].weight = 0.5f, m.influences[3].weight = 0.5f;
      },
      [](Mesh& m) {  // the same influences in another order
        std::swap(m.influences[2], m.influences[3]);
      },
      [](Mesh& m) {  // one influence fewer
        m.influences.erase(m.influences.begin() + 3);
        for (std::size_t v = 2; v < m.influenceStart.size(); ++v) --m.influenceStart[v];
      },
  };
  for (std::size_t c = 0; c < changes.size(); ++c) {
    Mesh m = twins();
    changes[c](m);
    EXPECT_EQ(joinIdenticalVertices(m), 1u) << "change " << c;
    ASSERT_EQ(m.vertexCount(), 2u) << "change " << c;
    EXPECT_EQ(m.indices, (std::vector<std::uint32_t>{0, 1, 0})) << "change " << c;
    EXPECT_EQ(m.influenceStart.size(), 3u);
    EXPECT_EQ(m.morphs[0].positions.size(), 2u);
  }
}

// Any number of uv sets (a model has up to 8 in glTF, cal3d files carry more): all compared.
TEST(JoinVertices, EveryUvSetCountsHoweverMany) {
  Mesh m = cornersOnly(2);  // 12 corners, 6 points
  m.uvSets.resize(12, m.uvSets[0]);
  Mesh apart = m;
  apart.uvSets[11][3].y += 0.5f;  // corner 3 repeats corner 2 but in the last set
  EXPECT_EQ(joinIdenticalVertices(m), 6u);
  EXPECT_EQ(m.vertexCount(), 6u);
  const auto before = corners(apart);
  EXPECT_EQ(joinIdenticalVertices(apart), 5u);
  ASSERT_EQ(apart.vertexCount(), 7u);
  EXPECT_EQ(corners(apart), before);
  EXPECT_NE(apart.indices[2], apart.indices[3]);
  for (std::size_t c = 0; c < apart.indices.size(); ++c)
    EXPECT_EQ(apart.uvSets[11][apart.indices[c]], cornersOnly(2).uvSets[0][c] +
                                                      glm::vec2(0, c == 3 ? 0.5f : 0.0f))
        << "corner " << c;
}

TEST(JoinVertices, SparseMorphTargetsFollowTheirVertices) {
  Mesh m = cornersOnly(2);  // 12 corners, 6 points
  // The target moves the corners at x = 1 (corners 1, 4, 6, 8, 9 — repeats of two points).
  MorphTarget t;
  t.name = "bulge";
  for (std::uint32_t v = 0; v < m.vertexCount(); ++v)
    if (m.positions[v].x == 1.0f) {
      t.vertices.push_back(v);
      t.positions.push_back(m.positions[v] + glm::vec3(0, 0, 1));
    }
  m.morphs.push_back(t);
  EXPECT_EQ(joinIdenticalVertices(m), 6u);
  ASSERT_EQ(m.vertexCount(), 6u);
  const MorphTarget& out = m.morphs[0];
  EXPECT_EQ(out.name, "bulge");
  ASSERT_EQ(out.vertices.size(), 2u);  // (1,0) and (1,1), once each
  for (std::size_t i = 0; i < out.vertices.size(); ++i) {
    EXPECT_EQ(m.positions[out.vertices[i]].x, 1.0f);
    EXPECT_EQ(out.positions[i], m.positions[out.vertices[i]] + glm::vec3(0, 0, 1));
  }
  EXPECT_LT(out.vertices[0], out.vertices[1]);  // ascending, as MorphTarget requires
}

TEST(JoinVertices, LeavesMeshesWhoseOrderMattersOrWhoseArraysDisagree) {
  Mesh lod = cornersOnly(1);
  lod.lod.collapsible = 1;
  lod.lod.collapseTo.assign(lod.vertexCount(), -1);
  lod.lod.faceCollapseCount.assign(lod.vertexCount(), 0);
  Mesh springs = cornersOnly(1);
  springs.springs.push_back({0, 1, 1.0f, 1.0f});
  springs.physicalWeights.assign(springs.vertexCount(), 1.0f);
  Mesh shortNormals = cornersOnly(1);
  shortNormals.normals.pop_back();
  Mesh badIndex = cornersOnly(1);
  badIndex.indices.back() = 99;
  Mesh badTarget = cornersOnly(1);
  badTarget.morphs.push_back({"t", {3, 2}, {{0, 0, 0}, {0, 0, 0}}, {}, {}});  // not ascending
  for (Mesh* m : {&lod, &springs, &shortNormals, &badIndex, &badTarget}) {
    const Mesh before = *m;
    EXPECT_EQ(joinIdenticalVertices(*m), 0u);
    EXPECT_EQ(m->positions, before.positions);
    EXPECT_EQ(m->indices, before.indices);
  }
  Mesh empty;
  EXPECT_EQ(joinIdenticalVertices(empty), 0u);
}

// Random meshes drawn from a few distinct vertices: the joined mesh has exactly the distinct
// vertices and the same corners.
TEST(JoinVertices, RandomRepeatsJoinToTheDistinctVertices) {
  std::mt19937 random(7);
  for (int round = 0; round < 20; ++round) {
    const int distinct = 1 + static_cast<int>(random() % 40);
    Mesh m;
    m.uvSets.resize(1);
    std::vector<int> which;
    for (int c = 0; c < 3 * (1 + static_cast<int>(random() % 200)); ++c) {
      const int d = static_cast<int>(random() % static_cast<unsigned>(distinct));
      which.push_back(d);
      m.positions.push_back({float(d % 3), float(d / 3 % 5), 0.0f});
      m.normals.push_back({0.0f, 0.0f, d % 2 ? 1.0f : -1.0f});
      m.uvSets[0].push_back({float(d), 0.0f});
      m.addInfluences(std::vector<Influence>(static_cast<std::size_t>(d % 4),
                                             Influence{static_cast<std::uint32_t>(d), 0.25f}));
      m.indices.push_back(static_cast<std::uint32_t>(c));
    }
    std::vector<bool> used(static_cast<std::size_t>(distinct), false);
    for (int d : which) used[static_cast<std::size_t>(d)] = true;
    const auto before = corners(m);
    joinIdenticalVertices(m);
    EXPECT_EQ(m.vertexCount(), static_cast<std::size_t>(std::count(used.begin(), used.end(), true)));
    EXPECT_EQ(corners(m), before);
  }
}

// Directions an exporter computed differ in their last bits where one vertex was meant (FBX
// files of the assimp corpus: normals 2e-6 apart): those join, within 1e-5 as assimp's step.
TEST(JoinVertices, NormalsAndTangentsJoinWithinTheirTolerance) {
  Mesh m;
  m.positions.assign(4, glm::vec3(1, 2, 3));
  m.normals = {glm::normalize(glm::vec3(0.0f, 1.0f, 1e-6f)), {0, 1, 0},
               glm::normalize(glm::vec3(0.0f, 1.0f, 1e-4f)), {0, 1, 0}};
  m.tangents = {{1, 0, 0, 1}, {1, 0, 2e-6f, 1}, {1, 0, 0, 1}, {1, 0, 0, -1}};
  m.indices = {0, 1, 2, 1, 2, 3};
  EXPECT_EQ(joinIdenticalVertices(m), 1u);  // 1 joins 0; 2 (normal 1e-4 off) and 3 (mirrored) stay
  ASSERT_EQ(m.vertexCount(), 3u);
  EXPECT_EQ(m.normals[0], glm::normalize(glm::vec3(0.0f, 1.0f, 1e-6f)));  // the first's values
  EXPECT_EQ(m.indices, (std::vector<std::uint32_t>{0, 0, 1, 0, 1, 2}));
}

// A hostile mesh: many vertices at one place that differ only in their normals. Each tries a
// bounded number of others: linear time, and every corner keeps its own normal's direction.
TEST(JoinVertices, ManyVerticesDifferingOnlyInNormalsStayLinear) {
  Mesh m;
  std::mt19937 random(3);
  std::uniform_real_distribution<float> any(-1.0f, 1.0f);
  const std::size_t n = 60000;
  for (std::size_t v = 0; v < n; ++v) {
    m.positions.push_back({0, 0, 0});
    m.normals.push_back(glm::normalize(glm::vec3(any(random), any(random), 1.5f)));
    m.indices.push_back(static_cast<std::uint32_t>(v));
  }
  const auto before = m.normals;
  joinIdenticalVertices(m);
  for (std::size_t c = 0; c < n; ++c)
    EXPECT_LE(glm::length(m.normals[m.indices[c]] - before[c]), 1e-5f) << "corner " << c;
}

// meshoptimizer hashes a vertex's words as h = h·m ⊕ mix(word) (MurmurHash2's step, m =
// 0x5bd1e995), without a seed: given x and y, the z that brings every vertex to the same hash
// can be solved for, and a file of such vertices made the join quadratic (80,000 vertices: 9 s).
// The reader's seeded digest spreads them again: joining them costs about what joining as many
// vertices at random costs.
Mesh aimedAtOneBucket(std::size_t n, bool aimed) {
  const std::uint32_t m = 0x5bd1e995u;
  std::uint32_t inverse = m;  // m · inverse = 1 (mod 2^32), by Newton's iteration
  for (int i = 0; i < 5; ++i) inverse *= 2 - m * inverse;
  auto mix = [&](std::uint32_t k) { k *= m; k ^= k >> 24; return k * m; };
  auto unmix = [&](std::uint32_t y) { y *= inverse; y ^= y >> 24; return y * inverse; };
  Mesh mesh;
  std::uint32_t random = 12345;
  for (std::uint32_t i = 0; mesh.positions.size() < n; ++i) {
    const float x = static_cast<float>(i), y = 0.5f;
    std::uint32_t bx, by, bz;
    std::memcpy(&bx, &x, 4);
    std::memcpy(&by, &y, 4);
    const std::uint32_t h = ((0u * m) ^ mix(bx)) * m ^ mix(by);
    random = random * 1664525u + 1013904223u;
    bz = aimed ? unmix(0x1234567u ^ (h * m)) : (random >> 9) | 0x3f800000u;
    float z;
    std::memcpy(&z, &bz, 4);
    if (!std::isfinite(z)) continue;
    mesh.positions.push_back({x, y, z});
  }
  for (std::uint32_t v = 0; v + 2 < n; v += 3) mesh.indices.insert(mesh.indices.end(), {v, v + 1, v + 2});
  return mesh;
}

TEST(JoinVertices, AFileCannotAimItsVerticesAtOneHashBucket) {
  const std::size_t n = 60000;
  auto seconds = [](Mesh mesh) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(joinIdenticalVertices(mesh), 0u);  // all distinct
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const Mesh aimed = aimedAtOneBucket(n, true), scattered = aimedAtOneBucket(n, false);
  const double a = seconds(aimed), s = seconds(scattered);
  // Quadratic, the aimed mesh took hundreds of times as long; a factor of 20 is noise's room.
  EXPECT_LT(a, 20 * s + 0.05) << "aimed " << a << " s, at random " << s << " s";
}

}  // namespace
}  // namespace marrow::formats
