// BRF writer: the document's sections in its order, every record as parse read it (§2–§10).
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "formats/brf/document.h"
#include "formats/io/byte_writer.h"

namespace marrow::formats::brf {
namespace {

// Fixed-size values gathered in a stack block and handed to the ByteWriter a block at a time:
// ByteWriter's per-value calls are out of line, and arrays of keys and vertices are most of a file.
class Block {
 public:
  explicit Block(ByteWriter& w) : w_(w) {}
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  void u32(std::uint32_t v) { put(&v, 4); }
  void i32(std::int32_t v) { put(&v, 4); }
  void f32(float v) { put(&v, 4); }  // bit for bit
  void u8(std::uint8_t v) { put(&v, 1); }
  void vec3(const glm::vec3& v) {
    f32(v.x);
    f32(v.y);
    f32(v.z);
  }
  void vec2(const glm::vec2& v) {
    f32(v.x);
    f32(v.y);
  }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    if (s.size() > kSize - n_) {
      flush();
      w_.raw(std::as_bytes(std::span(s.data(), s.size())));
      return;
    }
    put(s.data(), s.size());
  }
  void raw(std::span<const std::byte> b) {
    flush();
    w_.raw(b);
  }
  // Call before the Block goes away (a destructor must not throw bad_alloc).
  void flush() {
    w_.raw(std::span(buf_.data(), n_));
    n_ = 0;
  }

 private:
  static constexpr std::size_t kSize = 16384;
  void put(const void* p, std::size_t k) {
    if (k > kSize - n_) [[unlikely]]
      flush();
    std::memcpy(buf_.data() + n_, p, k);
    n_ += k;
  }

  ByteWriter& w_;
  std::array<std::byte, kSize> buf_;
  std::size_t n_ = 0;
};

std::uint32_t count(std::size_t n) {
  return static_cast<std::uint32_t>(n);
}

void writeTexture(Block& b, const Texture& t) {  // §4
  b.str(t.name);
  b.u32(t.flags);
}

void writeShader(Block& b, const Shader& s) {  // §5
  b.str(s.name);
  b.u32(s.flags);
  b.u32(s.requirements);
  b.str(s.technique);
  b.u32(s.fallback ? 1 : 0);
  if (s.fallback) b.str(*s.fallback);
  b.u32(count(s.stages.size()));
  for (const ShaderStage& st : s.stages) {
    b.i32(st.map);
    b.u32(st.colorOp);
    b.u32(st.alphaOp);
    b.u32(st.flags);
  }
}

void writeMaterial(Block& b, const Material& m) {  // §6
  b.str(m.name);
  b.u32(m.flags);
  b.str(m.shader);
  b.str(m.diffuseA);
  b.str(m.diffuseB);
  b.str(m.bump);
  b.str(m.enviro);
  if (m.spec) b.str(*m.spec);  // absent as the file had it
  b.f32(m.specularCoefficient);
  b.vec3(m.specular);
}

void writeVec3s(Block& b, const std::vector<glm::vec3>& v) {
  b.u32(count(v.size()));
  for (const glm::vec3& p : v) b.vec3(p);
}

void writeMesh(Block& b, const Mesh& m, int version) {  // §7
  b.str(m.name);
  b.u32(m.flags);
  b.str(m.material);
  writeVec3s(b, m.positions);
  b.u32(count(m.rigging.size()));
  for (const RigBone& rb : m.rigging) {
    b.i32(rb.bone);
    b.u32(count(rb.pairs.size()));
    for (const RigPair& p : rb.pairs) {
      b.i32(p.position);
      b.f32(p.weight);
    }
  }
  b.u32(count(m.frames.size()));
  for (const VertexFrame& f : m.frames) {
    b.i32(f.time);
    writeVec3s(b, f.positions);
    writeVec3s(b, f.normals);
  }
  b.u32(count(m.vertices.size()));
  switch (layoutOf(m, version)) {  // §7.5
    case VertexLayout::A_1011:
      for (const Vertex& v : m.vertices) {
        b.i32(v.position);
        b.u32(v.color);
        b.vec3(v.normal);
        b.vec2(v.uv);
        b.vec2(v.uv2);
      }
      break;
    case VertexLayout::B_WarbandTangent:
      for (const Vertex& v : m.vertices) {
        b.i32(v.position);
        b.u32(v.color);
        b.vec3(v.normal);
        b.vec3(v.tangent);
        b.u8(v.bitangentSign);
        b.vec2(v.uv);
      }
      break;
    case VertexLayout::C_Warband:
      for (const Vertex& v : m.vertices) {
        b.i32(v.position);
        b.u32(v.color);
        b.vec3(v.normal);
        b.vec2(v.uv);
      }
      break;
  }
  b.u32(count(m.faces.size()));
  for (const auto& f : m.faces) {
    b.i32(f[0]);
    b.i32(f[1]);
    b.i32(f[2]);
  }
}

void writeSkeleton(Block& b, const Skeleton& s) {  // §8
  b.str(s.name);
  b.u32(count(s.bones.size()));
  for (const Bone& bone : s.bones) {
    b.i32(bone.parent);
    if (bone.hasName) {  // §8 note: very old files have neither name nor `unused`
      b.str(bone.name);
      b.i32(bone.unused);
    }
    for (float f : bone.m) b.f32(f);
  }
}

void writeAnimation(Block& b, const Animation& a) {  // §9
  b.str(a.name);
  b.u32(count(a.tracks.size()));
  for (const auto& track : a.tracks) {
    b.u32(count(track.size()));
    for (const RotKey& k : track) {
      b.i32(k.time);
      b.f32(k.rotation.x);  // x, y, z, w on disk
      b.f32(k.rotation.y);
      b.f32(k.rotation.z);
      b.f32(k.rotation.w);
    }
  }
  b.u32(count(a.translations.size()));
  for (const TransKey& k : a.translations) {
    b.i32(k.time);
    b.vec3(k.translation);
  }
}

void writeBodyPart(Block& b, const BodyPart& p) {  // §10
  b.str(p.kind);
  if (p.kind == "manifold") {
    writeVec3s(b, p.positions);
    b.u32(count(p.polygons.size()));
    for (const Polygon& poly : p.polygons) {
      b.i32(poly.ori);
      b.u32(poly.flags);
      b.u32(count(poly.positions.size()));
      for (std::int32_t i : poly.positions) b.i32(i);
    }
  } else if (p.kind == "face") {
    writeVec3s(b, p.positions);
    b.u32(p.flags);
  } else if (p.kind == "sphere") {
    b.f32(p.radius);
    b.vec3(p.a);
    b.u32(p.flags);
  } else if (p.kind == "capsule") {
    b.f32(p.radius);
    b.vec3(p.a);
    b.vec3(p.b);
    b.u32(p.flags);
  }
  // Any other kind has no defined payload: checkWritable reports it.
}

void writeBody(Block& b, const Body& body) {
  b.str(body.name);
  // A single part is written directly (§10); anything else needs the composite wrapper to read
  // back at all, so it gets one even when the document says otherwise (checkWritable reports it).
  if (!body.composite && body.parts.size() == 1) {
    writeBodyPart(b, body.parts[0]);
    return;
  }
  b.str("composite");
  b.u32(count(body.parts.size()));
  for (const BodyPart& p : body.parts) writeBodyPart(b, p);
}

// The bytes of the fixed-size arrays, for reserving the output once.
std::size_t estimateSize(const Document& doc) {
  std::size_t n = 64;
  for (const Mesh& m : doc.meshes) {
    n += 128 + m.positions.size() * 12 + m.faces.size() * 12 +
         m.vertices.size() * vertexBytes(layoutOf(m, doc.version));
    for (const RigBone& rb : m.rigging) n += 8 + rb.pairs.size() * 8;
    for (const VertexFrame& f : m.frames) n += 12 + (f.positions.size() + f.normals.size()) * 12;
  }
  for (const Animation& a : doc.animations) {
    n += 64 + a.translations.size() * 16;
    for (const auto& t : a.tracks) n += 4 + t.size() * 20;
  }
  n += doc.textures.size() * 40 + doc.shaders.size() * 120 + doc.materials.size() * 160;
  for (const Skeleton& s : doc.skeletons) n += 32 + s.bones.size() * 80;
  for (const Body& body : doc.bodies) {
    n += 64;
    for (const BodyPart& p : body.parts) n += 48 + p.positions.size() * 12 + p.polygons.size() * 28;
  }
  return n + doc.trailing.size();
}

}  // namespace

