// The Scene snapshot (snapshot.h). Writer and reader name every member of every struct of the
// model through structured bindings: a member added to scene.h makes both fail to compile
// ("N names provided for structured binding") until the snapshot carries it too.
#include "formats/snapshot/snapshot.h"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "formats/io/byte_reader.h"
#include "formats/io/byte_writer.h"
#include "formats/io/guarded.h"
#include "formats/model/validate.h"

namespace marrow::formats {
namespace {

constexpr char kMagic[8] = {'M', 'R', 'W', 'S', 'C', 'E', 'N', 'E'};
constexpr std::uint8_t kKindScene = 0;
constexpr std::uint8_t kKindError = 1;
// A text of the model (a name, a diagnostic, a material property) is never near this long; the
// cap only bounds what one length field can ask for.
constexpr std::uint64_t kMaxString = 1ull << 24;
constexpr std::uint64_t kAny = std::numeric_limits<std::uint32_t>::max();

// Arrays of these are written and read as their bytes (host is little-endian, byte_reader.cpp):
// plain floats and integers, so the copy is the value bit for bit. Quaternions never are.
template <class T>
constexpr bool kPlain = std::is_trivially_copyable_v<T> &&
                        (std::is_arithmetic_v<T> || std::is_same_v<T, glm::vec2> ||
                         std::is_same_v<T, glm::vec3> || std::is_same_v<T, glm::vec4> ||
                         std::is_same_v<T, glm::mat4>);
static_assert(sizeof(glm::vec2) == 8 && sizeof(glm::vec3) == 12 && sizeof(glm::vec4) == 16 &&
              sizeof(glm::mat4) == 64);

// ---------------------------------------------------------------------------------------------
// Writer

class Out {
 public:
  ByteWriter w;

