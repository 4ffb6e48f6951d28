// The reference check of the assimp path. For each animated (or skinned, or multi-node) model of
// Debian's assimp-testmodels, a second, independent evaluation is written directly on assimp's
// aiScene: its own Importer reading the file by path, key interpolation (lerp, slerp, hold
// outside the keys) and node globals in double precision, and assimp's skinning convention
// p = Σ w · (G_node(bone) · offset) · v, with the weights normalised per vertex (Σ w = 1). Our path is loadFile → anim::bind/sample/computeModel →
// skinPalette/packInfluences/skin. Positions and bone model matrices must agree to 1e-4 of the
// model's size.
//
// The reference imports with the same vertex-changing post-processing steps as
// formats/assimp/assimp_reader.cpp (and the same "no skeleton stand-in meshes" option), so its
// triangles are ours in the same order; ours have identical vertices joined, so vertices are
// compared corner by corner. None of our conversion code runs on the reference side.
// The mesh order is the one assimp_reader.h documents, rebuilt here from the aiScene.
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <span>
#include <random>
#include <string>
#include <vector>

#include "formats/assimp/assimp_reader.h"
#include "formats/registry.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

#include "tests/support/skip.h"

namespace {

using namespace marrow;

const std::string kModels = MARROW_ASSIMP_MODELS_DIR;

constexpr double kTolerance = 1e-4;  // of the model's size

// ---- A small double-precision affine algebra, row-major like assimp's matrices. ----

struct Vec3 {
  double x = 0, y = 0, z = 0;
};
Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3 operator-(Vec3 a, Vec3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3 operator*(Vec3 a, double s) {
  return {a.x * s, a.y * s, a.z * s};
}
double length(Vec3 a) {
  return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}
Vec3 vec(const aiVector3D& v) {
  return {v.x, v.y, v.z};
}
Vec3 vec(const glm::vec3& v) {
  return {v.x, v.y, v.z};
}

struct Mat4 {
  double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};  // [row][column]

  static Mat4 from(const aiMatrix4x4& a) {
    Mat4 r;
    const ai_real* p = a[0];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) r.m[i][j] = p[i * 4 + j];
    return r;
  }
  static Mat4 from(const glm::mat4& g) {  // glm is column-major: g[column][row]
    Mat4 r;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) r.m[i][j] = g[j][i];
    return r;
  }
  Mat4 operator*(const Mat4& b) const {
    Mat4 r;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double s = 0;
        for (int k = 0; k < 4; ++k) s += m[i][k] * b.m[k][j];
        r.m[i][j] = s;
      }
    return r;
  }
  Vec3 apply(Vec3 v) const {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z + m[0][3],
            m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z + m[1][3],
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z + m[2][3]};
  }
};

