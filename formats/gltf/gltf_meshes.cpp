// Joint nodes, skins, meshes and the nodes that show them.
#include <algorithm>
#include <cmath>
#include <map>

#include "formats/gltf/gltf_internal.h"

namespace marrow::formats::gltf {
namespace {

Json trsOf(const Bone& b, Json node) {
  if (b.translation != glm::vec3(0.0f))
    node.set("translation", Json::numbers({b.translation.x, b.translation.y, b.translation.z}));
  const glm::quat q = glm::normalize(b.rotation);  // §5.25: unit quaternions only
  if (q != glm::quat(1.0f, 0.0f, 0.0f, 0.0f) && std::isfinite(q.w))
    node.set("rotation", Json::numbers({q.x, q.y, q.z, q.w}));
  if (b.scale != glm::vec3(1.0f))
    node.set("scale", Json::numbers({b.scale.x, b.scale.y, b.scale.z}));
  return node;
}

glm::vec3 unit(glm::vec3 n, std::size_t& repaired) {
  const float len = glm::length(n);
  if (!(len > 1e-12f) || !std::isfinite(len)) {
    ++repaired;
    return glm::vec3(0.0f, 1.0f, 0.0f);
  }
  return n / len;
}

// One vertex's influences as glTF wants them: valid joints only, each once, heaviest first,
// weights summing to 1; none left means the identity (`identityJoint`, see addNodesAndMeshes).
struct VertexJoints {
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
};

struct SkinData {
  std::vector<VertexJoints> vertices;
  std::size_t sets = 1;  // of four
  std::size_t unnormalised = 0, dropped = 0, unweighted = 0;
};

SkinData skinOf(const Mesh& m, std::size_t boneCount, int identityJoint) {
  SkinData s;
  s.vertices.resize(m.vertexCount());
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    VertexJoints& out = s.vertices[v];
    for (const Influence& i : m.influencesOf(v)) {
      if (i.bone >= boneCount || !(i.weight > 0.0f) || !std::isfinite(i.weight)) {
        s.dropped += i.bone >= boneCount ? 1 : 0;
        continue;
      }
      const auto at = std::find(out.joints.begin(), out.joints.end(), i.bone);
      if (at != out.joints.end()) {
        out.weights[at - out.joints.begin()] += i.weight;
      } else {
        out.joints.push_back(static_cast<std::uint16_t>(i.bone));
        out.weights.push_back(i.weight);
      }
    }
    float total = 0.0f;
    for (float w : out.weights) total += w;
    if (!(total > 0.0f)) {
      ++s.unweighted;
      out.joints = {static_cast<std::uint16_t>(identityJoint)};
      out.weights = {1.0f};
      continue;
    }
    if (std::fabs(total - 1.0f) > 1e-3f) ++s.unnormalised;
    std::vector<std::size_t> order(out.joints.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return out.weights[a] > out.weights[b]; });
    VertexJoints sorted;
    for (std::size_t k : order) {
      sorted.joints.push_back(out.joints[k]);
      sorted.weights.push_back(out.weights[k] / total);
    }
    out = std::move(sorted);
    s.sets = std::max(s.sets, (out.joints.size() + 3) / 4);
  }
  return s;
}

bool needsIdentityJoint(const Mesh& m, std::size_t boneCount) {
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    float total = 0.0f;
    for (const Influence& i : m.influencesOf(v))
      if (i.bone < boneCount && i.weight > 0.0f && std::isfinite(i.weight)) total += i.weight;
    if (!(total > 0.0f)) return true;
  }
  return false;
}

// Mesh data in the space of the node that shows it.
struct Placed {
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> tangents;
  std::vector<std::uint32_t> indices;
  std::vector<std::vector<glm::vec3>> morphPositions, morphNormals;  // absolute, every vertex
};

