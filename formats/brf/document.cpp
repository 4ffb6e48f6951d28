// What the BRF reader and writer share: section tokens, vertex layouts, and the check that a
// document built by hand reads back as itself (../shared/specs/brf.md).
#include "formats/brf/document.h"

#include <array>
#include <cstring>
#include <limits>
#include <string>

namespace marrow::formats::brf {

const char* sectionToken(Section s) {
  switch (s) {
    case Section::Texture: return "texture";
    case Section::Shader: return "shader";
    case Section::Material: return "material";
    case Section::Mesh: return "mesh";
    case Section::Skeleton: return "skeleton";
    case Section::Animation: return "skeleton_anim";
    case Section::Body: return "body";
  }
  return "?";
}

VertexLayout layoutOf(const Mesh& mesh, int version) {
  // §3: the file version picks 1.011 or Warband; in Warband the mesh's own bit 16 picks the
  // layout (OpenBRF's rule; [BT]'s bit-17 rule agrees on every real file).
  if (version < 1) return VertexLayout::A_1011;
  return mesh.hasTangents() ? VertexLayout::B_WarbandTangent : VertexLayout::C_Warband;
}

std::size_t vertexBytes(VertexLayout layout) {
  switch (layout) {
    case VertexLayout::A_1011: return 36;
    case VertexLayout::B_WarbandTangent: return 41;
    case VertexLayout::C_Warband: return 28;
  }
  return 0;
}

std::size_t recordCount(const Document& doc, Section s) {
  switch (s) {
    case Section::Texture: return doc.textures.size();
    case Section::Shader: return doc.shaders.size();
    case Section::Material: return doc.materials.size();
    case Section::Mesh: return doc.meshes.size();
    case Section::Skeleton: return doc.skeletons.size();
    case Section::Animation: return doc.animations.size();
    case Section::Body: return doc.bodies.size();
  }
  return 0;
}

bool orderMatchesRecords(const Document& doc) {
  constexpr std::size_t kSectionKinds = 7;
  std::array<std::uint64_t, kSectionKinds> sum{};
  for (const SectionSpan& span : doc.order) {
    const auto k = static_cast<std::size_t>(span.kind);
    if (k >= kSectionKinds) return false;
    sum[k] += span.count;
  }
  for (std::size_t k = 0; k < kSectionKinds; ++k)
    if (sum[k] != recordCount(doc, static_cast<Section>(k))) return false;
  return true;
}

namespace {

// §6, §8: how OpenBRF tells an optional string from what follows it.
bool looksLikeStringLength(std::uint32_t v) {
  return v > 0 && v < 99;
}

std::uint32_t floatBits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();

std::string named(const char* kind, std::size_t i, const std::string& name) {
  return std::string(kind) + " " + std::to_string(i) + " '" + name + "'";
}

FormatError problem(std::string field, std::string message) {
  return FormatError{"", std::move(field), kNoOffset, std::move(message)};
}

bool tooLong(const std::string& s) {
  return s.size() > kMaxU32;
}

}  // namespace

std::optional<FormatError> checkWritable(const Document& doc) {
  if (orderMatchesRecords(doc) && (doc.hasVersionToken || doc.version != 0)) {
    for (std::size_t i = 0; i < doc.order.size() && i < doc.versionTokenAt; ++i)
      if (doc.order[i].kind == Section::Mesh)
        return problem("rfver", "the version token follows a mesh section (§3)");
  }
  for (std::size_t i = 0; i < doc.materials.size(); ++i) {
    const Material& m = doc.materials[i];
    if (m.spec && !looksLikeStringLength(static_cast<std::uint32_t>(m.spec->size())))
      return problem(named("material", i, m.name) + " spec",
                     "a spec-map string must be 1..98 bytes long to be recognised (§6)");
    if (!m.spec && looksLikeStringLength(floatBits(m.specularCoefficient)))
      return problem(named("material", i, m.name) + " specular coefficient",
                     "without a spec-map string, these float bits read as a string length (§6)");
  }
  for (std::size_t s = 0; s < doc.skeletons.size(); ++s) {
    const Skeleton& sk = doc.skeletons[s];
    for (std::size_t b = 0; b < sk.bones.size(); ++b) {
      const Bone& bone = sk.bones[b];
      const std::string where = named("skeleton", s, sk.name) + " bone " + std::to_string(b);
      if (bone.hasName && !looksLikeStringLength(static_cast<std::uint32_t>(bone.name.size())))
        return problem(where + " name", "a bone name must be 1..98 bytes long (§8 note)");
      if (!bone.hasName && looksLikeStringLength(floatBits(bone.m[0])))
        return problem(where + " m[0]",
                       "a bone without a name must not start with float bits 1..98 (§8 note)");
    }
  }
  for (std::size_t i = 0; i < doc.bodies.size(); ++i) {
    const Body& body = doc.bodies[i];
    if (!body.composite && body.parts.size() != 1)
      return problem(named("body", i, body.name) + " parts",
                     "a body not marked composite needs exactly one part (§10)");
    for (const BodyPart& part : body.parts)
      if (part.kind != "manifold" && part.kind != "face" && part.kind != "sphere" &&
          part.kind != "capsule")
        return problem(named("body", i, body.name) + " kind",
                       "'" + part.kind + "' is not a body part kind (§10)");
  }
  // Sizes that do not fit a u32 (only a document built by hand can have them).
  for (const Mesh& m : doc.meshes)
    if (m.positions.size() > kMaxU32 || m.vertices.size() > kMaxU32 || m.faces.size() > kMaxU32 ||
        tooLong(m.name) || tooLong(m.material))
      return problem("mesh '" + m.name + "'", "a count or string does not fit in 32 bits");
  return std::nullopt;
}

}  // namespace marrow::formats::brf
