// The normals the assimp reader makes for meshes without them (formats/model/normals.h) against
// those of assimp's own GenSmoothNormals step, which the reader ran before, on every mesh of
// the assimp test models that has none: the same import (triangulated, sorted by primitive
// type) read twice, once with the step, so that vertex i is the same vertex on both sides.
#include <gtest/gtest.h>

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "formats/assimp/assimp_reader.h"
#include "formats/model/normals.h"
#include "formats/registry.h"
#include "tests/support/skip.h"

namespace {

namespace fs = std::filesystem;
using namespace marrow;

const std::string kModels = MARROW_ASSIMP_MODELS_DIR;

// Folders of formats that store no normals or not always (one corner per triangle in most).
const char* const kFolders[] = {"OBJ", "STL", "PLY", "3DS", "OFF", "AC", "ASE", "NFF", "LWO",
                                "MS3D", "X", "Collada", "COB", "XGL", "RAW", "Q3D", "TER", "DXF"};

const aiScene* import(Assimp::Importer& importer, const std::string& path, unsigned steps) {
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  return importer.ReadFile(path, steps);
}

struct Tally {
  std::size_t meshes = 0, vertices = 0, cancelled = 0;
  float worst = 0.0f;
};

// The sum of the unit normals of the last triangles of every vertex closer to vertex v than
// 1e-4 of the mesh's box diagonal, straight from the definition (every vertex looked at).
// Where it is short, the faces around the place cancel (the two sides of a sheet, a seam of
// mirrored halves) and the direction of what is left is rounding, which a different order of
// the sum changes: there ours and assimp's may differ by anything.
glm::vec3 placeSum(const aiMesh& m, unsigned v) {
  const auto at = [&](unsigned i) { return glm::vec3(m.mVertices[i].x, m.mVertices[i].y, m.mVertices[i].z); };
  glm::vec3 lo(1e10f), hi(-1e10f);
  for (unsigned i = 0; i < m.mNumVertices; ++i) {
    lo = glm::min(lo, at(i));
    hi = glm::max(hi, at(i));
  }
  const float eps = glm::length(hi - lo) * 1e-4f;
  std::vector<glm::vec3> own(m.mNumVertices, glm::vec3(0.0f));
  for (unsigned f = 0; f < m.mNumFaces; ++f) {
    const aiFace& face = m.mFaces[f];
    if (face.mNumIndices != 3) continue;
    const glm::vec3 c = glm::cross(at(face.mIndices[1]) - at(face.mIndices[0]),
                                   at(face.mIndices[2]) - at(face.mIndices[0]));
    const float len = glm::length(c);
    for (int k = 0; k < 3; ++k) own[face.mIndices[k]] = len > 0.0f ? c / len : glm::vec3(0.0f);
  }
  glm::vec3 sum(0.0f);
  for (unsigned w = 0; w < m.mNumVertices; ++w)
    if (glm::length(at(w) - at(v)) < eps) sum += own[w];
  return sum;
}

constexpr float kTolerance = 1e-4f;
constexpr float kCancelled = 1e-2f;  // less than a hundredth of one face's normal left

// Whether ours matches theirs at vertex v of `ref`, counting the places where faces cancel.
bool matches(const glm::vec3& ours, const aiMesh& ref, unsigned v, Tally& t) {
  const aiVector3D& r = ref.mNormals[v];
  const float d = glm::length(ours - glm::vec3(r.x, r.y, r.z));
  if (d <= kTolerance) {
    ++t.vertices;
    t.worst = std::max(t.worst, d);
    return true;
  }
  if (glm::length(placeSum(ref, v)) < kCancelled) {
    ++t.cancelled;
    return true;
  }
  return false;
}

void compareMesh(const aiMesh& plain, const aiMesh& smoothed, const std::string& where, Tally& t) {
  std::vector<glm::vec3> positions(plain.mNumVertices);
  for (unsigned v = 0; v < plain.mNumVertices; ++v)
    positions[v] = glm::vec3(plain.mVertices[v].x, plain.mVertices[v].y, plain.mVertices[v].z);
  std::vector<std::uint32_t> triangles;
  for (unsigned f = 0; f < plain.mNumFaces; ++f)
    if (plain.mFaces[f].mNumIndices == 3)
      triangles.insert(triangles.end(), plain.mFaces[f].mIndices, plain.mFaces[f].mIndices + 3);
  const std::vector<glm::vec3> ours = formats::weldedSmoothNormals(positions, triangles);
  ASSERT_EQ(ours.size(), smoothed.mNumVertices) << where;
  ++t.meshes;
  for (unsigned v = 0; v < smoothed.mNumVertices; ++v) {
    if (matches(ours[v], smoothed, v, t)) continue;
    const aiVector3D& r = smoothed.mNormals[v];
    ADD_FAILURE() << where << " vertex " << v << ": ours (" << ours[v].x << ", " << ours[v].y
                  << ", " << ours[v].z << "), assimp's (" << r.x << ", " << r.y << ", " << r.z << ")";
    return;  // one message per mesh
  }
}

TEST(AssimpNormals, OursAreAssimpsGenSmoothNormalsOnEveryMeshWithoutNormals) {
  if (!fs::is_directory(kModels)) MARROW_SKIP() << "assimp test models are not installed at " << kModels;
  const unsigned steps = formats::assimpVertexSteps();
  Tally t;
  std::size_t files = 0;
  for (const char* folder : kFolders) {
    const fs::path dir = fs::path(kModels) / folder;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file() || e.file_size() > (8u << 20)) continue;
      const std::string path = e.path().string();
      Assimp::Importer a, b;
      const aiScene* plain = import(a, path, steps);
      const aiScene* smoothed = import(b, path, steps | aiProcess_GenSmoothNormals);
      if (!plain || !smoothed || plain->mNumMeshes != smoothed->mNumMeshes) continue;
      bool counted = false;
      for (unsigned m = 0; m < plain->mNumMeshes; ++m) {
        const aiMesh* p = plain->mMeshes[m];
        const aiMesh* s = smoothed->mMeshes[m];
        if (!p || !s || p->mNormals || !s->mNormals || p->mNumVertices != s->mNumVertices ||
            !(p->mPrimitiveTypes & (aiPrimitiveType_TRIANGLE | aiPrimitiveType_POLYGON)))
          continue;
        compareMesh(*p, *s, fs::relative(e.path(), kModels).string() + " mesh " + std::to_string(m), t);
        if (!counted) ++files, counted = true;
      }
    }
  }
  std::printf("%zu files, %zu meshes without normals, %zu vertices compared (worst %.2g), %zu where "
              "the faces cancel\n", files, t.meshes, t.vertices, static_cast<double>(t.worst), t.cancelled);
  EXPECT_GE(t.meshes, 20u) << "the corpus should hold many meshes without normals";
}