  void count(std::size_t n) {
    if (n > kAny) throw std::length_error("a model vector of 2^32 or more elements");
    w.u32(static_cast<std::uint32_t>(n));
  }
  void boolean(bool b) { w.u8(b ? 1 : 0); }
  void str(const std::string& s) {
    count(s.size());
    w.raw(std::as_bytes(std::span(s.data(), s.size())));
  }
  void vec(const glm::vec3& v) { w.raw(std::as_bytes(std::span(&v, 1))); }
  void vec(const glm::vec4& v) { w.raw(std::as_bytes(std::span(&v, 1))); }
  void mat(const glm::mat4& m) { w.raw(std::as_bytes(std::span(&m, 1))); }
  void quat(const glm::quat& q) {
    w.f32(q.x);
    w.f32(q.y);
    w.f32(q.z);
    w.f32(q.w);
  }
  template <class T>
  void plain(const std::vector<T>& v) {
    static_assert(kPlain<T>);
    count(v.size());
    w.raw(std::as_bytes(std::span(v)));
  }
  template <class T, class Fn>
  void each(const std::vector<T>& v, Fn&& fn) {
    count(v.size());
    for (const T& e : v) fn(e);
  }
};

template <class T>
void writeChannel(Out& o, const Channel<T>& c) {
  const auto& [times, values, interpolation] = c;
  o.plain(times);
  if constexpr (std::is_same_v<T, glm::quat>)
    o.each(values, [&](const glm::quat& q) { o.quat(q); });
  else
    o.plain(values);
  o.w.u8(static_cast<std::uint8_t>(interpolation));
}

void writeMesh(Out& o, const Mesh& m) {
  const auto& [name, positions, normals, tangents, uvSets, colors, influenceStart, influences,
               indices, material, materialSlot, parentBone, inverseBind, morphs, lod, springs,
               physicalWeights] = m;
  o.str(name);
  o.plain(positions);
  o.plain(normals);
  o.plain(tangents);
  o.each(uvSets, [&](const std::vector<glm::vec2>& set) { o.plain(set); });
  o.plain(colors);
  o.plain(influenceStart);
  o.each(influences, [&](const Influence& i) {
    const auto& [bone, weight] = i;
    o.w.u32(bone);
    o.w.f32(weight);
  });
  o.plain(indices);
  o.w.i32(material);
  o.w.i32(materialSlot);
  o.w.i32(parentBone);
  o.plain(inverseBind);
  o.each(morphs, [&](const MorphTarget& t) {
    const auto& [tName, tVertices, tPositions, tNormals, tUvSets] = t;
    o.str(tName);
    o.plain(tVertices);
    o.plain(tPositions);
    o.plain(tNormals);
    o.each(tUvSets, [&](const std::vector<glm::vec2>& set) { o.plain(set); });
  });
  const auto& [collapsible, collapseTo, faceCollapseCount] = lod;
  o.w.u32(collapsible);
  o.plain(collapseTo);
  o.plain(faceCollapseCount);
  o.each(springs, [&](const Spring& s) {
    const auto& [a, b, coefficient, idleLength] = s;
    o.w.u32(a);
    o.w.u32(b);
    o.w.f32(coefficient);
    o.w.f32(idleLength);
  });
  o.plain(physicalWeights);
}

void writeSkeleton(Out& o, const Skeleton& s) {
  const auto& [name, bones, inverseBind, inverseBindParts] = s;
  o.str(name);
  o.each(bones, [&](const Bone& b) {
    const auto& [bName, parent, translation, rotation, scale] = b;
    o.str(bName);
    o.w.i32(parent);
    o.vec(translation);
    o.quat(rotation);
    o.vec(scale);
  });
  o.plain(inverseBind);
  o.each(inverseBindParts, [&](const RigidParts& p) {
    const auto& [translation, rotation] = p;
    o.vec(translation);
    o.quat(rotation);
  });
}

void writeClip(Out& o, const Clip& c) {
  const auto& [name, duration, frameRate, tracks, wrapsToFirstKey, morphTracks, skeleton,
               frameIndexed, sourceFrames, loops, group] = c;
  o.str(name);
  o.w.f32(duration);
  o.w.f32(frameRate);
  o.each(tracks, [&](const Track& t) {
    const auto& [bone, sourceIndex, translation, rotation, scale] = t;
    o.str(bone);
    o.w.i32(sourceIndex);
    writeChannel(o, translation);
    writeChannel(o, rotation);
    writeChannel(o, scale);
  });
  o.boolean(wrapsToFirstKey);
  o.each(morphTracks, [&](const MorphTrack& t) {
    const auto& [mesh, target, weight] = t;
    o.str(mesh);
    o.str(target);
    writeChannel(o, weight);
  });
  o.str(skeleton);
  o.boolean(frameIndexed);
  o.boolean(sourceFrames.has_value());
  o.w.i32(sourceFrames ? sourceFrames->first : 0);
  o.w.i32(sourceFrames ? sourceFrames->last : 0);
  o.w.u8(loops ? (*loops ? 2 : 1) : 0);
  o.str(group);
}

void writeMaterial(Out& o, const Material& m) {
  const auto& [name, diffuse, ambient, specular, shininess, diffuseAlphaIsOpacity, maps,
               properties] = m;
  o.str(name);
  o.vec(diffuse);
  o.vec(ambient);
  o.vec(specular);
  o.w.f32(shininess);
  o.boolean(diffuseAlphaIsOpacity);
  o.each(maps, [&](const MaterialMap& map) {
    const auto& [kind, texture, uvSet, label] = map;
    o.str(kind);
    o.w.i32(texture);
    o.w.i32(uvSet);
    o.str(label);
  });
  o.each(properties, [&](const MaterialProperty& p) {
    const auto& [pName, value] = p;
    o.str(pName);
    o.str(value);
  });
}

void writeTexture(Out& o, const Texture& t) {
  const auto& [name, path, data, embedded] = t;
  o.str(name);
  o.str(path);
  o.w.u64(data.size());
  o.w.raw(data);
  o.boolean(embedded);
}

void writeBody(Out& o, const Body& b) {
  const auto& [name, parts] = b;
  o.str(name);
  o.each(parts, [&](const BodyPart& p) {
    const auto& [kind, positions, polygons, radius, a, b2, flags] = p;
    o.w.u8(static_cast<std::uint8_t>(kind));
    o.plain(positions);
    o.each(polygons, [&](const std::vector<std::uint32_t>& polygon) { o.plain(polygon); });
    o.w.f32(radius);
    o.vec(a);
    o.vec(b2);
    o.w.u32(flags);
  });
}

void writeTable(Out& o, const Table& t) {
  const auto& [name, columns, rowIds, rows] = t;
  o.str(name);
  o.each(columns, [&](const TableColumn& c) {
    const auto& [cName, type] = c;
    o.str(cName);
    o.w.u8(type);
  });
  o.plain(rowIds);
  o.each(rows, [&](const std::vector<TableCell>& row) {
    o.each(row, [&](const TableCell& cell) {
      o.w.u8(static_cast<std::uint8_t>(cell.index()));
      if (const auto* i = std::get_if<std::int32_t>(&cell)) o.w.i32(*i);
      if (const auto* f = std::get_if<float>(&cell)) o.w.f32(*f);
      if (const auto* s = std::get_if<std::string>(&cell)) o.str(*s);
    });
  });
}

void writeDiagnostics(Out& o, const Diagnostics& d) {
  const auto& [items] = d;
  o.each(items, [&](const Diagnostic& item) {
    const auto& [severity, file, field, offset, message] = item;
    o.w.u8(static_cast<std::uint8_t>(severity));
    o.str(file);
    o.str(field);
    o.w.u64(offset);
    o.str(message);
  });
}

void writeHeader(Out& o, std::uint8_t kind) {
  o.w.raw(std::as_bytes(std::span(kMagic)));
  o.w.u32(kSnapshotVersion);
  o.w.u8(kind);
}

// ---------------------------------------------------------------------------------------------
// Reader. Every count is checked against the bytes left, with the fewest bytes one element of
// it occupies, before the vector is sized: an element takes at most 8 times its smallest
// encoding in memory (a std::string behind its u32 length), and vectors nest three deep before
// plain arrays, which are read only once their bytes are there; so a snapshot of N bytes makes
// the reader allocate under 32·N, half Limits::allocationFactor.

class In {
 public:
  In(std::span<const std::byte> data, const ReadContext& ctx) : r_(data, ctx.name), limits_(ctx.limits) {}

