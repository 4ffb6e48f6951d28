// glTF 2.0's JSON into plain structs, through simdjson (Debian's libsimdjson-dev: a validating,
// fast DOM parser; only this file includes its large header). Every member is type-checked here,
// so that the model's half (gltf_reader.cpp) only checks indices and sizes against each other.
#include "formats/gltf/gltf_document.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>

#include "formats/io/result.h"

namespace marrow::formats::gltf::in {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

std::uint32_t le32(std::span<const std::byte> d, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, d.data() + at, 4);
  return v;  // x86 and ARM Linux are little-endian, as the format
}

// "accessors[3]" + "count" → "accessors[3].count"; a top-level member is its key alone.
std::string path(const std::string& at, std::string_view key) {
  return at.empty() ? std::string(key) : at + "." + std::string(key);
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

class Parser {
 public:
  explicit Parser(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw FormatException(FormatError{file_, field, kNoOffset, message});
  }

  std::optional<element> member(object o, std::string_view key) const {
    element e;
    if (o.at_key(key).get(e) != simdjson::SUCCESS) return std::nullopt;
    return e;
  }

  object objectOf(element e, const std::string& field) const {
    object o;
    if (e.get(o) != simdjson::SUCCESS) fail(field, "is not a JSON object");
    return o;
  }
  std::optional<object> objectAt(object o, std::string_view key, const std::string& at) const {
    const auto e = member(o, key);
    if (!e) return std::nullopt;
    return objectOf(*e, path(at, key));
  }
  std::optional<array> arrayAt(object o, std::string_view key, const std::string& at) const {
    const auto e = member(o, key);
    if (!e) return std::nullopt;
    array a;
    if (e->get(a) != simdjson::SUCCESS) fail(path(at, key), "is not a JSON array");
    return a;
  }

  // A number; integers written as doubles ("5e+05") are whole numbers all the same.
  std::optional<double> numberOf(element e) const {
    switch (e.type()) {
      case element_type::INT64: return static_cast<double>(e.get_int64().value_unsafe());
      case element_type::UINT64: return static_cast<double>(e.get_uint64().value_unsafe());
      case element_type::DOUBLE: return e.get_double().value_unsafe();
      default: return std::nullopt;
    }
  }
  std::int64_t integerOf(element e, const std::string& field, std::int64_t lo, std::int64_t hi) const {
    const auto n = numberOf(e);
    if (!n || !std::isfinite(*n) || std::floor(*n) != *n) fail(field, "is not an integer");
    if (*n < static_cast<double>(lo) || *n > static_cast<double>(hi))
      fail(field, number(*n) + " is out of range (" + std::to_string(lo) + " … " + std::to_string(hi) + ")");
    return static_cast<std::int64_t>(*n);
  }
  // An index into one of the document's arrays: -1 when absent.
  int index(object o, std::string_view key, const std::string& at) const {
    const auto e = member(o, key);
    return e ? static_cast<int>(integerOf(*e, path(at, key), 0, std::numeric_limits<int>::max())) : -1;
  }
  std::uint64_t unsignedAt(object o, std::string_view key, const std::string& at, std::uint64_t fallback,
                           std::uint64_t hi = std::uint64_t{1} << 53) const {
    const auto e = member(o, key);
    return e ? static_cast<std::uint64_t>(integerOf(*e, path(at, key), 0, static_cast<std::int64_t>(hi)))
             : fallback;
  }
  float floatAt(object o, std::string_view key, const std::string& at, float fallback) const {
    const auto e = member(o, key);
    if (!e) return fallback;
    const auto n = numberOf(*e);
    if (!n || !std::isfinite(static_cast<float>(*n))) fail(path(at, key), "is not a finite number");
    return static_cast<float>(*n);
  }
  std::string stringOf(element e, const std::string& field) const {
    std::string_view s;
    if (e.get(s) != simdjson::SUCCESS) fail(field, "is not a string");
    return std::string(s);
  }
  std::string stringAt(object o, std::string_view key, const std::string& at, std::string fallback = {}) const {
    const auto e = member(o, key);
    return e ? stringOf(*e, path(at, key)) : fallback;
  }
  bool boolAt(object o, std::string_view key, const std::string& at, bool fallback) const {
    const auto e = member(o, key);
    if (!e) return fallback;
    bool b = false;
    if (e->get(b) != simdjson::SUCCESS) fail(path(at, key), "is not true or false");
    return b;
  }
  // An array of exactly n finite numbers.
  void floatsAt(object o, std::string_view key, const std::string& at, float* out, std::size_t n) const {
    const auto a = arrayAt(o, key, at);
    if (!a) return;
    const std::string field = path(at, key);
    if (a->size() != n) fail(field, "has " + std::to_string(a->size()) + " numbers where " + std::to_string(n) + " belong");
    std::size_t i = 0;
    for (element e : *a) {
      const auto v = numberOf(e);
      if (!v || !std::isfinite(static_cast<float>(*v))) fail(field, "holds something that is not a finite number");
      out[i++] = static_cast<float>(*v);
    }
  }
  std::vector<int> indicesAt(object o, std::string_view key, const std::string& at) const {
    std::vector<int> out;
    const auto a = arrayAt(o, key, at);
    if (!a) return out;
    out.reserve(a->size());
    const std::string field = path(at, key);
    for (element e : *a) out.push_back(static_cast<int>(integerOf(e, field, 0, std::numeric_limits<int>::max())));
    return out;
  }
  std::vector<std::string> stringsAt(object o, std::string_view key, const std::string& at) const {
    std::vector<std::string> out;
    const auto a = arrayAt(o, key, at);
    if (!a) return out;
    const std::string field = path(at, key);
    for (element e : *a) out.push_back(stringOf(e, field));
    return out;
  }

  // Calls each(item, "key[i]") for the objects of a top-level array.
  template <class F>
  void eachObject(object o, std::string_view key, const std::string& at, F&& each) const {
    const auto a = arrayAt(o, key, at);
    if (!a) return;
    std::size_t i = 0;
    for (element e : *a) {
      const std::string field = path(at, key) + "[" + std::to_string(i++) + "]";
      each(objectOf(e, field), field);
    }
  }

  TextureRef textureRef(object o, std::string_view key, const std::string& at) const {
    TextureRef r;
    const auto t = objectAt(o, key, at);
    if (!t) return r;
    const std::string field = path(at, key);
    r.texture = index(*t, "index", field);
    if (r.texture < 0) fail(field + ".index", "is missing");
    r.texCoord = static_cast<int>(unsignedAt(*t, "texCoord", field, 0, 255));
    if (const auto ext = objectAt(*t, "extensions", field); ext && member(*ext, "KHR_texture_transform"))
      r.transformed = true;
    return r;
  }

  // Sorted by semantic, for the reader's binary search (the first of a repeated one wins).
  std::vector<Attribute> attributes(object o, const std::string& field) const {
    std::vector<Attribute> out;
    for (auto kv : o) {
      const std::string name(kv.key);
      out.push_back({name, static_cast<int>(integerOf(kv.value, field + "." + name, 0, std::numeric_limits<int>::max()))});
    }
    std::stable_sort(out.begin(), out.end(), [](const Attribute& a, const Attribute& b) { return a.semantic < b.semantic; });
    return out;
  }

 private:
  const std::string& file_;
};

int componentsOf(std::string_view type, bool& matrix) {
  matrix = type.size() == 4 && type.substr(0, 3) == "MAT";
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4" || type == "MAT2") return 4;
  if (type == "MAT3") return 9;
  if (type == "MAT4") return 16;
  return 0;
}

// What surrounds the JSON text in files seen in the wild: a UTF-8 byte order mark before it, NULs
// padding a .glb's JSON chunk (the spec pads with spaces, which JSON allows).
std::span<const std::byte> trimmed(std::span<const std::byte> json) {
  if (json.size() >= 3 && json[0] == std::byte{0xEF} && json[1] == std::byte{0xBB} && json[2] == std::byte{0xBF})
    json = json.subspan(3);
  while (!json.empty() && json.back() == std::byte{0}) json = json.first(json.size() - 1);
  return json;
}

element parseJson(simdjson::dom::parser& parser, std::span<const std::byte> json, const std::string& file) {
  json = trimmed(json);
  if (json.empty()) throw FormatException(FormatError{file, "JSON", kNoOffset, "is empty: the file is not glTF"});
  element root;
  const auto error = parser.parse(reinterpret_cast<const char*>(json.data()), json.size()).get(root);
  if (error != simdjson::SUCCESS)
    throw FormatException(FormatError{file, "JSON", kNoOffset, std::string("is not valid JSON: ") + simdjson::error_message(error)});
  return root;
}

// asset.version: a string in glTF 2.0; early glTF 1.0 exporters wrote a number (collada2gltf: 1).
std::string versionOf(object asset) {
  element e;
  if (asset.at_key("version").get(e) != simdjson::SUCCESS) return {};
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) return std::string(s);
  double n = 0;
  if (e.get(n) == simdjson::SUCCESS && std::isfinite(n)) return std::to_string(static_cast<long long>(n));
  return {};
}

}  // namespace

