// assimp re-imports every exported .glb, and its own evaluation of the file — written here
// directly on the aiScene in double precision: node globals from its animation keys (lerp,
// slerp, hold outside the keys), morph weights from its morph channels, p = Σ w · G(joint) ·
// offset · v for skinned meshes and G(node) · v for the others — agrees with our pose of the
// source in display space (what `marrow-cli pose --space display` prints) to 1e-4 of the
// model's size, at several times of every clip.
//
// assimp 5.2 forgets a sampler's STEP interpolation, so clips with step keys are compared at key
// times only, where both agree.
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cstdio>
#include <map>

#include "formats/gltf/gltf_writer.h"
#include "gltf_models.h"
#include "render/anim/morph.h"
#include "render/anim/skinning.h"

#include "tests/support/skip.h"

namespace marrow {
namespace {

constexpr double kTolerance = 1e-4;  // of the model's size

glm::dmat4 dmat(const aiMatrix4x4& a) {  // assimp: row-major a[row][column]
  glm::dmat4 m;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[c][r] = a[r][c];
  return m;
}

template <class Key, class Mix>
auto sampleKeys(const Key* keys, unsigned n, double ticks, Mix mix) {
  if (ticks <= keys[0].mTime) return mix(keys[0].mValue, keys[0].mValue, 0.0);
  if (ticks >= keys[n - 1].mTime) return mix(keys[n - 1].mValue, keys[n - 1].mValue, 0.0);
  unsigned k = 0;
  while (k + 1 < n && keys[k + 1].mTime <= ticks) ++k;
  return mix(keys[k].mValue, keys[k + 1].mValue,
             (ticks - keys[k].mTime) / (keys[k + 1].mTime - keys[k].mTime));
}

struct Reference {
  Assimp::Importer importer;
  const aiScene* scene = nullptr;
  std::vector<const aiNode*> nodes;
  std::vector<int> parent;

  void collect(const aiNode* n, int p) {
    const int self = static_cast<int>(nodes.size());
    nodes.push_back(n);
    parent.push_back(p);
    for (unsigned c = 0; c < n->mNumChildren; ++c) collect(n->mChildren[c], self);
  }
  int named(const aiString& name) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i]->mName == name) return static_cast<int>(i);
    return -1;
  }
  int nodeOfMesh(unsigned mesh) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      for (unsigned k = 0; k < nodes[i]->mNumMeshes; ++k)
        if (nodes[i]->mMeshes[k] == mesh) return static_cast<int>(i);
    return -1;
  }

  std::vector<glm::dmat4> globals(const aiAnimation* anim, double ticks) const {
    std::vector<glm::dmat4> g(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      glm::dmat4 local = dmat(nodes[i]->mTransformation);
      const aiNodeAnim* ch = nullptr;
      for (unsigned c = 0; anim && c < anim->mNumChannels; ++c)
        if (anim->mChannels[c]->mNodeName == nodes[i]->mName) ch = anim->mChannels[c];
      if (ch) {
        aiVector3D s0, t0;
        aiQuaternion r0;
        nodes[i]->mTransformation.Decompose(s0, r0, t0);
        auto lerp = [](const aiVector3D& a, const aiVector3D& b, double f) {
          return glm::dvec3(a.x, a.y, a.z) + (glm::dvec3(b.x, b.y, b.z) - glm::dvec3(a.x, a.y, a.z)) * f;
        };
        auto slerp = [](const aiQuaternion& a, const aiQuaternion& b, double f) {
          glm::dquat qa(a.w, a.x, a.y, a.z), qb(b.w, b.x, b.y, b.z);
          if (glm::dot(qa, qb) < 0) qb = -qb;
          return glm::normalize(glm::slerp(glm::normalize(qa), glm::normalize(qb), f));
        };
        const glm::dvec3 t = ch->mNumPositionKeys
            ? sampleKeys(ch->mPositionKeys, ch->mNumPositionKeys, ticks, lerp) : lerp(t0, t0, 0);
        const glm::dquat r = ch->mNumRotationKeys
            ? sampleKeys(ch->mRotationKeys, ch->mNumRotationKeys, ticks, slerp) : slerp(r0, r0, 0);
        const glm::dvec3 s = ch->mNumScalingKeys
            ? sampleKeys(ch->mScalingKeys, ch->mNumScalingKeys, ticks, lerp) : lerp(s0, s0, 0);
        local = glm::translate(glm::dmat4(1.0), t) * glm::mat4_cast(r) * glm::scale(glm::dmat4(1.0), s);
      }
      g[i] = parent[i] >= 0 ? g[parent[i]] * local : local;
    }
    return g;
  }

  // Morph weights of mesh `m` (shown by node `node`) at `ticks`: lerp between keys, hold outside.
  std::vector<double> weights(const aiAnimation* anim, unsigned m, int node, double ticks) const {
    std::vector<double> w(scene->mMeshes[m]->mNumAnimMeshes, 0.0);
    for (unsigned c = 0; anim && node >= 0 && c < anim->mNumMorphMeshChannels; ++c) {
      const aiMeshMorphAnim& ch = *anim->mMorphMeshChannels[c];
      if (ch.mName != nodes[node]->mName || !ch.mNumKeys) continue;
      unsigned k = 0;
      while (k + 1 < ch.mNumKeys && ch.mKeys[k + 1].mTime <= ticks) ++k;
      const aiMeshMorphKey& a = ch.mKeys[k];
      const aiMeshMorphKey& b = ch.mKeys[std::min(k + 1, ch.mNumKeys - 1)];
      double f = b.mTime > a.mTime ? (ticks - a.mTime) / (b.mTime - a.mTime) : 0.0;
      f = std::clamp(f, 0.0, 1.0);
      for (unsigned j = 0; j < a.mNumValuesAndWeights; ++j)
        if (a.mValues[j] < w.size())
          w[a.mValues[j]] = a.mWeights[j] + (b.mWeights[j] - a.mWeights[j]) * f;
    }
    return w;
  }

  std::vector<glm::dvec3> positions(unsigned m, const std::vector<glm::dmat4>& g,
                                    const std::vector<double>& w) const {
    const aiMesh& mesh = *scene->mMeshes[m];
    std::vector<glm::dvec3> base(mesh.mNumVertices), out(mesh.mNumVertices, glm::dvec3(0.0));
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D& p = mesh.mVertices[v];
      base[v] = {p.x, p.y, p.z};
      for (unsigned k = 0; k < mesh.mNumAnimMeshes && k < w.size(); ++k) {
        const aiVector3D& q = mesh.mAnimMeshes[k]->mVertices[v];  // absolute target positions
        base[v] += w[k] * (glm::dvec3(q.x, q.y, q.z) - glm::dvec3(p.x, p.y, p.z));
      }
    }
    if (!mesh.mNumBones) {
      const int node = nodeOfMesh(m);
      const glm::dmat4 gm = node >= 0 ? g[node] : glm::dmat4(1.0);
      for (unsigned v = 0; v < mesh.mNumVertices; ++v) out[v] = glm::dvec3(gm * glm::dvec4(base[v], 1.0));
      return out;
    }
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
      const aiBone& bone = *mesh.mBones[b];
      const glm::dmat4 skin = g[named(bone.mName)] * dmat(bone.mOffsetMatrix);
      for (unsigned k = 0; k < bone.mNumWeights; ++k) {
        const aiVertexWeight& vw = bone.mWeights[k];
        out[vw.mVertexId] += double(vw.mWeight) * glm::dvec3(skin * glm::dvec4(base[vw.mVertexId], 1.0));
      }
    }
    return out;
  }
};

