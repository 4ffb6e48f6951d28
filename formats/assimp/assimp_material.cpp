// aiMaterial → Material, texture references → Scene::textures (embedded images copied).
#include <assimp/material.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <type_traits>

#include "formats/assimp/assimp_convert.h"
#include "formats/image/png_writer.h"
#include "formats/model/texture_table.h"

namespace marrow::formats::assimpconv {
namespace {

struct MapKind {
  aiTextureType type;
  const char* kind;
};

// The model's names for assimp's texture slots (Material::maps); "diffuse" is what the renderer
// looks for first.
constexpr MapKind kMapKinds[] = {
    {aiTextureType_DIFFUSE, "diffuse"},
    {aiTextureType_BASE_COLOR, "baseColor"},
    {aiTextureType_SPECULAR, "specular"},
    {aiTextureType_AMBIENT, "ambient"},
    {aiTextureType_EMISSIVE, "emissive"},
    {aiTextureType_EMISSION_COLOR, "emissionColor"},
    {aiTextureType_NORMALS, "normal"},
    {aiTextureType_NORMAL_CAMERA, "normalCamera"},
    {aiTextureType_HEIGHT, "height"},
    {aiTextureType_DISPLACEMENT, "displacement"},
    {aiTextureType_SHININESS, "shininess"},
    {aiTextureType_OPACITY, "opacity"},
    {aiTextureType_LIGHTMAP, "lightmap"},
    {aiTextureType_REFLECTION, "reflection"},
    {aiTextureType_METALNESS, "metalness"},
    {aiTextureType_DIFFUSE_ROUGHNESS, "roughness"},
    {aiTextureType_AMBIENT_OCCLUSION, "ambientOcclusion"},
    {aiTextureType_SHEEN, "sheen"},
    {aiTextureType_CLEARCOAT, "clearcoat"},
    {aiTextureType_TRANSMISSION, "transmission"},
    {aiTextureType_UNKNOWN, "unknown"},
};

const char* kindOf(unsigned semantic) {
  for (const auto& k : kMapKinds)
    if (static_cast<unsigned>(k.type) == semantic) return k.kind;
  return "other";
}

// Assimp hands uncompressed embedded images over as BGRA texels (MDL, HMP skins); the model keeps
// encoded images only, so they become a PNG, deflated fast: this runs while the model opens.
std::vector<std::byte> encodeTexels(const aiTexture& tex) {
  const std::uint32_t w = tex.mWidth;
  return encodePngRows(
      w, tex.mHeight,
      [&](std::uint32_t y, std::uint8_t* out) {
        const aiTexel* t = tex.pcData + std::size_t{y} * w;
        for (std::uint32_t x = 0; x < w; ++x, out += 4) {
          out[0] = t[x].r;
          out[1] = t[x].g;
          out[2] = t[x].b;
          out[3] = t[x].a;
        }
      },
      PngEffort::Fast);
}

std::string formatProperty(const aiMaterialProperty& p) {
  const std::size_t len = p.mDataLength;
  std::string s;
  auto numbers = [&](auto sample) {
    using T = decltype(sample);
    for (std::size_t i = 0; i + sizeof(T) <= len && i < 16 * sizeof(T); i += sizeof(T)) {
      T v;
      std::memcpy(&v, p.mData + i, sizeof(T));
      if (!s.empty()) s += ' ';
      if constexpr (std::is_floating_point_v<T>) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
        s += buf;
      } else {
        s += std::to_string(v);
      }
    }
    if (len > 16 * sizeof(T)) s += " …";
  };
  switch (p.mType) {
    case aiPTI_Float: numbers(float{}); break;
    case aiPTI_Double: numbers(double{}); break;
    case aiPTI_Integer: numbers(std::int32_t{}); break;
    case aiPTI_String:
      // Stored as aiString: a 32-bit length, the characters, a terminating zero.
      if (len >= 4) {
        std::uint32_t n;
        std::memcpy(&n, p.mData, 4);
        s.assign(p.mData + 4, std::min<std::size_t>({n, len - 4, 256}));
      }
      break;
    case aiPTI_Buffer:
      // Importers store enums (mapping mode, shading model) and flags (two-sided) this way.
      if (len == 4) {
        numbers(std::int32_t{});
      } else if (len == 1) {
        s = std::to_string(static_cast<unsigned char>(p.mData[0]));
      } else {
        s = std::to_string(len) + " bytes";
      }
      break;
    default: s = std::to_string(len) + " bytes"; break;
  }
  return s;
}

glm::vec4 colour(const aiMaterial& m, const char* key, unsigned type, unsigned index,
                 glm::vec4 fallback, bool& found) {
  aiColor4D c;
  found = aiGetMaterialColor(&m, key, type, index, &c) == aiReturn_SUCCESS;
  return found ? glm::vec4(c.r, c.g, c.b, c.a) : fallback;
}

}  // namespace

