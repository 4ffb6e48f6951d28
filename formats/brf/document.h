// Mount&Blade / Warband BRF ("Binary Resource File"): every record as the file holds it
// (../shared/specs/brf.md), so that reading and writing give back the same bytes. The neutral
// model is made from a Document (scene.h), not the other way round, except when a model from
// another format is written as BRF (fromScene).
#pragma once

#include <array>
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
struct Texture {  // §4
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
  glm::vec3 tangent{0.0f};     // layout B only
  std::uint8_t bitangentSign = 0;  // layout B only
  glm::vec2 uv{0.0f};          // v = 0 at the top of the image
  glm::vec2 uv2{0.0f};         // layout A only
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

struct Polygon {  // §10 manifold polygon
  std::int32_t ori = 0;
  std::uint32_t flags = 0;
  std::vector<std::int32_t> positions;
};

struct BodyPart {  // §10
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

struct Document {
  int version = 0;          // 0: M&B 1.011, 1: Warband ("rfver " present)
  std::vector<Section> order;
  std::vector<Texture> textures;
  std::vector<Shader> shaders;
  std::vector<Material> materials;
  std::vector<Mesh> meshes;
  std::vector<Skeleton> skeletons;
  std::vector<Animation> animations;
  std::vector<Body> bodies;
};

// Reads a whole file; every count is checked against the bytes left before anything is
// allocated, errors name the record ("mesh 'boots' vertex 12"), the field and the offset.
Result<Document> parse(std::span<const std::byte> data, const ReadContext& ctx);

// Writes what parse read, byte for byte (the order of sections, the layout of every vertex, the
// optional strings as they were).
std::vector<std::byte> write(const Document& doc);

// The vertex layout a mesh has in a file of `version` (§3, §7.5).
VertexLayout layoutOf(const Mesh& mesh, int version);

}  // namespace marrow::formats::brf
