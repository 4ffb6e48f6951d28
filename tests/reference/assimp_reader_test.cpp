// formats/assimp: how the importer treats bad input, sibling files, texture coordinates, node
// placement, names, bases, limits and textures. Models are built in memory where the behaviour
// needs a precise input, and taken from assimp-testmodels where a real file says more. The glTF
// documents built here go through the format table (readText → readScene), so since glTF has a
// reader of its own they hold it to the same behaviour; gltf_reader_test.cpp compares the two
// readers on every glTF file of the corpus.
#include "formats/assimp/assimp_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <assimp/IOStream.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "formats/assimp/assimp_io.h"
#include "formats/io/file.h"
#include "formats/model/validate.h"
#include "formats/registry.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

#include "tests/support/gltf_document.h"
#include "tests/support/png_pixels.h"
#include "tests/support/skip.h"

#if defined(__SANITIZE_ADDRESS__)
// Debian's assimp 5.2.5 leaks the partly parsed file when its X importer gives up on a truncated
// file (reproduced with a bare Assimp::Importer::ReadFileFromMemory, no Marrow code involved);
// TruncatedFilesGiveAnErrorOrAValidSceneNeverACrash triggers it. Leaks whose allocation passed
// through libassimp are not ours to fix; everything Marrow allocates itself is still checked.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libassimp.so\n";
}
#endif

namespace {

using namespace marrow;
using marrow::testing::Gltf;
using marrow::testing::kTriangleMesh;
using marrow::testing::triangleGltf;
using formats::ReadContext;
using formats::Scene;

const std::string kModels = MARROW_ASSIMP_MODELS_DIR;

std::vector<std::byte> bytesOf(const std::string& s) {
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

std::vector<std::byte> fileBytes(const std::string& path) {
  auto r = formats::readFile(path);
  return r ? std::move(r).value() : std::vector<std::byte>{};
}

#define REQUIRE_MODEL(path)                                                  \
  do {                                                                       \
    if (!std::filesystem::exists(path))                                      \
      MARROW_SKIP() << "assimp test model " << (path) << " is not installed"; \
  } while (0)

// A resolver that serves from memory and remembers every name asked for.
struct MemoryFiles {
  std::map<std::string, std::vector<std::byte>> files;
  std::shared_ptr<std::vector<std::string>> asked = std::make_shared<std::vector<std::string>>();

  formats::Resolver resolver() const {
    return [files = files,
            asked = asked](const std::string& name) -> std::optional<std::vector<std::byte>> {
      asked->push_back(name);
      auto it = files.find(name);
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
  }
};

formats::Result<Scene> readText(const std::string& text, const std::string& name,
                                formats::Resolver resolve = {}) {
  const auto bytes = bytesOf(text);
  ReadContext ctx;
  ctx.name = name;
  ctx.resolve = std::move(resolve);
  return formats::readScene(bytes, ctx);
}

std::size_t vertexAt(const formats::Mesh& m, glm::vec3 p) {
  for (std::size_t i = 0; i < m.positions.size(); ++i)
    if (glm::length(m.positions[i] - p) < 1e-5f) return i;
  return m.positions.size();
}

// ---- Bad input first. ----

TEST(AssimpReader, GarbageIsAnErrorNamingTheFile) {
  const auto r = readText("this is not a model at all", "models/garbage.fbx");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "models/garbage.fbx");
  EXPECT_FALSE(r.error().message.empty());
}

TEST(AssimpReader, EmptyInputIsAnErrorNamingTheFile) {
  ReadContext ctx;
  ctx.name = "empty.gltf";
  const auto r = formats::readWithAssimp({}, ctx);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "empty.gltf");
}

TEST(AssimpReader, TruncatedFilesGiveAnErrorOrAValidSceneNeverACrash) {
  const std::string path = kModels + "/X/BCN_Epileptic.X";
  REQUIRE_MODEL(path);
  const auto whole = fileBytes(path);
  ASSERT_FALSE(whole.empty());
  ReadContext ctx;
  ctx.name = "BCN_Epileptic.X";
  std::size_t errors = 0;
  for (double fraction : {0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99}) {
    const auto n = static_cast<std::size_t>(static_cast<double>(whole.size()) * fraction);
    const auto r = formats::readScene(std::span(whole).first(n), ctx);
    if (r.ok()) {
      EXPECT_TRUE(formats::validate(*r).empty()) << "prefix of " << n << " bytes";
    } else {
      ++errors;
      EXPECT_EQ(r.error().file, "BCN_Epileptic.X") << "prefix of " << n << " bytes";
    }
  }
  EXPECT_EQ(errors, 9u);  // every prefix, 0.99 of the file too
}

TEST(AssimpReader, TruncatedGltfIsAnErrorNamingTheFile) {
  Gltf g = triangleGltf();
  const std::string text =
      g.document("\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}]," +
                 std::string(kTriangleMesh));
  for (std::size_t cut : {std::size_t{1}, text.size() / 3, text.size() / 2, text.size() - 2}) {
    const auto r = readText(text.substr(0, cut), "cut.gltf");
    ASSERT_FALSE(r.ok()) << "cut at " << cut;
    EXPECT_EQ(r.error().file, "cut.gltf");
  }
}

TEST(AssimpReader, GltfWithoutItsBinIsAnErrorNamingTheFileAndTheMissingBin) {
  const std::string path = kModels + "/glTF2/MissingBin/BoxTextured.gltf";
  REQUIRE_MODEL(path);
  const auto r = formats::loadFile(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, path);
  EXPECT_NE(r.error().message.find("BoxTextured0.bin"), std::string::npos) << r.error().message;
}

TEST(AssimpReader, LimitsAreCheckedBeforeCopying) {
  const std::string path = kModels + "/X/BCN_Epileptic.X";
  REQUIRE_MODEL(path);
  const auto bytes = fileBytes(path);
  ReadContext ctx = formats::contextForFile(path);
  ctx.limits.maxVertices = 100;
  const auto r = formats::readWithAssimp(bytes, ctx);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, path);
  EXPECT_NE(r.error().message.find("limit"), std::string::npos) << r.error().message;