void convertMaterials(const Context& c, Scene& out) {
  const aiScene& scene = c.scene;
  std::map<std::string, int> textureOf;  // by path as the file gives it
  TextureTable textures(out.textures);   // each image once, whatever paths find it
  std::size_t skippedTextures = 0;
  std::size_t missingTextures = 0;
  std::uint64_t embeddedBytes = 0;
  auto textureIndex = [&](const std::string& path) -> int {
    if (auto it = textureOf.find(path); it != textureOf.end()) return it->second;
    Texture t;
    t.path = path;
    t.name = path;
    if (const aiTexture* tex = scene.GetEmbeddedTexture(path.c_str())) {
      if (tex->mFilename.length) t.name = tex->mFilename.C_Str();
      const std::uint64_t bytes =
          tex->mHeight == 0 ? tex->mWidth : std::uint64_t{tex->mWidth} * tex->mHeight * 4;
      embeddedBytes += bytes;
      if (!tex->pcData || embeddedBytes > c.limits.maxAllocation(c.inputBytes)) {
        ++skippedTextures;
      } else if (tex->mHeight == 0) {
        const auto* p = reinterpret_cast<const std::byte*>(tex->pcData);
        t.data.assign(p, p + tex->mWidth);
      } else {
        t.data = encodeTexels(*tex);
        if (t.data.empty()) ++skippedTextures;
      }
      t.embedded = !t.data.empty();
    } else if (!path.empty() && path.front() != '*' && c.read) {
      if (auto found = fetchNamedFile(*c.read, t.path))
        t.data = std::move(found->bytes);
      else if (c.read->fetchTextures)
        ++missingTextures;
    }
    const int index = textures.add(std::move(t));
    textureOf.emplace(path, index);
    return index;
  };

  for (unsigned i = 0; i < scene.mNumMaterials; ++i) {
    const aiMaterial* src = scene.mMaterials[i];
    Material m;
    if (!src) {
      m.name = "material " + std::to_string(i);
      out.materials.push_back(std::move(m));
      continue;
    }
    aiString name;
    m.name = src->Get(AI_MATKEY_NAME, name) == aiReturn_SUCCESS && name.length
                 ? name.C_Str()
                 : "material " + std::to_string(i);
    bool found = false;
    m.diffuse = colour(*src, AI_MATKEY_COLOR_DIFFUSE, m.diffuse, found);
    if (!found) m.diffuse = colour(*src, AI_MATKEY_BASE_COLOR, m.diffuse, found);
    m.ambient = colour(*src, AI_MATKEY_COLOR_AMBIENT, m.ambient, found);
    m.specular = colour(*src, AI_MATKEY_COLOR_SPECULAR, m.specular, found);
    ai_real value = 0;
    if (src->Get(AI_MATKEY_OPACITY, value) == aiReturn_SUCCESS && std::isfinite(value))
      m.diffuse.a = value;
    if (src->Get(AI_MATKEY_SHININESS, value) == aiReturn_SUCCESS && std::isfinite(value))
      m.shininess = value;

    for (const auto& k : kMapKinds) {
      const unsigned count = src->GetTextureCount(k.type);
      for (unsigned t = 0; t < count; ++t) {
        aiString path;
        unsigned uvIndex = 0;
        if (src->GetTexture(k.type, t, &path, nullptr, &uvIndex) != aiReturn_SUCCESS ||
            path.length == 0)
          continue;
        MaterialMap map;
        map.kind = k.kind;
        map.texture = textureIndex(path.C_Str());
        map.uvSet = static_cast<int>(uvIndex);
        m.maps.push_back(std::move(map));
      }
    }

    // Everything else, for inspectors: keys as assimp names them, texture ones tagged with slot.
    constexpr std::size_t kMaxProperties = 64;
    for (unsigned p = 0; p < src->mNumProperties && m.properties.size() < kMaxProperties; ++p) {
      const aiMaterialProperty* prop = src->mProperties[p];
      if (!prop || !prop->mData) continue;
      std::string key = prop->mKey.C_Str();
      if (key == "?mat.name") continue;
      if (prop->mSemantic != 0)
        key +=
            std::string("[") + kindOf(prop->mSemantic) + " " + std::to_string(prop->mIndex) + "]";
      m.properties.push_back({std::move(key), formatProperty(*prop)});
    }
    out.materials.push_back(std::move(m));
  }
  if (skippedTextures)
    c.warn("textures", std::to_string(skippedTextures) +
                           " embedded textures could not be kept (empty, too large or not "
                           "encodable); they are listed by name only");
  if (missingTextures)
    c.warn("textures", std::to_string(missingTextures) +
                           " texture files were not found beside the model; those maps are "
                           "drawn without them");
}

}  // namespace marrow::formats::assimpconv
