// cal3d XML writers (spec §7): what they write, what versions leave out, and round trips
// XML → model → XML → model that keep every value and write the same bytes the second time.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/writers_internal.h"
#include "formats/io/file.h"
#include "formats/model/validate.h"

#include "cal3d_mesh_compare.h"

#include "tests/support/read_context.h"
#include "tests/support/skip.h"

namespace marrow::formats::cal3d {
namespace {

using ::marrow::testing::named;

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/cal3d/";

std::string text(const std::vector<std::byte>& b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

std::size_t count(std::string_view haystack, std::string_view needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string_view::npos;
       at = haystack.find(needle, at + 1))
    ++n;
  return n;
}

// ---- exact comparison of the parts of a model ----

// The bone-space rotation is the one value a round trip cannot promise to keep bit for bit: the
// model holds it as a matrix (Skeleton::inverseBind), and quaternion → matrix → quaternion moves
// the last bits of some bones (§10.3 pair, common.h). It is compared within this tolerance.
constexpr float kBoneSpaceTolerance = 1e-5f;

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t end; (end = s.find('\n', start)) != std::string::npos; start = end + 1)
    out.push_back(s.substr(start, end - start));
  out.push_back(s.substr(start));
  return out;
}

std::vector<float> numbersIn(const std::string& line) {
  const auto open = line.find('>'), close = line.rfind('<');
  std::vector<float> out;
  std::string_view v(line.data() + open + 1, close - open - 1);
  while (!v.empty()) {
    const auto space = v.find(' ');
    out.push_back(std::stof(std::string(v.substr(0, space))));
    v = space == std::string_view::npos ? std::string_view() : v.substr(space + 1);
  }
  return out;
}

// Same text, line for line; LOCALROTATION lines (bone space, see above) within the tolerance.
// Returns how many LOCALROTATION lines differ at all.
::testing::AssertionResult sameXml(const std::vector<std::byte>& a, const std::vector<std::byte>& b,
                                   std::size_t* rotationLinesDiffering = nullptr) {
  const auto x = lines(text(a)), y = lines(text(b));
  if (x.size() != y.size())
    return ::testing::AssertionFailure() << x.size() << " lines vs " << y.size();
  std::size_t differing = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] == y[i]) continue;
    if (x[i].find("<LOCALROTATION>") != std::string::npos &&
        y[i].find("<LOCALROTATION>") != std::string::npos) {
      const auto p = numbersIn(x[i]), q = numbersIn(y[i]);
      bool near = p.size() == q.size();
      for (std::size_t k = 0; near && k < p.size(); ++k)
        near = std::fabs(p[k] - q[k]) <= kBoneSpaceTolerance;
      if (near) {
        ++differing;
        continue;
      }
    }
    return ::testing::AssertionFailure()
           << "line " << i + 1 << " differs:\n  " << x[i] << "\n  " << y[i];
  }
  if (rotationLinesDiffering) *rotationLinesDiffering = differing;
  return ::testing::AssertionSuccess();
}

void expectNearMatrices(const std::vector<glm::mat4>& a, const std::vector<glm::mat4>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        EXPECT_NEAR(a[i][c][r], b[i][c][r], kBoneSpaceTolerance) << "bone " << i;
}

void expectSameSkeleton(const Skeleton& a, const Skeleton& b) {
  ASSERT_EQ(a.bones.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    SCOPED_TRACE("bone " + std::to_string(i));
    EXPECT_EQ(a.bones[i].name, b.bones[i].name);
    EXPECT_EQ(a.bones[i].parent, b.bones[i].parent);
    EXPECT_EQ(a.bones[i].translation, b.bones[i].translation);
    EXPECT_EQ(a.bones[i].rotation, b.bones[i].rotation);
  }
  expectNearMatrices(a.inverseBind, b.inverseBind);
}

template <class T>
void expectSameChannel(const Channel<T>& a, const Channel<T>& b) {
  EXPECT_EQ(a.times, b.times);
  EXPECT_EQ(a.values, b.values);
}

