// cal3d morph animations (.xpf, .cpf; spec §7.5): the fork's real file against its own text,
// IMVU's named form, the binary forms, hostile bytes, playing, writing back.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cal3d_binary_test_util.h"
#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/writer.h"
#include "formats/gltf/gltf_writer.h"
#include "formats/io/byte_writer.h"
#include "render/anim/morph.h"

namespace marrow::formats::cal3d {
namespace {

using testing::context;
using testing::fixture;

const std::string kDir = "dokurochan_v1300/";

bool haveDokuro() {
  return std::filesystem::exists(testing::fixtureDir() / (kDir + "DokuroChan_Key_test_facial.xpf"));
}
#define SKIP_WITHOUT_DOKURO() \
  if (!haveDokuro()) MARROW_SKIP() << "fixture cal3d/dokurochan_v1300 not found"

struct Files {
  std::vector<std::vector<std::byte>> bytes;
  std::vector<std::string> names;
  void add(const std::string& name, std::vector<std::byte> b) {
    names.push_back(name);
    bytes.push_back(std::move(b));
  }
  std::vector<Input> inputs() const {
    std::vector<Input> in;
    for (std::size_t i = 0; i < bytes.size(); ++i) in.push_back({bytes[i], context(names[i])});
    return in;
  }
};

// The tracks of the fork's file as its text states them, read with a regular expression rather
// than the reader: (MORPHID, MESHID, SUBMESH id) → (time, weight) keys.
struct TextTrack {
  int morph = 0, mesh = 0, submesh = 0;
  std::vector<std::pair<float, float>> keys;
};
std::vector<TextTrack> tracksOfText(const std::vector<std::byte>& bytes) {
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::vector<TextTrack> out;
  const std::regex track(R"re(<TRACK MORPHID="(\d+)" NUMKEYFRAMES="\d+"\s+MESHID="(\d+)"[^>]*>\s*<SUBMESH\s+ID="(\d+)")re");
  const std::regex key(R"re(<KEYFRAME TIME="([-0-9.e]+)">\s*<WEIGHT>([-0-9.e]+)\s*</WEIGHT>)re");
  std::vector<std::size_t> starts;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), track); it != std::sregex_iterator(); ++it) {
    out.push_back({std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3]), {}});
    starts.push_back(static_cast<std::size_t>(it->position()));
  }
  for (std::size_t t = 0; t < out.size(); ++t) {
    const auto from = text.begin() + static_cast<std::ptrdiff_t>(starts[t]);
    const auto to = t + 1 < out.size() ? text.begin() + static_cast<std::ptrdiff_t>(starts[t + 1]) : text.end();
    for (auto it = std::sregex_iterator(from, to, key); it != std::sregex_iterator(); ++it)
      out[t].keys.emplace_back(std::stof((*it)[1]), std::stof((*it)[2]));
  }
  return out;
}

const MorphTrack* trackFor(const Clip& c, const std::string& mesh, const std::string& target) {
  for (const auto& t : c.morphTracks)
    if (t.mesh == mesh && t.target == target) return &t;
  return nullptr;
}

// The skeleton, `filler` copies of a small mesh file, then the face mesh (file `filler`), then
// the morph animation.
Result<Scene> dokuro(int filler) {
  Files f;
  f.add("DokuroChan.csf", fixture(kDir + "DokuroChan.csf"));
  for (int i = 0; i < filler; ++i)
    f.add("filler" + std::to_string(i) + ".cmf", fixture(kDir + "DokuroChan_mesh.014.cmf"));
  f.add("DokuroChan_mesh.001.cmf", fixture(kDir + "DokuroChan_mesh.001.cmf"));
  f.add("DokuroChan_Key_test_facial.xpf", fixture(kDir + "DokuroChan_Key_test_facial.xpf"));
  const auto in = f.inputs();
  return readModel(in);
}

