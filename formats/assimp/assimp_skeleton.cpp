// aiNode hierarchy → Skeleton: every node is a bone, so that node animation, rigid attachment
// and skinning all address the same array.
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "formats/assimp/assimp_convert.h"
#include "formats/model/names.h"
#include "formats/model/trs.h"

namespace marrow::formats::assimpconv {
namespace {

bool finite(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(m[c][r])) return false;
  return true;
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
  // Clips bind by name: the first node keeps a duplicated name (aiBone and aiNodeAnim refer to
  // it), later ones and unnamed ones get a suffix that no other node uses.
  std::vector<std::string> names;
  names.reserve(nodes.nodes.size());
  for (const auto& n : nodes.nodes) {
    names.emplace_back(n->mName.C_Str(), n->mName.length);
    if (names.back().size() > c.limits.maxStringLength) names.back().resize(c.limits.maxStringLength);
  }
  const Renamed renamed = makeNamesUnique(names);

  std::size_t inexact = 0;
  std::string worstName;
  float worst = 0.0f;
  for (std::size_t i = 0; i < nodes.nodes.size(); ++i) {
    const aiNode& node = *nodes.nodes[i];
    Bone& b = s.bones[i];
    b.parent = nodes.parent[i];
    b.name = std::move(names[i]);

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
  if (renamed.count)
    c.warn("nodes",
           std::to_string(renamed.count) +
               " nodes were unnamed or shared a name with an earlier node and were renamed "
               "so that clips and meshes find the right bone (" +
               renamed.examples + (renamed.count > 3 ? ", …" : "") + ")");
  if (inexact)
    c.warn("nodes",
           std::to_string(inexact) +
               " node transformations have shear or projection and are not exactly "
               "translation × rotation × scale; the nearest such transform is used (worst: '" +
               worstName + "', off by " + std::to_string(worst) + " of its size)");
  return s;
}

}  // namespace marrow::formats::assimpconv