  ByteReader r_;
  const Limits& limits_;

  // Field names say where they are: "mesh 2: normals count".
  struct Scope {
    In& in;
    std::string saved;
    Scope(In& i, const std::string& what) : in(i), saved(i.where_) {
      in.where_ = saved.empty() ? what : saved + ", " + what;
    }
    ~Scope() { in.where_ = std::move(saved); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
  };
  Scope scope(std::string_view what, std::size_t index) {
    return Scope(*this, std::string(what) + " " + std::to_string(index));
  }
  std::string field(std::string_view what) const {
    return where_.empty() ? std::string(what) : where_ + ": " + std::string(what);
  }

  // A u32 count (or length) named `f`, checked before anything is allocated for it.
  std::uint32_t count(const std::string& f, std::uint64_t minBytesEach, std::uint64_t max) {
    const std::size_t at = r_.offset();
    const std::uint32_t n = r_.u32(f);
    r_.checkCount(n, f, max, minBytesEach, at);
    return n;
  }
  std::uint8_t u8(std::string_view what) { return r_.u8(field(what)); }
  std::uint32_t u32(std::string_view what) { return r_.u32(field(what)); }
  std::int32_t i32(std::string_view what) { return r_.i32(field(what)); }
  float f32(std::string_view what) { return r_.f32(field(what)); }
  bool boolean(std::string_view what) {
    const std::size_t at = r_.offset();
    const std::uint8_t v = u8(what);
    if (v > 1) r_.failAt(at, field(what), "is " + std::to_string(v) + ", not 0 or 1");
    return v == 1;
  }
  // An enumeration stored as a byte: 0 … last.
  template <class E>
  E enumeration(std::string_view what, std::uint8_t last) {
    const std::size_t at = r_.offset();
    const std::uint8_t v = u8(what);
    if (v > last)
      r_.failAt(at, field(what),
                "is " + std::to_string(v) + ", past the last value " + std::to_string(last));
    return static_cast<E>(v);
  }
  std::string str(std::string_view what) {
    const std::uint32_t n = count(field(what) + " length", 1, kMaxString);
    const auto b = r_.bytes(n, field(what));
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }
  template <class T>
  T fixed(std::string_view what) {
    static_assert(kPlain<T>);
    const auto b = r_.bytes(sizeof(T), field(what));
    T v;
    std::memcpy(&v, b.data(), sizeof(T));
    return v;
  }
  glm::quat quat(std::string_view what) {
    glm::quat q;
    q.x = f32(what);
    q.y = f32(what);
    q.z = f32(what);
    q.w = f32(what);
    return q;
  }
  template <class T>
  void plain(std::vector<T>& v, std::string_view what, std::uint64_t max = kAny) {
    static_assert(kPlain<T>);
    const std::uint32_t n = count(field(what) + " count", sizeof(T), max);
    const auto b = r_.bytes(std::uint64_t{n} * sizeof(T), field(what));
    v.resize(n);
    if (n) std::memcpy(v.data(), b.data(), b.size());
  }
  template <class T, class Fn>
  void each(std::vector<T>& v, std::string_view what, std::uint64_t minBytesEach, Fn&& fn,
            std::uint64_t max = kAny) {
    const std::uint32_t n = count(field(what) + " count", minBytesEach, max);
    v.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) fn(v[i], i);
  }