// Every track of the real file drives the target its numbers name, with the keys its text has.
void expectTheFilesTracks(const Scene& s, int faceFile) {
  ASSERT_EQ(s.clips.size(), 1u);
  const Clip& c = s.clips[0];
  EXPECT_EQ(c.name, "DokuroChan_Key_test_facial");
  EXPECT_NEAR(c.duration, 162.866667f, 1e-4f);
  EXPECT_TRUE(c.tracks.empty());
  const auto text = tracksOfText(fixture(kDir + "DokuroChan_Key_test_facial.xpf"));
  ASSERT_EQ(text.size(), 15u);
  ASSERT_EQ(c.morphTracks.size(), text.size());
  const std::size_t first = static_cast<std::size_t>(faceFile);  // each filler file is one mesh
  for (std::size_t i = 0; i < text.size(); ++i) {
    const TextTrack& t = text[i];
    ASSERT_EQ(t.mesh, 19);
    const Mesh& mesh = s.meshes[first + static_cast<std::size_t>(t.submesh)];
    ASSERT_LT(static_cast<std::size_t>(t.morph), mesh.morphs.size());
    const MorphTrack& m = c.morphTracks[i];
    EXPECT_EQ(m.mesh, mesh.name) << "track " << i;
    EXPECT_EQ(m.target, mesh.morphs[static_cast<std::size_t>(t.morph)].name) << "track " << i;
    ASSERT_EQ(m.weight.size(), t.keys.size()) << "track " << i;
    for (std::size_t k = 0; k < t.keys.size(); ++k) {
      EXPECT_EQ(m.weight.times[k], t.keys[k].first);
      EXPECT_EQ(m.weight.values[k], t.keys[k].second);
    }
  }
}

TEST(Cal3dMorphAnimation, TheForksFileDrivesTheTargetsItsNumbersName) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  SKIP_WITHOUT_DOKURO();
  // As its .cfg loads it: the face mesh is the 20th mesh file, MESHID 19.
  const auto s = dokuro(19);
  ASSERT_TRUE(s) << s.error().describe();
  expectTheFilesTracks(*s, 19);
  EXPECT_NE(s->format.find("XPF 1300 (morph ids)"), std::string::npos) << s->format;
  for (const auto& d : s->diagnostics.items)
    EXPECT_EQ(d.message.find("taken to be"), std::string::npos) << d.message;
}

TEST(Cal3dMorphAnimation, AMeshNumberPastTheFilesLoadedFindsTheOneFileThatFits) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  SKIP_WITHOUT_DOKURO();
  const auto s = dokuro(1);  // the face mesh is file 1 of 2; the animation says 19
  ASSERT_TRUE(s) << s.error().describe();
  expectTheFilesTracks(*s, 1);
  bool noted = false;
  for (const auto& d : s->diagnostics.items)
    noted |= d.message.find("taken to be that one") != std::string::npos &&
             d.field == "MESHID 19" && d.file == "DokuroChan_Key_test_facial.xpf";
  EXPECT_TRUE(noted) << s->diagnostics.items.size();
}

TEST(Cal3dMorphAnimation, PlayingSetsTheWeightsOfItsKeys) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  SKIP_WITHOUT_DOKURO();
  const auto s = dokuro(0);
  ASSERT_TRUE(s) << s.error().describe();
  // MORPHID 16 of submesh 0: 0 at 6.133333, 1 from 6.166667 to 6.233333, 0 at 6.266667.
  const Mesh& face = s->meshes[0];
  const std::size_t target = 16;
  std::vector<std::vector<float>> w;
  anim::sampleMorphWeights(s->clips[0], 6.2f, s->meshes, w);
  EXPECT_FLOAT_EQ(w[0][target], 1.0f);
  anim::sampleMorphWeights(s->clips[0], 6.15f, s->meshes, w);
  EXPECT_NEAR(w[0][target], 0.5f, 1e-3f);
  anim::sampleMorphWeights(s->clips[0], 6.3f, s->meshes, w);
  EXPECT_FLOAT_EQ(w[0][target], 0.0f);
  EXPECT_GT(face.morphs.size(), target);
}

