// What the parts of the glTF writer share: the document being built and its binary buffer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/gltf/gltf_writer.h"
#include "formats/gltf/json.h"
#include "formats/model/scene.h"

namespace marrow::formats::gltf {

// glTF 2.0 §5.1.3 componentType and §5.11.4 bufferView.target codes.
enum ComponentType : int {
  kUnsignedByte = 5121,
  kUnsignedShort = 5123,
  kUnsignedInt = 5125,
  kFloat = 5126,
};
enum BufferTarget : int { kNoTarget = 0, kArrayBuffer = 34962, kElementArrayBuffer = 34963 };

inline constexpr const char* kFile = "glTF";  // the name diagnostics give the output

struct Document {
  Json nodes = Json::array(), meshes = Json::array(), skins = Json::array();
  Json materials = Json::array(), textures = Json::array(), images = Json::array();
  Json samplers = Json::array(), animations = Json::array();
  Json accessors = Json::array(), bufferViews = Json::array();
  std::vector<std::byte> bin;
  std::vector<int> sceneRoots;
  // Images: in the .glb's buffer (embed), else files beside the .gltf named `baseName`_….
  bool embedImages = true;
  std::string baseName;
  std::vector<GltfFile> imageFiles;
  Diagnostics* diagnostics = nullptr;

  void warn(const std::string& field, const std::string& message) {
    diagnostics->warn(kFile, field, kNoOffset, message);
  }
  void info(const std::string& field, const std::string& message) {
    diagnostics->info(kFile, field, kNoOffset, message);
  }

  // A buffer view over `bytes` appended to the buffer at a 4-byte boundary (§3.6.2.4: every
  // accessor's offset and stride are multiples of its component size).
  int view(std::span<const std::byte> bytes, BufferTarget target);
  int accessor(int view, ComponentType type, std::size_t count, const char* shape,
               Json min = {}, Json max = {});
  // Float accessors of `components` per element (1, 2, 3, 4 or 16), with min/max when asked
  // (POSITION, animation inputs).
  int floats(std::span<const float> values, int components, BufferTarget target, bool minMax);
  int vec2s(std::span<const glm::vec2> v, BufferTarget target);
  int vec3s(std::span<const glm::vec3> v, BufferTarget target, bool minMax = false);
  int vec4s(std::span<const glm::vec4> v, BufferTarget target);
  int mat4s(std::span<const glm::mat4> m);
  int scalars(std::span<const float> v, bool minMax);
  int indices(std::span<const std::uint32_t> indices, std::size_t vertexCount);
  int joints(std::span<const std::uint16_t> joints);  // 4 per vertex
};

// Where the writer put the model's things, for the animations to target.
struct NodeMap {
  std::vector<int> boneNode;                 // per skeleton bone
  std::vector<std::vector<int>> meshNodes;   // per model mesh: nodes showing it (0 or 1)
  std::vector<std::vector<std::string>> targetNames;  // per model mesh: its glTF morph targets
  // Per model mesh and target: the factor its target is written scaled by and its weights
  // divided by (morphScales).
  std::vector<std::vector<float>> targetScale;
};

// gltf_animation.cpp: per mesh and morph target, what keeps the clips' weights of the target in
// [0, 1] (importers such as Blender size a shape key's slider to it): the weight of largest size
// when every weight has one sign and some lie outside, else 1.
std::vector<std::vector<float>> morphScales(const Scene& scene, Diagnostics& diagnostics);

// gltf_materials.cpp: samplers, images, textures and materials, in the model's order (material
// i of the model is material i of the file).
void addMaterials(Document& doc, const Scene& scene);
// gltf_meshes.cpp: joint nodes, skins, meshes and their nodes.
NodeMap addNodesAndMeshes(Document& doc, const Scene& scene);
// gltf_animation.cpp: one animation per clip that plays on the skeleton or the meshes.
void addAnimations(Document& doc, const Scene& scene, const NodeMap& map);

// A file-name-safe form of `name` (letters, digits, '-', '_', '.'), never empty.
std::string safeFileName(const std::string& name);

}  // namespace marrow::formats::gltf
