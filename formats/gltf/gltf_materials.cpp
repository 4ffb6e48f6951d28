// Materials as pbrMetallicRoughness with their diffuse texture, and the images those need.
#include <algorithm>
#include <set>

#include "formats/gltf/gltf_internal.h"
#include "formats/image/png_writer.h"
#include "formats/image/dds.h"
#include "formats/image/tga.h"

namespace marrow::formats::gltf {
namespace {

bool startsWith(std::span<const std::byte> b, std::initializer_list<int> magic) {
  if (b.size() < magic.size()) return false;
  std::size_t i = 0;
  for (int m : magic)
    if (std::to_integer<int>(b[i++]) != m) return false;
  return true;
}

struct Encoded {
  std::vector<std::byte> bytes;
  const char* mimeType = "image/png";
  const char* extension = ".png";
};

// glTF 2.0 core images are PNG or JPEG (§5.20): those pass through, DDS and TGA are decoded and
// re-encoded as PNG.
bool encodeForGltf(const Texture& t, Encoded& out, Document& doc) {
  const std::string field = "texture '" + t.name + "'";
  if (t.data.empty()) {
    doc.warn(field, "its image was not found: the material is written without it");
    return false;
  }
  if (startsWith(t.data, {0x89, 'P', 'N', 'G'})) {
    out.bytes = t.data;
    return true;
  }
  if (startsWith(t.data, {0xff, 0xd8, 0xff})) {
    out = {t.data, "image/jpeg", ".jpg"};
    return true;
  }
  if (isDds(t.data)) {
    auto image = readDds(t.data, t.path.empty() ? t.name : t.path);
    if (!image) {
      doc.warn(field, "its DDS image cannot be read (" + image.error().message + "): left out");
      return false;
    }
    auto rgba = decodeDdsLevel(*image, 0);
    if (!rgba) {
      doc.warn(field, "its DDS image cannot be decoded: left out");
      return false;
    }
    out.bytes = encodePng(*rgba, image->width, image->height);
    return !out.bytes.empty();
  }
  // TGA has no magic: a name ending in .tga (decoded even when its header is implausible, for
  // the reason it cannot be), or the 2.0 footer after a plausible header, says it is one.
  if (hasTgaSuffix(t.path) || hasTgaSuffix(t.name) || isTga(t.data, {})) {
    auto image = decodeTga(t.data, t.path.empty() ? t.name : t.path);
    if (!image) {
      doc.warn(field, "its TGA image cannot be read (" + image.error().describe() + "): left out");
      return false;
    }
    doc.diagnostics->append(image->diagnostics);
    out.bytes = encodePng(image->rgba, image->width, image->height);
    return !out.bytes.empty();
  }
  doc.warn(field,
           "its image is neither PNG, JPEG, DDS nor TGA (BMP and other formats are not "
           "converted, and glTF carries only PNG and JPEG): left out");
  return false;
}

glm::vec4 clamp01(glm::vec4 v) {
  return glm::clamp(v, glm::vec4(0.0f), glm::vec4(1.0f));
}

}  // namespace

void addMaterials(Document& doc, const Scene& scene) {
  // Textures are written only when a material uses them as its diffuse map.
  std::vector<int> textureOf(scene.textures.size(), -2);  // -2: not needed, -1: left out
  std::set<std::string> usedNames;
  auto textureIndex = [&](int t) {
    if (t < 0 || static_cast<std::size_t>(t) >= scene.textures.size()) return -1;
    if (textureOf[t] != -2) return textureOf[t];
    const Texture& tex = scene.textures[t];
    Encoded enc;
    if (!encodeForGltf(tex, enc, doc)) return textureOf[t] = -1;
    if (doc.samplers.empty()) {
      // Linear, mipmapped, repeating: what the viewer does.
      Json s = Json::object();
      s.set("magFilter", 9729).set("minFilter", 9987).set("wrapS", 10497).set("wrapT", 10497);
      doc.samplers.push(std::move(s));
    }
    Json image = Json::object();
    image.set("name", tex.name);
    if (doc.embedImages) {
      image.set("bufferView", doc.view(enc.bytes, kNoTarget)).set("mimeType", enc.mimeType);
    } else {
      std::string stem = tex.name.empty() ? tex.path : tex.name;
      if (const auto slash = stem.find_last_of("/\\"); slash != std::string::npos)
        stem = stem.substr(slash + 1);
      if (const auto dot = stem.find_last_of('.'); dot != std::string::npos && dot > 0)
        stem.resize(dot);
      std::string name = safeFileName(doc.baseName + "_" + stem) + enc.extension;
      for (int n = 2; usedNames.count(name); ++n)
        name = safeFileName(doc.baseName + "_" + stem + "_" + std::to_string(n)) + enc.extension;
      usedNames.insert(name);
      image.set("uri", name);
      doc.imageFiles.push_back({name, std::move(enc.bytes)});
    }
    const int imageIndex = static_cast<int>(doc.images.push(std::move(image)));
    Json texture = Json::object();
    texture.set("sampler", 0).set("source", imageIndex);
    if (!tex.name.empty()) texture.set("name", tex.name);
    return textureOf[t] = static_cast<int>(doc.textures.push(std::move(texture)));
  };

  // texCoord k needs TEXCOORD_k on every primitive with the material (§3.9.2); meshes without
  // uv at all get an untextured copy of it (gltf_meshes.cpp). Readers can name a set the mesh
  // does not have (assimp's Collada CHANNEL1 on a mesh with one set): then set 0, which the
  // viewer draws with.
  auto everyMeshHasSet = [&](std::size_t material, std::size_t set) {
    for (const Mesh& mesh : scene.meshes) {
      const auto complete = [&](std::size_t s) {
        return s < mesh.uvSets.size() && mesh.uvSets[s].size() == mesh.vertexCount();
      };
      if (mesh.material == static_cast<int>(material) && complete(0) && !complete(set))
        return false;
    }
    return true;
  };

  for (std::size_t mi = 0; mi < scene.materials.size(); ++mi) {
    const Material& m = scene.materials[mi];
    glm::vec4 base = clamp01(m.diffuse);
    if (!m.diffuseAlphaIsOpacity) base.a = 1.0f;
    Json pbr = Json::object();
    pbr.set("baseColorFactor", Json::numbers({base.r, base.g, base.b, base.a}));
    pbr.set("metallicFactor", 0).set("roughnessFactor", 1);
    // One map is written: the first diffuse one, as the base colour. Every other map is said.
    std::string leftOut;
    std::size_t left = 0;
    bool based = false;
    for (const MaterialMap& map : m.maps) {
      if (map.kind != "diffuse" || based) {
        if (left++ < 3) {
          const bool named = map.texture >= 0 && static_cast<std::size_t>(map.texture) < scene.textures.size();
          leftOut += (leftOut.empty() ? "" : ", ") + map.kind + " '" +
                     (named ? scene.textures[static_cast<std::size_t>(map.texture)].name : std::string("?")) + "'";
        }
        continue;
      }
      based = true;
      const int t = textureIndex(map.texture);
      if (t >= 0) {
        Json info = Json::object();
        info.set("index", t);
        if (map.uvSet > 0 && everyMeshHasSet(mi, static_cast<std::size_t>(map.uvSet)))
          info.set("texCoord", map.uvSet);
        else if (map.uvSet > 0)
          doc.warn("material '" + m.name + "'",
                   "its texture is on uv set " + std::to_string(map.uvSet) +
                       ", which a mesh using it does not have: set 0 is used, as the viewer does");
        pbr.set("baseColorTexture", std::move(info));
      }
    }
    if (left)
      doc.warn("material '" + m.name + "'",
               std::to_string(left) + (left == 1 ? " map is" : " maps are") +
                   " left out: the glTF material keeps its first diffuse map as the base colour (" + leftOut +
                   (left > 3 ? ", …" : "") + ")");
    Json material = Json::object();
    material.set("name", m.name).set("pbrMetallicRoughness", std::move(pbr));
    if (base.a < 1.0f) material.set("alphaMode", "BLEND");
    doc.materials.push(std::move(material));
  }
}

}  // namespace marrow::formats::gltf
