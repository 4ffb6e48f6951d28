#include "formats/model/lod.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

namespace marrow::formats {

void lodIndices(const Mesh& mesh, float level, std::vector<std::uint32_t>& out) {
  const auto& lod = mesh.lod;
  const std::size_t n = mesh.vertexCount();
  if (lod.empty() || lod.collapseTo.size() != n || lod.faceCollapseCount.size() != n || level >= 1.0f) {
    out = mesh.indices;
    return;
  }
  level = std::clamp(std::isfinite(level) ? level : 1.0f, 0.0f, 1.0f);
  const std::size_t collapsible = std::min<std::size_t>(lod.collapsible, n);
  const auto removed = static_cast<std::size_t>((1.0f - level) * static_cast<float>(collapsible));
  const std::size_t active = n - removed;
  std::size_t faces = mesh.triangleCount();
  for (std::size_t v = active; v < n; ++v)
    faces -= std::min<std::size_t>(faces, static_cast<std::size_t>(std::max(lod.faceCollapseCount[v], 0)));
  out.resize(faces * 3);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint32_t v = mesh.indices[i];
    // Follow the collapse chain into the active vertices; a chain that ends (−1) or runs longer
    // than the vertices could (a loop) keeps the vertex where it stopped.
    for (std::size_t hops = 0; v >= active && hops < n; ++hops) {
      const std::int32_t to = lod.collapseTo[v];
      if (to < 0) break;
      v = static_cast<std::uint32_t>(to);
    }
    out[i] = v;
  }
}

Mesh meshOfTriangles(const Mesh& mesh, std::span<const std::uint32_t> indices) {
  Mesh o;
  o.name = mesh.name;
  o.material = mesh.material;
  o.materialSlot = mesh.materialSlot;
  o.parentBone = mesh.parentBone;
  o.inverseBind = mesh.inverseBind;
  std::unordered_map<std::uint32_t, std::uint32_t> remap;
  std::vector<std::uint32_t> vertices;
  o.indices.reserve(indices.size());
  for (std::uint32_t v : indices) {
    auto [it, added] = remap.try_emplace(v, static_cast<std::uint32_t>(vertices.size()));
    if (added) vertices.push_back(v);
    o.indices.push_back(it->second);
  }
  o.uvSets.resize(mesh.uvSets.size());
  for (std::uint32_t v : vertices) {
    o.positions.push_back(mesh.positions[v]);
    if (!mesh.normals.empty()) o.normals.push_back(mesh.normals[v]);
    if (!mesh.tangents.empty()) o.tangents.push_back(mesh.tangents[v]);
    if (!mesh.colors.empty()) o.colors.push_back(mesh.colors[v]);
    if (!mesh.physicalWeights.empty()) o.physicalWeights.push_back(mesh.physicalWeights[v]);
    for (std::size_t s = 0; s < mesh.uvSets.size(); ++s) o.uvSets[s].push_back(mesh.uvSets[s][v]);
    if (mesh.skinned()) o.addInfluences(mesh.influencesOf(v));
  }
  for (const MorphTarget& t : mesh.morphs) {
    MorphTarget n;
    n.name = t.name;
    struct Moved {
      std::uint32_t vertex;
      std::size_t from;
    };
    std::vector<Moved> moved;
    for (std::size_t j = 0; j < t.movedCount(mesh.vertexCount()); ++j)
      if (auto it = remap.find(static_cast<std::uint32_t>(t.vertexAt(j))); it != remap.end()) moved.push_back({it->second, j});
    std::sort(moved.begin(), moved.end(), [](const Moved& a, const Moved& b) { return a.vertex < b.vertex; });
    n.uvSets.resize(t.uvSets.size());
    for (const Moved& mv : moved) {
      n.vertices.push_back(mv.vertex);
      n.positions.push_back(t.positions[mv.from]);
      if (mv.from < t.normals.size()) n.normals.push_back(t.normals[mv.from]);
      for (std::size_t s = 0; s < t.uvSets.size(); ++s) n.uvSets[s].push_back(t.uvSets[s][mv.from]);
    }
    if (n.normals.size() != n.positions.size()) n.normals.clear();
    o.morphs.push_back(std::move(n));
  }
  return o;
}

std::optional<LevelName> levelName(std::string_view name) {
  if (name.size() < 6 || name.substr(name.size() - 5, 4) != ".lod") return std::nullopt;
  const char digit = name.back();
  if (digit < '1' || digit > '9') return std::nullopt;
  return LevelName{name.substr(0, name.size() - 5), digit - '0'};
}

MeshLevels meshLevels(const Scene& scene) {
  MeshLevels out;
  const std::size_t n = scene.meshes.size();
  out.level.assign(n, 0);
  out.of.resize(n);
  std::unordered_map<std::string_view, std::size_t> byName;
  for (std::size_t m = 0; m < n; ++m) {
    out.of[m] = static_cast<int>(m);
    byName.emplace(scene.meshes[m].name, m);
  }
  for (std::size_t m = 0; m < n; ++m) {
    const auto level = levelName(scene.meshes[m].name);
    if (!level) continue;
    const auto base = byName.find(level->of);
    if (base == byName.end()) continue;
    out.level[m] = level->level;
    out.of[m] = static_cast<int>(base->second);
    out.deepest = std::max(out.deepest, out.level[m]);
  }
  return out;
}

std::vector<bool> drawnAtLevel(const MeshLevels& levels, int level) {
  const std::size_t n = levels.level.size();
  // Per mesh of its own, the level drawn: the deepest it has up to `level`.
  std::vector<int> chosen(n, 0);
  for (std::size_t m = 0; m < n; ++m)
    if (levels.level[m] <= level) {
      int& c = chosen[static_cast<std::size_t>(levels.of[m])];
      c = std::max(c, levels.level[m]);
    }
  std::vector<bool> drawn(n);
  for (std::size_t m = 0; m < n; ++m) drawn[m] = levels.level[m] == chosen[static_cast<std::size_t>(levels.of[m])];
  return drawn;
}

}  // namespace marrow::formats
