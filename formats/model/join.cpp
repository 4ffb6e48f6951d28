#include "formats/model/join.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <meshoptimizer.h>

namespace marrow::formats {

namespace {

// Normals, tangents and blend-shape normals: directions computed by the file's exporter or by
// assimp, where vertices meant to be one often differ in the last bits. Within a group of
// vertices equal in everything else, a vertex joins the first one whose every direction lies
// within kDirectionTolerance of its own, as assimp's JoinIdenticalVertices compares them (its
// epsilon, 1e-5). At most kMostCandidates are tried in a group, so that a hostile file of many
// vertices differing only in their normals costs linear time.
constexpr float kDirectionTolerance = 1e-5f;
constexpr std::size_t kMostCandidates = 32;

// A 64-bit hash of a vertex's bytes, seeded once per process at random. meshoptimizer's own hash
// of the streams has no seed and mixes words without carrying high bits down, so a file can
// choose vertices that all fall in one bucket (a quadratic join: 10 s for a 1.5 MB STL); the
// digest, compared as the last stream, spreads them again however they were chosen.
std::uint64_t processSeed() {
  static const std::uint64_t seed = [] {
    std::uint64_t s = reinterpret_cast<std::uintptr_t>(&seed) ^ 0x243f6a8885a308d3ull;
    try {
      std::random_device random;
      s ^= (std::uint64_t{random()} << 32) ^ random();
    } catch (...) {  // no entropy source: the address alone (randomised by ASLR)
    }
    return s;
  }();
  return seed;
}

class Digest {
 public:
  explicit Digest(std::uint64_t seed) : h_(seed) {}
  void add(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (; size >= 8; p += 8, size -= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      word(w);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, p, size);
    word(tail ^ (std::uint64_t{size} << 56));
  }
  std::uint64_t value() const { return mix(h_, 0x4cf5ad432745937full); }

