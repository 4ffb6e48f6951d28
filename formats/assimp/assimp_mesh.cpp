// aiMesh → Mesh: vertex data, triangles, influences and inverse bind matrices; the placement
// rules (skinned, rigidly attached, baked) are described in assimp_reader.h.
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <optional>

#include "formats/assimp/assimp_convert.h"
#include "formats/model/join.h"
#include "formats/model/normals.h"

namespace marrow::formats::assimpconv {
namespace {

struct Instance {
  unsigned mesh = 0;
  int node = -1;    // the referencing node (a bone index when there is a skeleton), -1 if none
  int ordinal = 0;  // 1-based instance number of this mesh, 0 when it has only one
};

bool hasTriangles(const aiMesh& m) {
  return (m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE) != 0 && m.mNumFaces > 0 &&
         m.mNumVertices > 0;
}

// The placement of an instance: positions go through `matrix`, normals through its inverse
// transpose, tangents through its linear part; a mirror reverses winding and bitangent sign.
struct Placement {
  glm::mat4 matrix{1.0f};
  glm::mat3 linear{1.0f};
  glm::mat3 normal{1.0f};
  bool identity = true;
  bool mirrors = false;

  explicit Placement(const std::optional<glm::mat4>& m) {
    if (!m || *m == glm::mat4(1.0f)) return;
    identity = false;
    matrix = *m;
    linear = glm::mat3(*m);
    const float det = glm::determinant(linear);
    mirrors = det < 0.0f;
    // A collapsed transform has no inverse; its normals are meaningless anyway.
    normal = std::fabs(det) > 1e-20f ? glm::transpose(glm::inverse(linear)) : linear;
  }
};

struct Repairs {
  std::size_t nonFinite = 0;
};

glm::vec3 clean(glm::vec3 v, Repairs& r) {
  if (std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)) return v;
  ++r.nonFinite;
  return glm::vec3(0.0f);
}

glm::vec3 unit(const glm::vec3& v) {
  const float len = glm::length(v);
  return len > 0.0f ? v / len : v;
}

void copyVertices(const aiMesh& src, const Placement& p, Mesh& out, Repairs& r) {
  const unsigned n = src.mNumVertices;
  out.positions.resize(n);
  for (unsigned v = 0; v < n; ++v) {
    const glm::vec3 pos = clean(toGlm(src.mVertices[v]), r);
    out.positions[v] = p.identity ? pos : glm::vec3(p.matrix * glm::vec4(pos, 1.0f));
  }
  if (src.mNormals) {
    out.normals.resize(n);
    for (unsigned v = 0; v < n; ++v) {
      const glm::vec3 nrm = clean(toGlm(src.mNormals[v]), r);
      out.normals[v] = p.identity ? nrm : unit(p.normal * nrm);
    }
  }
  if (src.mTangents && src.mNormals) {
    out.tangents.resize(n);
    for (unsigned v = 0; v < n; ++v) {
      const glm::vec3 nrm = clean(toGlm(src.mNormals[v]), r);
      const glm::vec3 t = clean(toGlm(src.mTangents[v]), r);
      float w = 1.0f;
      // The model stores the bitangent as a sign: B = w * cross(N, T).
      if (src.mBitangents &&
          glm::dot(glm::cross(nrm, t), clean(toGlm(src.mBitangents[v]), r)) < 0.0f)
        w = -1.0f;
      if (p.mirrors) w = -w;
      out.tangents[v] = glm::vec4(p.identity ? t : unit(p.linear * t), w);
    }
  }
  for (unsigned set = 0; set < AI_MAX_NUMBER_OF_TEXTURECOORDS && src.mTextureCoords[set]; ++set) {
    auto& uv = out.uvSets.emplace_back(n);
    // Assimp puts v = 0 at the bottom row (OpenGL); the model puts it at the top.
    const bool flip = src.mNumUVComponents[set] >= 2;
    for (unsigned v = 0; v < n; ++v) {
      const glm::vec3 t = clean(toGlm(src.mTextureCoords[set][v]), r);
      uv[v] = glm::vec2(t.x, flip ? 1.0f - t.y : t.y);
    }
  }
  if (src.mColors[0]) {
    out.colors.resize(n);
    for (unsigned v = 0; v < n; ++v) {
      const aiColor4D& c = src.mColors[0][v];
      glm::vec4 col(c.r, c.g, c.b, c.a);
      if (!(std::isfinite(col.r) && std::isfinite(col.g) && std::isfinite(col.b) &&
            std::isfinite(col.a))) {
        ++r.nonFinite;
        col = glm::vec4(1.0f);
      }
      out.colors[v] = col;
    }
  }
}

void copyTriangles(const aiMesh& src, bool reverse, Mesh& out, std::size_t& dropped) {
  out.indices.reserve(std::size_t{src.mNumFaces} * 3);
  for (unsigned f = 0; f < src.mNumFaces; ++f) {
    const aiFace& face = src.mFaces[f];
    // SortByPType leaves a mesh of one primitive type, but a stray point or line is possible.
    if (face.mNumIndices != 3) {
      ++dropped;
      continue;
    }
    const unsigned* i = face.mIndices;
    if (reverse) {
      out.indices.insert(out.indices.end(), {i[0], i[2], i[1]});
    } else {
      out.indices.insert(out.indices.end(), {i[0], i[1], i[2]});
    }
  }
}

// A mesh without normals gets the smooth normals assimp's GenSmoothNormals step would give it
// (formats/model/normals.h; that step takes seconds on a mesh of a million corners), made from
// the file's own positions and winding and then placed like a file's normals. The triangles
// were reversed where the placement mirrors: a reversed triangle's normal is exactly the
// negated one.
void generateNormals(const aiMesh& src, const Placement& p, Mesh& out) {
  std::vector<glm::vec3> raw;
  if (!p.identity) {
    Repairs ignored;  // counted once already, by copyVertices
    raw.resize(src.mNumVertices);
    for (unsigned v = 0; v < src.mNumVertices; ++v) raw[v] = clean(toGlm(src.mVertices[v]), ignored);
  }
  out.normals = weldedSmoothNormals(p.identity ? std::span<const glm::vec3>(out.positions) : raw,
                                    out.indices);
  if (!p.identity)
    for (glm::vec3& n : out.normals) n = unit(p.normal * (p.mirrors ? -n : n));
}

void copyMorphs(const aiMesh& src, const Placement& p, Mesh& out, const Context& c) {
  for (unsigned k = 0; k < src.mNumAnimMeshes; ++k) {
    const aiAnimMesh* am = src.mAnimMeshes[k];
    if (!am || !am->mVertices || am->mNumVertices != src.mNumVertices) {
      c.warn("mesh '" + out.name + "'", "morph target " + std::to_string(k) +
                                            " does not match the mesh's vertices and was skipped");
      continue;
    }
    MorphTarget t;
    t.name = am->mName.length ? am->mName.C_Str() : "morph " + std::to_string(k);
    // Assimp stores a morph target's attributes whole, as the model does.
    t.positions.resize(src.mNumVertices);
    for (unsigned v = 0; v < src.mNumVertices; ++v) {
      const glm::vec3 q = toGlm(am->mVertices[v]);
      t.positions[v] = p.identity ? q : glm::vec3(p.matrix * glm::vec4(q, 1.0f));
    }
    if (am->mNormals && !out.normals.empty()) {
      t.normals.resize(src.mNumVertices);
      for (unsigned v = 0; v < src.mNumVertices; ++v) {
        const glm::vec3 d = toGlm(am->mNormals[v]);
        t.normals[v] = p.identity ? d : p.normal * d;
      }
    }
    // A non-finite target value falls back to the base vertex: no movement there.
    for (unsigned v = 0; v < src.mNumVertices; ++v) {
      if (!std::isfinite(t.positions[v].x + t.positions[v].y + t.positions[v].z))
        t.positions[v] = out.positions[v];
      if (!t.normals.empty() && !std::isfinite(t.normals[v].x + t.normals[v].y + t.normals[v].z))
        t.normals[v] = out.normals.empty() ? glm::vec3(0.0f) : out.normals[v];
    }
    out.morphs.push_back(std::move(t));
  }
}

// Heaviest first, equal weights in the order of the file's bones. A vertex has a few: an insertion
// sort, where std::stable_sort would allocate its buffer for every vertex (a fifth of the
// conversion of an SMD of 11,000 vertices).
void sortHeaviestFirst(std::span<Influence> row) {
  const auto heavier = [](const Influence& a, const Influence& b) { return a.weight > b.weight; };
  if (row.size() > 16) {
    std::stable_sort(row.begin(), row.end(), heavier);
    return;
  }
  for (std::size_t i = 1; i < row.size(); ++i) {
    const Influence x = row[i];
    std::size_t j = i;
    for (; j > 0 && heavier(x, row[j - 1]); --j) row[j] = row[j - 1];
    row[j] = x;
  }
}

// Influences from aiBone weights and the mesh's own inverse bind matrices: offsets for the bones
// it uses, the inverse rest model matrix for the others (so that the palette is the identity at
// rest for every bone, used or not).
void copySkin(const aiMesh& src, const NodeTable& nodes, const std::vector<glm::mat4>& restInverse,
              const Context& c, Mesh& out) {
  const std::string field = "mesh '" + out.name + "'";
  const unsigned n = src.mNumVertices;
  std::vector<int> boneOf(src.mNumBones, -1);
  out.inverseBind = restInverse;
  std::vector<bool> offsetSet(restInverse.size(), false);
  std::size_t unknown = 0, negative = 0, conflicting = 0;
  std::vector<std::uint32_t> count(n, 0);
  for (unsigned b = 0; b < src.mNumBones; ++b) {
    const aiBone* bone = src.mBones[b];
    if (!bone) continue;
    const int index = nodes.find(bone->mName);
    if (index < 0) {
      ++unknown;
      continue;
    }
    boneOf[b] = index;
    const glm::mat4 offset = toGlm(bone->mOffsetMatrix);
    if (!offsetSet[index]) {
      out.inverseBind[index] = offset;
      offsetSet[index] = true;
    } else if (offset != out.inverseBind[index]) {
      ++conflicting;
    }
    for (unsigned w = 0; w < bone->mNumWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (vw.mVertexId < n && vw.mWeight > 0.0f && std::isfinite(vw.mWeight)) ++count[vw.mVertexId];
    }
  }

  // Rows in vertex order; a vertex with more influences than the limit keeps its heaviest.
  const std::uint32_t cap = std::max<std::uint32_t>(1, c.limits.maxInfluencesPerVertex);
  std::vector<std::uint32_t> start(n + 1, 0);
  for (unsigned v = 0; v < n; ++v) start[v + 1] = start[v] + count[v];
  std::vector<Influence> all(start[n]);
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (unsigned b = 0; b < src.mNumBones; ++b) {
    if (boneOf[b] < 0) continue;
    const aiBone* bone = src.mBones[b];
    for (unsigned w = 0; w < bone->mNumWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (vw.mVertexId >= n || !std::isfinite(vw.mWeight)) continue;
      if (vw.mWeight < 0.0f) ++negative;
      if (!(vw.mWeight > 0.0f)) continue;
      all[fill[vw.mVertexId]++] = Influence{static_cast<std::uint32_t>(boneOf[b]), vw.mWeight};
    }
  }
  // Sorted where they are; a row cut to the cap moves the rows after it down.
  std::size_t capped = 0, unweighted = 0, unnormalised = 0;
  std::uint32_t kept = 0;
  for (unsigned v = 0; v < n; ++v) {
    std::span<Influence> row(all.data() + start[v], count[v]);
    sortHeaviestFirst(row);
    if (row.size() > cap) {
      row = row.first(cap);
      ++capped;
    }
    if (row.empty()) ++unweighted;
    double total = 0.0;
    for (const Influence& i : row) total += i.weight;
    if (!row.empty() && std::abs(total - 1.0) > 1e-3) ++unnormalised;
    start[v] = kept;
    if (row.data() != all.data() + kept) std::copy(row.begin(), row.end(), all.begin() + kept);
    kept += static_cast<std::uint32_t>(row.size());
  }
  start[n] = kept;
  all.resize(kept);
  out.influenceStart = std::move(start);
  out.influences = std::move(all);

  if (unknown)
    c.warn(field, std::to_string(unknown) +
                      " bones name no node of the scene; their weights were dropped");
  if (conflicting)
    c.warn(field,
           std::to_string(conflicting) +
               " bones bind the same node with different offset matrices; the first is used");
  if (negative) c.warn(field, std::to_string(negative) + " negative weights were dropped");
  if (capped)
    c.warn(field, std::to_string(capped) + " vertices have more than " + std::to_string(cap) +
                      " influences; the heaviest were kept");
  if (unweighted)
    c.warn(field, std::to_string(unweighted) +
                      " vertices have no bone weight; they stay where the file puts them");
  if (unnormalised)
    c.warn(field, std::to_string(unnormalised) +
                      " vertices have weights that do not sum to 1; they are normalised (as glTF "
                      "requires, FBX's default link mode and most engines do)");
}

}  // namespace