// Inverse of an affine matrix (the bottom row is 0 0 0 1); false when it is singular.
bool inverseAffine(const Mat4& a, Mat4& out) {
  const auto& m = a.m;
  const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
  if (std::fabs(det) < 1e-300) return false;
  const double inv[3][3] = {{c00 / det, (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det,
                             (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det},
                            {c01 / det, (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det,
                             (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det},
                            {c02 / det, (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det,
                             (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det}};
  out = Mat4{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out.m[i][j] = inv[i][j];
    out.m[i][3] = -(inv[i][0] * m[0][3] + inv[i][1] * m[1][3] + inv[i][2] * m[2][3]);
  }
  return true;
}

struct Quat {
  double w = 1, x = 0, y = 0, z = 0;
};
Quat quat(const aiQuaternion& q) {
  return {q.w, q.x, q.y, q.z};
}  // both (w, x, y, z) by name

Quat normalised(Quat q) {
  const double n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return n > 0 ? Quat{q.w / n, q.x / n, q.y / n, q.z / n} : Quat{};
}

Quat slerp(Quat a, Quat b, double f) {
  a = normalised(a);
  b = normalised(b);
  double c = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  if (c < 0) {  // the shorter way round
    b = {-b.w, -b.x, -b.y, -b.z};
    c = -c;
  }
  double ka = 1 - f, kb = f;
  if (c < 1 - 1e-12) {
    const double theta = std::acos(std::min(c, 1.0));
    ka = std::sin((1 - f) * theta) / std::sin(theta);
    kb = std::sin(f * theta) / std::sin(theta);
  }
  return normalised(
      {ka * a.w + kb * b.w, ka * a.x + kb * b.x, ka * a.y + kb * b.y, ka * a.z + kb * b.z});
}

Mat4 trs(Vec3 t, Quat q, Vec3 s) {
  q = normalised(q);
  const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  const double r[3][3] = {{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
                          {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
                          {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}};
  const double sc[3] = {s.x, s.y, s.z};
  const double tr[3] = {t.x, t.y, t.z};
  Mat4 m;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) m.m[i][j] = r[i][j] * sc[j];
    m.m[i][3] = tr[i];
  }
  return m;
}

// ---- The reference evaluation on the aiScene. ----

// Hold before the first key and after the last; between keys mix the two around `ticks`.
template <class Key, class V, class Mix>
V sampleKeys(const Key* keys, unsigned n, double ticks, Mix mix) {
  if (ticks <= keys[0].mTime) return keys[0].mValue;
  if (ticks >= keys[n - 1].mTime) return keys[n - 1].mValue;
  unsigned k = 0;
  while (k + 1 < n && keys[k + 1].mTime <= ticks) ++k;
  const double f = (ticks - keys[k].mTime) / (keys[k + 1].mTime - keys[k].mTime);
  return mix(keys[k].mValue, keys[k + 1].mValue, f);
}

double ticksPerSecond(const aiAnimation& a) {
  return a.mTicksPerSecond > 0 ? a.mTicksPerSecond : 25.0;
}

struct RefScene {
  Assimp::Importer importer;
  const aiScene* scene = nullptr;
  std::vector<const aiNode*> nodes;  // depth-first pre-order
  std::vector<int> parent;

  int firstNamed(const aiString& name) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i]->mName == name) return static_cast<int>(i);
    return -1;
  }
  void collect(const aiNode* n, int p) {
    const int self = static_cast<int>(nodes.size());
    nodes.push_back(n);
    parent.push_back(p);
    for (unsigned c = 0; c < n->mNumChildren; ++c) collect(n->mChildren[c], self);
  }
  bool skeleton() const {
    for (unsigned m = 0; m < scene->mNumMeshes; ++m)
      if (scene->mMeshes[m]->mNumBones) return true;
    for (unsigned a = 0; a < scene->mNumAnimations; ++a)
      if (scene->mAnimations[a]->mNumChannels) return true;
    return false;
  }

  // Node globals at `seconds` into `anim` (nullptr: rest).
  std::vector<Mat4> globals(const aiAnimation* anim, double seconds) const {
    std::vector<const aiNodeAnim*> channel(nodes.size(), nullptr);
    if (anim)
      for (unsigned c = 0; c < anim->mNumChannels; ++c) {
        const int n = firstNamed(anim->mChannels[c]->mNodeName);
        if (n >= 0 && !channel[n]) channel[n] = anim->mChannels[c];
      }
    const double ticks = anim ? seconds * ticksPerSecond(*anim) : 0.0;
    std::vector<Mat4> g(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      Mat4 local = Mat4::from(nodes[i]->mTransformation);
      if (const aiNodeAnim* ch = channel[i]) {
        // A channel without keys of one kind leaves that part at the node's rest value.
        aiVector3D restS, restT;
        aiQuaternion restR;
        nodes[i]->mTransformation.Decompose(restS, restR, restT);
        auto lerp = [](const aiVector3D& a, const aiVector3D& b, double f) {
          return aiVector3D(static_cast<ai_real>(a.x + (b.x - a.x) * f),
                            static_cast<ai_real>(a.y + (b.y - a.y) * f),
                            static_cast<ai_real>(a.z + (b.z - a.z) * f));
        };
        // Slerp in double; the result goes back through aiQuaternion only to share sampleKeys.
        auto rot = [](const aiQuaternion& a, const aiQuaternion& b, double f) {
          const Quat q = slerp(quat(a), quat(b), f);
          return aiQuaternion(static_cast<ai_real>(q.w), static_cast<ai_real>(q.x),
                              static_cast<ai_real>(q.y), static_cast<ai_real>(q.z));
        };
        const aiVector3D t = ch->mNumPositionKeys
                                 ? sampleKeys<aiVectorKey, aiVector3D>(
                                       ch->mPositionKeys, ch->mNumPositionKeys, ticks, lerp)
                                 : restT;
        const aiQuaternion r = ch->mNumRotationKeys
                                   ? sampleKeys<aiQuatKey, aiQuaternion>(
                                         ch->mRotationKeys, ch->mNumRotationKeys, ticks, rot)
                                   : restR;
        const aiVector3D s = ch->mNumScalingKeys
                                 ? sampleKeys<aiVectorKey, aiVector3D>(
                                       ch->mScalingKeys, ch->mNumScalingKeys, ticks, lerp)
                                 : restS;
        local = trs(vec(t), quat(r), vec(s));
      }
      g[i] = parent[i] >= 0 ? g[parent[i]] * local : local;
    }
    return g;
  }
};

// The mesh order assimp_reader.h documents: depth-first over nodes, each node's meshes in order,
// a skinned mesh once, meshes of points or lines left out, then meshes no node references.
struct Instance {
  unsigned mesh;
  int node;  // -1: skinned, or not referenced
};
std::vector<Instance> instances(const RefScene& r) {
  const bool skeleton = r.skeleton();
  std::vector<Instance> out;
  std::vector<bool> seen(r.scene->mNumMeshes, false);
  auto add = [&](unsigned m, int node) {
    const aiMesh* mesh = r.scene->mMeshes[m];
    const bool skinned = skeleton && mesh->mNumBones > 0;
    if (skinned && seen[m]) return;
    seen[m] = true;
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) return;
    out.push_back({m, skinned ? -1 : node});
  };
  for (std::size_t i = 0; i < r.nodes.size(); ++i)
    for (unsigned k = 0; k < r.nodes[i]->mNumMeshes; ++k)
      add(r.nodes[i]->mMeshes[k], static_cast<int>(i));
  for (unsigned m = 0; m < r.scene->mNumMeshes; ++m)
    if (!seen[m]) add(m, -1);
  return out;
}

// The mesh's triangles, corner by corner, as the reader keeps them (faces of three indices).
std::vector<unsigned> triangles(const aiMesh& mesh) {
  std::vector<unsigned> out;
  for (unsigned f = 0; f < mesh.mNumFaces; ++f)
    if (mesh.mFaces[f].mNumIndices == 3)
      out.insert(out.end(), mesh.mFaces[f].mIndices, mesh.mFaces[f].mIndices + 3);
  return out;
}

// Reference positions of one instance; `weighted[v]` is false for skinned vertices without any
// weight (assimp's formula sends them to the origin; they are not compared).
std::vector<Vec3> referencePositions(const RefScene& r, const Instance& inst,
                                     const std::vector<Mat4>& g, std::vector<bool>& weighted) {
  const aiMesh& mesh = *r.scene->mMeshes[inst.mesh];
  std::vector<Vec3> out(mesh.mNumVertices);
  weighted.assign(mesh.mNumVertices, true);
  if (r.skeleton() && mesh.mNumBones > 0) {
    std::vector<double> total(mesh.mNumVertices, 0.0);
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
      const aiBone& bone = *mesh.mBones[b];
      const int node = r.firstNamed(bone.mName);
      if (node < 0) continue;
      const Mat4 m = g[node] * Mat4::from(bone.mOffsetMatrix);
      for (unsigned w = 0; w < bone.mNumWeights; ++w) {
        const aiVertexWeight& vw = bone.mWeights[w];
        out[vw.mVertexId] =
            out[vw.mVertexId] + m.apply(vec(mesh.mVertices[vw.mVertexId])) * vw.mWeight;
        total[vw.mVertexId] += vw.mWeight;
      }
    }
    // Weights are normalised per vertex (glTF's rule, FBX's default link mode; assimp hands them
    // over as stored): Σ w·M·v / Σ w.
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      weighted[v] = total[v] > 0;
      if (weighted[v]) out[v] = out[v] * (1.0 / total[v]);
    }
    return out;
  }
  const Mat4 m = inst.node >= 0 ? g[inst.node] : Mat4{};
  for (unsigned v = 0; v < mesh.mNumVertices; ++v) out[v] = m.apply(vec(mesh.mVertices[v]));
  return out;
}