Placed place(const Mesh& m, const glm::mat4& toNode) {
  Placed p;
  const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(toNode)));
  auto point = [&](glm::vec3 v) { return glm::vec3(toNode * glm::vec4(v, 1.0f)); };
  for (const auto& v : m.positions) p.positions.push_back(point(v));
  for (const auto& n : m.normals) p.normals.push_back(normalMatrix * n);
  for (const auto& t : m.tangents) p.tangents.push_back(glm::vec4(glm::mat3(toNode) * glm::vec3(t), t.w));
  p.indices = m.indices;
  if (glm::determinant(glm::mat3(toNode)) < 0.0f)  // a mirroring bind keeps front faces in front
    for (std::size_t i = 0; i + 2 < p.indices.size(); i += 3)
      std::swap(p.indices[i + 1], p.indices[i + 2]);
  for (const MorphTarget& t : m.morphs) {
    std::vector<glm::vec3> pos = m.positions, nrm = m.normals;
    for (std::size_t k = 0; k < t.movedCount(m.vertexCount()) && k < t.positions.size(); ++k) {
      const std::size_t v = t.vertexAt(k);
      if (v >= pos.size()) continue;
      pos[v] = t.positions[k];
      if (k < t.normals.size() && v < nrm.size()) nrm[v] = t.normals[k];
    }
    for (auto& v : pos) v = point(v);
    for (auto& n : nrm) n = normalMatrix * n;
    p.morphPositions.push_back(std::move(pos));
    p.morphNormals.push_back(std::move(nrm));
  }
  return p;
}

}  // namespace