  ctx.limits = {};
  ctx.limits.maxBones = 10;
  const auto bones = formats::readWithAssimp(bytes, ctx);
  ASSERT_FALSE(bones.ok());
  EXPECT_NE(bones.error().message.find("limit"), std::string::npos) << bones.error().message;
}

// Each vertex's influences are assimp's weights for it, heaviest first, equal weights in the order
// of assimp's bones, cut to the limit. An SMD written here gives vertices of 1 to 21 links with
// ties, rows over the limit between rows under it, and a row long enough for the library sort.
TEST(AssimpReader, InfluencesAreAssimpsWeightsHeaviestFirstCutToTheLimit) {
  constexpr int kBones = 24;
  std::string smd = "version 1\nnodes\n";
  for (int b = 0; b < kBones; ++b)
    smd += std::to_string(b) + " \"b" + std::to_string(b) + "\" " + std::to_string(b ? 0 : -1) + "\n";
  smd += "end\nskeleton\ntime 0\n";
  for (int b = 0; b < kBones; ++b) smd += std::to_string(b) + " 0 0 0 0 0 0\n";
  smd += "end\ntriangles\n";
  // Links per corner; weights repeat in threes (ties), bones run backwards from the last.
  const int links[] = {21, 6, 1, 2, 2, 5, 0, 7, 3};
  for (int c = 0; c < 9; ++c) {
    if (c % 3 == 0) smd += "skin.bmp\n";
    smd += "0 " + std::to_string(c) + " " + std::to_string(c * c) + " 1 0 0 1 0.5 0.5 " +
           std::to_string(links[c]);
    for (int k = 0; k < links[c]; ++k)
      smd += " " + std::to_string(kBones - 1 - (k * 5 + c) % (kBones - 1)) + " " +
             std::to_string(0.05 * (1 + (k / 3) % 4));
    smd += "\n";
  }
  smd += "end\n";
  const auto bytes = bytesOf(smd);

  Assimp::Importer importer;
  const aiScene* ref = importer.ReadFileFromMemory(bytes.data(), bytes.size(),
                                                   formats::assimpVertexSteps(), "smd");
  ASSERT_NE(ref, nullptr) << importer.GetErrorString();
  ASSERT_EQ(ref->mNumMeshes, 1u);
  const aiMesh& am = *ref->mMeshes[0];

  for (const std::uint32_t cap : {64u, 4u, 1u}) {
    ReadContext ctx;
    ctx.name = "links.smd";
    ctx.limits.maxInfluencesPerVertex = cap;
    const auto r = formats::readScene(bytes, ctx);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->meshes.size(), 1u);
    const formats::Mesh& m = r->meshes[0];
    ASSERT_EQ(m.vertexCount(), am.mNumVertices) << "every corner is its own point";
    std::size_t longest = 0;
    for (unsigned v = 0; v < am.mNumVertices; ++v) {
      std::vector<std::pair<std::string, float>> expected;  // assimp's bones in order
      for (unsigned b = 0; b < am.mNumBones; ++b)
        for (unsigned w = 0; w < am.mBones[b]->mNumWeights; ++w)
          if (am.mBones[b]->mWeights[w].mVertexId == v && am.mBones[b]->mWeights[w].mWeight > 0)
            expected.emplace_back(am.mBones[b]->mName.C_Str(), am.mBones[b]->mWeights[w].mWeight);
      longest = std::max(longest, expected.size());
      std::stable_sort(expected.begin(), expected.end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
      if (expected.size() > cap) expected.resize(cap);
      const glm::vec3 p(am.mVertices[v].x, am.mVertices[v].y, am.mVertices[v].z);
      const std::size_t mine = vertexAt(m, p);
      ASSERT_LT(mine, m.vertexCount()) << "vertex " << v;
      std::vector<std::pair<std::string, float>> got;
      for (const formats::Influence& i : m.influencesOf(mine))
        got.emplace_back(r->skeleton.bones.at(i.bone).name, i.weight);
      EXPECT_EQ(got, expected) << "vertex " << v << ", limit " << cap;
    }
    EXPECT_GE(longest, 20u) << "a row long enough for std::stable_sort";
  }
}

