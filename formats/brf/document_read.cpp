// BRF reader: tokens until "end" (§2), every record kept as the file stores it.
//
// Speed: every array of fixed-size elements is checked as a whole (count × element size against
// the bytes left, before anything is allocated) and then decoded from that span without further
// checks. Variable-size elements (rig bones, frames, tracks, polygons) check their own counts.
// Allocation stays proportional to the input: each element's minimum size on disk is passed to
// count32, and no element takes more than ~8× its minimum size in memory (Limits: 64×).
#include <algorithm>
#include <array>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "formats/brf/document.h"
#include "formats/io/byte_reader.h"

namespace marrow::formats::brf {
namespace {

// Unchecked loads from a span whose whole length was checked.
inline std::int32_t loadI32(const std::byte* p) {
  std::int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline std::uint32_t loadU32(const std::byte* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline float loadF32(const std::byte* p) {
  float v;
  std::memcpy(&v, p, 4);  // bit for bit: NaN payloads and signalling NaNs survive
  return v;
}
inline glm::vec3 loadVec3(const std::byte* p) {
  return {loadF32(p), loadF32(p + 4), loadF32(p + 8)};
}
inline glm::vec2 loadVec2(const std::byte* p) {
  return {loadF32(p), loadF32(p + 4)};
}

// A name for a message: printable ASCII kept, anything else as \xNN, long names cut.
std::string printable(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < 64; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  if (s.size() > 64) out += "...";
  return out;
}

// Room for n more records. A repeated section (§2) grows the vector geometrically: reserving
// exactly size + n for each of thousands of one-record sections would copy quadratically.
template <class T>
void makeRoom(std::vector<T>& v, std::uint32_t n) {
  if (v.capacity() - v.size() < n) v.reserve(std::max(v.size() + n, 2 * v.capacity()));
}

// Where the reader is, kept as a few plain values while reading and spelled out only when
// something fails ("mesh 3 'boots' rigging bone 2").
struct Where {
  struct Level {
    const char* label = nullptr;
    std::size_t index = 0;
  };
  const char* kind = nullptr;  // "mesh", or "mesh section" before the first record
  std::size_t index = 0;
  bool hasIndex = false;
  const std::string* name = nullptr;  // points into the record being read
  std::array<Level, 2> levels{};

  void record(const char* k, std::size_t i) {
    kind = k;
    index = i;
    hasIndex = true;
    name = nullptr;
    levels = {};
  }
  void section(const char* k) {
    kind = k;
    hasIndex = false;
    name = nullptr;
    levels = {};
  }

  std::string describe(std::string_view field) const {
    std::string s;
    if (kind) {
      s = kind;
      if (hasIndex) s += " " + std::to_string(index);
      if (name) s += " '" + printable(*name) + "'";
      for (const Level& l : levels)
        if (l.label) s += std::string(" ") + l.label + " " + std::to_string(l.index);
      if (!field.empty()) s += " ";
    }
    s += field;
    return s;
  }
};

class Reader {
 public:
  Reader(std::span<const std::byte> data, const ReadContext& ctx)
      : r_(data, ctx.name), limits_(ctx.limits), partial_(ctx.partial) {}

  Document run();
  // After run() threw: the records read completely before the damage, `damage` set.
  Document salvage(FormatError damage);
  const Where& where() const { return where_; }
  std::size_t offset() const { return r_.offset(); }

 private:
  std::string str(std::string_view field) {
    const std::uint32_t n = r_.count32(field, limits_.maxStringLength, 1);
    const auto b = r_.bytes(n, field);
    return std::string(reinterpret_cast<const char*>(b.data()), n);
  }
  std::string_view token() {
    const std::uint32_t n = r_.count32("section token length", limits_.maxStringLength, 1);
    const auto b = r_.bytes(n, "section token");
    return {reinterpret_cast<const char*>(b.data()), n};
  }
  // The next u32 without consuming it; 0 when fewer than 4 bytes are left (then the read that
  // follows reports the end of the file).
  std::uint32_t peekU32() const {
    if (r_.remaining() < 4) return 0;
    return loadU32(r_.data().data() + r_.offset());
  }
  // A counted array of fixed-size elements: the count, checked, and the span holding them all.
  std::span<const std::byte> array(std::string_view countField, std::string_view field,
                                   std::uint64_t max, std::size_t each, std::uint32_t& n) {
    n = r_.count32(countField, max, each);
    return r_.bytes(std::uint64_t{n} * each, field);
  }
  void vec3s(std::string_view countField, std::string_view field, std::uint64_t max,
             std::vector<glm::vec3>& out) {
    std::uint32_t n;
    const std::byte* p = array(countField, field, max, 12, n).data();
    out.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) out[i] = loadVec3(p + 12 * std::size_t{i});
  }

  void version();
  void textures(std::uint32_t n);
  void shaders(std::uint32_t n);
  void materials(std::uint32_t n);
  void meshes(std::uint32_t n);
  void mesh(Mesh& m);
  void vertices(Mesh& m);
  void skeletons(std::uint32_t n);
  void animations(std::uint32_t n);
  void bodies(std::uint32_t n);
  void bodyPart(BodyPart& part, std::size_t kindAt);

  ByteReader r_;
  const Limits& limits_;
  Where where_;
  Document doc_;
  bool seenMesh_ = false;
  bool partial_ = false;          // ReadContext::partial: salvage() follows a failure
  bool inSection_ = false;        // reading the records of doc_.order.back()
  std::size_t sectionStart_ = 0;  // how many records of its kind there were before it
};

// §2: the section tokens; "rfver " and "end" are handled before.
bool sectionOf(std::string_view token, Section& s) {
  static constexpr std::array<std::pair<std::string_view, Section>, 7> kTokens{{
      {"texture", Section::Texture},
      {"shader", Section::Shader},
      {"material", Section::Material},
      {"mesh", Section::Mesh},
      {"skeleton", Section::Skeleton},
      {"skeleton_anim", Section::Animation},
      {"body", Section::Body},
  }};
  for (const auto& [name, kind] : kTokens)
    if (token == name) {
      s = kind;
      return true;
    }
  return false;
}

// Smallest bytes a record of each kind takes, for count32.
std::uint64_t minRecordBytes(Section s) {
  switch (s) {
    case Section::Texture: return 8;     // name, flags
    case Section::Shader: return 24;     // name, flags, requires, technique, 2 counts
    case Section::Material: return 44;   // 6 strings (spec optional), 4 floats
    case Section::Mesh: return 32;       // 2 strings, flags, 5 counts
    case Section::Skeleton: return 8;    // name, bone count
    case Section::Animation: return 12;  // name, 2 counts
    case Section::Body: return 20;       // name, "face", its position count and flags
  }
  return 1;
}

Document Reader::run() {
  for (;;) {
    where_.section(nullptr);
    const std::size_t at = r_.offset();
    const std::string_view tok = token();
    if (tok == "end") break;
    if (tok == "rfver ") {
      where_.section("rfver");
      if (doc_.hasVersionToken) r_.failAt(at, "token", "the version token comes twice (§3)");
      if (seenMesh_)
        r_.failAt(at, "token",
                  "the version token follows a mesh section; the meshes before it have no "
                  "defined vertex layout (§3)");
      doc_.version = r_.i32("version");  // before the token counts: a file cut here has none
      doc_.hasVersionToken = true;
      doc_.versionTokenAt = doc_.order.size();
      continue;
    }
    Section kind;
    if (!sectionOf(tok, kind))
      r_.failAt(at, "section token",
                "unknown token '" + printable(tok) +
                    "' (§2: rfver, texture, shader, material, mesh, skeleton, skeleton_anim, "
                    "body or end)");
    where_.section(sectionToken(kind));
    std::uint64_t max = limits_.maxMeshes;
    if (kind == Section::Animation) max = limits_.maxClips;
    const std::size_t countAt = r_.offset();
    const std::uint32_t declared = r_.count32("record count", max, partial_ ? 0 : minRecordBytes(kind));
    // Read in part: as many records as can fit in what is left, the last of which the damage
    // is likely in (salvage leaves it out).
    const std::uint32_t n =
        partial_ ? static_cast<std::uint32_t>(std::min<std::uint64_t>(declared, r_.remaining() / minRecordBytes(kind)))
                 : declared;
    doc_.order.push_back({kind, n});
    sectionStart_ = recordCount(doc_, kind);
    inSection_ = true;
    switch (kind) {
      case Section::Texture: textures(n); break;
      case Section::Shader: shaders(n); break;
      case Section::Material: materials(n); break;
      case Section::Mesh: meshes(n); break;
      case Section::Skeleton: skeletons(n); break;
      case Section::Animation: animations(n); break;
      case Section::Body: bodies(n); break;
    }
    inSection_ = false;
    if (n < declared) {  // read in part, and every record that fitted was whole: the file ends here
      if (n == 0) doc_.order.pop_back();
      where_.section(sectionToken(kind));
      r_.failAt(countAt, "record count",
                "is " + std::to_string(declared) + " but the file ends after " + std::to_string(n) + " of them");
    }
  }
  // Kept, not refused: the game stops at "end" (Document::trailing).
  const auto rest = r_.bytes(r_.remaining(), "trailing bytes");
  doc_.trailing.assign(rest.begin(), rest.end());
  return std::move(doc_);
}

Document Reader::salvage(FormatError damage) {
  if (inSection_ && !doc_.order.empty()) {
    SectionSpan& span = doc_.order.back();
    const auto drop = [](auto& records, std::size_t keep) {
      if (records.size() > keep) records.resize(keep);
    };
    // Records are added as they start: the last one started is the one the damage is in.
    const std::size_t started = recordCount(doc_, span.kind) - sectionStart_;
    const std::size_t keep = sectionStart_ + (started > 0 ? started - 1 : 0);
    switch (span.kind) {
      case Section::Texture: drop(doc_.textures, keep); break;
      case Section::Shader: drop(doc_.shaders, keep); break;
      case Section::Material: drop(doc_.materials, keep); break;
      case Section::Mesh: drop(doc_.meshes, keep); break;
      case Section::Skeleton: drop(doc_.skeletons, keep); break;
      case Section::Animation: drop(doc_.animations, keep); break;
      case Section::Body: drop(doc_.bodies, keep); break;
    }
    span.count = static_cast<std::uint32_t>(keep - sectionStart_);
    if (span.count == 0) doc_.order.pop_back();
  }
  doc_.damage = std::move(damage);
  return std::move(doc_);
}

void Reader::textures(std::uint32_t n) {  // §4
  auto& v = doc_.textures;
  makeRoom(v, n);  // also keeps `where_.name` valid while the section is read
  for (std::uint32_t i = 0; i < n; ++i) {
    where_.record("texture", v.size());
    Texture& t = v.emplace_back();
    t.name = str("name");
    where_.name = &t.name;
    t.flags = r_.u32("flags");
  }
}

void Reader::shaders(std::uint32_t n) {  // §5
  auto& v = doc_.shaders;
  makeRoom(v, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    where_.record("shader", v.size());
    Shader& s = v.emplace_back();
    s.name = str("name");
    where_.name = &s.name;
    s.flags = r_.u32("flags");
    s.requirements = r_.u32("requires");
    s.technique = str("technique");
    const std::size_t at = r_.offset();
    const std::uint32_t fallbacks = r_.u32("fallback count");
    if (fallbacks > 1)
      r_.failAt(at, "fallback count", "is " + std::to_string(fallbacks) + "; only 0 or 1 (§5)");
    if (fallbacks == 1) s.fallback = str("fallback");
    std::uint32_t count;
    const std::byte* p = array("stage count", "stages", limits_.maxMeshes, 16, count).data();
    s.stages.resize(count);
    for (std::uint32_t k = 0; k < count; ++k, p += 16)
      s.stages[k] = ShaderStage{loadI32(p), loadU32(p + 4), loadU32(p + 8), loadU32(p + 12)};
  }
}

void Reader::materials(std::uint32_t n) {  // §6
  auto& v = doc_.materials;
  makeRoom(v, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    where_.record("material", v.size());
    Material& m = v.emplace_back();
    m.name = str("name");
    where_.name = &m.name;
    m.flags = r_.u32("flags");
    m.shader = str("shader");
    m.diffuseA = str("diffuseA");
    m.diffuseB = str("diffuseB");
    m.bump = str("bump");
    m.enviro = str("enviro");
    // §6: OpenBRF peeks; 0 < u32 < 99 is the spec-map string's length, anything else is the
    // coefficient that follows an absent one.
    if (const std::uint32_t peek = peekU32(); peek > 0 && peek < 99) m.spec = str("spec");
    m.specularCoefficient = r_.f32("specular coefficient");
    const auto b = r_.bytes(12, "specular");
    m.specular = loadVec3(b.data());
  }
}

void Reader::meshes(std::uint32_t n) {  // §7
  auto& v = doc_.meshes;
  makeRoom(v, n);
  seenMesh_ = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    where_.record("mesh", v.size());
    mesh(v.emplace_back());
  }
}

void Reader::mesh(Mesh& m) {
  m.name = str("name");
  where_.name = &m.name;
  m.flags = r_.u32("flags");
  m.material = str("material");
  vec3s("position count", "positions", limits_.maxVertices, m.positions);  // §7.1

  // §7.2: per bone, pairs of (position index, weight).
  const std::uint32_t rigBones = r_.count32("rigging count", limits_.maxBones, 8);
  m.rigging.resize(rigBones);
  for (std::uint32_t b = 0; b < rigBones; ++b) {
    where_.levels[0] = {"rigging bone", b};
    RigBone& rb = m.rigging[b];
    rb.bone = r_.i32("bone index");
    std::uint32_t pairs;
    const std::byte* p = array("pair count", "pairs", limits_.maxVertices, 8, pairs).data();
    rb.pairs.resize(pairs);
    for (std::uint32_t k = 0; k < pairs; ++k, p += 8)
      rb.pairs[k] = RigPair{loadI32(p), loadF32(p + 4)};
  }
  where_.levels[0] = {};

  // §7.3: the stored frames, frame 0 not among them.
  const std::uint32_t frames = r_.count32("frame count", limits_.maxKeys, 12);
  m.frames.resize(frames);
  for (std::uint32_t f = 0; f < frames; ++f) {
    where_.levels[0] = {"frame", f};
    VertexFrame& fr = m.frames[f];
    fr.time = r_.i32("time");
    vec3s("position count", "positions", limits_.maxVertices, fr.positions);
    vec3s("normal count", "normals", limits_.maxVertices, fr.normals);
  }
  where_.levels[0] = {};

  vertices(m);

  std::uint32_t faces;  // §7.6
  const std::byte* p = array("face count", "faces", limits_.maxTriangles, 12, faces).data();
  m.faces.resize(faces);
  for (std::uint32_t f = 0; f < faces; ++f, p += 12)
    m.faces[f] = {loadI32(p), loadI32(p + 4), loadI32(p + 8)};
}

void Reader::vertices(Mesh& m) {  // §7.5: one loop per layout
  const VertexLayout layout = layoutOf(m, doc_.version);
  const std::size_t each = vertexBytes(layout);
  std::uint32_t n;
  const std::byte* p = array("vertex count", "vertices", limits_.maxVertices, each, n).data();
  m.vertices.resize(n);
  Vertex* out = m.vertices.data();
  switch (layout) {
    case VertexLayout::A_1011:
      for (std::uint32_t i = 0; i < n; ++i, p += 36) {
        Vertex& v = out[i];
        v.position = loadI32(p);
        v.color = loadU32(p + 4);
        v.normal = loadVec3(p + 8);
        v.uv = loadVec2(p + 20);
        v.uv2 = loadVec2(p + 28);
      }
      break;
    case VertexLayout::B_WarbandTangent:
      for (std::uint32_t i = 0; i < n; ++i, p += 41) {
        Vertex& v = out[i];
        v.position = loadI32(p);
        v.color = loadU32(p + 4);
        v.normal = loadVec3(p + 8);
        v.tangent = loadVec3(p + 20);
        v.bitangentSign = static_cast<std::uint8_t>(p[32]);
        v.uv = loadVec2(p + 33);
      }
      break;
    case VertexLayout::C_Warband:
      for (std::uint32_t i = 0; i < n; ++i, p += 28) {
        Vertex& v = out[i];
        v.position = loadI32(p);
        v.color = loadU32(p + 4);
        v.normal = loadVec3(p + 8);
        v.uv = loadVec2(p + 20);
      }
      break;
  }
}

void Reader::skeletons(std::uint32_t n) {  // §8
  auto& v = doc_.skeletons;
  makeRoom(v, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    where_.record("skeleton", v.size());
    Skeleton& s = v.emplace_back();
    s.name = str("name");
    where_.name = &s.name;
    const std::uint32_t bones = r_.count32("bone count", limits_.maxBones, 52);
    s.bones.resize(bones);
    for (std::uint32_t b = 0; b < bones; ++b) {
      where_.levels[0] = {"bone", b};
      Bone& bone = s.bones[b];
      bone.parent = r_.i32("parent");
      // §8 note: a u32 outside 1..98 after the parent is the matrix of a bone with no name.
      if (const std::uint32_t peek = peekU32(); peek > 0 && peek < 99) {
        bone.name = str("name");
        bone.unused = r_.i32("unused");
      } else {
        bone.hasName = false;
      }
      const std::byte* p = r_.bytes(48, "matrix").data();
      for (std::size_t k = 0; k < 12; ++k) bone.m[k] = loadF32(p + 4 * k);
    }
  }
}

void Reader::animations(std::uint32_t n) {  // §9
  auto& v = doc_.animations;
  makeRoom(v, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    where_.record("skeleton_anim", v.size());
    Animation& a = v.emplace_back();
    a.name = str("name");
    where_.name = &a.name;
    const std::uint32_t tracks = r_.count32("track count", limits_.maxBones, 4);
    a.tracks.resize(tracks);
    for (std::uint32_t t = 0; t < tracks; ++t) {
      where_.levels[0] = {"track", t};
      std::uint32_t keys;
      const std::byte* p = array("key count", "keys", limits_.maxKeys, 20, keys).data();
      auto& track = a.tracks[t];
      track.resize(keys);
      for (std::uint32_t k = 0; k < keys; ++k, p += 20) {
        RotKey& key = track[k];
        key.time = loadI32(p);
        // x, y, z, w on disk; set by component (glm's constructor takes w first).
        key.rotation.x = loadF32(p + 4);
        key.rotation.y = loadF32(p + 8);
        key.rotation.z = loadF32(p + 12);
        key.rotation.w = loadF32(p + 16);
      }
    }
    where_.levels[0] = {};
    std::uint32_t keys;
    const std::byte* p =
        array("translation count", "translations", limits_.maxKeys, 16, keys).data();
    a.translations.resize(keys);
    for (std::uint32_t k = 0; k < keys; ++k, p += 16)
      a.translations[k] = TransKey{loadI32(p), loadVec3(p + 4)};
  }
}

void Reader::bodies(std::uint32_t n) {  // §10
  auto& v = doc_.bodies;
  makeRoom(v, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    where_.record("body", v.size());
    Body& body = v.emplace_back();
    body.name = str("name");
    where_.name = &body.name;
    const std::size_t kindAt = r_.offset();
    std::string kind = str("kind");
    if (kind != "composite") {
      BodyPart& part = body.parts.emplace_back();
      part.kind = std::move(kind);
      bodyPart(part, kindAt);
      continue;
    }
    body.composite = true;
    const std::uint32_t parts = r_.count32("part count", limits_.maxTriangles, 16);
    body.parts.resize(parts);
    for (std::uint32_t k = 0; k < parts; ++k) {
      where_.levels[0] = {"part", k};
      const std::size_t at = r_.offset();
      body.parts[k].kind = str("kind");
      bodyPart(body.parts[k], at);
    }
  }
}

void Reader::bodyPart(BodyPart& part, std::size_t kindAt) {
  auto vec3At = [&](std::string_view field) { return loadVec3(r_.bytes(12, field).data()); };
  if (part.kind == "manifold") {
    vec3s("position count", "positions", limits_.maxVertices, part.positions);
    const std::uint32_t polys = r_.count32("polygon count", limits_.maxTriangles, 12);
    part.polygons.resize(polys);
    for (std::uint32_t k = 0; k < polys; ++k) {
      where_.levels[1] = {"polygon", k};
      Polygon& poly = part.polygons[k];
      poly.ori = r_.i32("ori");
      poly.flags = r_.u32("flags");
      std::uint32_t count;
      const std::byte* p = array("index count", "indices", limits_.maxVertices, 4, count).data();
      poly.positions.resize(count);
      for (std::uint32_t j = 0; j < count; ++j) poly.positions[j] = loadI32(p + 4 * std::size_t{j});
    }
    where_.levels[1] = {};
  } else if (part.kind == "face") {
    vec3s("position count", "positions", limits_.maxVertices, part.positions);
    part.flags = r_.u32("flags");
  } else if (part.kind == "sphere") {
    part.radius = r_.f32("radius");
    part.a = vec3At("centre");
    part.flags = r_.u32("flags");
  } else if (part.kind == "capsule") {
    part.radius = r_.f32("radius");
    part.a = vec3At("a");
    part.b = vec3At("b");
    part.flags = r_.u32("flags");
  } else {
    // Case-sensitive as OpenBRF; "composite" inside a composite was never seen and is refused.
    r_.failAt(kindAt, "kind",
              "unknown body part kind '" + printable(part.kind) +
                  "' (§10: manifold, face, sphere, capsule, or composite at the top)");
  }
}

}  // namespace

Result<Document> parse(std::span<const std::byte> data, const ReadContext& ctx) {
  Reader reader(data, ctx);
  try {
    return reader.run();
  } catch (const FormatException& e) {
    FormatError error = e.error();
    error.field = reader.where().describe(error.field);
    if (ctx.partial) return reader.salvage(std::move(error));
    return error;
  } catch (const std::bad_alloc&) {
    return FormatError{ctx.name, reader.where().describe(""), reader.offset(),
                       "ran out of memory while reading"};
  } catch (const std::length_error&) {
    return FormatError{ctx.name, reader.where().describe(""), reader.offset(),
                       "a count is too large to hold in memory"};
  }
}

}  // namespace marrow::formats::brf
