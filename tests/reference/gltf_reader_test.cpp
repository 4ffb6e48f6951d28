// The native glTF reader against assimp's import of the same files (readWithAssimp, the reader it
// replaced, whose shape it keeps): every glTF 2.0 file of Debian's assimp-testmodels. Where both read a file, the models agree: meshes (names, vertices,
// triangles, positions, texture coordinates, normals where the file has them, materials, rigid
// attachment, influences by bone name, inverse binds), the skeleton (names, parents, rest
// transforms) and the clips (names, lengths, tracks and their keys). Where assimp reads a file
// the native reader must too; the poses themselves are
// compared against assimp's own evaluation in assimp_pose_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <set>
#include <vector>

#include "formats/assimp/assimp_reader.h"
#include "formats/gltf/gltf_reader.h"
#include "formats/io/file.h"
#include "tests/support/skip.h"

namespace marrow {
namespace {

namespace fs = std::filesystem;
using formats::Scene;

const std::string kModels = MARROW_ASSIMP_MODELS_DIR;

struct Read {
  formats::Result<Scene> native = formats::FormatError{};
  formats::Result<Scene> assimp = formats::FormatError{};
};

Read readBoth(const std::string& path) {
  const auto bytes = formats::readFile(path);
  formats::ReadContext ctx;
  ctx.name = path;
  ctx.resolve = formats::diskResolver(fs::path(path).parent_path().string());
  Read r;
  if (!bytes) return r;
  r.native = formats::readGltf(*bytes, ctx);
  r.assimp = formats::readWithAssimp(*bytes, ctx);
  return r;
}

float sizeOf(const Scene& s) {
  glm::vec3 lo, hi;
  if (!formats::restBounds(s, lo, hi)) return 1.0f;
  const float d = glm::length(hi - lo);
  return d > 0.0f ? d : 1.0f;
}

float worst(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float w = 0.0f;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const float d = glm::length(a[i] - b[i]);
    if (!std::isfinite(d)) return std::numeric_limits<float>::infinity();  // never vacuously equal
    w = std::max(w, d);
  }
  return w;
}

glm::mat4 localOf(const formats::Bone& b) {
  glm::mat4 m = glm::mat4_cast(b.rotation);
  m[0] *= b.scale.x;
  m[1] *= b.scale.y;
  m[2] *= b.scale.z;
  m[3] = glm::vec4(b.translation, 1.0f);
  return m;
}

float matrixDifference(const glm::mat4& a, const glm::mat4& b) {
  float d = 0.0f;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) d = std::max(d, std::fabs(a[c][r] - b[c][r]) / std::max(1.0f, std::fabs(b[c][r])));
  return d;
}

// Our bones among assimp's nodes. assimp makes every node a bone; ours, in a skinned file, are
// the skins' skeleton (gltf_reader.h), each named as its node, its parent the nearest of its
// node's ancestors that is one of ours, and the nodes above that are no bones folded into its rest
// transform and keys (`above`: their product, in our parent's space).
struct BoneMatch {
  std::vector<int> refOf;          // per bone of ours: assimp's bone
  std::vector<int> oursOf;         // per bone of assimp's: ours, or -1
  std::vector<glm::mat4> above;    // per bone of ours
};

std::vector<glm::mat4> globals(const formats::Skeleton& sk) {
  std::vector<glm::mat4> g(sk.bones.size());
  for (std::size_t i = 0; i < sk.bones.size(); ++i) {
    const int p = sk.bones[i].parent;
    g[i] = p >= 0 ? g[static_cast<std::size_t>(p)] * localOf(sk.bones[i]) : localOf(sk.bones[i]);
  }
  return g;
}