 private:
  __extension__ typedef unsigned __int128 Wide;
  static std::uint64_t mix(std::uint64_t a, std::uint64_t b) {  // 128-bit product, folded
    const Wide r = static_cast<Wide>(a) * b;
    return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
  }
  void word(std::uint64_t w) { h_ = mix(h_ ^ w, 0x9e3779b97f4a7c15ull); }
  std::uint64_t h_;
};

// Where a target keeps vertex v's values, or -1 where it does not move it (then its values at v
// are the base mesh's: a target holds whole shapes).
std::ptrdiff_t placeIn(const MorphTarget& t, std::size_t n, std::size_t v) {
  if (t.vertices.empty()) return t.positions.size() == n ? static_cast<std::ptrdiff_t>(v) : -1;
  const auto it = std::lower_bound(t.vertices.begin(), t.vertices.end(), v);
  return it != t.vertices.end() && *it == v ? it - t.vertices.begin() : -1;
}

template <class V>
bool closeDirections(const V& a, const V& b) {
  float d = 0.0f;
  for (int c = 0; c < V::length(); ++c) d += (a[c] - b[c]) * (a[c] - b[c]);
  return d <= kDirectionTolerance * kDirectionTolerance;
}

// Whether vertices a and b, of equal digests, are the same vertex: everything but the directions
// bit for bit (equal digests only say they probably are), directions within the tolerance.
bool same(const Mesh& m, std::size_t a, std::size_t b) {
  const std::size_t n = m.positions.size();
  if (std::memcmp(&m.positions[a], &m.positions[b], sizeof(glm::vec3)) != 0) return false;
  for (const auto& uv : m.uvSets)
    if (std::memcmp(&uv[a], &uv[b], sizeof(glm::vec2)) != 0) return false;
  if (!m.colors.empty() && std::memcmp(&m.colors[a], &m.colors[b], sizeof(glm::vec4)) != 0)
    return false;
  if (!m.normals.empty() && !closeDirections(m.normals[a], m.normals[b])) return false;
  if (!m.tangents.empty() && !closeDirections(m.tangents[a], m.tangents[b])) return false;
  if (m.skinned()) {
    const auto x = m.influencesOf(a), y = m.influencesOf(b);
    if (x.size() != y.size() ||
        (!x.empty() && std::memcmp(x.data(), y.data(), x.size() * sizeof(Influence)) != 0))
      return false;
  }
  for (const MorphTarget& t : m.morphs) {
    const std::ptrdiff_t i = placeIn(t, n, a), j = placeIn(t, n, b);
    const glm::vec3& pa = i >= 0 ? t.positions[i] : m.positions[a];
    const glm::vec3& pb = j >= 0 ? t.positions[j] : m.positions[b];
    if (std::memcmp(&pa, &pb, sizeof pa) != 0) return false;
    for (std::size_t s = 0; s < t.uvSets.size(); ++s) {
      const glm::vec2& ua = i >= 0 ? t.uvSets[s][i] : m.uvSets[s][a];
      const glm::vec2& ub = j >= 0 ? t.uvSets[s][j] : m.uvSets[s][b];
      if (std::memcmp(&ua, &ub, sizeof ua) != 0) return false;
    }
    if (!t.normals.empty() && !closeDirections(i >= 0 ? t.normals[i] : m.normals[a],
                                               j >= 0 ? t.normals[j] : m.normals[b]))
      return false;
  }
  return true;
}

// groupOf[v]: v's group by digest (numbered by first occurrence).
// Rewritten as the joined vertex v becomes, numbered by first occurrence; returns how many.
std::size_t split(const Mesh& m, std::vector<unsigned>& groupOf, std::size_t groups) {
  const std::size_t n = groupOf.size();
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> head(groups, kNone), tail(groups, kNone), next(n, kNone);
  std::vector<unsigned> joined(n);
  std::size_t count = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const unsigned g = groupOf[v];
    std::uint32_t match = kNone;
    std::size_t tried = 0;
    for (std::uint32_t r = head[g]; r != kNone && tried < kMostCandidates; r = next[r], ++tried)
      if (same(m, v, r)) {
        match = r;
        break;
      }
    if (match != kNone) {
      joined[v] = joined[match];
      continue;
    }
    joined[v] = static_cast<unsigned>(count++);
    if (head[g] == kNone) head[g] = static_cast<std::uint32_t>(v);
    else next[tail[g]] = static_cast<std::uint32_t>(v);
    tail[g] = static_cast<std::uint32_t>(v);
  }
  groupOf = std::move(joined);
  return count;
}

template <class T>
bool perVertex(const std::vector<T>& values, std::size_t n) {
  return values.empty() || values.size() == n;
}

// new[u] = old[first[u]]: a joined vertex keeps the values of the first of its vertices.
template <class T>
void keepFirst(std::vector<T>& values, const std::vector<std::uint32_t>& first) {
  if (values.empty()) return;
  std::vector<T> out(first.size());
  for (std::size_t u = 0; u < first.size(); ++u) out[u] = values[first[u]];
  values = std::move(out);
}

// What the join relies on: one value per vertex in every array, influence rows that start at
// 0 and never go back, indices and blend-shape vertices inside the mesh.
bool joinable(const Mesh& m) {
  const std::size_t n = m.positions.size();
  if (n < 2 || !m.lod.empty() || !m.springs.empty() || !m.physicalWeights.empty()) return false;
  if (!perVertex(m.normals, n) || !perVertex(m.tangents, n) || !perVertex(m.colors, n))
    return false;
  for (const auto& uv : m.uvSets)
    if (uv.size() != n) return false;
  if (m.skinned()) {
    if (m.influenceStart.size() != n + 1 || m.influenceStart.front() != 0 ||
        m.influenceStart.back() != m.influences.size())
      return false;
    for (std::size_t v = 0; v < n; ++v)
      if (m.influenceStart[v + 1] < m.influenceStart[v]) return false;
  }
  for (const std::uint32_t i : m.indices)
    if (i >= n) return false;
  for (const MorphTarget& t : m.morphs) {
    const std::size_t moved = t.movedCount(n);
    if (t.positions.size() != moved || (!t.normals.empty() && t.normals.size() != moved) ||
        (!t.normals.empty() && m.normals.empty()) ||
        (!t.uvSets.empty() && t.uvSets.size() != m.uvSets.size()))
      return false;
    for (const auto& uv : t.uvSets)
      if (uv.size() != moved) return false;
    for (std::size_t i = 0; i < t.vertices.size(); ++i)
      if (t.vertices[i] >= n || (i > 0 && t.vertices[i] <= t.vertices[i - 1])) return false;
  }
  return true;
}

}  // namespace