void expectSameClip(const Clip& a, const Clip& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.frameRate, b.frameRate);
  EXPECT_EQ(a.wrapsToFirstKey, b.wrapsToFirstKey);
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (std::size_t i = 0; i < a.tracks.size(); ++i) {
    SCOPED_TRACE("track " + std::to_string(i));
    EXPECT_EQ(a.tracks[i].bone, b.tracks[i].bone);
    EXPECT_EQ(a.tracks[i].sourceIndex, b.tracks[i].sourceIndex);
    expectSameChannel(a.tracks[i].translation, b.tracks[i].translation);
    expectSameChannel(a.tracks[i].rotation, b.tracks[i].rotation);
  }
}

void expectSameMesh(const Mesh& a, const Mesh& b) {
  SCOPED_TRACE("mesh " + a.name);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.material, b.material);
  testing::expectSameMeshData(a, b, /*colours=*/true);
  if (::testing::Test::HasFatalFailure()) return;
  ASSERT_EQ(a.morphs.size(), b.morphs.size());
  for (std::size_t i = 0; i < a.morphs.size(); ++i) {
    EXPECT_EQ(a.morphs[i].name, b.morphs[i].name);
    EXPECT_EQ(a.morphs[i].vertices, b.morphs[i].vertices);
    EXPECT_EQ(a.morphs[i].positions, b.morphs[i].positions);
    EXPECT_EQ(a.morphs[i].normals, b.morphs[i].normals);
    EXPECT_EQ(a.morphs[i].uvSets, b.morphs[i].uvSets);
  }
}

void expectSameMaterial(const Material& a, const Material& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.ambient, b.ambient);
  EXPECT_EQ(a.diffuse, b.diffuse);
  EXPECT_EQ(a.specular, b.specular);
  EXPECT_EQ(a.shininess, b.shininess);
  ASSERT_EQ(a.maps.size(), b.maps.size());
  for (std::size_t i = 0; i < a.maps.size(); ++i) {
    EXPECT_EQ(a.maps[i].kind, b.maps[i].kind);
    EXPECT_EQ(a.maps[i].label, b.maps[i].label);
    EXPECT_EQ(a.maps[i].uvSet, b.maps[i].uvSet);
    EXPECT_EQ(a.maps[i].texture, b.maps[i].texture);
  }
}

// ---- a model with everything cal3d XML holds ----

Scene everything() {
  Scene s;
  s.basis = cal3dBasis();
  Skeleton& k = s.skeleton;
  k.bones.resize(3);
  k.bones[0] = {"hips", -1, {0, 0, 90.5f}, quatFromFile(0.1f, 0.2f, 0.3f, 0.927362f)};
  k.bones[1] = {
      "thigh <L> & \"quoted\"", 0, {10, 0, 1e-5f}, quatFromFile(0, 0, 0.7071068f, 0.7071068f)};
  k.bones[2] = {"shin", 1, {0, 0, -40.25f}, quatFromFile(0, 0, 0, 1)};
  k.inverseBind = {inverseBindFromFile({0, 0, -90.5f}, {-0.1f, -0.2f, -0.3f, 0.927362f}),
                   inverseBindFromFile({-10, 3, -90.5f}, {0.5f, 0.5f, 0.5f, 0.5f}),
                   inverseBindFromFile({1.17815e-5f, 0, 50}, {0, 0, 0, 1})};

  Mesh m;
  m.name = "body";
  m.positions = {{0, 0, 0}, {1.5f, 0, 0}, {0, 1, -0.0f}, {1, 1, 0.1f}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0.6f, 0.8f}, {0, 0, 1}};
  m.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {0.25f, 0.5f, 0.75f, 1}};
  m.uvSets = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, {{0.5f, 0.5f}, {2, 0}, {0, -1}, {3, 3}}};
  m.addInfluences(std::vector<Influence>{{0, 1.0f}});
  m.addInfluences(std::vector<Influence>{{1, 0.25f}, {2, 0.75f}});
  m.addInfluences(std::vector<Influence>{});
  m.addInfluences(std::vector<Influence>{{2, 1.0f}});
  m.indices = {0, 1, 2, 2, 1, 3};
  m.material = 0;
  m.lod.collapsible = 1;
  m.lod.collapseTo = {-1, -1, -1, 2};
  m.lod.faceCollapseCount = {0, 0, 0, 1};
  m.springs = {{1, 3, 1000.0f, 1.118034f}};
  m.physicalWeights = {0.0f, 0.5f, 0.0f, 1.0f};
  MorphTarget t;
  t.name = "raise";
  t.vertices = {1, 3};
  t.positions = {{1.5f, 0, 1}, {1, 1, 1.1f}};
  t.normals = {{0, 0, 1}, {0, 1, 0}};
  t.uvSets = {{{1, 0}, {1, 1}}, {{2, 0}, {3.5f, 3}}};
  m.morphs.push_back(t);
  s.meshes.push_back(m);

  Clip c;
  c.name = "wave";
  c.duration = 1.0f;
  c.wrapsToFirstKey = true;
  Track tr;
  tr.bone = "thigh <L> & \"quoted\"";
  tr.sourceIndex = 1;
  tr.translation.add(0.0f, {10, 0, 0});
  tr.translation.add(1.0f / 30, {10, 0.1f, 0});
  tr.rotation.add(0.0f, quatFromFile(0, 0, 0, 1));
  tr.rotation.add(1.0f / 30, quatFromFile(0, 0.0871557f, 0, 0.9961947f));
  c.tracks.push_back(tr);
  s.clips.push_back(c);

  Material mat;
  mat.name = "skin";
  mat.ambient = colorFromBytes(22, 16, 46, 0);
  mat.diffuse = colorFromBytes(240, 184, 184, 255);
  mat.specular = colorFromBytes(229, 229, 229, 0);
  mat.shininess = 0.05f;
  mat.maps = {{"diffuse", 0, 0, ""}, {"opacity", 1, 1, "Opacity"}};
  s.materials.push_back(mat);
  s.textures = {{"skin.png", "skin.png", {}}, {"skin_alpha.tga", "skin_alpha.tga", {}}};
  return s;
}