BoneMatch matchBones(const Scene& ours, const Scene& ref) {
  BoneMatch m;
  m.oursOf.assign(ref.skeleton.bones.size(), -1);
  const auto g = globals(ref.skeleton);
  for (std::size_t i = 0; i < ours.skeleton.bones.size(); ++i) {
    const int r = ref.skeleton.find(ours.skeleton.bones[i].name);
    EXPECT_GE(r, 0) << "bone '" << ours.skeleton.bones[i].name << "' is no node of assimp's";
    m.refOf.push_back(r);
    if (r >= 0) m.oursOf[static_cast<std::size_t>(r)] = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < ours.skeleton.bones.size(); ++i) {
    const int r = m.refOf[i];
    glm::mat4 above(1.0f);
    if (r >= 0) {
      int up = ref.skeleton.bones[static_cast<std::size_t>(r)].parent;
      const int refParent = up;
      while (up >= 0 && m.oursOf[static_cast<std::size_t>(up)] < 0) up = ref.skeleton.bones[static_cast<std::size_t>(up)].parent;
      const int parent = ours.skeleton.bones[i].parent;
      EXPECT_EQ(parent, up >= 0 ? m.oursOf[static_cast<std::size_t>(up)] : -1) << "bone '" << ours.skeleton.bones[i].name << "'";
      if (refParent >= 0 && refParent != up)
        above = (up >= 0 ? glm::inverse(g[static_cast<std::size_t>(up)]) : glm::mat4(1.0f)) * g[static_cast<std::size_t>(refParent)];
    }
    m.above.push_back(above);
  }
  return m;
}