TEST(Cal3dMorphAnimation, GltfExportAnimatesTheWeightsOfEveryMeshItDrives) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  SKIP_WITHOUT_DOKURO();
  const auto s = dokuro(0);
  ASSERT_TRUE(s) << s.error().describe();
  Diagnostics d;
  const auto glb = writeGlb(*s, d);
  ASSERT_TRUE(glb) << glb.error().describe();
  const std::string text(reinterpret_cast<const char*>(glb->data()), glb->size());
  std::set<std::string> driven;
  for (const auto& t : s->clips[0].morphTracks) driven.insert(t.mesh);
  std::size_t channels = 0;
  for (std::size_t at = text.find("\"path\":\"weights\""); at != std::string::npos;
       at = text.find("\"path\":\"weights\"", at + 1))
    ++channels;
  EXPECT_EQ(channels, driven.size());  // one weights channel per mesh node the clip drives
  EXPECT_EQ(driven.size(), 2u);        // submeshes 0 and 2 of the face
}

// Writes clip 0 at `version` as XML or binary, reads it back beside the same meshes.
Clip writtenAndRead(const Scene& s, bool xml, int version, Diagnostics& d) {
  WriteOptions o;
  o.xml = xml;
  o.version = version;
  auto bytes = writeMorphAnimation(s, 0, o, d);
  EXPECT_TRUE(bytes) << (bytes ? "" : bytes.error().describe());
  if (!bytes) return {};
  auto part = readMorphAnimation(*bytes, context(xml ? "again.xpf" : "again.cpf"));
  EXPECT_TRUE(part) << (part ? "" : part.error().describe());
  if (!part) return {};
  // The model writer's mesh files (each file's meshes are together in a model read from files).
  std::vector<MeshFileRange> files;
  for (const auto& members : meshFiles(s)) files.push_back({members.front(), members.size()});
  return resolveMorphAnimation(*part, s.meshes, files, Limits{}, d);
}

TEST(Cal3dMorphAnimation, WrittenBackEveryTrackDrivesTheSameTargetWithTheSameKeys) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  SKIP_WITHOUT_DOKURO();
  const auto s = dokuro(0);
  ASSERT_TRUE(s) << s.error().describe();
  const Clip& original = s->clips[0];
  // The fork's numbers (XML at 1301): every track, as it was.
  Diagnostics d;
  const Clip ids = writtenAndRead(*s, true, 1301, d);
  ASSERT_EQ(ids.morphTracks.size(), original.morphTracks.size());
  for (std::size_t i = 0; i < ids.morphTracks.size(); ++i) {
    EXPECT_EQ(ids.morphTracks[i].mesh, original.morphTracks[i].mesh);
    EXPECT_EQ(ids.morphTracks[i].target, original.morphTracks[i].target);
    EXPECT_EQ(ids.morphTracks[i].weight.times, original.morphTracks[i].weight.times);
    EXPECT_EQ(ids.morphTracks[i].weight.values, original.morphTracks[i].weight.values);
  }
  EXPECT_FLOAT_EQ(ids.duration, original.duration);
  // Target names (IMVU XML at 919, binary): one track per name, which drives that target in
  // every submesh having it; of tracks naming one target the first's keys are written, and the
  // others, when their keys differ, are reported.
  for (bool xml : {true, false}) {
    Diagnostics dn;
    const Clip named = writtenAndRead(*s, xml, xml ? 919 : 1301, dn);
    std::map<std::string, const MorphTrack*> firstOfName;
    std::size_t differing = 0;
    for (const auto& t : original.morphTracks) {
      const auto [it, fresh] = firstOfName.try_emplace(t.target, &t);
      differing += !fresh && (it->second->weight.times != t.weight.times ||
                              it->second->weight.values != t.weight.values);
    }
    for (const auto& t : original.morphTracks) {
      const MorphTrack* m = trackFor(named, t.mesh, t.target);
      ASSERT_TRUE(m) << t.mesh << " / " << t.target;
      EXPECT_EQ(m->weight.times, firstOfName[t.target]->weight.times);
      EXPECT_EQ(m->weight.values, firstOfName[t.target]->weight.values);
    }
    bool reported = false;
    for (const auto& w : dn.items)
      reported |= w.message.find(std::to_string(differing) + " morph track") == 0 &&
                  w.message.find("the first is written") != std::string::npos;
    EXPECT_EQ(reported, differing > 0) << (xml ? "xml" : "binary");
  }
}

// ---- IMVU's named form, built ----

