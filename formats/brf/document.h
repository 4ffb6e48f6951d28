// Mount&Blade / Warband BRF ("Binary Resource File"): every record as the file holds it
// (../shared/specs/brf.md), so that reading and writing give back the same bytes. The neutral
// model is made from a Document (scene.h), not the other way round, except when a model from
// another format is written as BRF (fromScene).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/glm.h"

namespace marrow::formats::brf {

// §3: version 0 is M&B 1.011 (no "rfver " token), 1 is Warband.
struct Texture {     // §4
  std::string name;  // with ".dds"
  std::uint32_t flags = 0;
  int frames() const { return static_cast<int>((flags >> 24) & 0xF) * 4; }  // animated textures
};

struct ShaderStage {
  std::int32_t map = -1;
  std::uint32_t colorOp = 0, alphaOp = 0, flags = 0;
};

struct Shader {  // §5
  std::string name;
  std::uint32_t flags = 0;
  std::uint32_t requirements = 0;  // "requires" in OpenBRF: quality levels the shader needs
  std::string technique;
  std::optional<std::string> fallback;
  std::vector<ShaderStage> stages;
};

struct Material {  // §6
  std::string name;
  std::uint32_t flags = 0;
  std::string shader, diffuseA, diffuseB, bump, enviro;
  std::optional<std::string> spec;  // absent in some old files (§6 "may be absent")
  float specularCoefficient = 0.0f;
  glm::vec3 specular{0.0f};
};

struct RigPair {  // §7.2
  std::int32_t position = 0;
  float weight = 0.0f;
};
struct RigBone {
  std::int32_t bone = 0;
  std::vector<RigPair> pairs;
};

struct VertexFrame {  // §7.3: the stored frames 1..k (frame 0 is implicit)
  std::int32_t time = 0;
  std::vector<glm::vec3> positions;  // one per position
  std::vector<glm::vec3> normals;    // one per vertex
};

struct Vertex {  // §7.5
  std::int32_t position = 0;
  std::uint32_t color = 0xFFFFFFFF;  // 0xAARRGGBB
  glm::vec3 normal{0.0f};
  glm::vec3 tangent{0.0f};         // layout B only
  std::uint8_t bitangentSign = 0;  // layout B only
  glm::vec2 uv{0.0f};              // v = 0 at the top of the image
  glm::vec2 uv2{0.0f};             // layout A only
};

enum class VertexLayout { A_1011, B_WarbandTangent, C_Warband };

struct Mesh {  // §7
  std::string name;
  std::uint32_t flags = 0;
  std::string material;
  std::vector<glm::vec3> positions;
  std::vector<RigBone> rigging;
  std::vector<VertexFrame> frames;
  std::vector<Vertex> vertices;
  std::vector<std::array<std::int32_t, 3>> faces;

