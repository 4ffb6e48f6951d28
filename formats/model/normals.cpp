#include "formats/model/normals.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "formats/io/big_buffer.h"

namespace marrow::formats {

std::vector<glm::vec3> smoothNormals(const Mesh& mesh, glm::vec3 none) {
  std::vector<glm::vec3> n(mesh.vertexCount(), glm::vec3(0.0f));
  for (std::size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
    const auto a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
    if (a >= n.size() || b >= n.size() || c >= n.size()) continue;
    const glm::vec3 f = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
    n[a] += f;
    n[b] += f;
    n[c] += f;
  }
  for (auto& v : n) {
    const float len = glm::length(v);
    v = len > 0.0f ? v / len : none;
  }
  return n;
}

namespace {

constexpr std::uint32_t kNoFace = UINT32_MAX;

// Divided by the length, as assimp's NormalizeSafe does (not multiplied by its reciprocal).
glm::vec3 unitOrZero(glm::vec3 v) {
  const float len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  return len > 0.0f ? v / len : v;
}

// Cells of the grid: 14 bits per axis. The tolerance is 1e-4 of the box's diagonal, so a box
// is at most 10,000 cells (and rounding) along each axis; coordinates start at 1 so that the
// neighbours' cells, ±1, stay inside their 14 bits.
constexpr int kCellBits = 14;
constexpr std::uint32_t kCellMax = (1u << kCellBits) - 2;
constexpr std::uint64_t kCellMask = (std::uint64_t{1} << kCellBits) - 1;

std::uint64_t cellKey(std::uint64_t x, std::uint64_t y, std::uint64_t z) {
  return (x << (2 * kCellBits)) | (y << kCellBits) | z;
}

// The 26 neighbours of a cell and the cell itself are nine runs of keys, one per (x ± 1, y ± 1),
// each from z − 1 to z + 1: run r (0…8) around the cell of key k starts at runStart(k, r) and
// ends two keys later. Keys start at 1 on every axis, so no field borrows or carries.
constexpr std::uint64_t kRunLength = 2;
std::uint64_t runStart(std::uint64_t k, int r) {
  constexpr std::uint64_t kY = std::uint64_t{1} << kCellBits, kX = kY << kCellBits;
  return k + static_cast<std::uint64_t>(r / 3) * kX + static_cast<std::uint64_t>(r % 3) * kY - kX - kY - 1;
}

// A stable counting sort of (key, vertex) pairs by the kCellBits of the key at `shift`; the keys
// travel with their vertices, so that every pass reads its input in order.
void sortPass(const std::vector<std::uint64_t>& keyIn, const std::vector<std::uint32_t>& vertexIn,
              std::vector<std::uint64_t>& keyOut, std::vector<std::uint32_t>& vertexOut, int shift) {
  std::vector<std::uint32_t> start(std::size_t{1} << kCellBits, 0);
  for (std::uint64_t k : keyIn) ++start[(k >> shift) & kCellMask];
  std::uint32_t sum = 0;
  for (auto& s : start) {
    const std::uint32_t c = s;
    s = sum;
    sum += c;
  }
  for (std::size_t i = 0; i < keyIn.size(); ++i) {
    const std::uint32_t to = start[(keyIn[i] >> shift) & kCellMask]++;
    keyOut[to] = keyIn[i];
    vertexOut[to] = vertexIn[i];
  }
}

}  // namespace

std::vector<glm::vec3> weldedSmoothNormals(std::span<const glm::vec3> positions,
                                           std::span<const std::uint32_t> triangles) {
  const std::size_t n = positions.size();
  std::vector<glm::vec3> out = bigVector<glm::vec3>(n);
  if (n == 0 || n >= kNoFace) return out;

  // The last triangle of each vertex; its unit normal is computed where it is summed.
  auto lastFace = bigVector<std::uint32_t>(n);
  std::fill(lastFace.begin(), lastFace.end(), kNoFace);
  const std::size_t faces = std::min(triangles.size() / 3, std::size_t{kNoFace});
  for (std::size_t f = 0; f < faces; ++f) {
    const std::uint32_t* t = &triangles[3 * f];
    if (t[0] >= n || t[1] >= n || t[2] >= n) continue;
    lastFace[t[0]] = lastFace[t[1]] = lastFace[t[2]] = static_cast<std::uint32_t>(f);
  }
  const auto faceNormal = [&](std::uint32_t v) {
    const std::uint32_t f = lastFace[v];
    if (f == kNoFace) return glm::vec3(0.0f);
    const std::uint32_t* t = &triangles[3 * std::size_t{f}];
    const glm::vec3& a = positions[t[0]];
    const glm::vec3 u = unitOrZero(glm::cross(positions[t[1]] - a, positions[t[2]] - a));
    // A triangle with a coordinate that is not a finite number has no normal (assimp skips it).
    return std::isfinite(u.x + u.y + u.z) ? u : glm::vec3(0.0f);
  };

  glm::vec3 lo = positions[0], hi = positions[0];
  for (const glm::vec3& p : positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const glm::vec3 d = hi - lo;
  const float eps = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z) * 1e-4f;
  const float eps2 = eps * eps;
  if (!(eps2 > 0.0f) || !std::isfinite(eps2)) {
    for (std::size_t v = 0; v < n; ++v) out[v] = faceNormal(static_cast<std::uint32_t>(v));
    return out;
  }

  const auto cellOf = [&](const glm::vec3& p) {
    std::array<std::uint64_t, 3> c{};
    for (int a = 0; a < 3; ++a) {
      float x = std::floor((p[a] - lo[a]) / eps);  // ≥ 0: lo is the minimum
      if (!(x >= 0.0f)) x = 0.0f;  // a coordinate that is not a number (it meets no vertex)
      c[a] = 1 + static_cast<std::uint64_t>(std::min(x, static_cast<float>(kCellMax - 1)));
    }
    return c;
  };
  // Vertices sorted by cell, x then y then z (three stable counting sorts, z first): the cells
  // of one x and one y, and three neighbouring z, are one run of cells; within a cell the
  // vertices keep their order.
  std::vector<std::uint32_t> order = bigVector<std::uint32_t>(n);
  std::vector<std::uint32_t> cellOfVertex = bigVector<std::uint32_t>(n);
  std::vector<std::uint64_t> cellKeys;   // ascending, one per non-empty cell
  std::vector<std::uint32_t> cellStart;  // where each cell's vertices begin in `order`; one more
  {
    std::vector<std::uint64_t> key = bigVector<std::uint64_t>(n), key2 = bigVector<std::uint64_t>(n);
    std::vector<std::uint32_t> vertex2 = bigVector<std::uint32_t>(n);
    for (std::size_t v = 0; v < n; ++v) {
      const auto c = cellOf(positions[v]);
      key[v] = cellKey(c[0], c[1], c[2]);
      order[v] = static_cast<std::uint32_t>(v);
    }
    sortPass(key, order, key2, vertex2, 0);
    sortPass(key2, vertex2, key, order, kCellBits);
    sortPass(key, order, key2, vertex2, 2 * kCellBits);
    order.swap(vertex2);
    for (std::size_t i = 0; i < n; ++i) {
      if (cellKeys.empty() || cellKeys.back() != key2[i]) {
        cellKeys.push_back(key2[i]);
        cellStart.push_back(static_cast<std::uint32_t>(i));
      }
      cellOfVertex[order[i]] = static_cast<std::uint32_t>(cellKeys.size() - 1);
    }
    cellStart.push_back(static_cast<std::uint32_t>(n));
  }
  const std::size_t cells = cellKeys.size();

  // Whether a cell has a non-empty neighbour (of the 26 around it): one pass over the cells in
  // order, where the first cell at or after each of the nine runs (x ± 1, y ± 1, z − 1…z + 1)
  // only moves forwards. In a real mesh, whose vertices lie further apart than the tolerance,
  // almost every cell is alone.
  std::vector<std::uint8_t> crowded(cells, 0);
  {
    std::array<std::size_t, 9> cursor{};
    for (std::size_t c = 0; c < cells; ++c) {
      for (int r = 0; r < 9 && !crowded[c]; ++r) {
        const std::uint64_t from = runStart(cellKeys[c], r), to = from + kRunLength;
        std::size_t& i = cursor[r];
        while (i < cells && cellKeys[i] < from) ++i;
        for (std::size_t j = i; j < cells && cellKeys[j] <= to; ++j)
          if (j != c) {
            crowded[c] = 1;
            break;
          }
      }
    }
  }

  // One neighbourhood: gather(cell, p) adds the vertices of a cell (an index into cellKeys)
  // closer to p than the tolerance to `near`; settle() gives them all the normalised sum of
  // their normals.
  std::vector<std::uint8_t> done(n, 0);
  std::vector<std::uint32_t> near;
  const auto gather = [&](std::size_t cell, const glm::vec3& p) {
    for (std::uint32_t i = cellStart[cell]; i < cellStart[cell + 1]; ++i) {
      const std::uint32_t w = order[i];
      const glm::vec3 e = positions[w] - p;
      if (e.x * e.x + e.y * e.y + e.z * e.z < eps2) near.push_back(w);
    }
  };
  const auto settle = [&] {
    glm::vec3 sum(0.0f);
    for (std::uint32_t w : near) sum += faceNormal(w);
    sum = unitOrZero(sum);
    for (std::uint32_t w : near) {
      out[w] = sum;
      done[w] = 1;
    }
  };

  // A cell alone is a world of its own: no vertex outside it is within the tolerance of one
  // inside. Its vertices, in their order, start their neighbourhoods inside it — cell by cell,
  // in memory order. A crowded cell's vertices only ever meet vertices of crowded cells, and
  // start their neighbourhoods in their order afterwards: the same result as taking every
  // vertex in order.
  for (std::size_t c = 0; c < cells; ++c) {
    if (crowded[c]) continue;
    for (std::uint32_t i = cellStart[c]; i < cellStart[c + 1]; ++i) {
      const std::uint32_t v = order[i];
      if (done[v]) continue;
      near.clear();
      gather(c, positions[v]);
      settle();
    }
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (done[v] || !crowded[cellOfVertex[v]]) continue;
    near.clear();
    for (int r = 0; r < 9; ++r) {
      const std::uint64_t from = runStart(cellKeys[cellOfVertex[v]], r), to = from + kRunLength;
      for (auto it = std::lower_bound(cellKeys.begin(), cellKeys.end(), from);
           it != cellKeys.end() && *it <= to; ++it)
        gather(static_cast<std::size_t>(it - cellKeys.begin()), positions[v]);
    }
    settle();
  }
  return out;
}

}  // namespace marrow::formats