// The model read back from the four files, put together as readModel does.
struct ReadBack {
  Scene scene;
  Diagnostics diagnostics;
};

ReadBack readAll(const std::vector<std::byte>& xsf, const std::vector<std::byte>& xmf,
                 const std::vector<std::byte>& xaf, const std::vector<std::byte>& xrf) {
  ReadBack out;
  Scene& s = out.scene;
  const auto sk = readXsf(xsf, named("model.xsf"));
  EXPECT_TRUE(sk.ok()) << sk.error().describe();
  if (!sk.ok()) return out;
  s.skeleton = sk->skeleton;
  const BoneMap map{&s.skeleton, sk->modelIndexOfFileBone};
  ReadContext textures = named("skin.xrf");
  textures.resolve = [](const std::string&) {
    return std::optional<std::vector<std::byte>>(std::vector<std::byte>{});
  };
  const auto mat = readXrf(xrf, textures);
  EXPECT_TRUE(mat.ok()) << mat.error().describe();
  if (!mat.ok()) return out;
  s.materials.push_back(mat->material);
  s.textures = mat->textures;
  const auto me = readXmf(xmf, named("body.xmf"), map);
  EXPECT_TRUE(me.ok()) << me.error().describe();
  if (!me.ok()) return out;
  for (std::size_t i = 0; i < me->meshes.size(); ++i) {
    s.meshes.push_back(me->meshes[i]);
    s.meshes.back().material = me->materialThreads[i];
  }
  const auto an = readXaf(xaf, named("wave.xaf"), map);
  EXPECT_TRUE(an.ok()) << an.error().describe();
  if (!an.ok()) return out;
  s.clips.push_back(an->clip);
  for (const auto* d : {&sk->diagnostics, &mat->diagnostics, &me->diagnostics, &an->diagnostics})
    out.diagnostics.append(*d);
  return out;
}

struct Written {
  std::vector<std::byte> xsf, xmf, xaf, xrf;
};

Written writeAll(const Scene& s, int version, Diagnostics& d) {
  Written w;
  const std::size_t meshes[] = {0};
  auto a = writeXsf(s, version, d);
  auto b = writeXmf(s, meshes, version, d);
  auto c = writeXaf(s, 0, version, d);
  auto e = writeXrf(s, 0, version, d);
  EXPECT_TRUE(a.ok() && b.ok() && c.ok() && e.ok());
  if (a.ok() && b.ok() && c.ok() && e.ok()) w = {*a, *b, *c, *e};
  return w;
}

// ---- what the writers write ----