Mesh meshWithTargets(const std::string& name, std::vector<std::string> targets) {
  Mesh m;
  m.name = name;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.indices = {0, 1, 2};
  for (auto& t : targets) {
    MorphTarget target;
    target.name = std::move(t);
    target.vertices = {1};
    target.positions = {{2, 0, 0}};
    m.morphs.push_back(std::move(target));
  }
  return m;
}

constexpr std::string_view kImvuXpf = R"(<?xml version="1.0"?>
<header magic="XPF" version="919"/>
<animation duration="11" numtracks="3">
  <track morphname="smile" numkeyframes="3">
    <keyframe time="2"><weight>1</weight></keyframe>
    <keyframe time="0"><weight>0</weight></keyframe>
    <keyframe time="4"><weight>0.25</weight></keyframe>
  </track>
  <track morphname="blink" numkeyframes="1">
    <keyframe time="1"><weight>0.5</weight></keyframe>
  </track>
  <track morphname="frown" numkeyframes="1">
    <keyframe time="1"><weight>1</weight></keyframe>
  </track>
</animation>
)";

TEST(Cal3dMorphAnimation, ANamedTrackDrivesThatTargetInEveryMeshHavingIt) {
  const auto part = readMorphAnimation(::marrow::testing::bytes(kImvuXpf), context("talk.xpf"));
  ASSERT_TRUE(part) << part.error().describe();
  EXPECT_EQ(part->format, "cal3d XPF 919 (morph names)");
  ASSERT_EQ(part->tracks.size(), 3u);
  EXPECT_EQ(part->tracks[0].weight.times, (std::vector<float>{0, 2, 4}));  // sorted
  EXPECT_EQ(part->tracks[0].weight.values, (std::vector<float>{0, 1, 0.25f}));
  bool sortedNote = false;
  for (const auto& d : part->diagnostics.items) sortedNote |= d.message.find("sorted") != std::string::npos;
  EXPECT_TRUE(sortedNote);

  const std::vector<Mesh> meshes = {meshWithTargets("head#0", {"blink", "smile"}),
                                    meshWithTargets("head#1", {"smile"}), meshWithTargets("hat", {})};
  const std::vector<MeshFileRange> files = {{0, 2}, {2, 1}};
  Diagnostics d;
  const Clip c = resolveMorphAnimation(*part, meshes, files, Limits{}, d);
  EXPECT_EQ(c.name, "talk");
  EXPECT_FALSE(c.wrapsToFirstKey);
  ASSERT_TRUE(trackFor(c, "head#0", "smile"));
  ASSERT_TRUE(trackFor(c, "head#1", "smile"));
  ASSERT_TRUE(trackFor(c, "head#0", "blink"));
  EXPECT_TRUE(trackFor(c, "", "frown"));  // kept, drives nothing
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_NE(d.items[0].message.find("'frown'"), std::string::npos);

  std::vector<std::vector<float>> w;
  anim::sampleMorphWeights(c, 3.0f, meshes, w);
  EXPECT_FLOAT_EQ(w[0][1], 0.625f);  // smile, halfway from 1 to 0.25
  EXPECT_FLOAT_EQ(w[1][0], 0.625f);
  EXPECT_FLOAT_EQ(w[0][0], 0.5f);    // blink held
}

// ---- binary ----

std::vector<std::byte> cpf(int version, float duration, const std::vector<std::pair<std::string, std::vector<std::pair<float, float>>>>& tracks,
                           bool numbered = false) {
  ByteWriter w;
  for (char c : std::string_view("CPF\0", 4)) w.u8(static_cast<std::uint8_t>(c));
  w.i32(version);
  w.f32(duration);
  w.i32(static_cast<std::int32_t>(tracks.size()));
  for (const auto& [name, keys] : tracks) {
    if (numbered) {
      w.i32(std::stoi(name));
    } else {
      w.i32(static_cast<std::int32_t>(name.size() + 1));
      for (char c : name) w.u8(static_cast<std::uint8_t>(c));
      w.u8(0);
    }
    w.i32(static_cast<std::int32_t>(keys.size()));
    for (const auto& [t, v] : keys) {
      w.f32(t);
      w.f32(v);
    }
  }
  return w.take();
}

