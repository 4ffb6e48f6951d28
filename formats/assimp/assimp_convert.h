// Internal to the assimp reader: aiScene → neutral model, one function per part of the scene.
// These run after assimp's post-processing; they throw FormatException on limits, which
// readWithAssimp turns into its Result.
#pragma once

#include <assimp/scene.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/io/limits.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::assimpconv {

// aiMatrix4x4 is row-major with the translation in a4, b4, c4; glm is column-major.
inline glm::mat4 toGlm(const aiMatrix4x4& m) {
  return glm::mat4(glm::vec4(m.a1, m.b1, m.c1, m.d1), glm::vec4(m.a2, m.b2, m.c2, m.d2),
                   glm::vec4(m.a3, m.b3, m.c3, m.d3), glm::vec4(m.a4, m.b4, m.c4, m.d4));
}
inline glm::vec3 toGlm(const aiVector3D& v) {
  return glm::vec3(v.x, v.y, v.z);
}
// aiQuaternion and glm::quat are both stored (w, x, y, z) here, but glm's storage order and
// constructor order depend on configuration macros: copy by name, never by position.
inline glm::quat toGlm(const aiQuaternion& q) {
  glm::quat out;
  out.w = q.w;
  out.x = q.x;
  out.y = q.y;
  out.z = q.z;
  return out;
}

struct Context {
  const aiScene& scene;
  const std::string& file;  // for messages
  const Limits& limits;
  std::uint64_t inputBytes = 0;  // the main file and every sibling served, for allocation caps
  Diagnostics& diagnostics;
  const ReadContext* read = nullptr;  // for texture files beside the model
  bool joinVertices = false;          // join identical vertices of each mesh (formats/model/join.h)

  void warn(std::string field, std::string message) const {
    diagnostics.warn(file, std::move(field), kNoOffset, std::move(message));
  }
  void info(std::string field, std::string message) const {
    diagnostics.info(file, std::move(field), kNoOffset, std::move(message));
  }
  [[noreturn]] void fail(std::string field, std::string message) const {
    throw FormatException(FormatError{file, std::move(field), kNoOffset, std::move(message)});
  }
};

// The aiNode tree flattened depth-first, parents before children: node i becomes bone i.
struct NodeTable {
  std::vector<const aiNode*> nodes;
  std::vector<int> parent;        // -1 for the root
  std::vector<glm::mat4> global;  // rest model matrices, products of assimp's own matrices
  // First node (depth-first) carrying each name, as aiBone and aiNodeAnim refer to them.
  std::unordered_map<std::string, int> byName;

  int find(const aiString& name) const;
};

NodeTable flattenNodes(const Context& c);

// Whether the scene needs a skeleton: a mesh has bones, or an animation moves nodes.
bool needsSkeleton(const aiScene& scene);

// Every node as a bone: names made unique, rest pose decomposed from mTransformation.
Skeleton buildSkeleton(const Context& c, const NodeTable& nodes);

// One clip per aiAnimation with node channels; tracks name bones by node name.
std::vector<Clip> convertClips(const Context& c, const Skeleton& skeleton);

// Meshes in the documented order (see assimp_reader.h). With a skeleton: skinned meshes keep
// their own coordinates and offsets, other meshes are rigidly attached to their node; without
// one: every instance is baked into model space.
void convertMeshes(const Context& c, const NodeTable& nodes, Scene& out);

// Materials in aiScene order (so mesh material indices carry over), textures de-duplicated by
// path, embedded ones copied.
void convertMaterials(const Context& c, Scene& out);

}  // namespace marrow::formats::assimpconv