// ---- The comparison. ----

struct Bounds {
  Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  bool any = false;
  void add(Vec3 p) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    any = true;
  }
  double size() const { return any ? length(hi - lo) : 0.0; }
  std::vector<Vec3> corners() const {
    std::vector<Vec3> c;
    for (int i = 0; i < 8; ++i)
      c.push_back({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
    return c;
  }
};

struct Report {
  double vertexError = 0;  // largest distance, as a fraction of the model's size
  double boneError = 0;
  std::size_t comparedVertices = 0, skippedVertices = 0, poses = 0;  // triangle corners, per pose
};

double wrapLoop(double playhead, double duration) {  // the loop semantics, written independently
  if (!(duration > 0)) return 0;
  if (playhead >= 0 && playhead <= duration) return playhead;
  double t = std::fmod(playhead, duration);
  return t < 0 ? t + duration : t;
}

void compareModel(const std::string& relative, Report& report) {
  const std::string path = kModels + "/" + relative;
  if (!std::filesystem::exists(path))
    MARROW_SKIP() << "assimp test model " << path << " is not installed";

  RefScene ref;
  ref.importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  // The reader's steps that change vertices or meshes (validation changes nothing and is left
  // out). The reader then joins identical vertices itself, which this side does not: vertex v of
  // assimp's is compared with the vertex of ours at the same corner of the same triangle.
  ref.scene = ref.importer.ReadFile(path, formats::assimpVertexSteps());
  ASSERT_NE(ref.scene, nullptr) << "assimp cannot read " << path << ": "
                                << ref.importer.GetErrorString();
  ref.collect(ref.scene->mRootNode, -1);

  auto loaded = formats::loadFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  const formats::Scene& ours = *loaded;

  const std::vector<Instance> plan = instances(ref);
  ASSERT_EQ(ours.meshes.size(), plan.size());
  // assimp's own JoinIdenticalVertices on the same steps joins as many vertices as ours on these
  // files. (It also joins positions, uvs and colours a few float steps apart and ignores bone
  // weights: on a file where that matters the counts would differ without a bug of ours.)
  Assimp::Importer joiner;
  joiner.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* joined =
      formats::joinsIdenticalVertices({}, path)
          ? joiner.ReadFile(path, formats::assimpVertexSteps() | aiProcess_JoinIdenticalVertices)
          : ref.scene;
  ASSERT_NE(joined, nullptr) << joiner.GetErrorString();
  ASSERT_EQ(joined->mNumMeshes, ref.scene->mNumMeshes);
  std::vector<std::vector<unsigned>> corners(plan.size());  // per instance, as triangles()
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const aiMesh& m = *ref.scene->mMeshes[plan[i].mesh];
    corners[i] = triangles(m);
    ASSERT_EQ(ours.meshes[i].triangleCount(), corners[i].size() / 3) << "mesh " << i;
    EXPECT_EQ(ours.meshes[i].vertexCount(), joined->mMeshes[plan[i].mesh]->mNumVertices)
        << "mesh " << i;
  }

  const bool skeleton = ref.skeleton();
  std::vector<std::size_t> refOf;  // per bone of ours: assimp's node
  if (skeleton && ours.format == "glTF 2.0" && ours.skeleton.bones.size() < ref.nodes.size()) {
    // The native glTF reader makes a skinned file's skeleton of its skins' joints and what lies
    // between them (gltf_reader.h): each bone is the node of its name.
    for (const formats::Bone& b : ours.skeleton.bones) {
      const int node = ref.firstNamed(aiString(b.name));
      ASSERT_GE(node, 0) << "bone '" << b.name << "' is no node of assimp's";
      refOf.push_back(static_cast<std::size_t>(node));
    }
  } else {
    ASSERT_EQ(ours.skeleton.bones.size(), skeleton ? ref.nodes.size() : 0u);
    for (std::size_t i = 0; i < ours.skeleton.bones.size(); ++i) {
      refOf.push_back(i);
      const int first = ref.firstNamed(ref.nodes[i]->mName);
      if (first == static_cast<int>(i) && ref.nodes[i]->mName.length) {  // not renamed
        EXPECT_EQ(ours.skeleton.bones[i].name, ref.nodes[i]->mName.C_Str());
      }
    }
  }

  // The model's size, from the reference at rest: its vertices, else (skeleton only) its nodes.
  Bounds box;
  {
    const auto g = ref.globals(nullptr, 0.0);
    std::vector<bool> weighted;
    for (const auto& inst : plan) {
      const auto p = referencePositions(ref, inst, g, weighted);
      for (std::size_t v = 0; v < p.size(); ++v)
        if (weighted[v]) box.add(p[v]);
    }
    if (!box.any)
      for (const auto& m : g) box.add({m.m[0][3], m.m[1][3], m.m[2][3]});
  }
  const double size = box.size() > 0 ? box.size() : 1.0;

  // The placements that mirror (at rest): the reader reverses their winding, so that their
  // triangles' second and third corners trade places (assimp_reader.h).
  std::vector<bool> mirrored(plan.size(), false);
  {
    const auto g = ref.globals(nullptr, 0.0);
    for (std::size_t i = 0; i < plan.size(); ++i) {
      if (plan[i].node < 0) continue;
      const auto& a = g[static_cast<std::size_t>(plan[i].node)].m;
      const double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
      mirrored[i] = det < 0;
    }
  }

  auto comparePose = [&](const aiAnimation* anim, double refSeconds, const anim::Pose& pose,
                         const std::string& what) {
    const auto g = ref.globals(anim, refSeconds);
    ++report.poses;
    if (skeleton) {
      // A bone's error is how far a point of the model's bounding box, bound to that bone as
      // assimp places it, would move if our matrix were used instead: mine · G⁻¹ · p − p.
      // (Comparing the matrices on model-space points directly would blow up with the bones'
      // own scale, e.g. the ×100 of an FBX armature.)
      double worst = 0;
      std::size_t worstBone = 0;
      for (std::size_t b = 0; b < refOf.size() && b < pose.model.size(); ++b) {
        Mat4 toBone;
        if (!inverseAffine(g[refOf[b]], toBone)) continue;
        const Mat4 moved = Mat4::from(pose.model[b]) * toBone;
        for (const Vec3& c : box.corners()) {
          const double e = length(moved.apply(c) - c) / size;
          if (e > worst) {
            worst = e;
            worstBone = b;
          }
        }
      }
      report.boneError = std::max(report.boneError, worst);
      EXPECT_LE(worst, kTolerance)
          << what << ": bone '" << ours.skeleton.bones[worstBone].name << "'";
    }
    std::vector<glm::mat4> palette;
    std::vector<glm::vec3> skinned;
    std::vector<bool> weighted;
    for (std::size_t i = 0; i < plan.size(); ++i) {
      const formats::Mesh& mesh = ours.meshes[i];
      const auto expected = referencePositions(ref, plan[i], g, weighted);
      const std::vector<glm::vec3>* actual = &mesh.positions;
      if (skeleton) {
        anim::skinPalette(ours.skeleton, mesh, pose, palette);
        anim::skin(mesh, anim::packInfluences(mesh), palette, skinned);
        actual = &skinned;
      }
      // Corner by corner, a mirrored placement's second and third corners traded.
      double worst = 0;
      std::size_t worstVertex = 0;
      for (std::size_t k = 0; k + 2 < corners[i].size() && k + 2 < mesh.indices.size(); k += 3) {
        for (int c = 0; c < 3; ++c) {
          const unsigned theirs = corners[i][k + c];
          const std::uint32_t mine = mesh.indices[k + (mirrored[i] && c > 0 ? 3 - c : c)];
          if (!weighted[theirs]) {
            ++report.skippedVertices;
            continue;
          }
          ++report.comparedVertices;
          const double e = length(vec((*actual)[mine]) - expected[theirs]) / size;
          if (e > worst) {
            worst = e;
            worstVertex = mine;
          }
        }
      }
      report.vertexError = std::max(report.vertexError, worst);
      EXPECT_LE(worst, kTolerance) << what << ": mesh '" << mesh.name << "' vertex " << worstVertex;
    }
  };

  if (!skeleton || ours.clips.empty()) {
    anim::Pose pose = anim::restPose(ours.skeleton);
    anim::computeModel(ours.skeleton, pose);
    comparePose(nullptr, 0.0, pose, "rest pose");
    return;
  }

  // Our clips are the animations that move nodes, in the file's order.
  std::vector<const aiAnimation*> anims;
  for (unsigned a = 0; a < ref.scene->mNumAnimations; ++a)
    if (ref.scene->mAnimations[a]->mNumChannels) anims.push_back(ref.scene->mAnimations[a]);
  ASSERT_EQ(ours.clips.size(), anims.size());

  std::mt19937 random(20240611);
  for (std::size_t c = 0; c < anims.size(); ++c) {
    const formats::Clip& clip = ours.clips[c];
    const aiAnimation& a = *anims[c];
    const double duration = a.mDuration / ticksPerSecond(a);
    double lastKey = 0;
    for (unsigned ch = 0; ch < a.mNumChannels; ++ch) {
      const aiNodeAnim& n = *a.mChannels[ch];
      if (n.mNumPositionKeys)
        lastKey = std::max(lastKey, n.mPositionKeys[n.mNumPositionKeys - 1].mTime);
      if (n.mNumRotationKeys)
        lastKey = std::max(lastKey, n.mRotationKeys[n.mNumRotationKeys - 1].mTime);
      if (n.mNumScalingKeys)
        lastKey = std::max(lastKey, n.mScalingKeys[n.mNumScalingKeys - 1].mTime);
    }
    lastKey /= ticksPerSecond(a);
    EXPECT_NEAR(clip.duration, duration > 0 ? duration : lastKey, 1e-5 * std::max(1.0, duration));

    // Playheads: start, middle, end, a few anywhere, one past the end (the loop wraps it, as
    // clipTime does), and one past the last key unwrapped (both sides hold).
    std::vector<double> playheads = {0.0, duration / 2, duration};
    std::uniform_real_distribution<double> anywhere(0.0, std::max(duration, 1e-3));
    for (int i = 0; i < 5; ++i) playheads.push_back(anywhere(random));
    playheads.push_back(duration * 1.37 + 0.01);

    const anim::Binding binding = anim::bind(clip, ours.skeleton);
    anim::SamplingCache cache;
    anim::Pose pose = anim::restPose(ours.skeleton);
    for (double playhead : playheads) {
      const float t =
          anim::clipTime(static_cast<float>(playhead), clip.duration, anim::PlayMode::Loop);
      pose = anim::restPose(ours.skeleton);
      anim::sample(clip, binding, ours.skeleton, t, pose, &cache);
      anim::computeModel(ours.skeleton, pose);
      comparePose(&a, wrapLoop(playhead, duration), pose,
                  "clip '" + clip.name + "' at " + std::to_string(playhead) + " s");
    }
    const double hold = lastKey + 0.5;
    const anim::Pose held = anim::evaluate(ours.skeleton, &clip, static_cast<float>(hold));
    comparePose(&a, hold, held, "clip '" + clip.name + "' held after its last key");
  }
}

