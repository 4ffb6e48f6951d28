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

// Every vertex's attributes, one after the other, `stride` bytes per vertex.
class Keys {
 public:
  Keys(std::size_t vertices, std::size_t stride)
      : stride_(stride), bytes_(vertices * stride, std::byte{0}) {}

  // Column `bytes` wide at the current offset; value(v) gives vertex v's.
  template <class T, class F>
  void column(std::size_t vertices, F value) {
    for (std::size_t v = 0; v < vertices; ++v) {
      const T x = value(v);
      std::memcpy(bytes_.data() + v * stride_ + offset_, &x, sizeof(T));
    }
    offset_ += sizeof(T);
  }
  void bytesAt(std::size_t v, const void* data, std::size_t size, std::size_t at) {
    std::memcpy(bytes_.data() + v * stride_ + offset_ + at, data, size);
  }
  void skip(std::size_t size) { offset_ += size; }

  std::vector<meshopt_Stream> streams() const {
    std::vector<meshopt_Stream> s;
    for (std::size_t at = 0; at < stride_; at += kStreamBytes)
      s.push_back({bytes_.data() + at, std::min(kStreamBytes, stride_ - at), stride_});
    return s;
  }

 private:
  std::size_t stride_ = 0, offset_ = 0;
  std::vector<std::byte> bytes_;
};

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

  template <class V>
  void add(const std::vector<V>& values) {
    blocks_.push_back(static_cast<std::uint32_t>(V::length()));
    const std::size_t width = stride_ + V::length();
    std::vector<float> grown(n_ * width);
    for (std::size_t v = 0; v < n_; ++v) {
      std::copy_n(floats_.data() + v * stride_, stride_, grown.data() + v * width);
      for (int c = 0; c < V::length(); ++c) grown[v * width + stride_ + c] = values[v][c];
    }
    floats_ = std::move(grown);
    stride_ = width;
  }

  // groupOf[v]: v's group by everything else (numbered by first occurrence). Rewrites it as the
  // joined vertex v belongs to, numbered by first occurrence; returns how many there are.
  std::size_t split(std::vector<unsigned>& groupOf, std::size_t groups) const {
    if (stride_ == 0) return groups;
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
  bool close(std::size_t a, std::size_t b) const {
    const float* x = floats_.data() + a * stride_;
    const float* y = floats_.data() + b * stride_;
    for (const std::uint32_t width : blocks_) {
      float d = 0.0f;
      for (std::uint32_t c = 0; c < width; ++c) d += (x[c] - y[c]) * (x[c] - y[c]);
      if (!(d <= kDirectionTolerance * kDirectionTolerance)) return false;
      x += width;
      y += width;
    }
    return true;
  }

  std::size_t n_ = 0, stride_ = 0;
  std::vector<std::uint32_t> blocks_;
  std::vector<float> floats_;
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

  // The key's layout.
  std::uint32_t mostInfluences = 0;
  if (skinned)
    for (std::size_t v = 0; v < n; ++v)
      mostInfluences = std::max(mostInfluences, mesh.influenceStart[v + 1] - mesh.influenceStart[v]);
  std::size_t stride = sizeof(glm::vec3);
  stride += mesh.uvSets.size() * sizeof(glm::vec2);
  if (!mesh.colors.empty()) stride += sizeof(glm::vec4);
  if (skinned) stride += sizeof(std::uint32_t) + mostInfluences * sizeof(Influence);
  for (const MorphTarget& t : mesh.morphs) {
    stride += sizeof(glm::vec3);
    stride += t.uvSets.size() * sizeof(glm::vec2);
  }
  if (stride > kStreamBytes * kMaxStreams) return 0;
  Directions directions(n);

  Keys keys(n, stride);
  keys.column<glm::vec3>(n, [&](std::size_t v) { return mesh.positions[v]; });
  if (!mesh.normals.empty()) directions.add(mesh.normals);
  if (!mesh.tangents.empty()) directions.add(mesh.tangents);
  for (const auto& uv : mesh.uvSets) keys.column<glm::vec2>(n, [&](std::size_t v) { return uv[v]; });
  if (!mesh.colors.empty())
    keys.column<glm::vec4>(n, [&](std::size_t v) { return mesh.colors[v]; });
  if (skinned) {
    keys.column<std::uint32_t>(
        n, [&](std::size_t v) { return mesh.influenceStart[v + 1] - mesh.influenceStart[v]; });
    for (std::size_t v = 0; v < n; ++v) {
      const auto infl = mesh.influencesOf(v);
      for (std::size_t k = 0; k < infl.size(); ++k) {
        const std::uint32_t bone = infl[k].bone;
        const float weight = infl[k].weight;
        keys.bytesAt(v, &bone, sizeof bone, k * 8);
        keys.bytesAt(v, &weight, sizeof weight, k * 8 + 4);
      }
    }
    keys.skip(mostInfluences * sizeof(Influence));
  }
  // A target holds whole shapes: a vertex it does not move is at its base values in it.
  for (const MorphTarget& t : mesh.morphs) {
    std::vector<std::uint32_t> at(n, UINT32_MAX);  // vertex → its place in the target
    for (std::size_t i = 0, moved = t.movedCount(n); i < moved; ++i)
      at[t.vertexAt(i)] = static_cast<std::uint32_t>(i);
    keys.column<glm::vec3>(n, [&](std::size_t v) {
      return at[v] == UINT32_MAX ? mesh.positions[v] : t.positions[at[v]];
    });
    if (!t.normals.empty() && !mesh.normals.empty()) {
      std::vector<glm::vec3> normals(mesh.normals);
      for (std::size_t v = 0; v < n; ++v)
        if (at[v] != UINT32_MAX) normals[v] = t.normals[at[v]];
      directions.add(normals);
    }
    for (std::size_t s = 0; s < t.uvSets.size(); ++s)
      keys.column<glm::vec2>(n, [&](std::size_t v) {
        return at[v] == UINT32_MAX ? mesh.uvSets[s][v] : t.uvSets[s][at[v]];
      });
  }

  // Every vertex in order, referenced or not, as triangles: meshoptimizer asserts a whole number
  // of them (the last vertex repeated to fill one; a repeat changes nothing).
  std::vector<unsigned> order((n + 2) / 3 * 3, static_cast<unsigned>(n - 1));
  for (std::size_t v = 0; v < n; ++v) order[v] = static_cast<unsigned>(v);
  std::vector<unsigned> remap(n);
  const auto streams = keys.streams();
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