TEST(Cal3dMorphAnimation, BinaryTracksByNameOrByTheForksNumber) {
  const auto named = readMorphAnimation(cpf(919, 2, {{"smile", {{0, 0}, {1, 1}}}}), context("a.cpf"));
  ASSERT_TRUE(named) << named.error().describe();
  EXPECT_EQ(named->format, "cal3d CPF 919 (morph names)");
  ASSERT_EQ(named->tracks.size(), 1u);
  EXPECT_EQ(named->tracks[0].morphName, "smile");
  EXPECT_EQ(named->tracks[0].weight.values, (std::vector<float>{0, 1}));

  const auto numbered =
      readMorphAnimation(cpf(919, 2, {{"3", {{0, 0.5f}}}, {"0", {{1, 1}}}}, true), context("b.cpf"));
  ASSERT_TRUE(numbered) << numbered.error().describe();
  EXPECT_EQ(numbered->format, "cal3d CPF 919 (morph ids)");
  ASSERT_EQ(numbered->tracks.size(), 2u);
  EXPECT_EQ(numbered->tracks[0].morphId, 3);
  EXPECT_EQ(numbered->tracks[0].meshId, -1);  // the binary states no mesh
  Diagnostics d;
  const std::vector<Mesh> meshes = {meshWithTargets("head", {"a", "b", "c", "d"})};
  const std::vector<MeshFileRange> files = {{0, 1}};
  const Clip c = resolveMorphAnimation(*numbered, meshes, files, Limits{}, d);
  ASSERT_EQ(c.morphTracks.size(), 2u);
  EXPECT_EQ(c.morphTracks[0].target, "#3");
  EXPECT_EQ(c.morphTracks[0].mesh, "");
  ASSERT_FALSE(d.items.empty());
}

TEST(Cal3dMorphAnimation, DamagedBinaryFilesFailNamingFieldAndOffset) {
  using testing::expectError;
  auto good = cpf(919, 2, {{"smile", {{0, 0}, {1, 1}}}});
  // magic 0, version 4, duration 8, trackCount 12, name length 16, "smile\0" 20, keyframeCount 26
  {
    auto b = good;
    testing::put<float>(b, 8, 0.0f);
    expectError(readMorphAnimation(b, context("a.cpf")), 8, "duration", "a.cpf");
  }
  {
    auto b = good;
    testing::put<std::int32_t>(b, 12, 1 << 30);
    expectError(readMorphAnimation(b, context("a.cpf")), 12, "trackCount", "a.cpf");
  }
  {
    auto b = good;
    testing::put<std::int32_t>(b, 26, -1);
    const auto r = readMorphAnimation(b, context("a.cpf"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().field.find("keyframeCount"), std::string::npos) << r.error().describe();
  }
  {
    auto b = good;
    testing::put<float>(b, 34, std::numeric_limits<float>::quiet_NaN());
    const auto r = readMorphAnimation(b, context("a.cpf"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().describe().find("weight"), std::string::npos) << r.error().describe();
  }
  for (std::size_t cut = 0; cut < good.size(); ++cut) {
    const std::vector<std::byte> b(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_FALSE(readMorphAnimation(b, context("a.cpf"))) << "cut at " << cut;
  }
}

TEST(Cal3dMorphAnimation, DamagedXmlFailsNamingTheElement) {
  const char* bad[] = {
      R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="1" NUMTRACKS="1"><TRACK MORPHID="-2" MESHID="0" NUMKEYFRAMES="1"><SUBMESH ID="0"/><KEYFRAME TIME="0"><WEIGHT>1</WEIGHT></KEYFRAME></TRACK></ANIMATION>)",
      R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="1" NUMTRACKS="1"><TRACK MORPHID="2" NUMKEYFRAMES="1"><SUBMESH ID="0"/><KEYFRAME TIME="0"><WEIGHT>1</WEIGHT></KEYFRAME></TRACK></ANIMATION>)",
      R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="0" NUMTRACKS="0"></ANIMATION>)",
      R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="1" NUMTRACKS="1"><TRACK MORPHNAME="a" NUMKEYFRAMES="1"><KEYFRAME TIME="0"><WEIGHT>nan</WEIGHT></KEYFRAME></TRACK></ANIMATION>)",
      R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="1" NUMTRACKS="1"><TRACK MORPHNAME="a" NUMKEYFRAMES="1"><KEYFRAME TIME="0"><WEIGHT>1</WEIGHT></KEYFRAME><SUBMESH ID="0"/></TRACK></ANIMATION>)",
  };
  for (const char* text : bad) {
    const auto r = readMorphAnimation(::marrow::testing::bytes(text), context("bad.xpf"));
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().file, "bad.xpf");
    EXPECT_FALSE(r.error().field.empty()) << r.error().describe();
  }
}

