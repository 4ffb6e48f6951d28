// Joining identical vertices (formats/model/join.h) on meshes made from the bytes: a few vertices
// whose attributes come from a small set of values (zeros of both signs, NaN, infinities, values
// a few bits or 1e-6 apart), so that most of them repeat or nearly repeat, with influences,
// morph targets (dense and sparse), and indices and arrays that may not fit. Afterwards every
// triangle corner must have what it had: the same bits where the join compares bits, a
// direction within the tolerance where it compares directions.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "formats/model/join.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace marrow;
using formats::Mesh;

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t next() { return at_ < size_ ? data_[at_++] : 0; }
  float value() {
    static const float kValues[] = {0.0f, -0.0f, 1.0f, std::nextafter(1.0f, 2.0f), 1.000001f,
                                    0.5f, -1.0f, 1e-30f, std::numeric_limits<float>::quiet_NaN(),
                                    std::numeric_limits<float>::infinity(), 3.0f, 0.707107f};
    return kValues[next() % std::size(kValues)];
  }
  glm::vec2 vec2() { return {value(), value()}; }
  glm::vec3 vec3() { return {value(), value(), value()}; }
  glm::vec4 vec4() { return {value(), value(), value(), value()}; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

bool sameBits(const void* a, const void* b, std::size_t n) {
  return n == 0 || std::memcmp(a, b, n) == 0;  // memcmp may not be given a null pointer
}

template <class V>
bool within(const V& a, const V& b) {
  if (sameBits(&a, &b, sizeof(V))) return true;
  float d = 0.0f;
  for (int c = 0; c < V::length(); ++c) d += (a[c] - b[c]) * (a[c] - b[c]);
  return d <= 1e-5f * 1e-5f * 1.0001f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  const std::uint8_t flags = in.next();
  const std::size_t n = in.next() % 48;
  Mesh m;
  for (std::size_t v = 0; v < n; ++v) m.positions.push_back(in.vec3());
  if (flags & 1) for (std::size_t v = 0; v < n + (flags & 64 ? 1 : 0); ++v) m.normals.push_back(in.vec3());
  if (flags & 2) for (std::size_t v = 0; v < n; ++v) m.tangents.push_back(in.vec4());
  const std::uint8_t more = in.next();
  m.uvSets.resize(((flags >> 2) & 1) + (more & 1) + (more & 2 ? 8 : 0));  // 0–10 sets
  for (auto& uv : m.uvSets) for (std::size_t v = 0; v < n; ++v) uv.push_back(in.vec2());
  if (flags & 8) for (std::size_t v = 0; v < n; ++v) m.colors.push_back(in.vec4());
  if (flags & 16) {
    for (std::size_t v = 0; v < n; ++v) {
      std::vector<formats::Influence> infl(in.next() % (more & 4 ? 70 : 4));
      for (auto& i : infl) i = {static_cast<std::uint32_t>(in.next() % 3), in.value()};
      m.addInfluences(infl);
    }
    if ((more & 8) && !m.influenceStart.empty())  // a row table that starts late or goes back
      m.influenceStart[in.next() % m.influenceStart.size()] = in.next() % 5 + (more & 16 ? 0xFFFFFFF0u : 0);
  }
  for (int t = 0, targets = (flags >> 5) & 1 ? 1 + in.next() % 2 : 0; t < targets; ++t) {
    formats::MorphTarget target;
    const bool sparse = in.next() & 1;
    for (std::size_t v = 0; v < n; ++v) {
      if (sparse && !(in.next() & 1)) continue;
      if (sparse) target.vertices.push_back(static_cast<std::uint32_t>(v));
      target.positions.push_back(in.vec3());
      if ((flags & 1) || (more & 32)) target.normals.push_back(in.vec3());  // without base normals too
    }
    if (more & 64) {
      target.uvSets.resize(m.uvSets.size());
      for (auto& uv : target.uvSets)
        for (std::size_t i = 0; i < target.positions.size(); ++i) uv.push_back(in.vec2());
    }
    m.morphs.push_back(std::move(target));
  }
  for (std::size_t c = 0, corners = 3 * (in.next() % 24); c < corners; ++c)
    m.indices.push_back(in.next() % (flags & 128 ? 64 : (n ? n : 1)));

  const Mesh before = m;
  const std::size_t removed = formats::joinIdenticalVertices(m);
  if (removed != before.vertexCount() - m.vertexCount())
    fuzz::finding("the count of joined vertices is not the vertices that went");
  if (removed == 0) {
    if (!sameBits(m.positions.data(), before.positions.data(), n * sizeof(glm::vec3)) ||
        m.indices != before.indices)
      fuzz::finding("a mesh with nothing joined changed");
    return 0;
  }
  const std::size_t now = m.vertexCount();
  // The joined vertices are some of the original ones, in their order (first occurrences).
  for (std::size_t u = 0, v = 0; u < now; ++u, ++v) {
    while (v < n && !sameBits(&m.positions[u], &before.positions[v], sizeof(glm::vec3))) ++v;
    if (v == n) fuzz::finding("the joined vertices are not the original ones in order");
  }
  for (const auto& t : m.morphs)
    for (std::size_t i = 0; i < t.vertices.size(); ++i)
      if (t.vertices[i] >= now || (i > 0 && t.vertices[i] <= t.vertices[i - 1]))
        fuzz::finding("a sparse blend shape's vertices are not ascending inside the mesh");
  if ((!m.normals.empty() && m.normals.size() != now) || m.indices.size() != before.indices.size() ||
      (m.skinned() && m.influenceStart.size() != now + 1))
    fuzz::finding("arrays of the joined mesh disagree in length");
  for (std::size_t c = 0; c < m.indices.size(); ++c) {
    const std::uint32_t o = before.indices[c], j = m.indices[c];
    if (j >= now) fuzz::finding("an index outside the joined vertices");
    const std::string at = "corner " + std::to_string(c);
    if (!sameBits(&m.positions[j], &before.positions[o], sizeof(glm::vec3)))
      fuzz::finding(at + ": position changed");
    if (!m.normals.empty() && !within(m.normals[j], before.normals[o]))
      fuzz::finding(at + ": normal moved beyond the tolerance");
    if (!m.tangents.empty() && !within(m.tangents[j], before.tangents[o]))
      fuzz::finding(at + ": tangent moved beyond the tolerance");
    for (std::size_t s = 0; s < m.uvSets.size(); ++s)
      if (!sameBits(&m.uvSets[s][j], &before.uvSets[s][o], sizeof(glm::vec2)))
        fuzz::finding(at + ": uv changed");
    if (!m.colors.empty() && !sameBits(&m.colors[j], &before.colors[o], sizeof(glm::vec4)))
      fuzz::finding(at + ": colour changed");
    if (m.skinned()) {
      const auto a = m.influencesOf(j), b = before.influencesOf(o);
      if (a.size() != b.size() || !sameBits(a.data(), b.data(), a.size() * sizeof(formats::Influence)))
        fuzz::finding(at + ": influences changed");
    }
    for (std::size_t t = 0; t < m.morphs.size(); ++t) {
      // Where the target keeps vertex v, or -1: then its shape there is the base mesh's.
      auto placeOf = [](const Mesh& mesh, const formats::MorphTarget& target, std::uint32_t v) {
        for (std::size_t i = 0; i < target.movedCount(mesh.vertexCount()); ++i)
          if (target.vertexAt(i) == v) return static_cast<std::ptrdiff_t>(i);
        return std::ptrdiff_t{-1};
      };
      const formats::MorphTarget &joined = m.morphs[t], &original = before.morphs[t];
      const std::ptrdiff_t i = placeOf(m, joined, j), k = placeOf(before, original, o);
      const glm::vec3 a = i >= 0 ? joined.positions[i] : m.positions[j];
      const glm::vec3 b = k >= 0 ? original.positions[k] : before.positions[o];
      if (!sameBits(&a, &b, sizeof a)) fuzz::finding(at + ": blend shape changed");
      for (std::size_t set = 0; set < joined.uvSets.size(); ++set) {
        const glm::vec2 ua = i >= 0 ? joined.uvSets[set][i] : m.uvSets[set][j];
        const glm::vec2 ub = k >= 0 ? original.uvSets[set][k] : before.uvSets[set][o];
        if (!sameBits(&ua, &ub, sizeof ua)) fuzz::finding(at + ": blend shape uv changed");
      }
    }
  }
  return 0;
}