Container container(std::span<const std::byte> data, const std::string& file) {
  Container c;
  if (data.size() < 4 || std::memcmp(data.data(), "glTF", 4) != 0) {
    c.json = data;
    return c;
  }
  const auto fail = [&](const char* field, std::uint64_t at, const std::string& message) {
    throw FormatException(FormatError{file, field, at, message});
  };
  c.glb = true;
  if (data.size() < 12) fail("header", 0, "the 12-byte .glb header is cut short");
  c.glbVersion = le32(data, 4);
  if (c.glbVersion != 2) return c;  // glTF 1.0's binary form: read through assimp
  const std::uint64_t length = le32(data, 8);
  if (length > data.size()) fail("length", 8, "says " + std::to_string(length) + " bytes; the file has " + std::to_string(data.size()));
  const auto bytes = data.first(static_cast<std::size_t>(length));
  std::size_t at = 12;
  bool first = true;
  while (at + 8 <= bytes.size()) {
    const std::uint64_t size = le32(bytes, at), type = le32(bytes, at + 4);
    if (size > bytes.size() - at - 8)
      fail("chunkLength", at, "the chunk of " + std::to_string(size) + " bytes runs past the end of the file");
    const auto body = bytes.subspan(at + 8, static_cast<std::size_t>(size));
    if (first && type != 0x4E4F534Au) fail("chunkType", at + 4, "the first chunk is not JSON");
    if (type == 0x4E4F534Au && first) c.json = body;
    else if (type == 0x004E4942u && c.bin.empty()) c.bin = body;  // the first BIN chunk; others are ignored (§4.4.3.1)
    first = false;
    at += 8 + static_cast<std::size_t>(size);
  }
  if (first) fail("chunkLength", 12, "the file has no JSON chunk");
  return c;
}