// Every way the two models may differ, with the file's name in each message.
void compare(const Scene& ours, const Scene& ref, const std::string& file) {
  SCOPED_TRACE(file);
  const float size = sizeOf(ref);
  const BoneMatch match = matchBones(ours, ref);
  ASSERT_EQ(match.refOf.size(), ours.skeleton.bones.size());
  if (ours.skeleton.bones.size() < ref.skeleton.bones.size()) {
    // Only a skinned file leaves nodes out of the skeleton.
    EXPECT_TRUE(std::any_of(ours.meshes.begin(), ours.meshes.end(), [](const formats::Mesh& m) { return m.skinned(); }));
  }
  ASSERT_EQ(ours.meshes.size(), ref.meshes.size());
  for (std::size_t i = 0; i < ref.meshes.size(); ++i) {
    const formats::Mesh& a = ours.meshes[i];
    const formats::Mesh& b = ref.meshes[i];
    SCOPED_TRACE("mesh " + std::to_string(i) + " '" + b.name + "'");
    EXPECT_EQ(a.name, b.name);
    ASSERT_EQ(a.vertexCount(), b.vertexCount());
    EXPECT_EQ(a.indices, b.indices);
    EXPECT_LE(worst(a.positions, b.positions), 1e-5f * size);
    ASSERT_EQ(a.uvSets.size(), b.uvSets.size());
    for (std::size_t k = 0; k < a.uvSets.size(); ++k)
      for (std::size_t v = 0; v < a.vertexCount(); ++v) ASSERT_LE(glm::length(a.uvSets[k][v] - b.uvSets[k][v]), 1e-6f) << "uv set " << k << " vertex " << v;
    if (!a.normals.empty()) {  // assimp makes normals where the file has none; we leave that to the viewer
      ASSERT_EQ(a.normals.size(), b.normals.size());
      EXPECT_LE(worst(a.normals, b.normals), 1e-5f);
    }
    // By what the material is: assimp's import keeps only the materials meshes use.
    // A primitive without a material: ours has none, assimp's import gives it a default one.
    if (a.material < 0 && b.material >= 0) {
      EXPECT_TRUE(ref.materials.at(b.material).maps.empty());
      EXPECT_EQ(ref.materials.at(b.material).diffuse, glm::vec4(1.0f));
    }
    ASSERT_TRUE(a.material < 0 || b.material >= 0);
    if (a.material >= 0) {
      const formats::Material& ma = ours.materials.at(a.material);
      const formats::Material& mb = ref.materials.at(b.material);
      EXPECT_EQ(ma.name, mb.name);
      EXPECT_LE(glm::length(ma.diffuse - mb.diffuse), 1e-6f);
      const int ta = ma.diffuseTexture(), tb = mb.diffuseTexture();
      EXPECT_EQ(ta >= 0, tb >= 0);
      if (ta >= 0 && tb >= 0) {
        EXPECT_EQ(ours.textures.at(ta).data, ref.textures.at(tb).data);
      }
    }
    // A rigid mesh follows its node's bone, or the nearest bone of ours above it.
    int expectedParent = b.parentBone;
    while (expectedParent >= 0 && match.oursOf[static_cast<std::size_t>(expectedParent)] < 0)
      expectedParent = ref.skeleton.bones[static_cast<std::size_t>(expectedParent)].parent;
    EXPECT_EQ(a.parentBone, expectedParent >= 0 ? match.oursOf[static_cast<std::size_t>(expectedParent)] : -1);
    ASSERT_EQ(a.skinned(), b.skinned());
    if (a.skinned()) {
      for (std::size_t v = 0; v < a.vertexCount(); ++v) {
        std::map<std::string, float> wa, wb;
        for (const auto& inf : a.influencesOf(v)) wa[ours.skeleton.bones[inf.bone].name] += inf.weight;
        for (const auto& inf : b.influencesOf(v)) wb[ref.skeleton.bones[inf.bone].name] += inf.weight;
        ASSERT_EQ(wa.size(), wb.size()) << "vertex " << v;
        for (const auto& [bone, w] : wb) ASSERT_NEAR(wa[bone], w, 1e-6f) << "vertex " << v << " bone " << bone;
      }
      // Inverse binds of the bones the mesh uses (assimp's offset matrices).
      std::set<std::uint32_t> used;
      for (const auto& inf : b.influences) used.insert(inf.bone);
      for (const std::uint32_t bone : used) {
        const int mine = match.oursOf.at(bone);
        ASSERT_GE(mine, 0) << "bone " << bone << " weighs vertices but is not one of ours";
        EXPECT_LE(matrixDifference(a.inverseBind.at(static_cast<std::size_t>(mine)), b.inverseBind.at(bone)), 1e-5f) << "bone " << bone;
      }
    }
    ASSERT_EQ(a.morphs.size(), b.morphs.size());
    for (std::size_t t = 0; t < a.morphs.size(); ++t) {
      EXPECT_EQ(a.morphs[t].name, b.morphs[t].name);
      ASSERT_EQ(a.morphs[t].positions.size(), b.morphs[t].positions.size()) << "target " << t;
      EXPECT_LE(worst(a.morphs[t].positions, b.morphs[t].positions), 1e-5f * size) << "target " << t;
    }
  }
  // In assimp's order (pre-order, as ours), each bone at rest where assimp's node is.
  for (std::size_t i = 1; i < match.refOf.size(); ++i) EXPECT_LT(match.refOf[i - 1], match.refOf[i]) << "bone " << i;
  const auto oursAtRest = globals(ours.skeleton), refAtRest = globals(ref.skeleton);
  for (std::size_t i = 0; i < ours.skeleton.bones.size(); ++i) {
    if (match.refOf[i] < 0) continue;
    const auto r = static_cast<std::size_t>(match.refOf[i]);
    EXPECT_LE(matrixDifference(oursAtRest[i], refAtRest[r]), 1e-5f) << "bone " << i << " '" << ours.skeleton.bones[i].name << "'";
  }
  // assimp's import leaves out clips that only move morph weights; ours reads them
  // (GltfReader.MorphWeightClips in the unit tests).
  std::vector<const formats::Clip*> boneClips;
  for (const auto& clip : ours.clips)
    if (!clip.tracks.empty()) boneClips.push_back(&clip);
  ASSERT_EQ(boneClips.size(), ref.clips.size());
  for (std::size_t c = 0; c < ref.clips.size(); ++c) {
    const auto& a = *boneClips[c];
    const auto& b = ref.clips[c];
    SCOPED_TRACE("clip '" + b.name + "'");
    EXPECT_EQ(a.name, b.name);
    EXPECT_NEAR(a.duration, b.duration, 1e-5f);
    ASSERT_EQ(a.tracks.size(), b.tracks.size());
    std::map<std::string, const formats::Track*> byBone;
    for (const auto& t : a.tracks) byBone[t.bone] = &t;
    for (const auto& t : b.tracks) {
      ASSERT_TRUE(byBone.count(t.bone)) << t.bone;
      const formats::Track& mine = *byBone[t.bone];
      // assimp fills a channel the file does not animate with one key of the rest value; ours
      // leaves it empty, which plays the rest value too.
      const int bone = ref.skeleton.find(t.bone);
      ASSERT_GE(bone, 0) << t.bone;
      const formats::Bone& rest = ref.skeleton.bones[static_cast<std::size_t>(bone)];
      const int ourBone = match.oursOf[static_cast<std::size_t>(bone)];
      ASSERT_GE(ourBone, 0) << t.bone << " is animated but is not one of our bones";
      const glm::mat4& above = match.above[static_cast<std::size_t>(ourBone)];
      const glm::mat3 aboveLinear(above);
      const glm::quat aboveRotation = glm::quat_cast(glm::mat3(glm::normalize(aboveLinear[0]), glm::normalize(aboveLinear[1]),
                                                               glm::normalize(aboveLinear[2])));
      if (mine.translation.empty() && t.translation.size() == 1)
        EXPECT_LE(glm::length(t.translation.values[0] - rest.translation), 1e-6f * size) << t.bone;
      else
        ASSERT_EQ(mine.translation.size(), t.translation.size()) << t.bone;
      if (mine.rotation.empty() && t.rotation.size() == 1)
        EXPECT_NEAR(std::fabs(glm::dot(t.rotation.values[0], rest.rotation)), 1.0f, 1e-6f) << t.bone;
      else
        ASSERT_EQ(mine.rotation.size(), t.rotation.size()) << t.bone;
      if (mine.scale.empty() && t.scale.size() == 1)
        EXPECT_LE(glm::length(t.scale.values[0] - rest.scale), 1e-6f) << t.bone;
      else
        ASSERT_EQ(mine.scale.size(), t.scale.size()) << t.bone;
      for (std::size_t k = 0; k < mine.rotation.size(); ++k) {
        EXPECT_NEAR(mine.rotation.times[k], t.rotation.times[k], 1e-5f);
        EXPECT_NEAR(std::fabs(glm::dot(mine.rotation.values[k], glm::normalize(aboveRotation * t.rotation.values[k]))), 1.0f, 1e-5f);
      }
      for (std::size_t k = 0; k < mine.translation.size(); ++k)
        EXPECT_LE(glm::length(mine.translation.values[k] - glm::vec3(above * glm::vec4(t.translation.values[k], 1.0f))), 1e-5f * size);
    }
  }
}