TEST(Cal3dXmlWriter, RejectsWhatCal3dCannotHold) {
  Diagnostics d;
  Scene empty;
  EXPECT_FALSE(writeXsf(empty, 1100, d).ok());
  EXPECT_FALSE(writeXaf(empty, 0, 1100, d).ok());
  EXPECT_FALSE(writeXrf(empty, 0, 1100, d).ok());
  const std::size_t past[] = {3};
  EXPECT_FALSE(writeXmf(everything(), past, 1100, d).ok());
  Scene s = everything();
  s.clips[0].duration = 0.0f;
  EXPECT_FALSE(writeXaf(s, 0, 1100, d).ok());
  s = everything();
  s.clips[0].tracks[0].bone = "nobody";
  EXPECT_FALSE(writeXaf(s, 0, 1100, d).ok());
}

TEST(Cal3dXmlWriter, WritesTheHeaderFormWithUpperCaseNames) {
  Diagnostics d;
  const Written w = writeAll(everything(), 1100, d);
  EXPECT_EQ(
      text(w.xsf).rfind("<HEADER MAGIC=\"XSF\" VERSION=\"1100\" />\n<SKELETON NUMBONES=\"3\">", 0),
      0u);
  EXPECT_EQ(text(w.xaf).rfind("<HEADER MAGIC=\"XAF\" VERSION=\"1100\" />\n<ANIMATION ", 0), 0u);
  EXPECT_EQ(
      text(w.xmf).rfind("<HEADER MAGIC=\"XMF\" VERSION=\"1100\" />\n<MESH NUMSUBMESH=\"1\">", 0),
      0u);
  EXPECT_EQ(
      text(w.xrf).rfind("<HEADER MAGIC=\"XRF\" VERSION=\"1100\" />\n<MATERIAL NUMMAPS=\"2\">", 0),
      0u);
}

TEST(Cal3dXmlWriter, WritesTheShortestTextThatReadsBackToTheFloat) {
  Diagnostics d;
  const std::string xsf = text(*writeXsf(everything(), 1100, d));
  EXPECT_NE(xsf.find("<TRANSLATION>0 0 90.5</TRANSLATION>"), std::string::npos);
  EXPECT_NE(xsf.find("<TRANSLATION>10 0 1e-05</TRANSLATION>"), std::string::npos);
  EXPECT_NE(xsf.find("NAME=\"thigh &lt;L> &amp; &quot;quoted&quot;\""), std::string::npos);
}

TEST(Cal3dXmlWriter, Version1100HoldsWhatLibcal3d011Reads) {
  Diagnostics d;
  const Written w = writeAll(everything(), 1100, d);
  const std::string xmf = text(w.xmf), xaf = text(w.xaf), xrf = text(w.xrf);
  // §7.3/§7.4: 0.11 knows no COLOR, MORPH or map TYPE; they are left out with a warning.
  EXPECT_EQ(xmf.find("<COLOR>"), std::string::npos);
  EXPECT_EQ(xmf.find("<MORPH"), std::string::npos);
  EXPECT_EQ(xmf.find("NUMMORPHS"), std::string::npos);
  EXPECT_EQ(xrf.find("TYPE="), std::string::npos);
  EXPECT_EQ(d.count(Severity::Warning), 3u);
  // 0.11 reads every attribute below without checking that it is there.
  EXPECT_EQ(count(xmf,
                  "<SUBMESH NUMVERTICES=\"4\" NUMFACES=\"2\" MATERIAL=\"0\" NUMLODSTEPS=\"1\" "
                  "NUMSPRINGS=\"1\" NUMTEXCOORDS=\"2\">"),
            1u);
  EXPECT_EQ(count(xmf, "NUMINFLUENCES="), 4u);
  EXPECT_EQ(count(xmf, "<PHYSIQUE>"), 4u);  // one per vertex: the submesh has springs
  EXPECT_EQ(count(xmf, "<COLLAPSEID>"), 1u);
  // §7.2: TRANSLATION is mandatory before 1300.
  EXPECT_EQ(count(xaf, "<KEYFRAME "), count(xaf, "<TRANSLATION>"));
  EXPECT_EQ(count(xaf, "<TRACK BONEID=\"1\" NUMKEYFRAMES=\"2\">"), 1u);
}