// ---- Sibling files. ----

TEST(AssimpReader, SiblingFilesComeOnlyThroughTheResolver) {
  const std::string dir = kModels + "/glTF2/BoxTextured-glTF";
  REQUIRE_MODEL(dir + "/BoxTextured.gltf");
  MemoryFiles files;
  files.files["BoxTextured0.bin"] = fileBytes(dir + "/BoxTextured0.bin");
  const auto main = fileBytes(dir + "/BoxTextured.gltf");
  ReadContext ctx;
  ctx.name = "/no/such/folder/BoxTextured.gltf";  // nothing on disk could be found from here
  ctx.resolve = files.resolver();
  const auto r = formats::readScene(main, ctx);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->meshes.size(), 1u);
  EXPECT_EQ(std::count(files.asked->begin(), files.asked->end(), "BoxTextured0.bin"), 1)
      << "each sibling is asked for once";
  for (const auto& name : *files.asked) EXPECT_EQ(name.find('/'), std::string::npos) << name;
}

// Models name files in sibling folders ("../textures/x.png", "../data/x.bin"): a disk resolver
// reads them (it only reads; where files are written, paths are confined).
TEST(AssimpReader, SiblingPathsMayNameFilesInNeighbouringFolders) {
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("marrow_assimp_escape_" + std::to_string(::getpid()));
  fs::create_directories(root / "inside");
  fs::create_directories(root / "outside");
  Gltf g = triangleGltf();
  const std::string body = "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}]," +
                           std::string(kTriangleMesh);
  {  // the bin lives in a neighbouring folder
    std::ofstream out(root / "outside" / "secret.bin", std::ios::binary);
    out.write(reinterpret_cast<const char*>(g.binary().data()),
              static_cast<std::streamsize>(g.binary().size()));
  }
  const auto r = readText(g.document(body, "../outside/secret.bin"), "escape.gltf",
                          formats::diskResolver((root / "inside").string()));
  EXPECT_TRUE(r.ok()) << r.error().describe();
  const auto missing = readText(g.document(body, "../elsewhere/none.bin"), "missing.gltf",
                                formats::diskResolver((root / "inside").string()));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().file, "missing.gltf");
  fs::remove_all(root);
}

TEST(AssimpReader, SiblingNamesDerivedFromTheMainFileUseItsRealName) {
  // MD5 derives the animation's name from the mesh's; assimp's in-memory name would make that
  // "$$$___magic___$$$.md5anim" and serve the mesh again.
  const std::string path = kModels + "/MD5/SimpleCube.md5mesh";
  REQUIRE_MODEL(path);
  MemoryFiles files;
  ReadContext ctx;
  ctx.name = "SimpleCube.md5mesh";
  ctx.resolve = files.resolver();
  const auto r = formats::readScene(fileBytes(path), ctx);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_NE(std::find(files.asked->begin(), files.asked->end(), "SimpleCube.md5anim"),
            files.asked->end());
  for (const auto& name : *files.asked) EXPECT_EQ(name.find("$$$"), std::string::npos) << name;
}

