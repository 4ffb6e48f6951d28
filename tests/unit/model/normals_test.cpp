// formats/model/normals.h: welded smooth normals on hand-made meshes whose answer is known, and
// on hostile ones (crowds of vertices, values that are not numbers, indices past the end). The
// comparison with assimp's own GenSmoothNormals is tests/reference/assimp_normals_test.cpp.
#include "formats/model/normals.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

using marrow::formats::weldedSmoothNormals;

bool near(const glm::vec3& a, const glm::vec3& b, float tol = 1e-6f) {
  return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol;
}

// Two triangles of a roof, stored corner by corner (six vertices): the two corners on the ridge
// appear twice each and must get the sum of both faces' normals; the eaves one face's each.
TEST(WeldedSmoothNormals, CornersStoredOneByOneAreSmoothedAcrossTheTriangles) {
  const std::vector<glm::vec3> p = {
      {0, 0, 0}, {0, 1, 1}, {1, 1, 1},   // left slope: y rises with z
      {0, 1, 1}, {0, 0, 2}, {1, 1, 1}};  // right slope: y falls with z (ridge at z = 1)
  const std::vector<std::uint32_t> t = {0, 1, 2, 3, 4, 5};
  const auto n = weldedSmoothNormals(p, t);
  ASSERT_EQ(n.size(), 6u);
  const glm::vec3 left = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));
  const glm::vec3 right = glm::normalize(glm::cross(p[4] - p[3], p[5] - p[3]));
  const glm::vec3 ridge = glm::normalize(left + right);
  EXPECT_TRUE(near(n[0], left));
  EXPECT_TRUE(near(n[4], right));
  for (int v : {1, 2, 3, 5}) EXPECT_TRUE(near(n[v], ridge)) << v;
  EXPECT_TRUE(near(ridge, glm::vec3(0, 1, 0)));  // the ridge points straight up
}

// Within 1e-4 of the box's diagonal is one place; further apart is not.
TEST(WeldedSmoothNormals, VerticesWithinTheToleranceAreOnePlaceAndBeyondItAreNot) {
  // The box runs from (0, 0, 0) to (10, 0, 0) and (0, 10, 10) is in it: diagonal 17.32, so the
  // tolerance is 1.732e-3. Two triangles meet (nearly) at the origin.
  for (const float gap : {1.5e-3f, 2.0e-3f}) {
    const std::vector<glm::vec3> p = {{0, 0, 0},   {10, 0, 0}, {0, 10, 0},
                                      {0, 0, gap}, {0, 0, 10}, {10, 0, 10}};
    const std::vector<std::uint32_t> t = {0, 1, 2, 3, 4, 5};
    const auto n = weldedSmoothNormals(p, t);
    const glm::vec3 a = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));  // +z
    const glm::vec3 b = glm::normalize(glm::cross(p[4] - p[3], p[5] - p[3]));  // +y
    const bool one = gap < 1.732e-3f;
    EXPECT_TRUE(near(n[0], one ? glm::normalize(a + b) : a)) << gap;
    EXPECT_TRUE(near(n[3], one ? glm::normalize(a + b) : b)) << gap;
    EXPECT_TRUE(near(n[1], a)) << gap;
    EXPECT_TRUE(near(n[4], b)) << gap;
  }
}

// Where triangles share a vertex (an indexed mesh), the vertex carries the last triangle's
// normal, as in assimp: a fan around a shared centre ends up with the last blade's.
TEST(WeldedSmoothNormals, AVertexSharedByTrianglesCarriesTheLastOnesNormal) {
  const std::vector<glm::vec3> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<std::uint32_t> t = {0, 1, 2, 0, 3, 1};  // the +z face, then the +y face
  const auto n = weldedSmoothNormals(p, t);
  EXPECT_TRUE(near(n[0], glm::vec3(0, 1, 0)));
  EXPECT_TRUE(near(n[1], glm::vec3(0, 1, 0)));
  EXPECT_TRUE(near(n[2], glm::vec3(0, 0, 1)));
  EXPECT_TRUE(near(n[3], glm::vec3(0, 1, 0)));
}

TEST(WeldedSmoothNormals, DegenerateAndUnusedVerticesGetZeroAndNothingBreaks) {
  EXPECT_TRUE(weldedSmoothNormals({}, {}).empty());
  // A collapsed triangle, an unused vertex, a triangle pointing past the end (skipped), and a
  // triangle with a vertex that is not a number (its normal counts as none, as in assimp).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<glm::vec3> p = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {5, 5, 5}, {nan, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<std::uint32_t> t = {0, 1, 2, 0, 1, 99, 4, 5, 6};
  const auto n = weldedSmoothNormals(p, t);
  ASSERT_EQ(n.size(), p.size());
  for (std::size_t v = 0; v < p.size(); ++v) EXPECT_EQ(n[v], glm::vec3(0.0f)) << v;
  // Every vertex in one place: no box to measure a tolerance by; each keeps its own.
  const std::vector<glm::vec3> one(3, glm::vec3(2.0f));
  EXPECT_EQ(weldedSmoothNormals(one, std::vector<std::uint32_t>{0, 1, 2})[1], glm::vec3(0.0f));
  // Coordinates whose box diagonal overflows once squared.
  const std::vector<glm::vec3> huge = {{-3e38f, 0, 0}, {3e38f, 0, 0}, {0, 3e38f, 0}};
  const auto h = weldedSmoothNormals(huge, std::vector<std::uint32_t>{0, 1, 2});
  for (const auto& v : h) EXPECT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z));
}

// A file that piles its vertices into a few cells of the grid (all within the tolerance of each
// other, or just beyond it in a dense lattice) must not make the work quadratic: 200,000 such
// vertices take well under a second (quadratic would be minutes).
TEST(WeldedSmoothNormals, CrowdedVerticesStayLinear) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> jitter(0.0f, 1e-6f);
  const std::size_t n = 200'000;
  std::vector<glm::vec3> p;
  p.reserve(n + 3);
  p.push_back({0, 0, 0});
  p.push_back({1, 1, 1});  // sets the box: tolerance ≈ 1.7e-4
  p.push_back({2.5e-4f, 0, 0});  // in the next cell: the crowd's cell is not alone
  for (std::size_t i = 3; i < n / 2; ++i)  // a crowd within 1e-6 of the origin
    p.push_back({jitter(rng), jitter(rng), jitter(rng)});
  for (std::size_t i = n / 2; i < n; ++i) {  // a lattice at 0.9 of the tolerance, near (0.5, 0.5, 0.5)
    const float s = 1.5e-4f;
    p.push_back(glm::vec3(0.5f) + s * glm::vec3(i % 40, (i / 40) % 40, (i / 1600) % 40));
  }
  std::vector<std::uint32_t> t;
  for (std::uint32_t i = 0; i + 2 < n; i += 3) t.insert(t.end(), {i, i + 1, i + 2});
  const auto start = std::chrono::steady_clock::now();
  const auto normals = weldedSmoothNormals(p, t);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(normals.size(), p.size());
  EXPECT_LT(s, 5.0) << "crowded vertices took " << s << " s";
  // The crowd is one place: one normal for all of it.
  for (std::size_t i = 3; i < n / 2; i += 997) EXPECT_EQ(normals[i], normals[0]) << i;
}

}  // namespace