TEST(Cal3dXmlWriter, Version1300KeepsColoursMorphsAndMapTypes) {
  Diagnostics d;
  const Written w = writeAll(everything(), 1300, d);
  EXPECT_EQ(count(text(w.xmf), "<COLOR>"), 4u);
  EXPECT_EQ(count(text(w.xmf), "<BLENDVERTEX "), 2u);
  EXPECT_NE(text(w.xrf).find("<MAP TYPE=\"Opacity\">skin_alpha.tga</MAP>"), std::string::npos);
  EXPECT_NE(text(w.xrf).find("<MAP>skin.png</MAP>"), std::string::npos);
  EXPECT_TRUE(d.empty());
}

TEST(Cal3dXmlWriter, WritesTheRestTranslationOfATrackWithoutTranslationKeys) {
  Scene s = everything();
  s.clips[0].tracks[0].translation = {};
  Diagnostics d;
  const std::string xaf = text(*writeXaf(s, 0, 1100, d));
  EXPECT_EQ(count(xaf, "<TRANSLATION>10 0 1e-05</TRANSLATION>"), 2u);
}

TEST(Cal3dXmlWriter, ARigidlyAttachedMeshGetsOneFullInfluence) {
  Scene s = everything();
  s.meshes[0].parentBone = 2;
  Diagnostics d;
  const std::size_t meshes[] = {0};
  const std::string xmf = text(*writeXmf(s, meshes, 1100, d));
  EXPECT_EQ(count(xmf, "<INFLUENCE ID=\"2\">1</INFLUENCE>"), 4u);
}

TEST(Cal3dXmlWriter, AClipThatHoldsItsLastKeyGetsAClosingKey) {
  Scene s = everything();
  s.clips[0].wrapsToFirstKey = false;
  Diagnostics d;
  const std::string xaf = text(*writeXaf(s, 0, 1100, d));
  EXPECT_NE(xaf.find("<KEYFRAME TIME=\"1\">"), std::string::npos);
  EXPECT_EQ(d.count(Severity::Info), 1u);
}

// ---- round trips ----

TEST(Cal3dXmlWriter, RoundTripsEveryValueAt1300) {
  const Scene original = everything();
  Diagnostics d;
  const Written first = writeAll(original, 1300, d);
  const ReadBack back = readAll(first.xsf, first.xmf, first.xaf, first.xrf);
  EXPECT_TRUE(back.diagnostics.empty()) << describe(back.diagnostics.items[0]);
  EXPECT_TRUE(validate(back.scene).empty());
  EXPECT_EQ(back.scene.skeleton.bones.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.scene.skeleton.bones[i].translation, original.skeleton.bones[i].translation);
    EXPECT_EQ(back.scene.skeleton.bones[i].rotation, original.skeleton.bones[i].rotation);
  }
  ASSERT_EQ(back.scene.meshes.size(), 1u);
  expectSameMesh(back.scene.meshes[0], original.meshes[0]);
  ASSERT_EQ(back.scene.clips.size(), 1u);
  expectSameClip(back.scene.clips[0], original.clips[0]);
  ASSERT_EQ(back.scene.materials.size(), 1u);
  expectSameMaterial(back.scene.materials[0], original.materials[0]);

  // XML → model → XML → model: the second model equals the first, the second files the first.
  const Written second = writeAll(back.scene, 1300, d);
  EXPECT_TRUE(sameXml(second.xsf, first.xsf));
  EXPECT_EQ(text(second.xmf), text(first.xmf));
  EXPECT_EQ(text(second.xaf), text(first.xaf));
  EXPECT_EQ(text(second.xrf), text(first.xrf));
  const ReadBack again = readAll(second.xsf, second.xmf, second.xaf, second.xrf);
  expectSameSkeleton(again.scene.skeleton, back.scene.skeleton);
  expectSameMesh(again.scene.meshes[0], back.scene.meshes[0]);
  expectSameClip(again.scene.clips[0], back.scene.clips[0]);
  expectSameMaterial(again.scene.materials[0], back.scene.materials[0]);
}

struct FixtureFile {
  const char* path;
  const char* skeleton;  // for meshes and animations
};