 private:
  std::string where_;
};

// The fewest bytes each element takes (its counts and lengths, with nothing after them).
constexpr std::uint64_t kMinString = 4;
constexpr std::uint64_t kMinChannel = 4 + 4 + 1;
constexpr std::uint64_t kMinMorph = kMinString + 4 * 4;
// name; positions … influence rows; influences, indices; material, slot, parent bone; inverse
// binds, morphs; lod; springs, physical weights.
constexpr std::uint64_t kMinMesh = kMinString + 6 * 4 + 2 * 4 + 3 * 4 + 2 * 4 + 3 * 4 + 2 * 4;
constexpr std::uint64_t kMinBone = kMinString + 4 + 12 + 16 + 12;
constexpr std::uint64_t kMinTrack = kMinString + 4 + 3 * kMinChannel;
constexpr std::uint64_t kMinMorphTrack = 2 * kMinString + kMinChannel;
constexpr std::uint64_t kMinClip = kMinString + 4 + 4 + 4 + 1 + 4 + kMinString + 1 + 1 + 8 + 1 + kMinString;
constexpr std::uint64_t kMinAction = kMinString + 4 + 4 + 4;
constexpr std::uint64_t kMinSequence = 4 + kMinString + 4 + 4 + 4 + 4 + 12 + 4 + kMinString;
constexpr std::uint64_t kMinMap = kMinString + 4 + 4 + kMinString;
constexpr std::uint64_t kMinMaterial = kMinString + 3 * 16 + 4 + 1 + 4 + 4;
constexpr std::uint64_t kMinTexture = 2 * kMinString + 8 + 1;
constexpr std::uint64_t kMinBodyPart = 1 + 4 + 4 + 4 + 12 + 12 + 4;
constexpr std::uint64_t kMinCell = 1 + 4;
constexpr std::uint64_t kMinTable = kMinString + 4 + 4 + 4;
constexpr std::uint64_t kMinDiagnostic = 1 + 3 * kMinString + 8;

template <class T>
void readChannel(In& in, Channel<T>& c, std::string_view what) {
  auto& [times, values, interpolation] = c;
  const auto scope = In::Scope(in, std::string(what));
  in.plain(times, "times", in.limits_.maxKeys);
  if constexpr (std::is_same_v<T, glm::quat>)
    in.each(values, "values", 16, [&](glm::quat& q, std::size_t) { q = in.quat("value"); },
            in.limits_.maxKeys);
  else
    in.plain(values, "values", in.limits_.maxKeys);
  interpolation = in.enumeration<Interpolation>("interpolation", 1);
}

void readUvSets(In& in, std::vector<std::vector<glm::vec2>>& sets, std::uint64_t maxEach) {
  in.each(sets, "uv sets", 4, [&](std::vector<glm::vec2>& set, std::size_t i) {
    const auto scope = in.scope("uv set", i);
    in.plain(set, "uvs", maxEach);
  });
}

void readMesh(In& in, Mesh& m) {
  auto& [name, positions, normals, tangents, uvSets, colors, influenceStart, influences, indices,
         material, materialSlot, parentBone, inverseBind, morphs, lod, springs, physicalWeights] = m;
  const std::uint64_t maxVertices = in.limits_.maxVertices;
  name = in.str("name");
  in.plain(positions, "positions", maxVertices);
  in.plain(normals, "normals", maxVertices);
  in.plain(tangents, "tangents", maxVertices);
  readUvSets(in, uvSets, maxVertices);
  in.plain(colors, "colours", maxVertices);
  in.plain(influenceStart, "influence rows", maxVertices + 1);
  in.each(influences, "influences", 8, [&](Influence& i, std::size_t) {
    auto& [bone, weight] = i;
    bone = in.u32("influence bone");
    weight = in.f32("influence weight");
  });
  in.plain(indices, "indices", 3 * in.limits_.maxTriangles);
  material = in.i32("material");
  materialSlot = in.i32("material slot");
  parentBone = in.i32("parent bone");
  in.plain(inverseBind, "inverse binds", in.limits_.maxBones);
  in.each(morphs, "morph targets", kMinMorph, [&](MorphTarget& t, std::size_t k) {
    auto& [tName, tVertices, tPositions, tNormals, tUvSets] = t;
    const auto scope = in.scope("morph target", k);
    tName = in.str("name");
    in.plain(tVertices, "vertices", maxVertices);
    in.plain(tPositions, "positions", maxVertices);
    in.plain(tNormals, "normals", maxVertices);
    readUvSets(in, tUvSets, maxVertices);
  });
  auto& [collapsible, collapseTo, faceCollapseCount] = lod;
  collapsible = in.u32("lod collapsible");
  in.plain(collapseTo, "lod collapse targets", maxVertices);
  in.plain(faceCollapseCount, "lod face collapse counts", maxVertices);
  in.each(springs, "springs", 16, [&](Spring& s, std::size_t) {
    auto& [a, b, coefficient, idleLength] = s;
    a = in.u32("spring vertex");
    b = in.u32("spring vertex");
    coefficient = in.f32("spring coefficient");
    idleLength = in.f32("spring idle length");
  });
  in.plain(physicalWeights, "physical weights", maxVertices);
}

void readSkeleton(In& in, Skeleton& s) {
  auto& [name, bones, inverseBind, inverseBindParts] = s;
  const auto scope = In::Scope(in, "skeleton");
  name = in.str("name");
  in.each(bones, "bones", kMinBone, [&](Bone& b, std::size_t i) {
    auto& [bName, parent, translation, rotation, scale] = b;
    const auto boneScope = in.scope("bone", i);
    bName = in.str("name");
    parent = in.i32("parent");
    translation = in.fixed<glm::vec3>("translation");
    rotation = in.quat("rotation");
    scale = in.fixed<glm::vec3>("scale");
  }, in.limits_.maxBones);
  in.plain(inverseBind, "inverse binds", in.limits_.maxBones);
  in.each(inverseBindParts, "inverse bind parts", 28, [&](RigidParts& p, std::size_t) {
    auto& [translation, rotation] = p;
    translation = in.fixed<glm::vec3>("inverse bind translation");
    rotation = in.quat("inverse bind rotation");
  }, in.limits_.maxBones);
}

void readClip(In& in, Clip& c) {
  auto& [name, duration, frameRate, tracks, wrapsToFirstKey, morphTracks, skeleton, frameIndexed,
         sourceFrames, loops, group] = c;
  name = in.str("name");
  duration = in.f32("duration");
  frameRate = in.f32("frame rate");
  in.each(tracks, "tracks", kMinTrack, [&](Track& t, std::size_t i) {
    auto& [bone, sourceIndex, translation, rotation, scale] = t;
    const auto scope = in.scope("track", i);
    bone = in.str("bone");
    sourceIndex = in.i32("source index");
    readChannel(in, translation, "translation");
    readChannel(in, rotation, "rotation");
    readChannel(in, scale, "scale");
  });
  wrapsToFirstKey = in.boolean("wraps to first key");
  in.each(morphTracks, "morph tracks", kMinMorphTrack, [&](MorphTrack& t, std::size_t i) {
    auto& [mesh, target, weight] = t;
    const auto scope = in.scope("morph track", i);
    mesh = in.str("mesh");
    target = in.str("target");
    readChannel(in, weight, "weight");
  });
  skeleton = in.str("skeleton");
  frameIndexed = in.boolean("frame indexed");
  const bool span = in.boolean("source frames");
  const std::size_t at = in.r_.offset();
  const std::int32_t first = in.i32("first source frame"), last = in.i32("last source frame");
  if (span) sourceFrames = Clip::FrameSpan{first, last};
  // One spelling of each scene: without a span its frames are written 0.
  else if (first != 0 || last != 0) in.r_.failAt(at, "source frames", "are given for a clip without a span");
  const std::uint8_t looping = in.enumeration<std::uint8_t>("loops", 2);
  if (looping) loops = looping == 2;
  group = in.str("group");
}

void readMaterial(In& in, Material& m) {
  auto& [name, diffuse, ambient, specular, shininess, diffuseAlphaIsOpacity, maps, properties] = m;
  name = in.str("name");
  diffuse = in.fixed<glm::vec4>("diffuse");
  ambient = in.fixed<glm::vec4>("ambient");
  specular = in.fixed<glm::vec4>("specular");
  shininess = in.f32("shininess");
  diffuseAlphaIsOpacity = in.boolean("diffuse alpha is opacity");
  in.each(maps, "maps", kMinMap, [&](MaterialMap& map, std::size_t i) {
    auto& [kind, texture, uvSet, label] = map;
    const auto scope = in.scope("map", i);
    kind = in.str("kind");
    texture = in.i32("texture");
    uvSet = in.i32("uv set");
    label = in.str("label");
  });
  in.each(properties, "properties", 2 * kMinString, [&](MaterialProperty& p, std::size_t i) {
    auto& [pName, value] = p;
    const auto scope = in.scope("property", i);
    pName = in.str("name");
    value = in.str("value");
  });
}

void readTexture(In& in, Texture& t) {
  auto& [name, path, data, embedded] = t;
  name = in.str("name");
  path = in.str("path");
  const std::string f = in.field("data size");
  const std::size_t at = in.r_.offset();
  const std::uint64_t n = in.r_.u64(f);
  in.r_.checkCount(n, f, std::numeric_limits<std::uint64_t>::max(), 1, at);
  const auto b = in.r_.bytes(n, in.field("data"));
  data.assign(b.begin(), b.end());
  embedded = in.boolean("embedded");
}

void readBody(In& in, Body& b) {
  auto& [name, parts] = b;
  name = in.str("name");
  in.each(parts, "parts", kMinBodyPart, [&](BodyPart& p, std::size_t i) {
    auto& [kind, positions, polygons, radius, a, b2, flags] = p;
    const auto scope = in.scope("part", i);
    kind = in.enumeration<BodyPart::Kind>("kind", 3);
    in.plain(positions, "positions");
    in.each(polygons, "polygons", 4, [&](std::vector<std::uint32_t>& polygon, std::size_t) {
      in.plain(polygon, "polygon indices");
    });
    radius = in.f32("radius");
    a = in.fixed<glm::vec3>("a");
    b2 = in.fixed<glm::vec3>("b");
    flags = in.u32("flags");
  });
}

void readTable(In& in, Table& t) {
  auto& [name, columns, rowIds, rows] = t;
  name = in.str("name");
  in.each(columns, "columns", kMinString + 1, [&](TableColumn& c, std::size_t i) {
    auto& [cName, type] = c;
    const auto scope = in.scope("column", i);
    cName = in.str("name");
    type = in.u8("type");
  });
  in.plain(rowIds, "row ids");
  in.each(rows, "rows", 4, [&](std::vector<TableCell>& row, std::size_t r) {
    const auto scope = in.scope("row", r);
    in.each(row, "cells", kMinCell, [&](TableCell& cell, std::size_t) {
      const std::size_t at = in.r_.offset();
      switch (in.u8("cell type")) {
        case 0: cell = in.i32("cell"); break;
        case 1: cell = in.f32("cell"); break;
        case 2: cell = in.str("cell"); break;
        default: in.r_.failAt(at, in.field("cell type"), "is not 0 (integer), 1 (float) or 2 (text)");
      }
    });
  });
}

void readDiagnostics(In& in, Diagnostics& d) {
  auto& [items] = d;
  in.each(items, "diagnostics", kMinDiagnostic, [&](Diagnostic& item, std::size_t i) {
    auto& [severity, file, field, offset, message] = item;
    const auto scope = in.scope("diagnostic", i);
    severity = in.enumeration<Severity>("severity", 2);
    file = in.str("file");
    field = in.str("field");
    offset = in.r_.u64(in.field("offset"));
    message = in.str("message");
  });
}

Scene readScenePayload(In& in) {
  Scene s;
  auto& [format, basis, meshes, skeleton, clips, materials, textures, bodies, attachments, tables,
         actions, diagnostics, partial] = s;
  format = in.str("format");
  {
    auto& [up, rightHanded, unitMeters, front] = basis;
    const auto scope = In::Scope(in, "basis");
    up = in.enumeration<Axis>("up", 2);
    rightHanded = in.boolean("right-handed");
    unitMeters = in.f32("unit");
    front = in.i32("front");
  }
  in.each(meshes, "meshes", kMinMesh, [&](Mesh& m, std::size_t i) {
    const auto scope = in.scope("mesh", i);
    readMesh(in, m);
  }, in.limits_.maxMeshes);
  readSkeleton(in, skeleton);
  in.each(clips, "clips", kMinClip, [&](Clip& c, std::size_t i) {
    const auto scope = in.scope("clip", i);
    readClip(in, c);
  }, in.limits_.maxClips);
  in.each(materials, "materials", kMinMaterial, [&](Material& m, std::size_t i) {
    const auto scope = in.scope("material", i);
    readMaterial(in, m);
  });
  in.each(textures, "textures", kMinTexture, [&](Texture& t, std::size_t i) {
    const auto scope = in.scope("texture", i);
    readTexture(in, t);
  });
  in.each(bodies, "bodies", kMinString + 4, [&](Body& b, std::size_t i) {
    const auto scope = in.scope("body", i);
    readBody(in, b);
  });
  in.each(attachments, "attachments", 2 * kMinString + 64, [&](Attachment& a, std::size_t i) {
    auto& [name, parent, local] = a;
    const auto scope = in.scope("attachment", i);
    name = in.str("name");
    parent = in.str("parent");
    local = in.fixed<glm::mat4>("local");
  });
  in.each(tables, "tables", kMinTable, [&](Table& t, std::size_t i) {
    const auto scope = in.scope("table", i);
    readTable(in, t);
  });
  in.each(actions, "actions", kMinAction, [&](Action& a, std::size_t i) {
    auto& [name, flags, masterFlags, sequences] = a;
    const auto scope = in.scope("action", i);
    name = in.str("name");
    flags = in.u32("flags");
    masterFlags = in.u32("master flags");
    in.each(sequences, "sequences", kMinSequence, [&](ActionSequence& q, std::size_t k) {
      auto& [duration, animation, begin, end, seqFlags, pack, offset, phase, clip] = q;
      const auto seqScope = in.scope("sequence", k);
      duration = in.f32("duration");
      animation = in.str("animation");
      begin = in.i32("begin");
      end = in.i32("end");
      seqFlags = in.u32("flags");
      pack = in.u32("pack");
      offset = in.fixed<glm::vec3>("offset");
      phase = in.f32("phase");
      clip = in.str("clip");
    });
  });
  readDiagnostics(in, diagnostics);
  partial = in.boolean("partial");
  return s;
}

}  // namespace

bool isSnapshot(std::span<const std::byte> head) {
  return head.size() >= sizeof(kMagic) && std::memcmp(head.data(), kMagic, sizeof(kMagic)) == 0;
}

std::vector<std::byte> writeSnapshot(const Scene& scene) {
  Out o;
  writeHeader(o, kKindScene);
  const auto& [format, basis, meshes, skeleton, clips, materials, textures, bodies, attachments,
               tables, actions, diagnostics, partial] = scene;
  o.str(format);
  const auto& [up, rightHanded, unitMeters, front] = basis;
  o.w.u8(static_cast<std::uint8_t>(up));
  o.boolean(rightHanded);
  o.w.f32(unitMeters);
  o.w.i32(front);
  o.each(meshes, [&](const Mesh& m) { writeMesh(o, m); });
  writeSkeleton(o, skeleton);
  o.each(clips, [&](const Clip& c) { writeClip(o, c); });
  o.each(materials, [&](const Material& m) { writeMaterial(o, m); });
  o.each(textures, [&](const Texture& t) { writeTexture(o, t); });
  o.each(bodies, [&](const Body& b) { writeBody(o, b); });
  o.each(attachments, [&](const Attachment& a) {
    const auto& [name, parent, local] = a;
    o.str(name);
    o.str(parent);
    o.mat(local);
  });
  o.each(tables, [&](const Table& t) { writeTable(o, t); });
  o.each(actions, [&](const Action& a) {
    const auto& [name, flags, masterFlags, sequences] = a;
    o.str(name);
    o.w.u32(flags);
    o.w.u32(masterFlags);
    o.each(sequences, [&](const ActionSequence& q) {
      const auto& [duration, animation, begin, end, seqFlags, pack, offset, phase, clip] = q;
      o.w.f32(duration);
      o.str(animation);
      o.w.i32(begin);
      o.w.i32(end);
      o.w.u32(seqFlags);
      o.w.u32(pack);
      o.vec(offset);
      o.w.f32(phase);
      o.str(clip);
    });
  });
  writeDiagnostics(o, diagnostics);
  o.boolean(partial);
  return o.w.take();
}

std::vector<std::byte> writeSnapshotError(const FormatError& error) {
  Out o;
  writeHeader(o, kKindError);
  const auto& [file, field, offset, message] = error;
  o.str(file);
  o.str(field);
  o.w.u64(offset);
  o.str(message);
  return o.w.take();
}

Result<Scene> readSnapshot(std::span<const std::byte> data, const ReadContext& ctx) {
  auto r = guarded<Scene>(ctx, [&]() -> Result<Scene> {
    In in(data, ctx);
    if (!isSnapshot(data))
      in.r_.failAt(0, "magic", "is not \"MRWSCENE\"; this is not a Marrow scene snapshot");
    in.r_.skip(sizeof(kMagic), "magic");
    const std::size_t versionAt = in.r_.offset();
    if (const std::uint32_t v = in.u32("version"); v != kSnapshotVersion)
      in.r_.failAt(versionAt, "version",
                   "is " + std::to_string(v) + "; this build reads version " +
                       std::to_string(kSnapshotVersion) + " (the import process is another build)");
    const std::size_t kindAt = in.r_.offset();
    const std::uint8_t kind = in.u8("kind");
    Result<Scene> out = FormatError{};
    if (kind == kKindScene) {
      out = readScenePayload(in);
    } else if (kind == kKindError) {
      FormatError e;
      e.file = in.str("error file");
      e.field = in.str("error field");
      e.offset = in.r_.u64("error offset");
      const std::size_t messageAt = in.r_.offset();
      e.message = in.str("error message");
      if (e.message.empty())
        in.r_.failAt(messageAt, "error message", "is empty; an error says what went wrong");
      out = std::move(e);
    } else {
      in.r_.failAt(kindAt, "kind", "is " + std::to_string(kind) + ", not 0 (scene) or 1 (error)");
    }
    if (!in.r_.atEnd())
      in.r_.fail("end", std::to_string(in.r_.remaining()) + " bytes follow the end of the snapshot");
    return out;
  });
  if (!r) return r;
  if (auto problems = validate(*r); !problems.empty())
    return FormatError{ctx.name, "", kNoOffset, "inconsistent model: " + problems.front()};
  return r;
}

}  // namespace marrow::formats
