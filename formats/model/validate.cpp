#include "formats/model/validate.h"

#include <cmath>

namespace marrow::formats {
namespace {

class Collector {
 public:
  explicit Collector(std::size_t max) : max_(max) {}
  bool full() const { return out_.size() >= max_; }
  void add(std::string s) {
    if (!full()) out_.push_back(std::move(s));
  }
  std::vector<std::string> take() { return std::move(out_); }

 private:
  std::size_t max_;
  std::vector<std::string> out_;
};

bool finite(float v) { return std::isfinite(v); }
bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
bool finite(const glm::quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

template <class T>
void checkSize(Collector& c, const std::string& what, const std::vector<T>& v, std::size_t n) {
  if (!v.empty() && v.size() != n)
    c.add(what + " has " + std::to_string(v.size()) + " entries for " + std::to_string(n) +
          " vertices");
}

void checkMesh(Collector& c, const Mesh& m, const Scene& s) {
  const std::string what = "mesh '" + m.name + "'";
  const std::size_t n = m.positions.size();
  checkSize(c, what + " normals", m.normals, n);
  checkSize(c, what + " tangents", m.tangents, n);
  checkSize(c, what + " colours", m.colors, n);
  for (std::size_t i = 0; i < m.uvSets.size(); ++i)
    if (m.uvSets[i].size() != n) checkSize(c, what + " uv set " + std::to_string(i), m.uvSets[i], n);
  for (std::size_t i = 0; i < n; ++i)
    if (!finite(m.positions[i])) {
      c.add(what + ": position " + std::to_string(i) + " is not finite");
      break;
    }
  if (m.indices.size() % 3 != 0)
    c.add(what + ": " + std::to_string(m.indices.size()) + " indices is not a whole number of triangles");
  for (std::size_t i = 0; i < m.indices.size(); ++i)
    if (m.indices[i] >= n) {
      c.add(what + ": index " + std::to_string(i) + " is " + std::to_string(m.indices[i]) +
            ", past the " + std::to_string(n) + " vertices");
      break;
    }
  if (m.material >= static_cast<int>(s.materials.size()))
    c.add(what + ": material " + std::to_string(m.material) + " does not exist");
  const std::size_t bones = s.skeleton.bones.size();
  if (m.parentBone >= static_cast<int>(bones))
    c.add(what + ": parent bone " + std::to_string(m.parentBone) + " does not exist");
  if (!m.inverseBind.empty() && m.inverseBind.size() != bones)
    c.add(what + ": " + std::to_string(m.inverseBind.size()) + " inverse bind matrices for " +
          std::to_string(bones) + " bones");
  if (!m.influenceStart.empty()) {
    if (m.influenceStart.size() != n + 1) {
      c.add(what + ": influence rows for " + std::to_string(m.influenceStart.size() - 1) +
            " vertices, not " + std::to_string(n));
    } else {
      bool monotonic = m.influenceStart.front() == 0 && m.influenceStart.back() == m.influences.size();
      for (std::size_t i = 0; monotonic && i < n; ++i)
        monotonic = m.influenceStart[i] <= m.influenceStart[i + 1];
      if (!monotonic) c.add(what + ": influence rows are not ordered");
    }
    for (const auto& inf : m.influences)
      if (inf.bone >= bones || !std::isfinite(inf.weight)) {
        c.add(what + ": an influence names bone " + std::to_string(inf.bone) + " of " +
              std::to_string(bones) + (std::isfinite(inf.weight) ? "" : " or has no finite weight"));
        break;
      }
  }
  for (const auto& morph : m.morphs) {
    const std::string mw = what + ": morph '" + morph.name + "'";
    const std::size_t moved = morph.movedCount(n);
    if (morph.positions.size() != moved && !(morph.vertices.empty() && morph.positions.empty()))
      c.add(mw + " has " + std::to_string(morph.positions.size()) + " positions for " +
            std::to_string(moved) + " vertices");
    if (!morph.normals.empty() && morph.normals.size() != moved)
      c.add(mw + " has " + std::to_string(morph.normals.size()) + " normals for " +
            std::to_string(moved) + " vertices");
    for (const auto& uv : morph.uvSets)
      if (uv.size() != moved) c.add(mw + " has a uv set of the wrong size");
    for (std::size_t i = 0; i < morph.vertices.size(); ++i)
      if (morph.vertices[i] >= n || (i > 0 && morph.vertices[i] <= morph.vertices[i - 1])) {
        c.add(mw + ": vertex list is not ascending within the mesh's vertices");
        break;
      }
  }
  if (!m.lod.empty()) {
    if (m.lod.collapseTo.size() != n || m.lod.faceCollapseCount.size() != n ||
        m.lod.collapsible > n)
      c.add(what + ": level-of-detail data does not match the vertices");
    else
      for (std::size_t v = 0; v < n; ++v)
        if (m.lod.collapseTo[v] >= static_cast<std::int64_t>(n) || m.lod.collapseTo[v] < -1 ||
            m.lod.faceCollapseCount[v] < 0) {
          c.add(what + ": vertex " + std::to_string(v) + " collapses outside the mesh");
          break;
        }
  }
  for (const auto& sp : m.springs)
    if (sp.a >= n || sp.b >= n) {
      c.add(what + ": a spring joins vertices outside the mesh");
      break;
    }
  checkSize(c, what + " physical weights", m.physicalWeights, n);
}

template <class T>
void checkChannel(Collector& c, const std::string& what, const Channel<T>& ch) {
  if (ch.times.size() != ch.values.size()) {
    c.add(what + ": " + std::to_string(ch.times.size()) + " times for " +
          std::to_string(ch.values.size()) + " values");
    return;
  }
  for (std::size_t i = 0; i < ch.times.size(); ++i) {
    if (!std::isfinite(ch.times[i]) || (i > 0 && !(ch.times[i] > ch.times[i - 1]))) {
      c.add(what + ": key times are not strictly increasing at key " + std::to_string(i));
      return;
    }
    if (!finite(ch.values[i])) {
      c.add(what + ": key " + std::to_string(i) + " is not finite");
      return;
    }
  }
}

}  // namespace

std::optional<TooDeep> boneDeeperThan(const Skeleton& skeleton, std::uint32_t maxDepth) {
  const auto& bones = skeleton.bones;
  std::vector<std::uint32_t> depth(bones.size(), 1);
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const int p = bones[i].parent;
    if (p >= 0 && static_cast<std::size_t>(p) < i)
      depth[i] = depth[static_cast<std::size_t>(p)] + 1;
    if (depth[i] > maxDepth) return TooDeep{i, depth[i]};
  }
  return std::nullopt;
}

std::vector<std::string> validate(const Scene& s, std::size_t maxProblems) {
  Collector c(maxProblems);
  const auto& bones = s.skeleton.bones;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Bone& b = bones[i];
    if (b.parent >= static_cast<int>(i))
      c.add("bone '" + b.name + "': parent " + std::to_string(b.parent) + " does not precede it");
    if (!finite(b.translation) || !finite(b.rotation) || !finite(b.scale))
      c.add("bone '" + b.name + "': rest pose is not finite");
  }
  if (!s.skeleton.inverseBindParts.empty() && s.skeleton.inverseBindParts.size() != bones.size())
    c.add("skeleton: " + std::to_string(s.skeleton.inverseBindParts.size()) +
          " stored bind parts for " + std::to_string(bones.size()) + " bones");
  if (!s.skeleton.inverseBind.empty() && s.skeleton.inverseBind.size() != bones.size())
    c.add("skeleton: " + std::to_string(s.skeleton.inverseBind.size()) +
          " inverse bind matrices for " + std::to_string(bones.size()) + " bones");
  for (const auto& m : s.meshes) {
    if (c.full()) break;
    checkMesh(c, m, s);
  }
  for (const auto& m : s.materials)
    for (const auto& map : m.maps)
      if (map.texture >= static_cast<int>(s.textures.size()))
        c.add("material '" + m.name + "': texture " + std::to_string(map.texture) + " does not exist");
  for (const auto& clip : s.clips) {
    if (!std::isfinite(clip.duration) || clip.duration < 0)
      c.add("clip '" + clip.name + "': duration is not a finite, non-negative number");
    if (!std::isfinite(clip.frameRate) || clip.frameRate <= 0)
      c.add("clip '" + clip.name + "': frame rate is not a positive number");
    for (const auto& t : clip.tracks) {
      const std::string what = "clip '" + clip.name + "', track '" + t.bone + "'";
      checkChannel(c, what + " translation", t.translation);
      checkChannel(c, what + " rotation", t.rotation);
      checkChannel(c, what + " scale", t.scale);
    }
    for (const auto& t : clip.morphTracks)
      checkChannel(c, "clip '" + clip.name + "', morph '" + t.mesh + "/" + t.target + "' weight",
                   t.weight);
  }
  for (const auto& body : s.bodies)
    for (std::size_t p = 0; p < body.parts.size(); ++p) {
      const BodyPart& part = body.parts[p];
      const std::string what = "body '" + body.name + "' part " + std::to_string(p);
      bool ok = std::isfinite(part.radius) && finite(part.a) && finite(part.b);
      for (const auto& v : part.positions) ok = ok && finite(v);
      if (!ok) c.add(what + ": a value is not finite");
      for (const auto& poly : part.polygons)
        for (std::uint32_t i : poly)
          if (i >= part.positions.size()) {
            c.add(what + ": a polygon names point " + std::to_string(i) + " of " +
                  std::to_string(part.positions.size()));
            break;
          }
    }
  for (const auto& t : s.tables) {
    if (!t.rowIds.empty() && t.rowIds.size() != t.rows.size())
      c.add("table '" + t.name + "': " + std::to_string(t.rowIds.size()) + " row ids for " +
            std::to_string(t.rows.size()) + " rows");
    for (std::size_t r = 0; r < t.rows.size(); ++r)
      if (t.rows[r].size() != t.columns.size()) {
        c.add("table '" + t.name + "': row " + std::to_string(r) + " has " +
              std::to_string(t.rows[r].size()) + " cells for " + std::to_string(t.columns.size()) +
              " columns");
        break;
      }
  }
  return c.take();
}

}  // namespace marrow::formats