// One fixture through reader → writer → reader → writer.
void roundTrip(const FixtureFile& f, int version) {
  const auto data = readFile(kFixtures + f.path);
  ASSERT_TRUE(data.ok());
  const std::string name = std::filesystem::path(f.path).filename().string();
  const std::string ext = name.substr(name.rfind('.') + 1);
  Scene scene;
  BoneMap map;
  if (f.skeleton) {
    const auto sk = readFile(kFixtures + f.skeleton);
    ASSERT_TRUE(sk.ok());
    auto part = std::string(f.skeleton).ends_with(".csf") ? readCsf(*sk, named(f.skeleton))
                                                          : readXsf(*sk, named(f.skeleton));
    ASSERT_TRUE(part.ok()) << part.error().describe();
    scene.skeleton = part->skeleton;
    map = BoneMap{&scene.skeleton, part->modelIndexOfFileBone};
  }
  // Reads one file of this fixture's kind into `into` (replacing what it held).
  const auto readInto = [&](const std::vector<std::byte>& bytes, Scene& into) {
    if (ext == "xsf") {
      auto r = readXsf(bytes, named(name));
      ASSERT_TRUE(r.ok()) << r.error().describe();
      into.skeleton = r->skeleton;
    } else if (ext == "xaf") {
      auto r = readXaf(bytes, named(name), map);
      ASSERT_TRUE(r.ok()) << r.error().describe();
      into.clips = {r->clip};
    } else if (ext == "xmf") {
      auto r = readXmf(bytes, named(name), map);
      ASSERT_TRUE(r.ok()) << r.error().describe();
      into.meshes = r->meshes;
      for (std::size_t i = 0; i < r->meshes.size(); ++i)
        into.meshes[i].material = r->materialThreads[i];
    } else {
      auto r = readXrf(bytes, named(name));
      ASSERT_TRUE(r.ok()) << r.error().describe();
      into.materials = {r->material};
      into.textures = r->textures;
    }
  };
  const auto write = [&](const Scene& s) {
    Diagnostics d;
    std::vector<std::size_t> all;
    for (std::size_t i = 0; i < s.meshes.size(); ++i) all.push_back(i);
    auto r = ext == "xsf"   ? writeXsf(s, version, d)
             : ext == "xaf" ? writeXaf(s, 0, version, d)
             : ext == "xmf" ? writeXmf(s, all, version, d)
                            : writeXrf(s, 0, version, d);
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? *r : std::vector<std::byte>{};
  };
  Scene first = scene, second = scene;
  readInto(*data, first);
  const std::vector<std::byte> xml1 = write(first);
  readInto(xml1, second);
  const std::vector<std::byte> xml2 = write(second);
  if (ext == "xsf") {
    EXPECT_TRUE(sameXml(xml1, xml2));
  } else {
    EXPECT_TRUE(xml1 == xml2) << sameXml(xml1, xml2).message();
  }
  if (ext == "xsf") expectSameSkeleton(first.skeleton, second.skeleton);
  if (ext == "xaf") expectSameClip(first.clips[0], second.clips[0]);
  if (ext == "xmf") {
    ASSERT_EQ(first.meshes.size(), second.meshes.size());
    for (std::size_t i = 0; i < first.meshes.size(); ++i)
      expectSameMesh(first.meshes[i], second.meshes[i]);
  }
  if (ext == "xrf") expectSameMaterial(first.materials[0], second.materials[0]);
}

TEST(Cal3dXmlWriter, RoundTripsTheFixturesExactly) {
  if (!readFile(kFixtures + "xml_tests/base.xsf").ok())
    MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  const FixtureFile files[] = {
      {"xml_tests/base.xsf", nullptr},
      {"xml_tests/base.xaf", "xml_tests/base.xsf"},
      {"xml_tests/base.xmf", "xml_tests/base.xsf"},
      {"xml_tests/base.xrf", nullptr},
      {"paladin/paladin_body.xmf", "paladin/paladin.csf"},
      {"paladin/paladin_cape.xmf", "paladin/paladin.csf"},
      {"paladin/paladin_loincloth.xmf", "paladin/paladin.csf"},
      {"paladin/paladin_edge.xrf", nullptr},
      {"cally/cally_skin.xrf", nullptr},
      {"dokurochan_v1300/DokuroChan_12.xrf", nullptr},
  };
  for (int version : {1100, 1300})
    for (const FixtureFile& f : files) {
      SCOPED_TRACE(std::string(f.path) + " at " + std::to_string(version));
      roundTrip(f, version);
    }
}

}  // namespace
}  // namespace marrow::formats::cal3d