TEST(AssimpReader, IOSystemServesTheMainFileUnderBothNamesAndNeverWrites) {
  const auto main = bytesOf("main bytes");
  MemoryFiles files;
  files.files["tex/a.png"] = bytesOf("png");
  formats::ResolverIOSystem io("model.obj", main, files.resolver());
  EXPECT_TRUE(io.Exists("model.obj"));
  EXPECT_TRUE(io.Exists("$$$___magic___$$$.obj"));
  EXPECT_TRUE(io.Exists(".\\tex\\a.png"));
  EXPECT_FALSE(io.Exists("missing.mtl"));
  EXPECT_EQ(io.Open("model.obj", "wb"), nullptr);
  Assimp::IOStream* s = io.Open("./tex/a.png", "rb");
  ASSERT_NE(s, nullptr);
  char buf[8] = {};
  EXPECT_EQ(s->FileSize(), 3u);
  EXPECT_EQ(s->Read(buf, 1, 8), 3u);
  EXPECT_EQ(std::string(buf, 3), "png");
  EXPECT_EQ(s->Seek(4, aiOrigin_SET), aiReturn_FAILURE);
  io.Close(s);
  Assimp::IOStream* m = io.Open("$$$___magic___$$$.obj", "rb");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->FileSize(), main.size());
  io.Close(m);
  EXPECT_EQ(io.resolverCalls(), 2u) << "tex/a.png and missing.mtl, each once";
  EXPECT_FALSE(io.CreateDirectory("/tmp/should-not-exist"));
}

// ---- Texture coordinates. ----

TEST(AssimpReader, UvsKeepVZeroAtTheTopRowForGltf) {
  // glTF already puts v = 0 at the top, like the model: the values come through unchanged.
  Gltf g = triangleGltf();
  const auto r =
      readText(g.document("\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}]," +
                          std::string(kTriangleMesh)),
               "uv.gltf");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->meshes.size(), 1u);
  const auto& m = r->meshes[0];
  ASSERT_EQ(m.uvSets.size(), 1u);
  const std::size_t top = vertexAt(m, {0, 1, 0});
  ASSERT_LT(top, m.positions.size());
  EXPECT_NEAR(m.uvSets[0][top].x, 0.0f, 1e-6f);
  EXPECT_NEAR(m.uvSets[0][top].y, 0.25f, 1e-6f);
  EXPECT_NEAR(m.uvSets[0][vertexAt(m, {1, 0, 0})].x, 1.0f, 1e-6f);
}

TEST(AssimpReader, UvsAreFlippedToVZeroAtTheTopRowForObj) {
  // OBJ puts v = 0 at the bottom row.
  const auto r =
      readText("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 0.25\nf 1/1 2/2 3/3\n", "uv.obj");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->meshes.size(), 1u);
  const auto& m = r->meshes[0];
  ASSERT_EQ(m.uvSets.size(), 1u);
  EXPECT_NEAR(m.uvSets[0][vertexAt(m, {0, 1, 0})].y, 0.75f, 1e-6f);
  EXPECT_NEAR(m.uvSets[0][vertexAt(m, {0, 0, 0})].y, 1.0f, 1e-6f);
}

// ---- Placement. ----

