#include "formats/model/join.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <meshoptimizer.h>

namespace marrow::formats {

namespace {

// meshoptimizer compares up to 16 streams of at most 256 bytes per vertex.
constexpr std::size_t kStreamBytes = 256, kMaxStreams = 16;

// Normals, tangents and blend-shape normals: directions computed by the file's exporter or by
// assimp, where vertices meant to be one often differ in the last bits. Within a group of
// vertices equal in everything else, a vertex joins the first one whose every direction lies
// within kDirectionTolerance of its own, as assimp's JoinIdenticalVertices compares them (its
// epsilon, 1e-5). At most kMostCandidates are tried in a group, so that a hostile file of many
// vertices differing only in their normals costs linear time.
constexpr float kDirectionTolerance = 1e-5f;
constexpr std::size_t kMostCandidates = 32;

class Directions {
 public:
  explicit Directions(std::size_t vertices) : n_(vertices) {}

  // Per vertex `width` floats at data + v · width; `data` outlives this.
  void add(const float* data, std::uint32_t width) { sources_.push_back({data, width}); }
  bool empty() const { return sources_.empty(); }

  // groupOf[v]: v's group by everything else (numbered by first occurrence). Rewrites it as the
  // joined vertex v belongs to, numbered by first occurrence; returns how many there are.
  std::size_t split(std::vector<unsigned>& groupOf, std::size_t groups) const {
    if (sources_.empty()) return groups;
    constexpr std::uint32_t kNone = UINT32_MAX;
    std::vector<std::uint32_t> head(groups, kNone), tail(groups, kNone), next(n_, kNone);
    std::vector<unsigned> joined(n_);
    std::size_t count = 0;
    for (std::size_t v = 0; v < n_; ++v) {
      const unsigned g = groupOf[v];
      std::uint32_t match = kNone;
      std::size_t tried = 0;
      for (std::uint32_t r = head[g]; r != kNone && tried < kMostCandidates; r = next[r], ++tried)
        if (close(v, r)) {
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

 private:
  struct Source {
    const float* data;
    std::uint32_t width;
  };

  bool close(std::size_t a, std::size_t b) const {
    for (const Source& s : sources_) {
      const float* x = s.data + a * s.width;
      const float* y = s.data + b * s.width;
      float d = 0.0f;
      for (std::uint32_t c = 0; c < s.width; ++c) d += (x[c] - y[c]) * (x[c] - y[c]);
      if (!(d <= kDirectionTolerance * kDirectionTolerance)) return false;
    }
    return true;
  }

  std::size_t n_ = 0;
  std::vector<Source> sources_;
};

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

}  // namespace

std::size_t joinIdenticalVertices(Mesh& mesh) {
  const std::size_t n = mesh.positions.size();
  if (n < 2 || !mesh.lod.empty() || !mesh.springs.empty() || !mesh.physicalWeights.empty())
    return 0;
  if (!perVertex(mesh.normals, n) || !perVertex(mesh.tangents, n) || !perVertex(mesh.colors, n))
    return 0;
  for (const auto& uv : mesh.uvSets)
    if (uv.size() != n) return 0;
  const bool skinned = mesh.skinned();
  if (skinned && (mesh.influenceStart.size() != n + 1 ||
                  mesh.influenceStart.back() != mesh.influences.size()))
    return 0;
  for (const std::uint32_t i : mesh.indices)
    if (i >= n) return 0;
  for (const MorphTarget& t : mesh.morphs) {
    const std::size_t moved = t.movedCount(n);
    if (t.positions.size() != moved || (!t.normals.empty() && t.normals.size() != moved) ||
        (!t.uvSets.empty() && t.uvSets.size() != mesh.uvSets.size()))
      return 0;
    for (const auto& uv : t.uvSets)
      if (uv.size() != moved) return 0;
    for (std::size_t i = 0; i < t.vertices.size(); ++i)
      if (t.vertices[i] >= n || (i > 0 && t.vertices[i] <= t.vertices[i - 1])) return 0;
  }

  // Compared bit for bit: the mesh's own arrays where they hold one value per vertex, and a
  // buffer for the rest: each vertex's influences (their count, then bone and weight pairs,
  // zero after the last) and every blend shape's position and uvs there (a target holds whole
  // shapes: a vertex it does not move is at its base values in it).
  std::vector<meshopt_Stream> streams{{mesh.positions.data(), sizeof(glm::vec3), sizeof(glm::vec3)}};
  for (const auto& uv : mesh.uvSets) streams.push_back({uv.data(), sizeof(glm::vec2), sizeof(glm::vec2)});
  if (!mesh.colors.empty())
    streams.push_back({mesh.colors.data(), sizeof(glm::vec4), sizeof(glm::vec4)});
  std::uint32_t mostInfluences = 0;
  if (skinned)
    for (std::size_t v = 0; v < n; ++v)
      mostInfluences = std::max(mostInfluences, mesh.influenceStart[v + 1] - mesh.influenceStart[v]);
  std::size_t stride = skinned ? sizeof(std::uint32_t) + mostInfluences * sizeof(Influence) : 0;
  for (const MorphTarget& t : mesh.morphs) stride += sizeof(glm::vec3) + t.uvSets.size() * sizeof(glm::vec2);
  if (streams.size() + (stride + kStreamBytes - 1) / kStreamBytes > kMaxStreams) return 0;
  std::vector<std::byte> extra(n * stride);
  std::vector<std::vector<glm::vec3>> targetNormals;  // whole, for the directions
  Directions directions(n);
  if (!mesh.normals.empty()) directions.add(&mesh.normals[0].x, 3);
  if (!mesh.tangents.empty()) directions.add(&mesh.tangents[0].x, 4);
  {
    std::size_t offset = 0;
    auto put = [&](std::size_t v, const void* data, std::size_t size, std::size_t at) {
      std::memcpy(extra.data() + v * stride + offset + at, data, size);
    };
    if (skinned) {
      for (std::size_t v = 0; v < n; ++v) {
        const auto infl = mesh.influencesOf(v);
        const auto count = static_cast<std::uint32_t>(infl.size());
        put(v, &count, sizeof count, 0);
        for (std::size_t k = 0; k < infl.size(); ++k) {
          put(v, &infl[k].bone, sizeof(std::uint32_t), 4 + k * 8);
          put(v, &infl[k].weight, sizeof(float), 8 + k * 8);
        }
        const std::size_t filled = 4 + infl.size() * 8, width = 4 + mostInfluences * 8;
        std::memset(extra.data() + v * stride + offset + filled, 0, width - filled);
      }
      offset += sizeof(std::uint32_t) + mostInfluences * sizeof(Influence);
    }
    for (const MorphTarget& t : mesh.morphs) {
      std::vector<std::uint32_t> at(n, UINT32_MAX);  // vertex → its place in the target
      for (std::size_t i = 0, moved = t.movedCount(n); i < moved; ++i)
        at[t.vertexAt(i)] = static_cast<std::uint32_t>(i);
      for (std::size_t v = 0; v < n; ++v) {
        const bool moved = at[v] != UINT32_MAX;
        put(v, moved ? &t.positions[at[v]] : &mesh.positions[v], sizeof(glm::vec3), 0);
        for (std::size_t s = 0; s < t.uvSets.size(); ++s)
          put(v, moved ? &t.uvSets[s][at[v]] : &mesh.uvSets[s][v], sizeof(glm::vec2),
              sizeof(glm::vec3) + s * sizeof(glm::vec2));
      }
      offset += sizeof(glm::vec3) + t.uvSets.size() * sizeof(glm::vec2);
      if (!t.normals.empty() && !mesh.normals.empty()) {
        auto& normals = targetNormals.emplace_back(mesh.normals);
        for (std::size_t v = 0; v < n; ++v)
          if (at[v] != UINT32_MAX) normals[v] = t.normals[at[v]];
      }
    }
  }
  for (const auto& normals : targetNormals) directions.add(&normals[0].x, 3);
  for (std::size_t at = 0; at < stride; at += kStreamBytes)
    streams.push_back({extra.data() + at, std::min(kStreamBytes, stride - at), stride});

  // Every vertex in order, referenced or not, as triangles: meshoptimizer asserts a whole number
  // of them (the last vertex repeated to fill one; a repeat changes nothing).
  std::vector<unsigned> order((n + 2) / 3 * 3, static_cast<unsigned>(n - 1));
  for (std::size_t v = 0; v < n; ++v) order[v] = static_cast<unsigned>(v);
  std::vector<unsigned> remap(n);
  const std::size_t groups = meshopt_generateVertexRemapMulti(
      remap.data(), order.data(), order.size(), n, streams.data(), streams.size());
  const std::size_t unique = directions.split(remap, groups);
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
    std::vector<std::uint32_t> at(n, UINT32_MAX);
    for (std::size_t i = 0; i < t.vertices.size(); ++i) at[t.vertices[i]] = static_cast<std::uint32_t>(i);
    MorphTarget out;
    out.name = std::move(t.name);
    out.uvSets.resize(t.uvSets.size());
    for (std::size_t u = 0; u < unique; ++u) {
      const std::uint32_t i = at[first[u]];
      if (i == UINT32_MAX) continue;
      out.vertices.push_back(static_cast<std::uint32_t>(u));
      out.positions.push_back(t.positions[i]);
      if (!t.normals.empty()) out.normals.push_back(t.normals[i]);
      for (std::size_t s = 0; s < t.uvSets.size(); ++s) out.uvSets[s].push_back(t.uvSets[s][i]);
    }
    t = std::move(out);
  }
  if (skinned) {
    std::vector<std::uint32_t> start{0};
    std::vector<Influence> influences;
    start.reserve(unique + 1);
    for (std::size_t u = 0; u < unique; ++u) {
      const auto infl = mesh.influencesOf(first[u]);
      influences.insert(influences.end(), infl.begin(), infl.end());
      start.push_back(static_cast<std::uint32_t>(influences.size()));
    }
    mesh.influenceStart = std::move(start);
    mesh.influences = std::move(influences);
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