// Our skinned (and morphed) vertices of every written mesh, in display space.
std::vector<std::vector<glm::dvec3>> ours(const formats::Scene& s, const formats::Clip* clip, float t) {
  const anim::Pose pose = anim::evaluate(s.skeleton, clip, t, true);
  std::vector<std::vector<float>> weights(s.meshes.size());
  if (clip) anim::sampleMorphWeights(*clip, t, s.meshes, weights);
  const glm::dmat4 display(formats::toDisplay(s.basis));
  std::vector<std::vector<glm::dvec3>> out;
  std::vector<glm::mat4> palette;
  for (std::size_t i = 0; i < s.meshes.size(); ++i) {
    const formats::Mesh& m = s.meshes[i];
    if (m.positions.empty() || m.indices.size() < 3) continue;  // not written
    std::vector<glm::vec3> p = m.positions, n = m.normals, skinned;
    if (!m.morphs.empty()) anim::applyMorphs(m, weights[i], p, n);
    anim::skinPalette(s.skeleton, m, pose, palette);
    anim::skin(p, n, anim::packInfluences(m), palette, skinned);
    std::vector<glm::dvec3> d;
    for (const auto& v : skinned) d.push_back(glm::dvec3(display * glm::dvec4(glm::dvec3(v), 1.0)));
    out.push_back(std::move(d));
  }
  return out;
}

bool hasStepKeys(const formats::Clip& c) {
  for (const auto& t : c.tracks)
    if (t.translation.interpolation == formats::Interpolation::Step ||
        t.rotation.interpolation == formats::Interpolation::Step ||
        t.scale.interpolation == formats::Interpolation::Step)
      return true;
  for (const auto& m : c.morphTracks)
    if (m.weight.interpolation == formats::Interpolation::Step) return true;
  return false;
}