TEST(AssimpReader, StaticMultiNodeModelIsBakedPerInstance) {
  Gltf g = triangleGltf();
  // Node 0 moves the mesh by +10 x; node 1 turns 90° about z and moves +5 y, its child node 2
  // mirrors x. No skin and no animation: no skeleton, both instances baked into model space.
  const std::string body =
      "\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":["
      "{\"name\":\"a\",\"mesh\":0,\"translation\":[10,0,0]},"
      "{\"name\":\"b\",\"children\":[2],\"translation\":[0,5,0],"
      "\"rotation\":[0,0,0.70710678,0.70710678]},"
      "{\"name\":\"c\",\"mesh\":0,\"scale\":[-1,1,1]}]," +
      std::string(kTriangleMesh);
  const auto r = readText(g.document(body), "baked.gltf");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(r->skeleton.empty());
  EXPECT_TRUE(r->clips.empty());
  ASSERT_EQ(r->meshes.size(), 2u);
  EXPECT_EQ(r->meshes[0].name, "tri#1");
  EXPECT_EQ(r->meshes[1].name, "tri#2");
  const auto& a = r->meshes[0];
  EXPECT_LT(vertexAt(a, {10, 0, 0}), 3u);
  EXPECT_LT(vertexAt(a, {11, 0, 0}), 3u);
  EXPECT_LT(vertexAt(a, {10, 1, 0}), 3u);
  // c: mirror x, then the 90° turn maps (x, y) to (-y, x), then +5 y.
  const auto& c = r->meshes[1];
  EXPECT_LT(vertexAt(c, {0, 5, 0}), 3u);
  EXPECT_LT(vertexAt(c, {0, 4, 0}), 3u);
  EXPECT_LT(vertexAt(c, {-1, 5, 0}), 3u);
  for (const auto* m : {&a, &c}) {
    // Front faces stay front faces: the triangle faced +Z, and neither placement turns z (the
    // mirror's normal matrix keeps it), so the winding still says +Z; and so do the normals, where
    // the reader makes them.
    ASSERT_EQ(m->indices.size(), 3u);
    const glm::vec3 p0 = m->positions[m->indices[0]], p1 = m->positions[m->indices[1]],
                    p2 = m->positions[m->indices[2]];
    EXPECT_GT(glm::cross(p1 - p0, p2 - p0).z, 0.0f) << m->name;
    if (!m->normals.empty()) {
      EXPECT_GT(m->normals[0].z, 0.0f) << m->name;
    }
  }
}

TEST(AssimpReader, MeshOfAnAnimatedNodeIsRigidlyAttachedAtItsRestPlacement) {
  Gltf g = triangleGltf();
  const int times = g.floats({0, 1}, "SCALAR", 1);
  const int moves = g.floats({0, 0, 0, 2, 0, 0}, "VEC3", 3);
  const std::string body =
      "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":["
      "{\"name\":\"root\",\"children\":[1],\"translation\":[0,1,0]},"
      "{\"name\":\"mover\",\"mesh\":0}]," +
      std::string(kTriangleMesh) +
      ",\"animations\":[{\"name\":\"slide\",\"samplers\":[{\"input\":" + std::to_string(times) +
      ",\"output\":" + std::to_string(moves) +
      "}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]";
  const auto r = readText(g.document(body), "rigid.gltf");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const int mover = r->skeleton.find("mover");
  ASSERT_GE(mover, 0);
  ASSERT_EQ(r->meshes.size(), 1u);
  const auto& m = r->meshes[0];
  EXPECT_EQ(m.parentBone, mover);
  EXPECT_FALSE(m.skinned());
  EXPECT_LT(vertexAt(m, {0, 1, 0}), 3u) << "stored in model space at rest";
  EXPECT_LT(vertexAt(m, {1, 1, 0}), 3u);

  ASSERT_EQ(r->clips.size(), 1u);
  EXPECT_FLOAT_EQ(r->clips[0].duration, 1.0f);
  const anim::Pose pose = anim::evaluate(r->skeleton, &r->clips[0], 0.5f);
  std::vector<glm::mat4> palette;
  anim::skinPalette(r->skeleton, m, pose, palette);
  std::vector<glm::vec3> moved;
  anim::skin(m, anim::packInfluences(m), palette, moved);
  const std::size_t origin = vertexAt(m, {0, 1, 0});
  EXPECT_NEAR(moved[origin].x, 1.0f, 1e-5f);
  EXPECT_NEAR(moved[origin].y, 1.0f, 1e-5f);
}

TEST(AssimpReader, DuplicateAndEmptyNodeNamesAreMadeUniqueWithADiagnostic) {
  Gltf g = triangleGltf();
  const int times = g.floats({0, 1}, "SCALAR", 1);
  const int moves = g.floats({0, 0, 0, 1, 0, 0}, "VEC3", 3);
  const std::string body =
      "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":["
      "{\"name\":\"top\",\"children\":[1,2,3]},{\"name\":\"dup\",\"mesh\":0},{\"name\":\"dup\"},"
      "{\"name\":\"\"}]," +
      std::string(kTriangleMesh) +
      ",\"animations\":[{\"samplers\":[{\"input\":" + std::to_string(times) +
      ",\"output\":" + std::to_string(moves) +
      "}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]";
  const auto r = readText(g.document(body), "names.gltf");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  std::set<std::string> names;
  for (const auto& b : r->skeleton.bones) EXPECT_TRUE(names.insert(b.name).second) << b.name;
  EXPECT_EQ(r->skeleton.find("dup"), r->meshes[0].parentBone) << "the first keeps the name";
  EXPECT_TRUE(
      std::any_of(r->diagnostics.items.begin(), r->diagnostics.items.end(),
                  [](const auto& d) { return d.message.find("renamed") != std::string::npos; }));
}

// ---- What the scene says about itself. ----

TEST(AssimpReader, FormatNamesTheImporterThatRan) {
  const std::string path = kModels + "/glTF2/simple_skin/simple_skin.gltf";
  REQUIRE_MODEL(path);
  ReadContext ctx;
  ctx.name = path;
  const auto r = formats::readWithAssimp(fileBytes(path), ctx);  // glTF's own reader says "glTF 2.0"
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->format, "assimp: glTF2");
}

TEST(AssimpReader, FbxBasisComesFromItsAxisAndUnitMetadata) {
  const std::string metres = kModels + "/FBX/box.fbx";   // UnitScaleFactor 100: metres
  const std::string cm = kModels + "/FBX/huesitos.fbx";  // UnitScaleFactor 1: centimetres
  REQUIRE_MODEL(metres);
  REQUIRE_MODEL(cm);
  const auto a = formats::loadFile(metres);
  ASSERT_TRUE(a.ok()) << a.error().describe();
  EXPECT_EQ(a->basis.up, formats::Axis::Y);
  EXPECT_TRUE(a->basis.rightHanded);
  EXPECT_FLOAT_EQ(a->basis.unitMeters, 1.0f);
  const auto b = formats::loadFile(cm);
  ASSERT_TRUE(b.ok()) << b.error().describe();
  EXPECT_FLOAT_EQ(b->basis.unitMeters, 0.01f);
}

TEST(AssimpReader, OtherFormatsAreInAssimpsYUpRightHandedSpace) {
  const std::string path = kModels + "/X/BCN_Epileptic.X";  // a left-handed format, converted
  REQUIRE_MODEL(path);
  const auto r = formats::loadFile(path);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->basis, formats::Basis{});
}

TEST(AssimpReader, ClipTimesAreSecondsWithAPlausibleFrameRate) {
  const std::string path = kModels + "/X/BCN_Epileptic.X";  // 4800 ticks per second, 30 Hz keys
  REQUIRE_MODEL(path);
  const auto r = formats::loadFile(path);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->clips.size(), 1u);
  EXPECT_NEAR(r->clips[0].duration, 15840.0 / 4800.0, 1e-5);
  EXPECT_FLOAT_EQ(r->clips[0].frameRate, 30.0f);
}

