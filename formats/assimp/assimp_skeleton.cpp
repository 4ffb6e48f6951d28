// aiNode hierarchy → Skeleton: every node is a bone, so that node animation, rigid attachment
// and skinning all address the same array.
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <unordered_set>

#include "formats/assimp/assimp_convert.h"

namespace marrow::formats::assimpconv {
namespace {

bool finite(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(m[c][r])) return false;
  return true;
}

struct Trs {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
  float error = 0.0f;  // largest difference between T*R*S and the matrix, relative to its scale
};

// T * R * S from an affine matrix. A mirror goes into a negative x scale; shear and projection
// have no TRS form: the nearest rotation is kept and `error` says how far off the result is.
Trs decompose(const glm::mat4& m) {
  Trs out;
  out.translation = glm::vec3(m[3]);
  glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
  for (int i = 0; i < 3; ++i) out.scale[i] = glm::length(axis[i]);
  if (glm::dot(glm::cross(axis[0], axis[1]), axis[2]) < 0.0f) out.scale.x = -out.scale.x;

  constexpr float kTiny = 1e-12f;
  const bool ok0 = std::fabs(out.scale.x) > kTiny, ok1 = std::fabs(out.scale.y) > kTiny,
             ok2 = std::fabs(out.scale.z) > kTiny;
  if (ok0 && ok1 && ok2) {
    // Gram-Schmidt from the x axis: exact for rotation × scale, the nearest rotation otherwise.
    glm::vec3 x = axis[0] / out.scale.x;
    glm::vec3 y = axis[1] - glm::dot(axis[1], x) * x;
    const float ly = glm::length(y);
    y = ly > kTiny ? y / ly : glm::vec3(0.0f);
    glm::vec3 z = glm::cross(x, y);
    if (ly > kTiny) out.rotation = glm::normalize(glm::quat_cast(glm::mat3(x, y, z)));
  }
  // A zero scale (a collapsed axis) keeps the identity rotation; the error check reports it if
  // the matrix had a rotation too.

  glm::mat4 back = glm::mat4_cast(out.rotation);
  back[0] *= out.scale.x;
  back[1] *= out.scale.y;
  back[2] *= out.scale.z;
  float diff = 0.0f, size = 0.0f;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 4; ++r) {
      diff = std::max(diff, std::fabs(back[c][r] - m[c][r]));
      size = std::max(size, std::fabs(m[c][r]));
    }
  for (int r = 0; r < 3; ++r) diff = std::max(diff, std::fabs(m[r][3]));  // projective row
  diff = std::max(diff, std::fabs(m[3][3] - 1.0f));
  out.error = diff / std::max(size, 1e-6f);
  return out;
}

}  // namespace

int NodeTable::find(const aiString& name) const {
  const auto it = byName.find(std::string(name.C_Str(), name.length));
  return it == byName.end() ? -1 : it->second;
}

NodeTable flattenNodes(const Context& c) {
  NodeTable t;
  if (!c.scene.mRootNode) return t;
  struct Item {
    const aiNode* node;
    int parent;
    std::uint32_t depth;
  };
  // Iterative, children pushed in reverse: the same order a recursive pre-order walk gives,
  // without trusting the file's depth to the call stack.
  std::vector<Item> stack{{c.scene.mRootNode, -1, 0}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    if (it.depth > c.limits.maxHierarchyDepth)
      c.fail("nodes", "the node hierarchy is deeper than the limit of " +
                          std::to_string(c.limits.maxHierarchyDepth));
    if (t.nodes.size() >= c.limits.maxBones)
      c.fail("nodes", "more than the limit of " + std::to_string(c.limits.maxBones) + " nodes");
    const int index = static_cast<int>(t.nodes.size());
    t.nodes.push_back(it.node);
    t.parent.push_back(it.parent);
    glm::mat4 local = toGlm(it.node->mTransformation);
    if (!finite(local)) {
      c.warn("node '" + std::string(it.node->mName.C_Str()) + "'",
             "transformation is not finite; identity used");
      local = glm::mat4(1.0f);
    }
    t.global.push_back(it.parent >= 0 ? t.global[it.parent] * local : local);
    t.byName.emplace(std::string(it.node->mName.C_Str(), it.node->mName.length), index);
    for (unsigned k = it.node->mNumChildren; k-- > 0;)
      if (it.node->mChildren[k]) stack.push_back({it.node->mChildren[k], index, it.depth + 1});
  }
  return t;
}

bool needsSkeleton(const aiScene& scene) {
  for (unsigned m = 0; m < scene.mNumMeshes; ++m)
    if (scene.mMeshes[m] && scene.mMeshes[m]->mNumBones > 0) return true;
  for (unsigned a = 0; a < scene.mNumAnimations; ++a)
    if (scene.mAnimations[a] && scene.mAnimations[a]->mNumChannels > 0) return true;
  return false;
}

Skeleton buildSkeleton(const Context& c, const NodeTable& nodes) {
  Skeleton s;
  s.bones.resize(nodes.nodes.size());
  std::unordered_set<std::string> used;
  for (const auto& n : nodes.nodes) used.emplace(n->mName.C_Str(), n->mName.length);

  std::size_t renamed = 0, inexact = 0;
  std::string examples, worstName;
  float worst = 0.0f;
  std::unordered_set<std::string> taken;
  for (std::size_t i = 0; i < nodes.nodes.size(); ++i) {
    const aiNode& node = *nodes.nodes[i];
    Bone& b = s.bones[i];
    b.parent = nodes.parent[i];
    std::string name(node.mName.C_Str(), node.mName.length);
    if (name.size() > c.limits.maxStringLength) name.resize(c.limits.maxStringLength);
    // Clips bind by name: the first node keeps a duplicated name (aiBone and aiNodeAnim refer to
    // it), later ones and unnamed ones get a suffix that no other node uses.
    if (name.empty() || taken.count(name)) {
      const std::string base = name.empty() ? std::string("node") : name;
      std::string candidate;
      for (int k = name.empty() ? 0 : 2;; ++k) {
        candidate = base + "#" + std::to_string(k);
        if (!taken.count(candidate) && !used.count(candidate)) break;
      }
      if (renamed < 3)
        examples += (examples.empty() ? "'" : ", '") + name + "' → '" + candidate + "'";
      ++renamed;
      name = candidate;
    }
    taken.insert(name);
    b.name = std::move(name);

    const Trs trs = decompose(toGlm(node.mTransformation));
    if (!std::isfinite(trs.error)) {
      // flattenNodes already replaced the matrix in its global products; keep the bone at rest.
      continue;
    }
    b.translation = trs.translation;
    b.rotation = trs.rotation;
    b.scale = trs.scale;
    if (trs.error > 1e-3f) {  // visible: a thousandth of the node's size
      ++inexact;
      if (trs.error > worst) {
        worst = trs.error;
        worstName = b.name;
      }
    }
  }
  if (renamed)
    c.warn("nodes",
           std::to_string(renamed) +
               " nodes were unnamed or shared a name with an earlier node and were renamed "
               "so that clips and meshes find the right bone (" +
               examples + (renamed > 3 ? ", …" : "") + ")");
  if (inexact)
    c.warn("nodes",
           std::to_string(inexact) +
               " node transformations have shear or projection and are not exactly "
               "translation × rotation × scale; the nearest such transform is used (worst: '" +
               worstName + "', off by " + std::to_string(worst) + " of its size)");
  return s;
}

}  // namespace marrow::formats::assimpconv