std::size_t joinIdenticalVertices(Mesh& mesh) {
  if (!joinable(mesh)) return 0;
  const std::size_t n = mesh.positions.size();

  // Each vertex's digest: its position, uvs, colour, influences and blend shapes.
  std::vector<std::uint64_t> digests(n);
  {
    const std::uint64_t seed = processSeed();
    for (std::size_t v = 0; v < n; ++v) {
      Digest d(seed);
      d.add(&mesh.positions[v], sizeof(glm::vec3));
      for (const auto& uv : mesh.uvSets) d.add(&uv[v], sizeof(glm::vec2));
      if (!mesh.colors.empty()) d.add(&mesh.colors[v], sizeof(glm::vec4));
      if (mesh.skinned()) {
        const auto infl = mesh.influencesOf(v);
        const auto count = static_cast<std::uint32_t>(infl.size());
        d.add(&count, sizeof count);
        if (!infl.empty()) d.add(infl.data(), infl.size() * sizeof(Influence));
      }
      for (const MorphTarget& t : mesh.morphs) {
        const std::ptrdiff_t i = placeIn(t, n, v);
        d.add(i >= 0 ? &t.positions[i] : &mesh.positions[v], sizeof(glm::vec3));
        for (std::size_t s = 0; s < t.uvSets.size(); ++s)
          d.add(i >= 0 ? &t.uvSets[s][i] : &mesh.uvSets[s][v], sizeof(glm::vec2));
      }
      digests[v] = d.value();
    }
  }

  // meshoptimizer groups the vertices by digest alone: 8 bytes to hash and compare rather than
  // the whole vertex, which same() compares within a group.
  const meshopt_Stream streams[] = {{digests.data(), sizeof(std::uint64_t), sizeof(std::uint64_t)}};

  // Every vertex in order, referenced or not, as triangles: meshoptimizer asserts a whole number
  // of them (the last vertex repeated to fill one; a repeat changes nothing).
  std::vector<unsigned> order((n + 2) / 3 * 3, static_cast<unsigned>(n - 1));
  for (std::size_t v = 0; v < n; ++v) order[v] = static_cast<unsigned>(v);
  std::vector<unsigned> remap(n);
  const std::size_t groups = meshopt_generateVertexRemapMulti(
      remap.data(), order.data(), order.size(), n, streams, std::size(streams));
  digests = {};
  order = {};
  const std::size_t unique = split(mesh, remap, groups);
  if (unique == n) return 0;  // nothing repeats: the remap is the identity

  // The first vertex of each joined one, whose values it keeps.
  std::vector<std::uint32_t> first(unique, UINT32_MAX);
  for (std::size_t v = 0; v < n; ++v)
    if (first[remap[v]] == UINT32_MAX) first[remap[v]] = static_cast<std::uint32_t>(v);

  for (MorphTarget& t : mesh.morphs) {
    if (t.vertices.empty()) {  // every vertex, in order
      keepFirst(t.positions, first);
      keepFirst(t.normals, first);
      for (auto& uv : t.uvSets) keepFirst(uv, first);
      continue;
    }
    MorphTarget out;
    out.name = std::move(t.name);
    out.uvSets.resize(t.uvSets.size());
    std::size_t i = 0;  // t.vertices ascend, and so do the first vertices of the joined ones
    for (std::size_t u = 0; u < unique; ++u) {
      while (i < t.vertices.size() && t.vertices[i] < first[u]) ++i;
      if (i == t.vertices.size() || t.vertices[i] != first[u]) continue;
      out.vertices.push_back(static_cast<std::uint32_t>(u));
      out.positions.push_back(t.positions[i]);
      if (!t.normals.empty()) out.normals.push_back(t.normals[i]);
      for (std::size_t s = 0; s < t.uvSets.size(); ++s) out.uvSets[s].push_back(t.uvSets[s][i]);
    }
    t = std::move(out);
  }
  if (mesh.skinned()) {
    Mesh rows;  // the joined vertices' influence rows
    rows.influenceStart.reserve(unique + 1);
    for (std::size_t u = 0; u < unique; ++u) rows.addInfluences(mesh.influencesOf(first[u]));
    mesh.influenceStart = std::move(rows.influenceStart);
    mesh.influences = std::move(rows.influences);
  }
  keepFirst(mesh.positions, first);
  keepFirst(mesh.normals, first);
  keepFirst(mesh.tangents, first);
  for (auto& uv : mesh.uvSets) keepFirst(uv, first);
  keepFirst(mesh.colors, first);
  for (std::uint32_t& i : mesh.indices) i = remap[i];
  return n - unique;
}

}  // namespace marrow::formats