TEST(AssimpReader, EmbeddedCompressedTexturesKeepTheirBytes) {
  const std::string path = kModels + "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb";
  REQUIRE_MODEL(path);
  ReadContext ctx;
  ctx.name = path;
  const auto r = formats::readWithAssimp(fileBytes(path), ctx);  // "*0": assimp's name for it
  ASSERT_TRUE(r.ok()) << r.error().describe();
  int t = -1;
  for (const auto& m : r->materials)
    if (m.diffuseTexture() >= 0) t = m.diffuseTexture();
  ASSERT_GE(t, 0);
  EXPECT_EQ(r->textures[static_cast<std::size_t>(t)].path, "*0");
  const auto& data = r->textures[static_cast<std::size_t>(t)].data;
  ASSERT_EQ(data.size(), 2433u);  // the embedded PNG, byte for byte
  EXPECT_EQ(std::memcmp(data.data(), "\x89PNG", 4), 0);
}

TEST(AssimpReader, EmbeddedUncompressedTexturesBecomePng) {
  const std::string path = kModels + "/MDL/MDL (HL1)/chrome_sphere.mdl";  // a 64×64 palette skin
  REQUIRE_MODEL(path);
  const auto r = formats::loadFile(path);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_FALSE(r->textures.empty());
  const auto& data = r->textures[0].data;
  ASSERT_GE(data.size(), 24u);
  EXPECT_EQ(std::memcmp(data.data(), "\x89PNG\r\n\x1a\n", 8), 0);
  auto u32 = [&](std::size_t at) {
    return (std::to_integer<std::uint32_t>(data[at]) << 24) |
           (std::to_integer<std::uint32_t>(data[at + 1]) << 16) |
           (std::to_integer<std::uint32_t>(data[at + 2]) << 8) |
           std::to_integer<std::uint32_t>(data[at + 3]);
  };
  EXPECT_EQ(u32(16), 64u);  // IHDR width
  EXPECT_EQ(u32(20), 64u);  // IHDR height
}