// End to end: the reader's model of an OBJ without normals (2,710 faces) has assimp's normals at
// every corner, through the reader's join of identical vertices: each of our triangles' corners
// against the corner of assimp's triangle at the same place in the file.
TEST(AssimpNormals, TheReadersModelOfAnObjWithoutNormalsHasAssimpsNormals) {
  const std::string path = kModels + "/OBJ/regr01.obj";
  if (!fs::exists(path)) MARROW_SKIP() << path << " is not installed";
  Assimp::Importer b;
  const aiScene* smoothed = import(b, path, formats::assimpVertexSteps() | aiProcess_GenSmoothNormals);
  ASSERT_NE(smoothed, nullptr);
  auto ours = formats::loadFile(path);
  ASSERT_TRUE(ours.ok()) << ours.error().describe();
  Tally t;
  for (const formats::Mesh& m : ours->meshes) {
    ASSERT_EQ(m.normals.size(), m.vertexCount()) << m.name;
    // The mesh of assimp's with the same name and triangle count.
    const aiMesh* ref = nullptr;
    for (unsigned k = 0; k < smoothed->mNumMeshes; ++k)
      if (smoothed->mMeshes[k]->mNumFaces == m.triangleCount() &&
          m.name.rfind(smoothed->mMeshes[k]->mName.C_Str(), 0) == 0)
        ref = smoothed->mMeshes[k];
    ASSERT_NE(ref, nullptr) << m.name;
    for (std::size_t f = 0; f < m.triangleCount(); ++f)
      for (int k = 0; k < 3; ++k) {
        const glm::vec3& n = m.normals[m.indices[3 * f + k]];
        EXPECT_TRUE(matches(n, *ref, ref->mFaces[f].mIndices[k], t)) << m.name << " triangle " << f;
      }
  }
  EXPECT_GT(t.vertices, 8000u);
  EXPECT_LT(t.cancelled, t.vertices / 100);
}

}  // namespace