TEST(GltfNativeReader, ReadsEveryGltf2FileOfAssimpsCorpusAsAssimpDoes) {
  const std::string folder = kModels + "/glTF2";
  if (!fs::is_directory(folder)) MARROW_SKIP() << folder << " is absent (Debian: assimp-testmodels)";
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(folder)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::size_t both = 0, assimpOnly = 0, nativeOnly = 0, neither = 0;
  for (const std::string& path : files) {
    const std::string relative = fs::relative(path, kModels).string();
    const Read r = readBoth(path);
    if (r.assimp.ok() && r.native.ok()) {
      ++both;
      compare(*r.native, *r.assimp, relative);
    } else if (r.assimp.ok()) {
      ++assimpOnly;
      ADD_FAILURE() << relative << ": assimp reads it, the native reader does not: " << r.native.error().describe();
    } else if (r.native.ok()) {
      ++nativeOnly;
      std::printf("[ glTF ] %s: read natively; assimp refuses it: %s\n", relative.c_str(), r.assimp.error().describe().c_str());
    } else {
      ++neither;
      std::printf("[ glTF ] %s: neither reads it; ours says %s\n", relative.c_str(), r.native.error().describe().c_str());
    }
  }
  std::printf("[ glTF ] %zu files: %zu read alike, %zu by assimp only, %zu natively only, %zu by neither\n",
              files.size(), both, assimpOnly, nativeOnly, neither);
  EXPECT_GE(both, 30u);
}

}  // namespace
}  // namespace marrow