TEST(AssimpReader, SkinnedMeshesKeepTheirOffsetsAndTheirNodeAboveTheJointsIsNoBone) {
  // simple_skin: node 0 holds the mesh and, as its children, the joints (nodes 1 and 2), both
  // bound by the inverse bind matrix translate(-0.5, -1, 0) (the bind pose is not the rest pose).
  // The skeleton is the skin's joints (gltf_reader.h); the mesh's node only places them.
  const std::string path = kModels + "/glTF2/simple_skin/simple_skin.gltf";
  REQUIRE_MODEL(path);
  const auto r = formats::loadFile(path);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->meshes.size(), 1u);
  ASSERT_EQ(r->skeleton.bones.size(), 2u);
  EXPECT_EQ(r->skeleton.bones[0].name, "nodes[1]");
  EXPECT_EQ(r->skeleton.bones[1].name, "nodes[2]");
  EXPECT_EQ(r->skeleton.bones[1].parent, 0);
  const auto& m = r->meshes[0];
  EXPECT_TRUE(m.skinned());
  EXPECT_EQ(m.parentBone, -1);
  ASSERT_EQ(m.inverseBind.size(), 2u);
  for (int joint : {0, 1}) {
    EXPECT_NEAR(m.inverseBind[joint][3].x, -0.5f, 1e-6f);
    EXPECT_NEAR(m.inverseBind[joint][3].y, -1.0f, 1e-6f);
  }
  EXPECT_EQ(m.maxInfluences(), 2u);
  // At rest the first joint stands 1 up: its palette entry moves the bind pose by (-0.5, 0, 0).
  const anim::Pose rest = anim::evaluate(r->skeleton, nullptr, 0.0f);
  std::vector<glm::mat4> palette;
  anim::skinPalette(r->skeleton, m, rest, palette);
  EXPECT_NEAR(palette[0][3].x, -0.5f, 1e-6f);
  EXPECT_NEAR(palette[0][3].y, 0.0f, 1e-6f);
}

// assimp hands an MDL's skin over as uncompressed BGRA texels; the reader keeps it as a PNG,
// which zlib reads back (tests/support/png_pixels.h) to assimp's texels, pixel for pixel.
TEST(AssimpReader, AnEmbeddedUncompressedSkinBecomesAPngOfTheSameTexels) {
  const std::string path = kModels + "/MDL/MDL3 (3DGS A4)/minigun.MDL";
  if (!std::filesystem::exists(path)) MARROW_SKIP() << path << " is not installed";
  Assimp::Importer importer;
  const aiScene* ref = importer.ReadFile(path, 0);
  ASSERT_NE(ref, nullptr) << importer.GetErrorString();
  ASSERT_EQ(ref->mNumTextures, 1u);
  const aiTexture& tex = *ref->mTextures[0];
  ASSERT_GT(tex.mHeight, 0u);  // texels, not an encoded file
  const auto ours = formats::loadFile(path);
  ASSERT_TRUE(ours.ok()) << ours.error().describe();
  ASSERT_EQ(ours->textures.size(), 1u);
  EXPECT_TRUE(ours->textures[0].embedded);
  std::uint32_t w = 0, h = 0;
  const auto rgba = marrow::testing::pngPixels(ours->textures[0].data, 0, w, h);
  ASSERT_EQ(w, tex.mWidth);
  ASSERT_EQ(h, tex.mHeight);
  ASSERT_EQ(rgba.size(), std::size_t{w} * h * 4);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < std::size_t{w} * h; ++i) {
    const aiTexel& t = tex.pcData[i];
    differ += rgba[4 * i] != t.r || rgba[4 * i + 1] != t.g || rgba[4 * i + 2] != t.b ||
              rgba[4 * i + 3] != t.a;
  }
  EXPECT_EQ(differ, 0u);
}

}  // namespace