  bool hasTangents() const { return flags & (1u << 16); }
};

struct Bone {  // §8
  std::int32_t parent = -1;
  std::string name;
  std::int32_t unused = 0;
  std::array<float, 12> m{};  // columns A, B, C (the local axes in the parent frame), then T
  bool hasName = true;        // very old files store neither name nor `unused` (§8 note)
};

struct Skeleton {
  std::string name;
  std::vector<Bone> bones;
};

struct RotKey {  // §9
  std::int32_t time = 0;
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // read from x, y, z, w on disk
};
struct TransKey {
  std::int32_t time = 0;
  glm::vec3 translation{0.0f};
};

struct Animation {
  std::string name;
  std::vector<std::vector<RotKey>> tracks;  // one per bone, in skeleton bone order
  std::vector<TransKey> translations;       // the root's
};

struct Polygon {         // §10 manifold polygon
  std::int32_t ori = 0;  // opaque (§10: -1 or +1, rarely 0; does not predict winding)
  std::uint32_t flags = 0;
  std::vector<std::int32_t> positions;
};

struct BodyPart {    // §10
  std::string kind;  // "manifold", "face", "sphere", "capsule" as the file spells it
  std::vector<glm::vec3> positions;  // manifold, face
  std::vector<Polygon> polygons;     // manifold
  float radius = 0.0f;               // sphere, capsule
  glm::vec3 a{0.0f}, b{0.0f};        // sphere: a = centre; capsule: the two end points
  std::uint32_t flags = 0;           // face, sphere, capsule
};

struct Body {
  std::string name;
  bool composite = false;  // the file wrapped its parts in "composite"
  std::vector<BodyPart> parts;
};

// The sections in the order the file had them (writing repeats that order).
enum class Section { Texture, Shader, Material, Mesh, Skeleton, Animation, Body };
// Every kind, in the order OpenBRF writes them (§2).
inline constexpr Section kSections[] = {Section::Texture,  Section::Shader,    Section::Material,
                                        Section::Mesh,     Section::Skeleton,  Section::Animation,
                                        Section::Body};

// One section token as the file had it: its kind and how many records it held. A kind may come
// more than once (§2: readers accept any order; a repeated section appends its records to the
// same vector, in file order, instead of replacing them as OpenBRF does).
struct SectionSpan {
  Section kind = Section::Mesh;
  std::uint32_t count = 0;
  bool operator==(const SectionSpan&) const = default;
};

struct Document {
  int version = 0;  // the i32 after "rfver " (1: Warband); 0 without the token (M&B 1.011)
  // Every section token in file order. Records of each kind are in the vectors below in file
  // order; the spans say how many of them each token held. A Document whose spans do not add up
  // to the vectors' sizes (one built by hand) is written in OpenBRF's order instead (§2).
  std::vector<SectionSpan> order;
  // Whether the file had the "rfver " token (§3); `version` is then the i32 after it, else 0.
  bool hasVersionToken = false;
  // How many spans of `order` came before the "rfver " token (0: it was the first token).
  std::size_t versionTokenAt = 0;
  std::vector<Texture> textures;
  std::vector<Shader> shaders;
  std::vector<Material> materials;
  std::vector<Mesh> meshes;
  std::vector<Skeleton> skeletons;
  std::vector<Animation> animations;
  std::vector<Body> bodies;
  // Bytes after the "end" token. No real file has any (§2); the game stops reading at "end", so
  // a file with some still opens, and they are kept so that writing gives back the same bytes.
  // The conversion layer may warn about them.
  std::vector<std::byte> trailing;
  // Set when the file is damaged and the reader was asked for what came before the damage
  // (ReadContext::partial): why it stopped. The record it broke off in is left out, and `order`
  // counts what is kept.
  std::optional<FormatError> damage;
};

// The token a section starts with in the file ("skeleton_anim" for Section::Animation).
const char* sectionToken(Section s);

// Reads a whole file; every count is checked against the bytes left before anything is
// allocated, errors name the record ("mesh 3 'boots' rigging bone 2 pair count"), the field and
// the offset. Never throws. Refused: an unknown token (named, with its offset), a second "rfver "
// token or one after a mesh section, a shader fallback count other than 0/1, a body part kind
// other than the four of §10 (so no nested composite), a file without "end". Values are kept
// exactly as stored: floats bit for bit (NaN, 1e30), indices unchecked (a vertex may name a
// position that does not exist; the conversion layer checks them). Strings may be up to
// ctx.limits.maxStringLength bytes long (OpenBRF refuses 256 and more, but nothing here depends on
// a shorter bound).
Result<Document> parse(std::span<const std::byte> data, const ReadContext& ctx);

// Writes what parse read, byte for byte (the order of sections, the layout of every vertex, the
// optional strings as they were). For a document built by hand, checkWritable says whether the
// bytes will read back as the same document.
std::vector<std::byte> write(const Document& doc);

// Why `doc` would not read back as itself after write, or nothing when it would. The optional
// strings of §6 and §8 are recognised by their length, so a spec-map string or a bone name must
// be 1..98 bytes long, and an absent one must not be followed by a float whose bits look like
// such a length; body part kinds must be the four of §10, a body not marked composite must have
// exactly one part; the "rfver " token may not follow a mesh section (the vertex layout of the
// meshes before it would change); a count or string over 2^32-1 cannot be stored.
std::optional<FormatError> checkWritable(const Document& doc);

// The vertex layout a mesh has in a file of `version` (§3, §7.5).
VertexLayout layoutOf(const Mesh& mesh, int version);
// The bytes one vertex record takes in that layout: 36, 41 or 28 (§7.5).
std::size_t vertexBytes(VertexLayout layout);

// How many records of kind `s` the document holds.
std::size_t recordCount(const Document& doc, Section s);
// Whether the spans of `order` add up to the record vectors (write follows them only then).
bool orderMatchesRecords(const Document& doc);

}  // namespace marrow::formats::brf