void convertMeshes(const Context& c, const NodeTable& nodes, Scene& out) {
  const aiScene& scene = c.scene;
  const bool skeleton = !out.skeleton.empty();

  // The plan: depth-first over nodes, each node's meshes in order; a skinned mesh only once
  // (assimp skins in model space, whatever node holds it), then meshes no node references.
  std::vector<int> references(scene.mNumMeshes, 0);
  for (const aiNode* node : nodes.nodes)
    for (unsigned k = 0; k < node->mNumMeshes; ++k)
      if (node->mMeshes[k] < scene.mNumMeshes) ++references[node->mMeshes[k]];
  std::vector<Instance> plan;
  std::vector<int> seen(scene.mNumMeshes, 0);
  std::size_t droppedMeshes = 0;
  auto add = [&](unsigned m, int node) {
    const aiMesh* mesh = scene.mMeshes[m];
    if (!mesh) return;
    const bool skinned = skeleton && mesh->mNumBones > 0;
    if (skinned && seen[m]) return;
    ++seen[m];
    if (!hasTriangles(*mesh)) {
      if (seen[m] == 1) ++droppedMeshes;
      return;
    }
    plan.push_back({m, skinned ? -1 : node, (!skinned && references[m] > 1) ? seen[m] : 0});
  };
  for (std::size_t i = 0; i < nodes.nodes.size(); ++i)
    for (unsigned k = 0; k < nodes.nodes[i]->mNumMeshes; ++k)
      if (nodes.nodes[i]->mMeshes[k] < scene.mNumMeshes)
        add(nodes.nodes[i]->mMeshes[k], static_cast<int>(i));
  std::size_t unreferenced = 0;
  for (unsigned m = 0; m < scene.mNumMeshes; ++m)
    if (!seen[m]) {
      ++unreferenced;
      add(m, -1);
    }
  if (droppedMeshes)
    c.warn("meshes", std::to_string(droppedMeshes) +
                         " meshes of points or lines only were dropped: Marrow draws triangles");
  if (unreferenced)
    c.info("meshes",
           std::to_string(unreferenced) +
               " meshes are not placed by any node; they are shown where the file puts them");

  // Limits, before anything is copied.
  if (plan.size() > c.limits.maxMeshes)
    c.fail("meshes", std::to_string(plan.size()) + " mesh instances, over the limit of " +
                         std::to_string(c.limits.maxMeshes));
  std::uint64_t vertices = 0, triangles = 0, weights = 0, inverseBinds = 0;
  for (const auto& inst : plan) {
    const aiMesh& m = *scene.mMeshes[inst.mesh];
    vertices += std::uint64_t{m.mNumVertices} * (1 + m.mNumAnimMeshes);
    triangles += m.mNumFaces;
    if (skeleton && m.mNumBones > 0) {
      inverseBinds += out.skeleton.bones.size();
      for (unsigned b = 0; b < m.mNumBones; ++b)
        if (m.mBones[b]) weights += m.mBones[b]->mNumWeights;
    }
  }
  if (vertices > c.limits.maxVertices)
    c.fail("meshes", std::to_string(vertices) + " vertices, over the limit of " +
                         std::to_string(c.limits.maxVertices));
  if (triangles > c.limits.maxTriangles)
    c.fail("meshes", std::to_string(triangles) + " triangles, over the limit of " +
                         std::to_string(c.limits.maxTriangles));
  if (weights > vertices * c.limits.maxInfluencesPerVertex + 1024)
    c.fail("meshes", std::to_string(weights) + " bone weights for " + std::to_string(vertices) +
                         " vertices, over the limit of " +
                         std::to_string(c.limits.maxInfluencesPerVertex) + " per vertex");
  if (inverseBinds * sizeof(glm::mat4) > c.limits.maxAllocation(c.inputBytes))
    c.fail("meshes", "the skinned meshes need " + std::to_string(inverseBinds) +
                         " inverse bind matrices, more than the input's size allows");

  std::vector<glm::mat4> restModel, restInverse;
  if (skeleton) {
    // The skeleton's own rest matrices (from the decomposed TRS): baking a rigid mesh with them
    // is exactly undone by the skeleton's derived inverse bind at rest.
    restModel = out.skeleton.restModelMatrices();
    restInverse = out.skeleton.inverseBindMatrices();
  }

  Repairs repairs;
  std::size_t strayFaces = 0;
  for (const auto& inst : plan) {
    const aiMesh& src = *scene.mMeshes[inst.mesh];
    Mesh mesh;
    mesh.name = src.mName.length ? src.mName.C_Str() : "mesh " + std::to_string(inst.mesh);
    if (mesh.name.size() > c.limits.maxStringLength) mesh.name.resize(c.limits.maxStringLength);
    if (inst.ordinal > 0) {
      // Appended in two steps: GCC 12 warns (-Wrestrict, a false positive) on "#" + to_string.
      mesh.name += '#';
      mesh.name += std::to_string(inst.ordinal);
    }
    mesh.material =
        src.mMaterialIndex < scene.mNumMaterials ? static_cast<int>(src.mMaterialIndex) : -1;

    std::optional<glm::mat4> place;
    const bool skinned = skeleton && src.mNumBones > 0;
    if (!skinned && inst.node >= 0) {
      if (skeleton) {
        mesh.parentBone = inst.node;
        place = restModel[inst.node];
      } else {
        place = nodes.global[inst.node];
      }
    }
    const Placement p(place);
    copyVertices(src, p, mesh, repairs);
    copyTriangles(src, p.mirrors, mesh, strayFaces);
    if (!src.mNormals) generateNormals(src, p, mesh);
    copyMorphs(src, p, mesh, c);
    if (skinned) copySkin(src, nodes, restInverse, c, mesh);
    if (c.joinVertices) joinIdenticalVertices(mesh);
    out.meshes.push_back(std::move(mesh));
  }
  if (repairs.nonFinite)
    c.warn("meshes", std::to_string(repairs.nonFinite) +
                         " vertex attributes were not finite numbers and were replaced by zero");
  if (strayFaces)
    c.warn("meshes",
           std::to_string(strayFaces) + " points and lines inside triangle meshes were dropped");
}

}  // namespace marrow::formats::assimpconv