std::vector<std::byte> write(const Document& doc) {
  ByteWriter w;
  w.reserve(estimateSize(doc));
  Block b(w);

  // The file's own order when it adds up, else OpenBRF's (§2), skipping empty sections.
  std::vector<SectionSpan> spans;
  std::size_t versionAt = 0;
  if (orderMatchesRecords(doc)) {
    spans = doc.order;
    versionAt = doc.versionTokenAt;
  } else {
    for (Section s : kSections)
      if (const std::size_t n = recordCount(doc, s); n > 0) spans.push_back({s, count(n)});
  }
  const bool versionToken = doc.hasVersionToken || doc.version != 0;

  std::array<std::size_t, 7> next{};  // the next record of each kind
  for (std::size_t i = 0; i <= spans.size(); ++i) {
    if (versionToken && i == std::min(versionAt, spans.size())) {  // §3
      b.str("rfver ");
      b.i32(doc.version);
    }
    if (i == spans.size()) break;
    const SectionSpan& span = spans[i];
    b.str(sectionToken(span.kind));
    b.u32(span.count);
    std::size_t& k = next[static_cast<std::size_t>(span.kind)];
    const std::size_t end = k + span.count;
    switch (span.kind) {
      case Section::Texture:
        for (; k < end; ++k) writeTexture(b, doc.textures[k]);
        break;
      case Section::Shader:
        for (; k < end; ++k) writeShader(b, doc.shaders[k]);
        break;
      case Section::Material:
        for (; k < end; ++k) writeMaterial(b, doc.materials[k]);
        break;
      case Section::Mesh:
        for (; k < end; ++k) writeMesh(b, doc.meshes[k], doc.version);
        break;
      case Section::Skeleton:
        for (; k < end; ++k) writeSkeleton(b, doc.skeletons[k]);
        break;
      case Section::Animation:
        for (; k < end; ++k) writeAnimation(b, doc.animations[k]);
        break;
      case Section::Body:
        for (; k < end; ++k) writeBody(b, doc.bodies[k]);
        break;
    }
  }
  b.str("end");
  b.raw(doc.trailing);
  b.flush();
  return w.take();
}

}  // namespace marrow::formats::brf