std::vector<float> sampleTimes(const formats::Clip& c) {
  if (!hasStepKeys(c)) return {0.0f, 0.13f * c.duration, 0.5f * c.duration, 0.77f * c.duration, c.duration};
  std::vector<float> keys;
  for (const auto& t : c.tracks)
    for (const auto* ch : {&t.translation.times, &t.scale.times}) keys.insert(keys.end(), ch->begin(), ch->end());
  for (const auto& t : c.tracks) keys.insert(keys.end(), t.rotation.times.begin(), t.rotation.times.end());
  for (const auto& m : c.morphTracks) keys.insert(keys.end(), m.weight.times.begin(), m.weight.times.end());
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<float> out;
  for (std::size_t i = 0; i < 6 && !keys.empty(); ++i) out.push_back(keys[i * (keys.size() - 1) / 5]);
  return out;
}

class GltfAssimp : public ::testing::TestWithParam<const char*> {};

TEST_P(GltfAssimp, ReimportedSkinAgreesWithOurDisplayPose) {
  std::string skip;
  auto loaded = gltf_testing::loadExportModel(GetParam(), skip);
  if (!loaded) MARROW_SKIP() << skip;
  ASSERT_TRUE(loaded->ok()) << loaded->error().describe();
  const formats::Scene& s = **loaded;
  formats::Diagnostics diagnostics;
  auto glb = formats::writeGlb(s, diagnostics);
  ASSERT_TRUE(glb) << glb.error().describe();

  Reference ref;
  ref.scene = ref.importer.ReadFileFromMemory(glb->data(), glb->size(), 0, "glb");
  ASSERT_NE(ref.scene, nullptr) << ref.importer.GetErrorString();
  ref.collect(ref.scene->mRootNode, -1);

  const auto rest = ours(s, nullptr, 0.0f);
  ASSERT_EQ(rest.size(), ref.scene->mNumMeshes);
  // assimp need not keep the meshes' order: ours[k] is the aiMesh of its name.
  std::vector<std::string> names;
  for (const auto& m : s.meshes)
    if (!m.positions.empty() && m.indices.size() >= 3) names.push_back(m.name);
  std::vector<unsigned> refOf(names.size());
  std::vector<bool> taken(ref.scene->mNumMeshes, false);
  for (std::size_t k = 0; k < names.size(); ++k) {
    unsigned m = 0;
    while (m < ref.scene->mNumMeshes && (taken[m] || ref.scene->mMeshes[m]->mName != aiString(names[k]))) ++m;
    ASSERT_LT(m, ref.scene->mNumMeshes) << "no mesh '" << names[k] << "' in assimp's scene";
    taken[m] = true;
    refOf[k] = m;
  }
  glm::dvec3 lo(1e300), hi(-1e300);
  for (const auto& m : rest)
    for (const auto& p : m) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const double size = std::max(glm::length(hi - lo), 1e-9);

  double worstAll = 0.0;
  std::size_t poses = 0;
  auto compare = [&](const formats::Clip* clip, const aiAnimation* anim, float t) {
    const auto want = ours(s, clip, t);
    const double ticks = anim ? t * (anim->mTicksPerSecond > 0 ? anim->mTicksPerSecond : 25.0) : 0.0;
    const auto g = ref.globals(anim, ticks);
    ++poses;
    for (std::size_t k = 0; k < refOf.size(); ++k) {
      const unsigned m = refOf[k];
      ASSERT_EQ(ref.scene->mMeshes[m]->mNumVertices, want[k].size()) << "mesh " << names[k];
      const auto got = ref.positions(m, g, ref.weights(anim, m, ref.nodeOfMesh(m), ticks));
      double worst = 0.0;
      std::size_t at = 0;
      for (std::size_t v = 0; v < got.size(); ++v)
        if (const double e = glm::length(got[v] - want[k][v]) / size; e > worst) worst = e, at = v;
      worstAll = std::max(worstAll, worst);
      EXPECT_LE(worst, kTolerance) << (clip ? clip->name : "rest") << " at " << t << " s: mesh "
                                   << ref.scene->mMeshes[m]->mName.C_Str() << " vertex " << at;
    }
  };
  compare(nullptr, nullptr, 0.0f);
  // Clips may share a name (HL1 models have four 'arms_up'): the k-th of a name is the k-th
  // animation of that name.
  std::vector<bool> used(ref.scene->mNumAnimations, false);
  for (const formats::Clip& clip : s.clips) {
    const aiAnimation* anim = nullptr;
    for (unsigned a = 0; a < ref.scene->mNumAnimations && !anim; ++a)
      if (!used[a] && ref.scene->mAnimations[a]->mName == aiString(clip.name))
        anim = ref.scene->mAnimations[a], used[a] = true;
    if (!anim) continue;  // not written: made for another skeleton (a diagnostic says so)
    for (float t : sampleTimes(clip)) compare(&clip, anim, t);
  }
  std::printf("[ reference ] %s: %zu poses, max error %.3g of the model's size\n", GetParam(),
              poses, worstAll);
}

INSTANTIATE_TEST_SUITE_P(Models, GltfAssimp, ::testing::ValuesIn(gltf_testing::kExportModels));

}  // namespace
}  // namespace marrow
