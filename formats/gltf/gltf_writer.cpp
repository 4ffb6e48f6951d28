// The document and its two containers: a .glb (§4.4: header, JSON chunk, BIN chunk) or a .gltf
// with its buffer and images as files beside it.
#include "formats/gltf/gltf_writer.h"

#include "formats/gltf/gltf_internal.h"
#include "formats/model/convert.h"

namespace marrow::formats {
namespace {

using gltf::Document;
using gltf::Json;

// Builds everything but the buffer's own entry; `bufferUri` empty for a .glb.
std::string build(const Scene& source, Document& doc, const std::string& bufferUri) {
  Scene scene = source;
  convertBasis(scene, Basis{});  // glTF: +Y up, right-handed, metres (§3.4)
  gltf::addMaterials(doc, scene);
  const gltf::NodeMap map = gltf::addNodesAndMeshes(doc, scene);
  gltf::addAnimations(doc, scene, map);

  Json root = Json::object();
  root.set("asset", Json::object().set("version", "2.0").set("generator", "Marrow"));
  if (!doc.sceneRoots.empty()) {
    root.set("scene", 0);
    Json scn = Json::object();
    scn.set("nodes", Json::arrayOf(doc.sceneRoots));
    Json scenes = Json::array();
    scenes.push(std::move(scn));
    root.set("scenes", std::move(scenes));
  }
  const std::pair<const char*, Json*> parts[] = {
      {"nodes", &doc.nodes},         {"meshes", &doc.meshes},     {"skins", &doc.skins},
      {"materials", &doc.materials}, {"textures", &doc.textures}, {"images", &doc.images},
      {"samplers", &doc.samplers},   {"animations", &doc.animations},
      {"accessors", &doc.accessors}, {"bufferViews", &doc.bufferViews}};
  for (const auto& [name, value] : parts)
    if (!value->empty()) root.set(name, std::move(*value));
  while (doc.bin.size() % 4) doc.bin.push_back(std::byte{0});
  if (!doc.bin.empty()) {
    Json buffer = Json::object();
    buffer.set("byteLength", doc.bin.size());
    if (!bufferUri.empty()) buffer.set("uri", bufferUri);
    Json buffers = Json::array();
    buffers.push(std::move(buffer));
    root.set("buffers", std::move(buffers));
  }
  return root.dump();
}

void putU32(std::vector<std::byte>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

std::vector<std::byte> bytesOf(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

}  // namespace

Result<std::vector<std::byte>> writeGlb(const Scene& scene, Diagnostics& diagnostics) {
  Document doc;
  doc.diagnostics = &diagnostics;
  std::string json = build(scene, doc, "");
  while (json.size() % 4) json += ' ';  // §4.4.3.1: the JSON chunk is padded with spaces
  const std::uint64_t total = 12 + 8 + json.size() + (doc.bin.empty() ? 0 : 8 + doc.bin.size());
  if (total > 0xffffffffu)
    return FormatError{"glb", "length", kNoOffset, "the model needs more than 4 GiB"};
  std::vector<std::byte> out;
  out.reserve(total);
  putU32(out, 0x46546C67);  // "glTF"
  putU32(out, 2);
  putU32(out, static_cast<std::uint32_t>(total));
  putU32(out, static_cast<std::uint32_t>(json.size()));
  putU32(out, 0x4E4F534A);  // "JSON"
  const auto jsonBytes = bytesOf(json);
  out.insert(out.end(), jsonBytes.begin(), jsonBytes.end());
  if (!doc.bin.empty()) {  // already padded with zeros to 4 bytes
    putU32(out, static_cast<std::uint32_t>(doc.bin.size()));
    putU32(out, 0x004E4942);  // "BIN\0"
    out.insert(out.end(), doc.bin.begin(), doc.bin.end());
  }
  return out;
}

Result<GltfFiles> writeGltf(const Scene& scene, const std::string& baseName,
                            Diagnostics& diagnostics) {
  Document doc;
  doc.diagnostics = &diagnostics;
  doc.embedImages = false;
  doc.baseName = gltf::safeFileName(baseName);
  const std::string binName = doc.baseName + ".bin";
  const std::string json = build(scene, doc, binName);
  GltfFiles files;
  files.files.push_back({baseName + ".gltf", bytesOf(json)});
  if (!doc.bin.empty()) files.files.push_back({binName, std::move(doc.bin)});
  for (auto& image : doc.imageFiles) files.files.push_back(std::move(image));
  return files;
}

}  // namespace marrow::formats