NodeMap addNodesAndMeshes(Document& doc, const Scene& scene) {
  NodeMap map;
  map.targetScale = morphScales(scene, *doc.diagnostics);
  const Skeleton& sk = scene.skeleton;
  const std::size_t boneCount = sk.bones.size();
  std::vector<std::vector<int>> children(boneCount);
  for (std::size_t b = 0; b < boneCount; ++b) {
    map.boneNode.push_back(static_cast<int>(doc.nodes.push(trsOf(sk.bones[b], Json::object().set("name", sk.bones[b].name)))));
    const int parent = sk.bones[b].parent;
    if (parent >= 0 && static_cast<std::size_t>(parent) < b) children[parent].push_back(static_cast<int>(b));
  }
  // Joints of a skin need one common root (the validator's SKIN_NO_COMMON_ROOT), and vertices
  // without weight stay where they are (identity): an unmoving armature node gives both.
  bool armature = boneCount > 0 && sk.rootCount() > 1;
  for (const Mesh& m : scene.meshes)
    armature |= boneCount > 0 && m.skinned() && m.parentBone < 0 && needsIdentityJoint(m, boneCount);
  const int identityJoint = static_cast<int>(boneCount);
  std::vector<int> roots;
  for (std::size_t b = 0; b < boneCount; ++b)
    if (sk.bones[b].parent < 0 || static_cast<std::size_t>(sk.bones[b].parent) >= b) roots.push_back(static_cast<int>(b));
  if (armature) {
    std::string name = sk.name.empty() ? "Armature" : sk.name;
    while (sk.find(name) >= 0) name += "_root";
    Json node = Json::object();
    node.set("name", name).set("children", Json::arrayOf(roots));
    doc.sceneRoots.push_back(static_cast<int>(doc.nodes.push(std::move(node))));
  } else {
    doc.sceneRoots.insert(doc.sceneRoots.end(), roots.begin(), roots.end());
  }

  // One skin per set of inverse binds: the skeleton's, and each mesh's own.
  const std::vector<glm::mat4> skeletonBinds = sk.inverseBindMatrices();
  std::vector<std::vector<glm::mat4>> skinBinds;
  auto skinFor = [&](const std::vector<glm::mat4>& binds) {
    for (std::size_t s = 0; s < skinBinds.size(); ++s)
      if (skinBinds[s] == binds) return static_cast<int>(s);
    std::vector<glm::mat4> all = binds;
    // The validator wants affine matrices exactly (bottom row 0 0 0 1): a product of floats
    // leaves 0.99999994 there.
    for (glm::mat4& b : all) b[0][3] = b[1][3] = b[2][3] = 0.0f, b[3][3] = 1.0f;
    std::vector<int> joints(map.boneNode);
    if (armature) {
      all.push_back(glm::mat4(1.0f));
      joints.push_back(identityJoint);
    }
    Json skin = Json::object();
    skin.set("inverseBindMatrices", doc.mat4s(all)).set("joints", Json::arrayOf(joints));
    if (!sk.name.empty()) skin.set("name", sk.name);
    skinBinds.push_back(binds);
    return static_cast<int>(doc.skins.push(std::move(skin)));
  };

  // A texture needs texture coordinates (§3.9.2, and the validator says so): a mesh without uv
  // gets a copy of its material without the texture, made once per material.
  std::map<int, int> untextured;
  auto materialFor = [&](int material, bool hasUv) {
    if (hasUv) return material;
    if (const auto it = untextured.find(material); it != untextured.end()) return it->second;
    Json copy = doc.materials[static_cast<std::size_t>(material)];
    Json* pbr = copy.find("pbrMetallicRoughness");
    int index = material;
    if (pbr && pbr->erase("baseColorTexture")) {
      doc.warn("material " + std::to_string(material),
               "is used by a mesh without texture coordinates: that mesh gets it without its texture");
      index = static_cast<int>(doc.materials.push(std::move(copy)));
    }
    untextured[material] = index;
    return index;
  };

  for (std::size_t i = 0; i < scene.meshes.size(); ++i) {
    const Mesh& m = scene.meshes[i];
    map.meshNodes.emplace_back();
    map.targetNames.emplace_back();
    const std::string field = "mesh '" + m.name + "'";
    if (m.positions.empty() || m.indices.size() < 3) {
      doc.warn(field, "has no triangles: not written");
      continue;
    }
    const bool rigid = m.parentBone >= 0 && static_cast<std::size_t>(m.parentBone) < boneCount;
    const bool skinned = !rigid && m.skinned() && boneCount > 0;
    const std::vector<glm::mat4>& binds =
        m.inverseBind.size() == boneCount && !m.inverseBind.empty() ? m.inverseBind : skeletonBinds;
    // A rigid mesh becomes the child of its joint: its vertices go into the joint's space.
    const Placed p = place(m, rigid ? binds[m.parentBone] : glm::mat4(1.0f));

    Json attributes = Json::object();
    attributes.set("POSITION", doc.vec3s(p.positions, kArrayBuffer, true));
    std::size_t repaired = 0;
    std::vector<glm::vec3> normals;
    if (p.normals.size() == m.vertexCount()) {
      for (const auto& n : p.normals) normals.push_back(unit(n, repaired));
      attributes.set("NORMAL", doc.vec3s(normals, kArrayBuffer));
    }
    if (p.tangents.size() == m.vertexCount() && !normals.empty()) {
      std::size_t bad = 0;
      std::vector<glm::vec4> tangents;
      for (const auto& t : p.tangents)
        tangents.push_back(glm::vec4(unit(glm::vec3(t), bad), t.w < 0.0f ? -1.0f : 1.0f));
      if (bad == 0)
        attributes.set("TANGENT", doc.vec4s(tangents, kArrayBuffer));
      else
        doc.warn(field, std::to_string(bad) + " tangents of zero length: tangents not written");
    }
    for (std::size_t s = 0; s < m.uvSets.size(); ++s)
      if (m.uvSets[s].size() == m.vertexCount())
        attributes.set("TEXCOORD_" + std::to_string(s), doc.vec2s(m.uvSets[s], kArrayBuffer));
    if (m.colors.size() == m.vertexCount()) {
      std::vector<glm::vec4> colors;
      for (const auto& c : m.colors) colors.push_back(glm::clamp(c, glm::vec4(0.0f), glm::vec4(1.0f)));
      attributes.set("COLOR_0", doc.vec4s(colors, kArrayBuffer));
    }
    if (skinned) {
      const SkinData s = skinOf(m, boneCount, identityJoint);
      for (std::size_t set = 0; set < s.sets; ++set) {
        std::vector<std::uint16_t> joints;
        std::vector<float> weights;
        for (const VertexJoints& vj : s.vertices)
          for (std::size_t k = set * 4; k < set * 4 + 4; ++k) {
            joints.push_back(k < vj.joints.size() ? vj.joints[k] : 0);
            weights.push_back(k < vj.weights.size() ? vj.weights[k] : 0.0f);
          }
        attributes.set("JOINTS_" + std::to_string(set), doc.joints(joints));
        attributes.set("WEIGHTS_" + std::to_string(set), doc.floats(weights, 4, kArrayBuffer, false));
      }
      if (s.unnormalised)
        doc.warn(field, std::to_string(s.unnormalised) +
                            " vertices' weights did not sum to 1: normalised, as glTF requires");
      if (s.dropped)
        doc.warn(field, std::to_string(s.dropped) + " influences name no bone: left out");
    }
    if (repaired) doc.warn(field, std::to_string(repaired) + " normals of zero length: set to +Y");

    Json primitive = Json::object();
    primitive.set("attributes", std::move(attributes));
    primitive.set("indices", doc.indices(p.indices, m.vertexCount()));
    if (m.material >= 0 && static_cast<std::size_t>(m.material) < scene.materials.size())
      primitive.set("material", materialFor(m.material, !m.uvSets.empty() && m.uvSets[0].size() == m.vertexCount()));
    primitive.set("mode", 4);
    Json targetNames = Json::array();
    if (!m.morphs.empty()) {
      Json targets = Json::array();
      for (std::size_t t = 0; t < m.morphs.size(); ++t) {
        const float k = map.targetScale[i][t];
        std::vector<glm::vec3> dp(m.vertexCount()), dn;
        for (std::size_t v = 0; v < dp.size(); ++v) dp[v] = (p.morphPositions[t][v] - p.positions[v]) * k;
        Json target = Json::object();
        target.set("POSITION", doc.vec3s(dp, kArrayBuffer, true));
        if (!normals.empty()) {
          dn.resize(m.vertexCount());
          for (std::size_t v = 0; v < dn.size(); ++v) {
            std::size_t ignored = 0;
            dn[v] = (unit(p.morphNormals[t][v], ignored) - normals[v]) * k;
          }
          target.set("NORMAL", doc.vec3s(dn, kArrayBuffer));
        }
        targets.push(std::move(target));
        targetNames.push(m.morphs[t].name);
        map.targetNames.back().push_back(m.morphs[t].name);
      }
      primitive.set("targets", std::move(targets));
    }
    Json mesh = Json::object();
    mesh.set("name", m.name);
    Json primitives = Json::array();
    primitives.push(std::move(primitive));
    mesh.set("primitives", std::move(primitives));
    if (!targetNames.empty())  // the de-facto place for target names (Blender, assimp, three.js)
      mesh.set("extras", Json::object().set("targetNames", std::move(targetNames)));
    const int meshIndex = static_cast<int>(doc.meshes.push(std::move(mesh)));

    Json node = Json::object();
    node.set("name", m.name).set("mesh", meshIndex);
    if (skinned) node.set("skin", skinFor(binds));
    const int nodeIndex = static_cast<int>(doc.nodes.push(std::move(node)));
    map.meshNodes.back().push_back(nodeIndex);
    if (rigid)
      children[m.parentBone].push_back(nodeIndex);
    else
      doc.sceneRoots.push_back(nodeIndex);  // skinned meshes at the root (§5.25.3)
  }
  for (std::size_t b = 0; b < boneCount; ++b)
    if (!children[b].empty()) doc.nodes[b].set("children", Json::arrayOf(children[b]));
  return map;
}

}  // namespace marrow::formats::gltf
