// The native glTF 2.0 reader's first half: a .glb's chunks, and the document's JSON as plain
// structs (gltf_document.cpp, the one file that sees the JSON parser, simdjson). The second half,
// gltf_reader.cpp, makes the model of them. Indices are checked where they are used; -1 means
// "not given".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/model/glm.h"

namespace marrow::formats::gltf::in {

struct BufferDef {
  std::string uri;  // empty: the .glb's binary chunk
  std::uint64_t length = 0;
};

struct BufferView {
  int buffer = -1;
  std::uint64_t offset = 0, length = 0;
  std::uint32_t stride = 0;  // 0: the elements are packed
};

struct Sparse {
  std::uint64_t count = 0;
  int indicesView = -1;
  std::uint64_t indicesOffset = 0;
  int indicesType = 0;
  int valuesView = -1;
  std::uint64_t valuesOffset = 0;
};

struct Accessor {
  int view = -1;  // -1: zeros (then sparse values, if any)
  std::uint64_t offset = 0;
  int componentType = 0;  // 5120 … 5126 (§5.1.3)
  bool normalized = false;
  std::uint64_t count = 0;
  int components = 0;  // SCALAR 1, VEC2 2, VEC3 3, VEC4 4, MAT2 4, MAT3 9, MAT4 16
  bool matrix = false;
  std::optional<Sparse> sparse;
};

struct Attribute {
  std::string semantic;  // "POSITION", "TEXCOORD_0", …
  int accessor = -1;
};

struct Primitive {
  std::vector<Attribute> attributes;
  int indices = -1, material = -1;
  int mode = 4;  // triangles
  std::vector<std::vector<Attribute>> targets;
  bool draco = false;  // KHR_draco_mesh_compression: the attributes are compressed elsewhere
};

struct MeshDef {
  std::string name;
  std::vector<Primitive> primitives;
  std::vector<std::string> targetNames;  // extras.targetNames, the de-facto place
};

struct Node {
  std::string name;
  int mesh = -1, skin = -1;
  std::vector<int> children;
  bool hasMatrix = false;
  glm::mat4 matrix{1.0f};
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};

struct SkinDef {
  std::string name;
  std::vector<int> joints;
  int inverseBinds = -1;
};

struct SamplerDef {
  int input = -1, output = -1;
  std::string interpolation = "LINEAR";
};

struct ChannelDef {
  int sampler = -1, node = -1;
  std::string path;
};

struct AnimationDef {
  std::string name;
  double frameRate = 0.0;  // extras.frameRate, when the file gives one
  std::vector<SamplerDef> samplers;
  std::vector<ChannelDef> channels;
};

struct ImageDef {
  std::string name, uri, mimeType;
  int view = -1;
};

struct TextureDef {
  std::string name;
  int source = -1;
};

struct TextureRef {
  int texture = -1;
  int texCoord = 0;
  bool transformed = false;  // KHR_texture_transform, which the model cannot say
};

struct MaterialDef {
  std::string name;
  glm::vec4 baseColor{1.0f};
  float metallic = 1.0f, roughness = 1.0f;
  glm::vec3 emissive{0.0f};
  TextureRef baseColorTexture, metallicRoughnessTexture, normalTexture, occlusionTexture,
      emissiveTexture;
  std::string alphaMode = "OPAQUE";
  float alphaCutoff = 0.5f;
  bool doubleSided = false;
  // KHR_materials_pbrSpecularGlossiness: diffuse and specular instead of base colour.
  bool specularGlossiness = false;
  glm::vec3 specular{1.0f};
  float glossiness = 1.0f;
  bool unlit = false;  // KHR_materials_unlit
};

struct Document {
  std::string version, generator;
  std::vector<std::string> extensionsUsed, extensionsRequired;
  int scene = -1;
  std::vector<std::vector<int>> scenes;
  std::vector<BufferDef> buffers;
  std::vector<BufferView> views;
  std::vector<Accessor> accessors;
  std::vector<MeshDef> meshes;
  std::vector<Node> nodes;
  std::vector<SkinDef> skins;
  std::vector<AnimationDef> animations;
  std::vector<MaterialDef> materials;
  std::vector<TextureDef> textures;
  std::vector<ImageDef> images;
};

// A .glb's JSON and binary chunks (§4.4), or a .gltf's whole text as the JSON. Throws
// FormatException naming `file`, the field and the offset.
struct Container {
  std::span<const std::byte> json, bin;
  bool glb = false;
  std::uint32_t glbVersion = 0;
};
Container container(std::span<const std::byte> data, const std::string& file);

// The document; throws FormatException naming `file` and the JSON path of the bad member
// ("accessors[3].count").
Document parseDocument(std::span<const std::byte> json, const std::string& file);

// The asset's version and extensions alone, without the rest (for gltfNeedsAssimp); nothing when
// the JSON does not parse.
struct Summary {
  std::string version;
  std::vector<std::string> extensionsUsed, extensionsRequired;
};
std::optional<Summary> summarise(std::span<const std::byte> json);

}  // namespace marrow::formats::gltf::in