// Hostile numbers: a MESHID past the files where the only file has no meshes, submeshes named
// again and again, a track fanned out past the key limit. Nothing crashes, nothing is counted
// twice, the limit holds.
TEST(Cal3dMorphAnimation, HostileNumbersNeitherCrashNorMultiply) {
  const auto noSubmesh = readMorphAnimation(::marrow::testing::bytes(
      R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="1"><TRACK MORPHID="0" MESHID="5" NUMKEYFRAMES="1"><KEYFRAME TIME="0"><WEIGHT>1</WEIGHT></KEYFRAME></TRACK></ANIMATION>)"),
      context("a.xpf"));
  ASSERT_TRUE(noSubmesh) << noSubmesh.error().describe();
  Diagnostics d;
  const std::vector<MeshFileRange> emptyFile = {{0, 0}};
  const Clip none = resolveMorphAnimation(*noSubmesh, {}, emptyFile, Limits{}, d);
  ASSERT_EQ(none.morphTracks.size(), 1u);
  EXPECT_EQ(none.morphTracks[0].mesh, "#5");
  for (const auto& item : d.items) EXPECT_EQ(item.message.find("taken to be"), std::string::npos);

  std::string text = R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="1"><TRACK MORPHID="0" MESHID="0">)";
  for (int i = 0; i < 500; ++i) text += R"(<SUBMESH ID="0"/><SUBMESH ID="1"/>)";
  text += R"(<KEYFRAME TIME="0"><WEIGHT>1</WEIGHT></KEYFRAME><KEYFRAME TIME="1"><WEIGHT>0</WEIGHT></KEYFRAME></TRACK></ANIMATION>)";
  const auto repeated = readMorphAnimation(::marrow::testing::bytes(text), context("b.xpf"));
  ASSERT_TRUE(repeated) << repeated.error().describe();
  EXPECT_EQ(repeated->tracks[0].submeshes, (std::vector<std::int64_t>{0, 1}));

  const std::vector<Mesh> meshes = {meshWithTargets("head#0", {"smile"}), meshWithTargets("head#1", {"smile"})};
  const std::vector<MeshFileRange> files = {{0, 2}};
  Limits tight;
  tight.maxKeys = 3;  // room for one track's two keys, not for its copy
  Diagnostics d2;
  const Clip capped = resolveMorphAnimation(*repeated, meshes, files, tight, d2);
  EXPECT_EQ(capped.morphTracks.size(), 1u);
  bool said = false;
  for (const auto& item : d2.items) said |= item.message.find("limit of 3 keys") != std::string::npos;
  EXPECT_TRUE(said);
}

// A .cfg's mesh= line whose file is missing keeps its number: MESHID 1 is the second line's file.
TEST(Cal3dMorphAnimation, ACfgLinesMissingFileKeepsTheMeshNumbersAfterIt) {
  Scene s;
  s.meshes = {meshWithTargets("face", {"smile", "blink"})};
  WriteOptions o;
  o.version = 1301;
  Diagnostics d;
  const std::size_t face[] = {0};
  auto cmf = writeMesh(s, face, o, d);
  ASSERT_TRUE(cmf) << cmf.error().describe();
  const std::string xpf =
      R"(<ANIMATION MAGIC="XPF" VERSION="1300" DURATION="1"><TRACK MORPHID="1" MESHID="1" NUMKEYFRAMES="1"><SUBMESH ID="0"/><KEYFRAME TIME="0"><WEIGHT>1</WEIGHT></KEYFRAME></TRACK></ANIMATION>)";
  std::map<std::string, std::string> files = {
      {"face.cmf", std::string(reinterpret_cast<const char*>(cmf->data()), cmf->size())},
      {"talk.xpf", xpf}};
  const std::string cfg = "mesh=gone.cmf\nmesh=face.cmf\nmorphanim=talk.xpf\n";
  const auto r = readConfig(::marrow::testing::bytes(cfg), ::marrow::testing::namedWithFiles("m.cfg", files));
  ASSERT_TRUE(r) << r.error().describe();
  ASSERT_EQ(r->clips.size(), 1u);
  ASSERT_EQ(r->clips[0].morphTracks.size(), 1u);
  EXPECT_EQ(r->clips[0].morphTracks[0].mesh, "face");
  EXPECT_EQ(r->clips[0].morphTracks[0].target, "blink");
}