std::optional<Summary> summarise(std::span<const std::byte> json) {
  json = trimmed(json);
  if (json.empty()) return std::nullopt;
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(reinterpret_cast<const char*>(json.data()), json.size()).get(root) != simdjson::SUCCESS)
    return std::nullopt;
  Summary s;
  object o, asset;
  if (root.get(o) != simdjson::SUCCESS) return std::nullopt;
  std::string_view v;
  if (o.at_key("asset").get(asset) == simdjson::SUCCESS) s.version = versionOf(asset);
  for (const char* key : {"extensionsUsed", "extensionsRequired"}) {
    array a;
    if (o.at_key(key).get(a) != simdjson::SUCCESS) continue;
    for (element e : a)
      if (e.get(v) == simdjson::SUCCESS)
        (std::strcmp(key, "extensionsUsed") == 0 ? s.extensionsUsed : s.extensionsRequired).emplace_back(v);
  }
  return s;
}

Document parseDocument(std::span<const std::byte> json, const std::string& file) {
  simdjson::dom::parser parser;
  const element root = parseJson(parser, json, file);
  const Parser p(file);
  const object top = p.objectOf(root, "JSON");
  Document d;

  const auto asset = p.objectAt(top, "asset", "");
  if (!asset) p.fail("asset", "is missing: the file is not glTF");
  d.version = versionOf(*asset);
  d.generator = p.stringAt(*asset, "generator", "asset");
  d.extensionsUsed = p.stringsAt(top, "extensionsUsed", "");
  d.extensionsRequired = p.stringsAt(top, "extensionsRequired", "");
  // What assimp reads instead (gltfNeedsAssimp) is not walked: glTF 1.0's members have other types.
  if (!d.version.starts_with("2")) return d;
  for (const auto& e : d.extensionsUsed)
    if (e == "KHR_draco_mesh_compression") return d;
  d.scene = p.index(top, "scene", "");
  p.eachObject(top, "scenes", "", [&](object o, const std::string& at) { d.scenes.push_back(p.indicesAt(o, "nodes", at)); });

  p.eachObject(top, "buffers", "", [&](object o, const std::string& at) {
    d.buffers.push_back({p.stringAt(o, "uri", at), p.unsignedAt(o, "byteLength", at, 0)});
  });
  p.eachObject(top, "bufferViews", "", [&](object o, const std::string& at) {
    BufferView v;
    v.buffer = p.index(o, "buffer", at);
    if (v.buffer < 0) p.fail(at + ".buffer", "is missing");
    v.offset = p.unsignedAt(o, "byteOffset", at, 0);
    v.length = p.unsignedAt(o, "byteLength", at, 0);
    v.stride = static_cast<std::uint32_t>(p.unsignedAt(o, "byteStride", at, 0, 252));
    d.views.push_back(v);
  });
  p.eachObject(top, "accessors", "", [&](object o, const std::string& at) {
    Accessor a;
    a.view = p.index(o, "bufferView", at);
    a.offset = p.unsignedAt(o, "byteOffset", at, 0);
    a.componentType = static_cast<int>(p.unsignedAt(o, "componentType", at, 0, 65535));
    a.normalized = p.boolAt(o, "normalized", at, false);
    a.count = p.unsignedAt(o, "count", at, 0);
    const std::string type = p.stringAt(o, "type", at);
    a.components = componentsOf(type, a.matrix);
    if (a.components == 0) p.fail(at + ".type", "'" + type + "' is not an accessor type");
    if (const auto s = p.objectAt(o, "sparse", at)) {
      const std::string field = at + ".sparse";
      Sparse sp;
      sp.count = p.unsignedAt(*s, "count", field, 0);
      const auto ind = p.objectAt(*s, "indices", field);
      const auto val = p.objectAt(*s, "values", field);
      if (!ind || !val) p.fail(field, "needs indices and values");
      sp.indicesView = p.index(*ind, "bufferView", field + ".indices");
      sp.indicesOffset = p.unsignedAt(*ind, "byteOffset", field + ".indices", 0);
      sp.indicesType = static_cast<int>(p.unsignedAt(*ind, "componentType", field + ".indices", 0, 65535));
      sp.valuesView = p.index(*val, "bufferView", field + ".values");
      sp.valuesOffset = p.unsignedAt(*val, "byteOffset", field + ".values", 0);
      a.sparse = sp;
    }
    d.accessors.push_back(a);
  });

  p.eachObject(top, "meshes", "", [&](object o, const std::string& at) {
    MeshDef m;
    m.name = p.stringAt(o, "name", at);
    p.eachObject(o, "primitives", at, [&](object po, const std::string& pat) {
      Primitive prim;
      if (const auto attrs = p.objectAt(po, "attributes", pat)) prim.attributes = p.attributes(*attrs, pat + ".attributes");
      prim.indices = p.index(po, "indices", pat);
      prim.material = p.index(po, "material", pat);
      prim.mode = static_cast<int>(p.unsignedAt(po, "mode", pat, 4, 65535));
      p.eachObject(po, "targets", pat, [&](object t, const std::string& tat) { prim.targets.push_back(p.attributes(t, tat)); });
      if (const auto ext = p.objectAt(po, "extensions", pat))
        prim.draco = p.member(*ext, "KHR_draco_mesh_compression").has_value();
      m.primitives.push_back(std::move(prim));
    });
    if (const auto extras = p.objectAt(o, "extras", at)) {
      // A convention, not the standard: a malformed list is ignored rather than refused.
      array names;
      if (const auto e = p.member(*extras, "targetNames"); e && e->get(names) == simdjson::SUCCESS)
        for (element n : names) {
          std::string_view s;
          m.targetNames.emplace_back(n.get(s) == simdjson::SUCCESS ? std::string(s) : std::string());
        }
    }
    d.meshes.push_back(std::move(m));
  });

  p.eachObject(top, "nodes", "", [&](object o, const std::string& at) {
    Node n;
    n.name = p.stringAt(o, "name", at);
    n.mesh = p.index(o, "mesh", at);
    n.skin = p.index(o, "skin", at);
    n.children = p.indicesAt(o, "children", at);
    if (p.member(o, "matrix")) {
      n.hasMatrix = true;
      p.floatsAt(o, "matrix", at, &n.matrix[0][0], 16);  // column-major, as glm
    }
    p.floatsAt(o, "translation", at, &n.translation.x, 3);
    float q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    p.floatsAt(o, "rotation", at, q, 4);
    n.rotation = glm::quat(q[3], q[0], q[1], q[2]);
    p.floatsAt(o, "scale", at, &n.scale.x, 3);
    d.nodes.push_back(std::move(n));
  });

  p.eachObject(top, "skins", "", [&](object o, const std::string& at) {
    d.skins.push_back({p.stringAt(o, "name", at), p.indicesAt(o, "joints", at), p.index(o, "inverseBindMatrices", at)});
  });

  p.eachObject(top, "animations", "", [&](object o, const std::string& at) {
    AnimationDef a;
    a.name = p.stringAt(o, "name", at);
    p.eachObject(o, "samplers", at, [&](object s, const std::string& sat) {
      a.samplers.push_back({p.index(s, "input", sat), p.index(s, "output", sat), p.stringAt(s, "interpolation", sat, "LINEAR")});
    });
    p.eachObject(o, "channels", at, [&](object c, const std::string& cat) {
      ChannelDef ch;
      ch.sampler = p.index(c, "sampler", cat);
      if (const auto target = p.objectAt(c, "target", cat)) {
        ch.node = p.index(*target, "node", cat + ".target");
        ch.path = p.stringAt(*target, "path", cat + ".target");
      }
      a.channels.push_back(std::move(ch));
    });
    // Marrow's own convention (gltf_animation.cpp): the frame rate the clip was authored at.
    // Anything else there is ignored, not refused.
    object extras;
    if (const auto x = p.member(o, "extras"); x && x->get(extras) == simdjson::SUCCESS)
      if (const auto e = p.member(extras, "frameRate"))
        if (const auto n = p.numberOf(*e); n && std::isfinite(*n)) a.frameRate = *n;
    d.animations.push_back(std::move(a));
  });

  p.eachObject(top, "materials", "", [&](object o, const std::string& at) {
    MaterialDef m;
    m.name = p.stringAt(o, "name", at);
    if (const auto pbr = p.objectAt(o, "pbrMetallicRoughness", at)) {
      const std::string field = at + ".pbrMetallicRoughness";
      p.floatsAt(*pbr, "baseColorFactor", field, &m.baseColor.x, 4);
      m.metallic = p.floatAt(*pbr, "metallicFactor", field, 1.0f);
      m.roughness = p.floatAt(*pbr, "roughnessFactor", field, 1.0f);
      m.baseColorTexture = p.textureRef(*pbr, "baseColorTexture", field);
      m.metallicRoughnessTexture = p.textureRef(*pbr, "metallicRoughnessTexture", field);
    }
    m.normalTexture = p.textureRef(o, "normalTexture", at);
    m.occlusionTexture = p.textureRef(o, "occlusionTexture", at);
    m.emissiveTexture = p.textureRef(o, "emissiveTexture", at);
    p.floatsAt(o, "emissiveFactor", at, &m.emissive.x, 3);
    m.alphaMode = p.stringAt(o, "alphaMode", at, "OPAQUE");
    m.alphaCutoff = p.floatAt(o, "alphaCutoff", at, 0.5f);
    m.doubleSided = p.boolAt(o, "doubleSided", at, false);
    if (const auto ext = p.objectAt(o, "extensions", at)) {
      const std::string field = at + ".extensions";
      if (const auto sg = p.objectAt(*ext, "KHR_materials_pbrSpecularGlossiness", field)) {
        const std::string sf = field + ".KHR_materials_pbrSpecularGlossiness";
        m.specularGlossiness = true;
        p.floatsAt(*sg, "diffuseFactor", sf, &m.baseColor.x, 4);
        p.floatsAt(*sg, "specularFactor", sf, &m.specular.x, 3);
        m.glossiness = p.floatAt(*sg, "glossinessFactor", sf, 1.0f);
        if (const TextureRef t = p.textureRef(*sg, "diffuseTexture", sf); t.texture >= 0) m.baseColorTexture = t;
      }
      m.unlit = p.member(*ext, "KHR_materials_unlit").has_value();
    }
    d.materials.push_back(std::move(m));
  });
  p.eachObject(top, "textures", "", [&](object o, const std::string& at) {
    d.textures.push_back({p.stringAt(o, "name", at), p.index(o, "source", at)});
  });
  p.eachObject(top, "images", "", [&](object o, const std::string& at) {
    d.images.push_back({p.stringAt(o, "name", at), p.stringAt(o, "uri", at), p.stringAt(o, "mimeType", at), p.index(o, "bufferView", at)});
  });
  return d;
}

}  // namespace marrow::formats::gltf::in