void expectMatch(const std::string& relative) {
  Report report;
  compareModel(relative, report);
  if (report.poses)
    std::printf(
        "[ reference ] %-60s max vertex error %.3g, max bone error %.3g of size "
        "(%zu poses, %zu corners compared, %zu unweighted skipped)\n",
        relative.c_str(), report.vertexError, report.boneError, report.poses,
        report.comparedVertices, report.skippedVertices);
}

TEST(AssimpReference, BcnEpilepticSkinnedPositionsMatchAssimpEvaluation) {
  expectMatch("X/BCN_Epileptic.X");
}

TEST(AssimpReference, SimpleSkinGltfSkinnedPositionsMatchAssimpEvaluation) {
  expectMatch("glTF2/simple_skin/simple_skin.gltf");
}

// Every other skinned, node-animated or multi-node model of assimp-testmodels that assimp 5.2.5
// loads: skinned and animated, skeleton only (BVH, CSM: bone matrices), node animation moving
// rigid meshes, skinned at rest (MD5 without its .md5anim), static hierarchies (baked).
class AssimpModels : public ::testing::TestWithParam<const char*> {};

TEST_P(AssimpModels, PosesMatchAssimpEvaluation) {
  expectMatch(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    AssimpReference, AssimpModels,
    ::testing::Values("X/Testwuson.X", "X/anim_test.x", "FBX/animation_with_skeleton.fbx",
                    "FBX/huesitos.fbx", "Collada/box_nested_animation.dae",
                    "Collada/anims_with_full_rotations_between_keys.DAE", "BVH/01_01.bvh",
                    "BVH/Boxing_Toes.bvh", "CSM/ThomasFechten.csm", "SMD/WusonSMD.smd",
                    "SMD/holy_grailref.smd", "MDL/MDL (HL1)/man.mdl",
                    "MDL/MDL (HL1)/unnamed_bones.mdl", "MDL/MDL (HL1)/chrome_sphere.mdl",
                    "MD5/SimpleCube.md5mesh", "ASE/MotionCaptureROM.ase", "ASE/anim2.ASE",
                    "3DS/RotatingCube.3DS", "LWS/move_xz_linear.lws",
                    "Collada/teapot_instancenodes.DAE", "FBX/cubes_with_mirroring_and_pivot.fbx",
                    "glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"),
    [](const ::testing::TestParamInfo<const char*>& param) {
      std::string name = std::filesystem::path(param.param).stem().string();
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

}  // namespace