TEST(Cal3dMorphAnimation, TheKindIsToldByContentAndByName) {
  const auto head = [](std::string_view s) { return ::marrow::testing::bytes(s); };
  EXPECT_EQ(detectKind(cpf(919, 1, {{"a", {{0, 1}}}}), "x.bin"), FileKind::MorphAnimation);
  EXPECT_EQ(detectKind(head(kImvuXpf), "x.xml"), FileKind::MorphAnimation);
  EXPECT_EQ(detectKind(head(R"(<ANIMATION DURATION="1"><TRACK MORPHID="1" MESHID="0">)"), "x.xml"),
            FileKind::MorphAnimation);
  EXPECT_EQ(detectKind(head(R"(<ANIMATION DURATION="1"><TRACK BONEID="1">)"), "x.xml"),
            FileKind::Animation);
  EXPECT_EQ(detectKind({}, "x.XPF"), FileKind::MorphAnimation);
}

// ---- the whole model ----

TEST(Cal3dMorphAnimation, AModelWritesItsMorphAnimationAndTheCfgNamesIt) {
  Scene s;
  s.meshes = {meshWithTargets("head#0", {"blink", "smile"}), meshWithTargets("head#1", {"smile"})};
  Clip c;
  c.name = "talk";
  c.duration = 3;
  Channel<float> w;
  w.add(0, 0);
  w.add(1.5f, 1);
  c.morphTracks = {{"head#0", "smile", w}, {"head#1", "smile", w}, {"head#0", "blink", w}};
  s.clips.push_back(c);
  for (bool xml : {false, true}) {
    WriteOptions o;
    o.xml = xml;
    o.version = versionFor(s);
    ASSERT_EQ(o.version, 1301);
    Diagnostics d;
    auto files = writeModel(s, "face", o, d);
    ASSERT_TRUE(files) << files.error().describe();
    std::map<std::string, std::string> byName;
    for (const auto& f : *files)
      byName[f.name] = std::string(reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size());
    const std::string morphFile = xml ? "talk.xpf" : "talk.cpf";
    ASSERT_TRUE(byName.count(morphFile)) << "xml " << xml;
    EXPECT_EQ(byName.count("talk.caf") + byName.count("talk.xaf"), 0u);  // no bones to move
    EXPECT_NE(byName["face.cfg"].find("morphanim=" + morphFile), std::string::npos);
    const std::string cfg = byName["face.cfg"];
    auto ctx = ::marrow::testing::namedWithFiles("face.cfg", byName);
    const auto again = readConfig(::marrow::testing::bytes(cfg), ctx);
    ASSERT_TRUE(again) << again.error().describe();
    ASSERT_EQ(again->clips.size(), 1u);
    const Clip& back = again->clips[0];
    EXPECT_EQ(back.name, "talk");
    for (const auto& t : c.morphTracks) {
      const MorphTrack* m = trackFor(back, t.mesh, t.target);
      ASSERT_TRUE(m) << t.mesh << " " << t.target;
      EXPECT_EQ(m->weight.values, t.weight.values);
    }
  }
}

TEST(Cal3dMorphAnimation, VersionsBeforeMorphTargetsRefuseToWriteOne) {
  Scene s;
  s.meshes = {meshWithTargets("head", {"smile"})};
  Clip c;
  c.name = "talk";
  c.duration = 1;
  Channel<float> w;
  w.add(0, 1);
  c.morphTracks = {{"head", "smile", w}};
  s.clips.push_back(c);
  WriteOptions o;
  o.version = 1100;
  Diagnostics d;
  const auto r = writeMorphAnimation(s, 0, o, d);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("911"), std::string::npos);
}

}  // namespace
}  // namespace marrow::formats::cal3d
