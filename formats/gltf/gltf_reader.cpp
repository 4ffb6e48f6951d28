// The native glTF 2.0 reader's second half: buffers, accessors and the document's structs
// (gltf_document.cpp) into the model. The shape of the result is described in gltf_reader.h.
#include "formats/gltf/gltf_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/matrix.hpp>
#include <numeric>
#include <map>
#include <optional>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "formats/assimp/assimp_reader.h"
#include "formats/gltf/gltf_document.h"
#include "formats/io/big_buffer.h"
#include "formats/model/frames.h"
#include "formats/model/names.h"
#include "formats/model/trs.h"

namespace marrow::formats {
namespace {

using namespace gltf::in;

constexpr int kMaxUvSets = 8;  // more than any renderer or format here uses
constexpr int kByte = 5120, kUnsignedByte = 5121, kShort = 5122, kUnsignedShort = 5123,
              kUnsignedInt = 5125, kFloat = 5126;

int componentSize(int type) {
  switch (type) {
    case kByte:
    case kUnsignedByte: return 1;
    case kShort:
    case kUnsignedShort: return 2;
    case kUnsignedInt:
    case kFloat: return 4;
    default: return 0;
  }
}

// One component as a float: normalized integers map to 0…1 (unsigned) or -1…1 (signed, §3.11).
float componentAsFloat(const std::byte* p, int type, bool normalized) {
  switch (type) {
    case kFloat: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case kByte: {
      const auto v = static_cast<std::int8_t>(*p);
      return normalized ? std::max(static_cast<float>(v) / 127.0f, -1.0f) : static_cast<float>(v);
    }
    case kUnsignedByte: {
      const auto v = static_cast<std::uint8_t>(*p);
      return normalized ? static_cast<float>(v) / 255.0f : static_cast<float>(v);
    }
    case kShort: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(static_cast<float>(v) / 32767.0f, -1.0f) : static_cast<float>(v);
    }
    case kUnsignedShort: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? static_cast<float>(v) / 65535.0f : static_cast<float>(v);
    }
    default: {  // kUnsignedInt
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return normalized ? static_cast<float>(static_cast<double>(v) / 4294967295.0) : static_cast<float>(v);
    }
  }
}

std::uint32_t componentAsUnsigned(const std::byte* p, int type) {
  switch (type) {
    case kUnsignedByte: return static_cast<std::uint8_t>(*p);
    case kUnsignedShort: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    default: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

// RFC 4648 base64 (and its URL-safe alphabet), as data: URIs carry buffers and images.
std::optional<std::vector<std::byte>> base64(std::string_view s) {
  static constexpr auto kTable = [] {
    std::array<std::int8_t, 256> t{};
    t.fill(-1);
    for (int i = 0; i < 26; ++i) {
      t[static_cast<std::size_t>('A' + i)] = static_cast<std::int8_t>(i);
      t[static_cast<std::size_t>('a' + i)] = static_cast<std::int8_t>(26 + i);
    }
    for (int i = 0; i < 10; ++i) t[static_cast<std::size_t>('0' + i)] = static_cast<std::int8_t>(52 + i);
    t['+'] = t['-'] = 62;
    t['/'] = t['_'] = 63;
    return t;
  }();
  std::vector<std::byte> out;
  out.reserve(s.size() / 4 * 3 + 3);
  std::uint32_t bits = 0;
  int held = 0;
  for (const char c : s) {
    if (c == '=') break;
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    const int v = kTable[static_cast<unsigned char>(c)];
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out.push_back(static_cast<std::byte>((bits >> held) & 0xFFu));
    }
  }
  return out;
}

// A relative URI as a path: %XX escapes decoded ("my%20model.bin").
std::string uriPath(std::string_view uri) {
  std::string out;
  out.reserve(uri.size());
  const auto hex = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  };
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2])));
      i += 2;
    } else {
      out.push_back(uri[i]);
    }
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string at(const char* array, std::size_t i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

glm::mat4 trsMatrix(const glm::vec3& t, const glm::quat& r, const glm::vec3& s) {
  glm::mat4 m = glm::mat4_cast(r);
  m[0] *= s.x;
  m[1] *= s.y;
  m[2] *= s.z;
  m[3] = glm::vec4(t, 1.0f);
  return m;
}

// Extensions whose absence from the model changes only how surfaces look, or that the accessors
// read anyway (quantized attributes): required or not, the geometry reads right.
constexpr std::string_view kUnderstood[] = {
    "KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_pbrSpecularGlossiness",
    "KHR_materials_unlit", "KHR_materials_emissive_strength", "KHR_materials_ior",
    "KHR_materials_specular", "KHR_materials_clearcoat", "KHR_materials_sheen",
    "KHR_materials_transmission", "KHR_materials_volume", "KHR_materials_variants",
    "KHR_texture_basisu", "KHR_lights_punctual", "EXT_texture_webp"};

class Reader {
 public:
  Reader(std::span<const std::byte> data, const ReadContext& ctx, Container box, Document doc)
      : data_(data), ctx_(ctx), file_(ctx.name), box_(box), doc_(std::move(doc)),
        budget_(ctx.limits.maxAllocation(data.size())) {}

  Scene read() {
    scene_.format = "glTF 2.0";
    scene_.basis = Basis{};
    checkExtensions();
    loadBuffers();
    walkNodes();
    skeleton_ = needsSkeleton();
    if (skeleton_) buildSkeleton();
    readImages();
    readMaterials();
    readMeshes();
    if (!doc_.animations.empty()) readClips();
    if (droppedPrimitives_)
      warn("meshes", std::to_string(droppedPrimitives_) +
                         " primitives of points or lines were left out: the model holds triangles");
    return std::move(scene_);
  }

 private:
  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw FormatException(FormatError{file_, field, kNoOffset, message});
  }
  // Each diagnostic once (a mesh placed by many nodes says its problems once), and paid for.
  void warn(const std::string& field, const std::string& message) {
    if (said(field, message)) scene_.diagnostics.warn(file_, field, kNoOffset, message);
  }
  void info(const std::string& field, const std::string& message) {
    if (said(field, message)) scene_.diagnostics.info(file_, field, kNoOffset, message);
  }
  bool said(const std::string& field, const std::string& message) {
    if (!said_.insert(field + '\n' + message).second) return false;
    charge(2 * (field.size() + message.size()) + 128, field);
    return true;
  }

  // Everything the reader allocates from the file's numbers is charged here first.
  void charge(std::uint64_t bytes, const std::string& field) {
    spent_ += bytes;
    if (bytes > budget_ || spent_ > budget_)
      fail(field, "would need more memory than the limit for a file of this size (" +
                      std::to_string(budget_ >> 20) + " MiB)");
  }

  std::string name(const std::string& given, const std::string& fallback) const {
    std::string n = given.empty() ? fallback : given;
    if (n.size() > ctx_.limits.maxStringLength) n.resize(ctx_.limits.maxStringLength);
    return n;
  }

  void checkExtensions() {
    for (const auto& e : doc_.extensionsRequired) {
      if (std::find(std::begin(kUnderstood), std::end(kUnderstood), e) != std::end(kUnderstood)) continue;
      if (e == "EXT_meshopt_compression")
        fail("extensionsRequired", "the file's buffers are compressed with " + e + ", which Marrow does not read");
      warn("extensionsRequired", "the file requires " + e + ", which Marrow does not know; what it adds is not shown");
    }
  }

  // ---- buffers and accessors ----

  void loadBuffers() {
    std::uint64_t inputBytes = data_.size();
    owned_.reserve(doc_.buffers.size());
    for (std::size_t i = 0; i < doc_.buffers.size(); ++i) {
      const BufferDef& b = doc_.buffers[i];
      const std::string field = at("buffers", i);
      std::span<const std::byte> bytes;
      if (b.uri.empty()) {
        if (!box_.glb || i != 0) fail(field + ".uri", "is missing (only a .glb's first buffer is its binary chunk)");
        bytes = box_.bin;
      } else if (b.uri.starts_with("data:")) {
        const auto comma = b.uri.find(',');
        if (comma == std::string::npos || b.uri.substr(0, comma).find(";base64") == std::string::npos)
          fail(field + ".uri", "is a data: URI that is not base64");
        auto decoded = base64(std::string_view(b.uri).substr(comma + 1));
        if (!decoded) fail(field + ".uri", "holds characters that are not base64");
        owned_.push_back(std::move(*decoded));
        bytes = owned_.back();
      } else {  // a file beside it, fetched once however many buffers name it
        const std::string path = uriPath(b.uri);
        auto [it, fresh] = fetched_.try_emplace(path, owned_.size());
        if (fresh) {
          std::optional<std::vector<std::byte>> got;
          if (ctx_.resolve) got = ctx_.resolve(path);
          if (!got) fail(field + ".uri", "'" + path + "' was not found beside the file");
          inputBytes += got->size();
          owned_.push_back(std::move(*got));
        }
        bytes = owned_[it->second];
      }
      if (bytes.size() < b.length)
        fail(field + ".byteLength", "says " + std::to_string(b.length) + " bytes; the buffer has " + std::to_string(bytes.size()));
      buffers_.push_back(bytes.first(static_cast<std::size_t>(b.length)));
    }
    budget_ = ctx_.limits.maxAllocation(inputBytes);
    if (spent_ > budget_) fail("buffers", "the file's diagnostics alone exceed the limit for its size");
  }

  std::span<const std::byte> view(int v, const std::string& field) const {
    if (v < 0 || static_cast<std::size_t>(v) >= doc_.views.size())
      fail(field, "names buffer view " + std::to_string(v) + ", which the file does not have");
    const BufferView& bv = doc_.views[static_cast<std::size_t>(v)];
    if (bv.buffer < 0 || static_cast<std::size_t>(bv.buffer) >= buffers_.size())
      fail(at("bufferViews", static_cast<std::size_t>(v)) + ".buffer", "names buffer " + std::to_string(bv.buffer) + ", which the file does not have");
    const auto b = buffers_[static_cast<std::size_t>(bv.buffer)];
    if (bv.offset > b.size() || bv.length > b.size() - bv.offset)
      fail(at("bufferViews", static_cast<std::size_t>(v)),
           "bytes " + std::to_string(bv.offset) + " … " + std::to_string(bv.offset + bv.length) +
               " run past the end of buffer " + std::to_string(bv.buffer) + " (" + std::to_string(b.size()) + " bytes)");
    return b.subspan(static_cast<std::size_t>(bv.offset), static_cast<std::size_t>(bv.length));
  }

  const Accessor& accessor(int a, const std::string& field) const {
    if (a < 0 || static_cast<std::size_t>(a) >= doc_.accessors.size())
      fail(field, "names accessor " + std::to_string(a) + ", which the file does not have");
    return doc_.accessors[static_cast<std::size_t>(a)];
  }

  // The bytes of `count` elements of `elementSize` at `offset` in view `v`, `stride` apart.
  std::span<const std::byte> elements(int v, std::uint64_t offset, std::uint64_t count, std::size_t elementSize,
                                      std::size_t& stride, const std::string& field) const {
    const auto bytes = view(v, field);
    const std::uint32_t given = doc_.views[static_cast<std::size_t>(v)].stride;
    stride = given ? given : elementSize;
    if (stride < elementSize)
      fail(field, "the buffer view's byteStride " + std::to_string(stride) + " is less than an element's " +
                      std::to_string(elementSize) + " bytes");
    if (count > 0 && (offset > bytes.size() || bytes.size() - offset < elementSize ||
                      (count - 1) > (bytes.size() - offset - elementSize) / stride))
      fail(field, std::to_string(count) + " elements of " + std::to_string(elementSize) + " bytes from byte " +
                      std::to_string(offset) + " run past the end of buffer view " + std::to_string(v) + " (" +
                      std::to_string(bytes.size()) + " bytes)");
    return bytes.subspan(static_cast<std::size_t>(std::min<std::uint64_t>(offset, bytes.size())));
  }

  // The accessor's elements into `out` (count × components values), converted by `convert`
  // (component pointer, component type) → T; sparse substitutions applied.
  template <class T, class Convert>
  void decode(const Accessor& a, T* out, const std::string& field, Convert convert) {
    const int size = componentSize(a.componentType);
    if (size == 0) fail(field, "component type " + std::to_string(a.componentType) + " is not one glTF defines");
    if (a.matrix && size < 4) fail(field, "matrices of 1- or 2-byte components are not read");
    const std::size_t comps = static_cast<std::size_t>(a.components);
    const std::size_t elementSize = comps * static_cast<std::size_t>(size);
    if (a.view >= 0) {
      std::size_t stride = 0;
      const auto bytes = elements(a.view, a.offset, a.count, elementSize, stride, field);
      bool copied = false;
      if constexpr (std::is_same_v<T, float>) {
        if (a.componentType == kFloat && stride == elementSize && a.count > 0) {  // packed floats: one copy
          std::memcpy(out, bytes.data(), static_cast<std::size_t>(a.count) * elementSize);
          copied = true;
        }
      }
      for (std::size_t i = 0; !copied && i < a.count; ++i) {
        const std::byte* e = bytes.data() + i * stride;
        for (std::size_t c = 0; c < comps; ++c) out[i * comps + c] = convert(e + c * static_cast<std::size_t>(size), a.componentType);
      }
    } else {
      std::fill(out, out + a.count * comps, T{});
    }
    if (!a.sparse) return;
    const Sparse& s = *a.sparse;
    const std::string sf = field + " (sparse)";
    if (s.count > a.count) fail(sf, std::to_string(s.count) + " substitutions in an accessor of " + std::to_string(a.count));
    const int indexSize = componentSize(s.indicesType);
    if (s.indicesType != kUnsignedByte && s.indicesType != kUnsignedShort && s.indicesType != kUnsignedInt)
      fail(sf, "index component type " + std::to_string(s.indicesType) + " is not an unsigned integer type");
    std::size_t indexStride = 0, valueStride = 0;
    const auto indices = elements(s.indicesView, s.indicesOffset, s.count, static_cast<std::size_t>(indexSize), indexStride, sf);
    const auto values = elements(s.valuesView, s.valuesOffset, s.count, elementSize, valueStride, sf);
    indexStride = static_cast<std::size_t>(indexSize);  // sparse data is packed (§3.6.2.3)
    valueStride = elementSize;
    if (s.count > 0 && (indices.size() < s.count * indexStride || values.size() < s.count * valueStride))
      fail(sf, "its indices or values are cut short");
    for (std::size_t k = 0; k < s.count; ++k) {
      const std::uint32_t target = componentAsUnsigned(indices.data() + k * indexStride, s.indicesType);
      if (target >= a.count) fail(sf, "substitutes element " + std::to_string(target) + " of " + std::to_string(a.count));
      for (std::size_t c = 0; c < comps; ++c)
        out[target * comps + c] = convert(values.data() + k * valueStride + c * static_cast<std::size_t>(size), a.componentType);
    }
  }

  // An accessor of `components` per element as T (float, glm vectors, glm::mat4).
  template <class T>
  std::vector<T> read(int index, int components, const std::string& field) {
    const Accessor& a = accessor(index, field);
    if (a.components != components)
      fail(field, "has " + std::to_string(a.components) + " components per element where " + std::to_string(components) + " belong");
    static_assert(sizeof(T) % sizeof(float) == 0);
    if (sizeof(T) / sizeof(float) != static_cast<std::size_t>(components)) fail(field, "internal: wrong element type");
    charge(a.count * sizeof(T), field);
    auto out = bigVector<T>(static_cast<std::size_t>(a.count));
    decode(a, reinterpret_cast<float*>(out.data()), field,
           [&](const std::byte* p, int type) { return componentAsFloat(p, type, a.normalized); });
    return out;
  }
  // Any float accessor, with its component count.
  std::vector<float> readAny(int index, int& components, const std::string& field) {
    const Accessor& a = accessor(index, field);
    components = a.components;
    charge(a.count * static_cast<std::uint64_t>(a.components) * 4, field);
    auto out = bigVector<float>(static_cast<std::size_t>(a.count * static_cast<std::uint64_t>(a.components)));
    decode(a, out.data(), field, [&](const std::byte* p, int type) { return componentAsFloat(p, type, a.normalized); });
    return out;
  }
  // Indices and joints: unsigned integers, `components` per element.
  std::vector<std::uint32_t> readUnsigned(int index, int components, const std::string& field) {
    const Accessor& a = accessor(index, field);
    if (a.components != components)
      fail(field, "has " + std::to_string(a.components) + " components per element where " + std::to_string(components) + " belong");
    if (a.componentType != kUnsignedByte && a.componentType != kUnsignedShort && a.componentType != kUnsignedInt)
      fail(field, "component type " + std::to_string(a.componentType) + " is not an unsigned integer type");
    charge(a.count * static_cast<std::uint64_t>(components) * 4, field);
    auto out = bigVector<std::uint32_t>(static_cast<std::size_t>(a.count * static_cast<std::uint64_t>(components)));
    decode(a, out.data(), field, componentAsUnsigned);
    return out;
  }

  // Attributes are sorted by semantic (parseDocument): a lookup is a binary search, however many a
  // hostile primitive has.
  static int attribute(const std::vector<Attribute>& attrs, std::string_view semantic) {
    const auto it = std::lower_bound(attrs.begin(), attrs.end(), semantic,
                                     [](const Attribute& a, std::string_view s) { return a.semantic < s; });
    return it != attrs.end() && it->semantic == semantic ? it->accessor : -1;
  }

  // ---- nodes and the skeleton ----

  glm::mat4 localOf(std::size_t node) {
    const Node& n = doc_.nodes[node];
    if (n.hasMatrix) return n.matrix;
    return trsMatrix(n.translation, rotationOf(node), n.scale);
  }
  glm::quat rotationOf(std::size_t node) {
    const glm::quat q = doc_.nodes[node].rotation;
    const float len = glm::length(q);
    if (!(len > 1e-6f) || !std::isfinite(len)) {
      warn(at("nodes", node) + ".rotation", "is not a rotation (length " + number(len) + "); none used");
      return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    }
    return q / len;
  }

  void walkNodes() {
    const std::size_t n = doc_.nodes.size();
    std::vector<int> roots;
    if (doc_.scene >= 0 && static_cast<std::size_t>(doc_.scene) >= doc_.scenes.size())
      warn("scene", "names scene " + std::to_string(doc_.scene) + ", which the file does not have; " +
                        (doc_.scenes.empty() ? "every node no other node holds is shown" : "the first is shown"));
    if (doc_.scene >= 0 && static_cast<std::size_t>(doc_.scene) < doc_.scenes.size()) {
      roots = doc_.scenes[static_cast<std::size_t>(doc_.scene)];
    } else if (!doc_.scenes.empty()) {
      roots = doc_.scenes.front();
    } else if (n > 0) {
      std::vector<char> held(n, 0);
      for (const Node& node : doc_.nodes)
        for (const int c : node.children)
          if (static_cast<std::size_t>(c) < n) held[static_cast<std::size_t>(c)] = 1;
      for (std::size_t i = 0; i < n; ++i)
        if (!held[i]) roots.push_back(static_cast<int>(i));
      if (doc_.scene < 0) info("scenes", "the file names no scene; every node no other node holds is shown");
    }
    walkOf_.assign(n, -1);
    struct Item {
      int node, parent;
      std::uint32_t depth;
    };
    std::vector<Item> stack;
    for (auto r = roots.rbegin(); r != roots.rend(); ++r) {
      if (static_cast<std::size_t>(*r) >= n) fail("scenes", "names node " + std::to_string(*r) + ", which the file does not have");
      stack.push_back({*r, -1, 0});
    }
    while (!stack.empty()) {
      const Item it = stack.back();
      stack.pop_back();
      const std::size_t node = static_cast<std::size_t>(it.node);
      if (walkOf_[node] >= 0)
        fail(at("nodes", node), "is reached twice from the scene: a node has one parent at most, and no cycle");
      if (it.depth > ctx_.limits.maxHierarchyDepth)
        fail(at("nodes", node), "the node hierarchy is deeper than the limit of " + std::to_string(ctx_.limits.maxHierarchyDepth));
      if (order_.size() >= ctx_.limits.maxBones)
        fail("nodes", "more than the limit of " + std::to_string(ctx_.limits.maxBones) + " nodes in the scene");
      const int index = static_cast<int>(order_.size());
      walkOf_[node] = index;
      order_.push_back(it.node);
      parent_.push_back(it.parent);
      const glm::mat4 local = localOf(node);
      global_.push_back(it.parent >= 0 ? global_[static_cast<std::size_t>(it.parent)] * local : local);
      const auto& children = doc_.nodes[node].children;
      for (auto c = children.rbegin(); c != children.rend(); ++c) {
        if (static_cast<std::size_t>(*c) >= n)
          fail(at("nodes", node) + ".children", "names node " + std::to_string(*c) + ", which the file does not have");
        stack.push_back({*c, index, it.depth + 1});
      }
    }
  }

  bool isSkinned(const Node& node) const {
    if (node.skin < 0 || node.mesh < 0 || static_cast<std::size_t>(node.mesh) >= doc_.meshes.size()) return false;
    for (const Primitive& p : doc_.meshes[static_cast<std::size_t>(node.mesh)].primitives)
      if (attribute(p.attributes, "JOINTS_0") >= 0) return true;
    return false;
  }

  bool needsSkeleton() const {
    for (const int n : order_)
      if (isSkinned(doc_.nodes[static_cast<std::size_t>(n)])) return true;
    for (const AnimationDef& a : doc_.animations)
      for (const ChannelDef& c : a.channels)
        if (c.path == "translation" || c.path == "rotation" || c.path == "scale") return true;
    return false;
  }

  // Which nodes of the walk are bones. A file whose meshes are skinned has the skeleton its skins
  // name: the joints, the nodes an animation moves, and the nodes between such a node and an
  // ancestor that is one (a hierarchy needs them); the nodes above (a DCC's armature object, the
  // scene's root) only place it, and mesh nodes and empties elsewhere are none. A file without
  // skins (rigid parts moved by node animation) has every node as a bone, as assimp reads it.
  void chooseBones() {
    const std::size_t walked = order_.size();
    std::vector<char> wanted(walked, 0);
    const std::vector<int>& walkOf = walkOf_;
    bool skinned = false;
    std::vector<char> usedSkin(doc_.skins.size(), 0);
    for (const int n : order_) {
      const Node& node = doc_.nodes[static_cast<std::size_t>(n)];
      if (isSkinned(node) && static_cast<std::size_t>(node.skin) < doc_.skins.size())
        usedSkin[static_cast<std::size_t>(node.skin)] = 1;
    }
    for (std::size_t s = 0; s < doc_.skins.size(); ++s) {
      if (!usedSkin[s]) continue;
      for (const int j : doc_.skins[s].joints)
        if (j >= 0 && static_cast<std::size_t>(j) < walkOf.size() && walkOf[static_cast<std::size_t>(j)] >= 0) {
          wanted[static_cast<std::size_t>(walkOf[static_cast<std::size_t>(j)])] = 1;
          skinned = true;
        }
    }
    if (skinned) {
      for (const AnimationDef& a : doc_.animations)
        for (const ChannelDef& c : a.channels)
          if ((c.path == "translation" || c.path == "rotation" || c.path == "scale") && c.node >= 0 &&
              static_cast<std::size_t>(c.node) < walkOf.size() && walkOf[static_cast<std::size_t>(c.node)] >= 0)
            wanted[static_cast<std::size_t>(walkOf[static_cast<std::size_t>(c.node)])] = 1;
      // The walk is pre-order, so a parent comes before its children: below[i] (a wanted node at
      // or under i) runs backwards, above[i] (a wanted node strictly above i) forwards.
      std::vector<char> below(wanted), above(walked, 0);
      for (std::size_t i = walked; i-- > 0;)
        if (below[i] && parent_[i] >= 0) below[static_cast<std::size_t>(parent_[i])] = 1;
      for (std::size_t i = 0; i < walked; ++i)
        if (parent_[i] >= 0) {
          const auto p = static_cast<std::size_t>(parent_[i]);
          above[i] = above[p] || wanted[p];
        }
      for (std::size_t i = 0; i < walked; ++i) wanted[i] = wanted[i] || (above[i] && below[i]);
      // The nodes above a root bone fold into its rest pose and keys only when together they turn
      // and scale evenly (T·R·s): a mirror or an uneven scale does not commute with the keys'
      // rotations, so then those nodes stay bones.
      const auto even = [](const glm::mat4& m) {
        const glm::mat3 l(m);
        const float a = glm::length(l[0]), b = glm::length(l[1]), c = glm::length(l[2]);
        if (!(a > 0.0f) || !std::isfinite(a)) return false;
        const float tol = 1e-4f * a;
        return std::fabs(a - b) <= tol && std::fabs(a - c) <= tol && std::fabs(glm::dot(l[0], l[1])) <= tol * a &&
               std::fabs(glm::dot(l[0], l[2])) <= tol * a && std::fabs(glm::dot(l[1], l[2])) <= tol * a &&
               glm::determinant(l) > 0.0f;
      };
      for (std::size_t i = 0; i < walked; ++i)
        if (wanted[i] && !above[i] && parent_[i] >= 0 && !even(global_[static_cast<std::size_t>(parent_[i])]))
          for (int p = parent_[i]; p >= 0 && !wanted[static_cast<std::size_t>(p)]; p = parent_[static_cast<std::size_t>(p)])
            wanted[static_cast<std::size_t>(p)] = 1;
    } else {
      std::fill(wanted.begin(), wanted.end(), 1);
    }
    attachBone_.assign(walked, -1);
    boneOf_.assign(doc_.nodes.size(), -1);
    for (std::size_t i = 0; i < walked; ++i) {
      const int up = parent_[i] >= 0 ? attachBone_[static_cast<std::size_t>(parent_[i])] : -1;
      if (wanted[i]) {
        const int bone = static_cast<int>(boneWalk_.size());
        boneWalk_.push_back(i);
        boneParent_.push_back(up);
        boneOf_[static_cast<std::size_t>(order_[i])] = bone;
        attachBone_[i] = bone;
      } else {
        attachBone_[i] = up;
      }
    }
  }

  void buildSkeleton() {
    chooseBones();
    Skeleton& s = scene_.skeleton;
    const std::size_t count = boneWalk_.size();
    s.bones.resize(count);
    // Unnamed nodes are named by their place in the file, as assimp names them.
    std::vector<std::string> names;
    names.reserve(count);
    for (const std::size_t w : boneWalk_)
      names.push_back(name(doc_.nodes[static_cast<std::size_t>(order_[w])].name, at("nodes", static_cast<std::size_t>(order_[w]))));
    const Renamed renamed = makeNamesUnique(names);
    std::size_t inexact = 0;
    std::string worstName;
    float worst = 0.0f;
    placed_.assign(count, glm::mat4(1.0f));
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t w = boneWalk_[i];
      const std::size_t node = static_cast<std::size_t>(order_[w]);
      const Node& n = doc_.nodes[node];
      Bone& b = s.bones[i];
      b.parent = boneParent_[i];
      b.name = std::move(names[i]);
      // What lies between the bone and its parent bone (or the scene's root) and is no bone: the
      // armature object's transform, which the bone's rest pose and its keys take on.
      const int walkParent = parent_[w];
      const int boneAbove = b.parent >= 0 ? static_cast<int>(boneWalk_[static_cast<std::size_t>(b.parent)]) : -1;
      if (walkParent != boneAbove && walkParent >= 0) {
        const glm::mat4 above = boneAbove >= 0 ? glm::inverse(global_[static_cast<std::size_t>(boneAbove)]) *
                                                     global_[static_cast<std::size_t>(walkParent)]
                                               : global_[static_cast<std::size_t>(walkParent)];
        if (above != glm::mat4(1.0f)) placed_[i] = above;
      }
      const bool placed = placed_[i] != glm::mat4(1.0f);
      if (n.hasMatrix || placed) {
        const Trs trs = decompose(placed ? placed_[i] * localOf(node) : n.matrix);
        b.translation = trs.translation;
        b.rotation = trs.rotation;
        b.scale = trs.scale;
        if (!(trs.error <= 1e-3f)) {
          ++inexact;
          if (!(trs.error <= worst)) {
            worst = trs.error;
            worstName = b.name;
          }
        }
      } else {
        b.translation = n.translation;
        b.rotation = rotationOf(node);
        b.scale = n.scale;
      }
    }
    if (renamed.count)
      warn("nodes", std::to_string(renamed.count) +
                        " bones shared a name with an earlier bone and were renamed so that clips and meshes find "
                        "the right bone (" + renamed.examples + (renamed.count > 3 ? ", …" : "") + ")");
    if (inexact)
      warn("nodes", std::to_string(inexact) +
                        " node matrices have shear or projection and are not exactly translation × rotation × "
                        "scale; the nearest such transform is used (worst: '" + worstName + "', off by " +
                        number(worst) + " of its size)");
    const std::size_t left = order_.size() - count;
    if (left)
      info("nodes", std::to_string(count) + " of the " + std::to_string(order_.size()) +
                        " nodes are the skins' skeleton; the other " + std::to_string(left) +
                        " (meshes, empties, the armature object) are not bones");
    restInverse_.resize(count);
    for (std::size_t i = 0; i < count; ++i) restInverse_[i] = glm::inverse(global_[boneWalk_[i]]);
  }

  // ---- images and materials ----

  void readImages() {
    scene_.textures.reserve(doc_.images.size());
    for (std::size_t i = 0; i < doc_.images.size(); ++i) {
      const ImageDef& img = doc_.images[i];
      const std::string field = at("images", i);
      Texture t;
      const bool dataUri = img.uri.starts_with("data:");
      t.name = name(img.name, img.uri.empty() || dataUri ? "image " + std::to_string(i) : uriPath(img.uri));
      if (img.view >= 0) {
        const auto bytes = view(img.view, field + ".bufferView");
        charge(bytes.size(), field);
        t.data.assign(bytes.begin(), bytes.end());
        t.embedded = true;
      } else if (dataUri) {
        const auto comma = img.uri.find(',');
        auto decoded = comma == std::string::npos ? std::nullopt : base64(std::string_view(img.uri).substr(comma + 1));
        if (!decoded) {
          warn(field + ".uri", "is a data: URI that is not base64; the image is left out");
        } else {
          charge(decoded->size(), field);
          t.data = std::move(*decoded);
          t.embedded = true;
        }
      } else if (!img.uri.empty()) {
        t.path = uriPath(img.uri);
        // Fetched once however many images name it; the file is input (the budget grows by it),
        // each copy is paid for.
        auto [it, fresh] = images_.try_emplace(t.path);
        if (fresh) {
          if (auto found = fetchNamedFile(ctx_, t.path)) {
            budget_ += static_cast<std::uint64_t>(found->bytes.size()) * ctx_.limits.allocationFactor;
            it->second = std::move(found->bytes);
          } else if (ctx_.fetchTextures && ctx_.resolve) {
            warn(field + ".uri", "'" + t.path + "' was not found beside the file");
          }
        }
        charge(it->second.size(), field);
        t.data = it->second;
      }
      scene_.textures.push_back(std::move(t));
    }
  }

  int imageOf(const TextureRef& ref, const std::string& field) {
    if (ref.texture < 0) return -1;
    if (static_cast<std::size_t>(ref.texture) >= doc_.textures.size()) {
      warn(field, "names texture " + std::to_string(ref.texture) + ", which the file does not have");
      return -1;
    }
    const int source = doc_.textures[static_cast<std::size_t>(ref.texture)].source;
    if (source < 0 || static_cast<std::size_t>(source) >= scene_.textures.size()) {
      warn(field, "texture " + std::to_string(ref.texture) + " has no image Marrow reads");
      return -1;
    }
    return source;
  }

  void readMaterials() {
    scene_.materials.reserve(doc_.materials.size());
    for (std::size_t i = 0; i < doc_.materials.size(); ++i) {
      const MaterialDef& d = doc_.materials[i];
      const std::string field = at("materials", i);
      Material m;
      m.name = name(d.name, "material " + std::to_string(i));
      m.diffuse = d.baseColor;
      m.diffuseAlphaIsOpacity = d.alphaMode != "OPAQUE";
      bool transformed = false;
      const auto map = [&](const char* kind, const TextureRef& ref, const char* label) {
        const int image = imageOf(ref, field + "." + label);
        if (image < 0) return;
        m.maps.push_back({kind, image, ref.texCoord, label});
        transformed = transformed || ref.transformed;
      };
      map("diffuse", d.baseColorTexture, d.specularGlossiness ? "diffuseTexture" : "baseColorTexture");
      map("normal", d.normalTexture, "normalTexture");
      map("ambientOcclusion", d.occlusionTexture, "occlusionTexture");
      map("emissive", d.emissiveTexture, "emissiveTexture");
      map("metallicRoughness", d.metallicRoughnessTexture, "metallicRoughnessTexture");
      const auto prop = [&](const char* key, std::string value) { m.properties.push_back({key, std::move(value)}); };
      if (d.specularGlossiness) {
        m.specular = glm::vec4(d.specular, 1.0f);
        prop("glossinessFactor", number(d.glossiness));
      } else {
        prop("metallicFactor", number(d.metallic));
        prop("roughnessFactor", number(d.roughness));
      }
      if (d.emissive != glm::vec3(0.0f))
        prop("emissiveFactor", number(d.emissive.x) + " " + number(d.emissive.y) + " " + number(d.emissive.z));
      prop("alphaMode", d.alphaMode);
      if (d.alphaMode == "MASK") prop("alphaCutoff", number(d.alphaCutoff));
      if (d.doubleSided) prop("doubleSided", "true");
      if (d.unlit) prop("unlit", "true");
      if (transformed) info(field, "KHR_texture_transform moves its textures; the model draws them untransformed");
      scene_.materials.push_back(std::move(m));
    }
  }

  // ---- meshes ----

  void readMeshes() {
    meshesOfNode_.assign(doc_.nodes.size(), {});
    skipped_.assign(doc_.meshes.size(), {});
    std::vector<int> placements(doc_.meshes.size(), 0), ordinal(doc_.meshes.size(), 0);
    for (const int n : order_) {
      const int mesh = doc_.nodes[static_cast<std::size_t>(n)].mesh;
      if (mesh < 0) continue;
      if (static_cast<std::size_t>(mesh) >= doc_.meshes.size())
        fail(at("nodes", static_cast<std::size_t>(n)) + ".mesh", "names mesh " + std::to_string(mesh) + ", which the file does not have");
      ++placements[static_cast<std::size_t>(mesh)];
    }
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const std::size_t nodeIndex = static_cast<std::size_t>(order_[i]);
      const Node& node = doc_.nodes[nodeIndex];
      if (node.mesh < 0) continue;
      const std::size_t m = static_cast<std::size_t>(node.mesh);
      const int ord = ++ordinal[m];
      const bool skinned = skeleton_ && isSkinned(node);
      addMesh(m, placements[m] > 1 ? ord : 0, skinned ? &node : nullptr, global_[i],
              skeleton_ ? attachBone_[i] : -1, nodeIndex);
    }
    // Meshes no node places: shown where they are, as assimp's import shows them.
    for (std::size_t m = 0; m < doc_.meshes.size(); ++m)
      if (placements[m] == 0) addMesh(m, 0, nullptr, glm::mat4(1.0f), -1, SIZE_MAX);
  }

  void addMesh(std::size_t meshIndex, int ordinal, const Node* skinnedBy, const glm::mat4& place, int bone,
               std::size_t nodeIndex) {
    const MeshDef& md = doc_.meshes[meshIndex];
    const std::string base = name(md.name, at("meshes", meshIndex));
    auto& skipped = skipped_[meshIndex];
    if (skipped.empty()) skipped.assign(md.primitives.size(), 0);
    for (std::size_t p = 0; p < md.primitives.size(); ++p) {
      // A primitive left out once (no POSITION, points, Draco) is left out of every placement
      // without building its name and diagnostics again.
      if (skipped[p]) continue;
      std::string meshName = base;
      if (md.primitives.size() > 1) {
        meshName += '-';
        meshName += std::to_string(p);
      }
      if (ordinal > 0) {
        meshName += '#';
        meshName += std::to_string(ordinal);
      }
      const std::string field = at("meshes", meshIndex) + at(".primitives", p);
      auto mesh = primitive(md, md.primitives[p], std::move(meshName), field, skinnedBy);
      if (!mesh) {
        skipped[p] = 1;
        continue;
      }
      if (!skinnedBy) {
        if (place != glm::mat4(1.0f))
          if (const std::size_t overflowed = bake(*mesh, place))
            warn(field, std::to_string(overflowed) + " vertex values are not finite once the node's transform places "
                        "them (too large); they were set to 0 (morph targets to the base)");
        mesh->parentBone = bone;
      }
      if (scene_.meshes.size() >= ctx_.limits.maxMeshes)
        fail("meshes", "more than the limit of " + std::to_string(ctx_.limits.maxMeshes) + " meshes");
      if (nodeIndex != SIZE_MAX) meshesOfNode_[nodeIndex].push_back(scene_.meshes.size());
      scene_.meshes.push_back(std::move(*mesh));
    }
  }

  std::optional<Mesh> primitive(const MeshDef& md, const Primitive& prim, std::string meshName,
                                const std::string& field, const Node* skinnedBy) {
    if (prim.mode <= 3) {
      ++droppedPrimitives_;
      return std::nullopt;
    }
    if (prim.mode > 6) fail(field + ".mode", std::to_string(prim.mode) + " is not a primitive mode");
    const int position = attribute(prim.attributes, "POSITION");
    if (position < 0) {
      warn(field, "has no POSITION attribute; it is left out");
      return std::nullopt;
    }
    if (prim.draco) {
      warn(field, "is compressed with KHR_draco_mesh_compression, which the file does not declare; it is left out");
      return std::nullopt;
    }
    charge(sizeof(Mesh) + meshName.size(), field);
    Mesh m;
    m.name = std::move(meshName);
    const std::string af = field + ".attributes.";
    m.positions = read<glm::vec3>(position, 3, af + "POSITION");
    const std::size_t n = m.positions.size();
    if (n > ctx_.limits.maxVertices)
      fail(af + "POSITION", std::to_string(n) + " vertices, over the limit of " + std::to_string(ctx_.limits.maxVertices));
    const auto sameCount = [&](std::size_t count, const std::string& what) {
      if (count != n) fail(what, "has " + std::to_string(count) + " elements where POSITION has " + std::to_string(n));
    };
    if (const int a = attribute(prim.attributes, "NORMAL"); a >= 0) {
      m.normals = read<glm::vec3>(a, 3, af + "NORMAL");
      sameCount(m.normals.size(), af + "NORMAL");
    }
    if (const int a = attribute(prim.attributes, "TANGENT"); a >= 0) {
      m.tangents = read<glm::vec4>(a, 4, af + "TANGENT");
      sameCount(m.tangents.size(), af + "TANGENT");
    }
    for (int k = 0;; ++k) {
      const std::string semantic = "TEXCOORD_" + std::to_string(k);
      const int a = attribute(prim.attributes, semantic);
      if (a < 0) break;
      if (k == kMaxUvSets) {
        warn(af + semantic, "more than " + std::to_string(kMaxUvSets) + " uv sets; the rest are left out");
        break;
      }
      m.uvSets.push_back(read<glm::vec2>(a, 2, af + semantic));
      sameCount(m.uvSets.back().size(), af + semantic);
    }
    if (const int a = attribute(prim.attributes, "COLOR_0"); a >= 0) {
      int comps = 0;
      const auto c = readAny(a, comps, af + "COLOR_0");
      if (comps != 3 && comps != 4) fail(af + "COLOR_0", "has " + std::to_string(comps) + " components; colours have 3 or 4");
      sameCount(c.size() / static_cast<std::size_t>(comps), af + "COLOR_0");
      charge(n * sizeof(glm::vec4), af + "COLOR_0");
      m.colors = bigVector<glm::vec4>(n);
      for (std::size_t v = 0; v < n; ++v)
        m.colors[v] = glm::vec4(c[v * comps], c[v * comps + 1], c[v * comps + 2], comps == 4 ? c[v * comps + 3] : 1.0f);
    }

    // Values that are not finite (inf, NaN: BoxWithInfinites) are repaired as assimp's import
    // repairs them (assimp_mesh.cpp): a vector becomes 0, a colour white, a target's value its base.
    std::size_t notFinite = 0;
    const auto finite = [](const auto& v) {
      for (int c = 0; c < static_cast<int>(sizeof(v) / sizeof(float)); ++c)
        if (!std::isfinite(v[c])) return false;
      return true;
    };
    const auto clean = [&](auto& values, auto fallback) {
      for (std::size_t v = 0; v < values.size(); ++v)
        if (!finite(values[v])) {
          values[v] = fallback(v);
          ++notFinite;
        }
    };
    const auto zero = [](std::size_t) { return glm::vec3(0.0f); };
    clean(m.positions, zero);
    clean(m.normals, zero);
    clean(m.tangents, [](std::size_t) { return glm::vec4(1.0f, 0.0f, 0.0f, 1.0f); });
    for (auto& set : m.uvSets) clean(set, [](std::size_t) { return glm::vec2(0.0f); });
    clean(m.colors, [](std::size_t) { return glm::vec4(1.0f); });

    triangles(m, prim, field);

    if (prim.material >= 0) {
      if (static_cast<std::size_t>(prim.material) < scene_.materials.size()) m.material = prim.material;
      else warn(field + ".material", "names material " + std::to_string(prim.material) + ", which the file does not have");
    }
    if (skinnedBy) skin(m, *skinnedBy, prim, af);

    for (std::size_t k = 0; k < prim.targets.size(); ++k) {
      const std::string tf = field + at(".targets", k);
      MorphTarget t;
      t.name = k < md.targetNames.size() && !md.targetNames[k].empty() ? name(md.targetNames[k], "")
                                                                        : "morph " + std::to_string(k);
      charge(sizeof(MorphTarget) + t.name.size(), tf);
      const int dp = attribute(prim.targets[k], "POSITION");
      const int dn = attribute(prim.targets[k], "NORMAL");
      if (dp < 0 && (dn < 0 || m.normals.empty())) {  // moves nothing the model holds, kept for its index
        m.morphs.push_back(std::move(t));
        continue;
      }
      t.positions = dp >= 0 ? read<glm::vec3>(dp, 3, tf + ".POSITION") : std::vector<glm::vec3>{};
      if (dp >= 0) {
        sameCount(t.positions.size(), tf + ".POSITION");
        for (std::size_t v = 0; v < n; ++v) t.positions[v] += m.positions[v];
      } else {
        charge(n * sizeof(glm::vec3), tf);
        t.positions = m.positions;
      }
      if (dn >= 0 && !m.normals.empty()) {
        t.normals = read<glm::vec3>(dn, 3, tf + ".NORMAL");
        sameCount(t.normals.size(), tf + ".NORMAL");
        for (std::size_t v = 0; v < n; ++v) t.normals[v] += m.normals[v];
      }
      clean(t.positions, [&](std::size_t v) { return m.positions[v]; });
      clean(t.normals, [&](std::size_t v) { return m.normals[v]; });
      m.morphs.push_back(std::move(t));
    }
    if (notFinite)
      warn(field, std::to_string(notFinite) + " vertex values are not finite (infinite or NaN); they were set to 0 "
                  "(colours to white, morph targets to the base)");
    return m;
  }

  void triangles(Mesh& m, const Primitive& prim, const std::string& field) {
    const std::size_t n = m.positions.size();
    std::vector<std::uint32_t> idx;
    if (prim.indices >= 0) {
      idx = readUnsigned(prim.indices, 1, field + ".indices");
    } else {
      charge(n * 4, field);
      idx = bigVector<std::uint32_t>(n);
      std::iota(idx.begin(), idx.end(), 0u);
    }
    if (prim.mode == 5 || prim.mode == 6) {  // strip, fan → list
      std::vector<std::uint32_t> list;
      const std::size_t tris = idx.size() >= 3 ? idx.size() - 2 : 0;
      charge(tris * 12, field);
      reserveBig(list, tris * 3);
      for (std::size_t i = 0; i < tris; ++i) {
        if (prim.mode == 6) list.insert(list.end(), {idx[0], idx[i + 1], idx[i + 2]});
        else if (i % 2 == 0) list.insert(list.end(), {idx[i], idx[i + 1], idx[i + 2]});
        else list.insert(list.end(), {idx[i + 1], idx[i], idx[i + 2]});
      }
      idx = std::move(list);
    } else if (idx.size() % 3 != 0) {
      warn(field + ".indices", std::to_string(idx.size()) + " indices are not whole triangles; the last " +
                                   std::to_string(idx.size() % 3) + " are left out");
      idx.resize(idx.size() - idx.size() % 3);
    }
    // Triangles naming vertices past the end are left out, not followed.
    std::size_t kept = 0, bad = 0;
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
      if (idx[t] >= n || idx[t + 1] >= n || idx[t + 2] >= n) {
        ++bad;
        continue;
      }
      idx[kept++] = idx[t];
      idx[kept++] = idx[t + 1];
      idx[kept++] = idx[t + 2];
    }
    idx.resize(kept);
    if (bad) warn(field + ".indices", std::to_string(bad) + " triangles name vertices past the " + std::to_string(n) + " the primitive has; they are left out");
    triangles_ += kept / 3;
    if (triangles_ > ctx_.limits.maxTriangles)
      fail(field, "more than the limit of " + std::to_string(ctx_.limits.maxTriangles) + " triangles in the file");
    m.indices = std::move(idx);
  }

  void skin(Mesh& m, const Node& node, const Primitive& prim, const std::string& af) {
    const std::size_t s = static_cast<std::size_t>(node.skin);
    if (s >= doc_.skins.size()) fail("nodes.skin", "names skin " + std::to_string(node.skin) + ", which the file does not have");
    const SkinCache& cache = skinOf(s);
    const std::vector<int>& boneOfJoint = cache.boneOfJoint;
    charge(cache.inverseBind.size() * sizeof(glm::mat4), at("skins", s));
    m.inverseBind = cache.inverseBind;

    const std::size_t n = m.positions.size();
    std::vector<std::vector<std::uint32_t>> joints;
    std::vector<std::vector<glm::vec4>> weights;
    for (int k = 0;; ++k) {
      const std::string js = "JOINTS_" + std::to_string(k), ws = "WEIGHTS_" + std::to_string(k);
      const int ja = attribute(prim.attributes, js), wa = attribute(prim.attributes, ws);
      if (ja < 0 || wa < 0) {
        if (ja >= 0 || wa >= 0) warn(af + (ja >= 0 ? js : ws), "has no " + (ja >= 0 ? ws : js) + " beside it; it is left out");
        break;
      }
      if (4u * static_cast<unsigned>(k + 1) > ctx_.limits.maxInfluencesPerVertex) {
        warn(af + js, "more influence sets than the limit of " + std::to_string(ctx_.limits.maxInfluencesPerVertex) + " influences per vertex; the rest are left out");
        break;
      }
      joints.push_back(readUnsigned(ja, 4, af + js));
      weights.push_back(read<glm::vec4>(wa, 4, af + ws));
      if (joints.back().size() != n * 4 || weights.back().size() != n)
        fail(af + js, "JOINTS and WEIGHTS do not have one element per vertex");
    }
    charge((n + 1) * 4 + n * joints.size() * 4 * sizeof(Influence), af + "JOINTS_0");
    m.influenceStart = bigVector<std::uint32_t>(n + 1);
    reserveBig(m.influences, n * 4 * joints.size());
    std::size_t dropped = 0;
    for (std::size_t v = 0; v < n; ++v) {
      for (std::size_t k = 0; k < joints.size(); ++k)
        for (int c = 0; c < 4; ++c) {
          const float w = weights[k][v][c];
          if (!(w > 0.0f) || !std::isfinite(w)) continue;
          const std::uint32_t j = joints[k][v * 4 + static_cast<std::size_t>(c)];
          if (j >= boneOfJoint.size() || boneOfJoint[j] < 0) {
            ++dropped;
            continue;
          }
          m.influences.push_back({static_cast<std::uint32_t>(boneOfJoint[j]), w});
        }
      m.influenceStart[v + 1] = static_cast<std::uint32_t>(m.influences.size());
    }
    if (dropped)
      warn(af + "JOINTS_0", std::to_string(dropped) + " weights name joints the skin does not have in the scene; they are left out");
  }

  // Joint j of a skin → bone, and the inverse binds of a mesh it skins (the skin's for its joints,
  // the inverse rest for the others): made once per skin, however many meshes it skins.
  struct SkinCache {
    std::vector<int> boneOfJoint;
    std::vector<glm::mat4> inverseBind;
  };
  const SkinCache& skinOf(std::size_t s) {
    if (skins_.size() != doc_.skins.size()) skins_.resize(doc_.skins.size());
    if (skins_[s]) return *skins_[s];
    const SkinDef& def = doc_.skins[s];
    const std::string sf = at("skins", s);
    SkinCache c;
    charge(def.joints.size() * sizeof(int) + restInverse_.size() * sizeof(glm::mat4), sf);
    c.boneOfJoint.assign(def.joints.size(), -1);
    std::size_t outside = 0;
    for (std::size_t j = 0; j < def.joints.size(); ++j) {
      const int jn = def.joints[j];
      if (static_cast<std::size_t>(jn) >= doc_.nodes.size())
        fail(sf + ".joints", "names node " + std::to_string(jn) + ", which the file does not have");
      c.boneOfJoint[j] = boneOf_[static_cast<std::size_t>(jn)];
      outside += c.boneOfJoint[j] < 0 ? 1 : 0;
    }
    if (outside) warn(sf + ".joints", std::to_string(outside) + " joints are not in the scene; the weights on them are left out");
    std::vector<glm::mat4> binds;
    if (def.inverseBinds >= 0) {
      binds = read<glm::mat4>(def.inverseBinds, 16, sf + ".inverseBindMatrices");
      if (binds.size() < def.joints.size())
        fail(sf + ".inverseBindMatrices", "has " + std::to_string(binds.size()) + " matrices for " + std::to_string(def.joints.size()) + " joints");
    }
    c.inverseBind = restInverse_;
    for (std::size_t j = 0; j < def.joints.size(); ++j)
      if (c.boneOfJoint[j] >= 0)
        c.inverseBind[static_cast<std::size_t>(c.boneOfJoint[j])] = binds.empty() ? glm::mat4(1.0f) : binds[j];
    skins_[s] = std::move(c);
    return *skins_[s];
  }

  // A mesh not skinned is stored in model space at rest. Returns how many values the placing
  // made infinite or NaN (finite values times a finite matrix can overflow); they are repaired
  // as the reader repairs such values: a vector becomes 0, a target's value its base.
  static std::size_t bake(Mesh& m, const glm::mat4& place) {
    const glm::mat3 linear(place);
    const glm::mat3 normalMatrix = glm::inverseTranspose(linear);
    const bool mirror = glm::determinant(linear) < 0.0f;
    std::size_t notFinite = 0;
    const auto repaired = [&](glm::vec3 v, glm::vec3 fallback) {
      if (std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)) return v;
      ++notFinite;
      return fallback;
    };
    const auto point = [&](const glm::vec3& p, glm::vec3 fallback) {
      return repaired(glm::vec3(place * glm::vec4(p, 1.0f)), fallback);
    };
    const auto normal = [&](const glm::vec3& v, glm::vec3 fallback) {
      const glm::vec3 t = normalMatrix * v;
      const float len = glm::length(t);
      return repaired(len > 0.0f && std::isfinite(len) ? t / len : t, fallback);
    };
    for (auto& p : m.positions) p = point(p, glm::vec3(0.0f));
    for (auto& v : m.normals) v = normal(v, glm::vec3(0.0f));
    for (auto& t : m.tangents) {
      glm::vec3 d = linear * glm::vec3(t);
      const float len = glm::length(d);
      if (len > 0.0f && std::isfinite(len)) d /= len;
      t = glm::vec4(repaired(d, glm::vec3(1.0f, 0.0f, 0.0f)), mirror ? -t.w : t.w);
    }
    for (auto& target : m.morphs) {
      for (std::size_t v = 0; v < target.positions.size(); ++v)
        target.positions[v] = point(target.positions[v], v < m.positions.size() ? m.positions[v] : glm::vec3(0.0f));
      for (std::size_t v = 0; v < target.normals.size(); ++v)
        target.normals[v] = normal(target.normals[v], v < m.normals.size() ? m.normals[v] : glm::vec3(0.0f));
    }
    if (mirror)
      for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) std::swap(m.indices[t + 1], m.indices[t + 2]);
    return notFinite;
  }

  // ---- clips ----

  void readClips() {
    if (doc_.animations.size() > ctx_.limits.maxClips)
      fail("animations", std::to_string(doc_.animations.size()) + " animations, over the limit of " + std::to_string(ctx_.limits.maxClips));
    std::uint64_t keys = 0;
    for (std::size_t a = 0; a < doc_.animations.size(); ++a) {
      const AnimationDef& def = doc_.animations[a];
      Clip clip;
      clip.name = name(def.name, "animation " + std::to_string(a));
      std::unordered_map<int, std::size_t> trackOf;
      std::vector<float> intervals;
      std::size_t cubic = 0, dropped = 0, skipped = 0;
      std::string skippedWhy;
      for (std::size_t c = 0; c < def.channels.size(); ++c) {
        const ChannelDef& ch = def.channels[c];
        const std::string cf = at("animations", a) + at(".channels", c);
        const auto skip = [&](const std::string& why) {
          if (skipped++ == 0) skippedWhy = cf + ": " + why;
        };
        if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= def.samplers.size()) {
          skip("names no sampler of the animation");
          continue;
        }
        if (ch.node < 0) continue;  // §3.11: targets of extensions; nothing here
        if (static_cast<std::size_t>(ch.node) >= doc_.nodes.size()) {
          skip("names node " + std::to_string(ch.node) + ", which the file does not have");
          continue;
        }
        const SamplerDef& s = def.samplers[static_cast<std::size_t>(ch.sampler)];
        const std::string sf = at("animations", a) + at(".samplers", static_cast<std::size_t>(ch.sampler));
        const bool isCubic = s.interpolation == "CUBICSPLINE";
        if (s.interpolation != "LINEAR" && s.interpolation != "STEP" && !isCubic) {
          skip("interpolation '" + s.interpolation + "' is not one glTF defines");
          continue;
        }
        const std::size_t node = static_cast<std::size_t>(ch.node);
        const bool weightsPath = ch.path == "weights";
        std::size_t width = 0;  // values per key
        if (ch.path == "translation" || ch.path == "scale") width = 3;
        else if (ch.path == "rotation") width = 4;
        if (!weightsPath && width == 0) {
          skip("path '" + ch.path + "' is not one glTF defines");
          continue;
        }
        if (!weightsPath && (!skeleton_ || boneOf_[node] < 0)) {
          skip("moves a node that is not in the scene");
          continue;
        }
        std::size_t targets = 0;
        if (weightsPath) {  // one weight per target of the node's mesh, per key
          if (const int nm = doc_.nodes[node].mesh; nm >= 0 && static_cast<std::size_t>(nm) < doc_.meshes.size())
            for (const Primitive& p : doc_.meshes[static_cast<std::size_t>(nm)].primitives)
              targets = std::max(targets, p.targets.size());
          if (targets == 0 || meshesOfNode_[node].empty()) {
            skip("moves morph weights of a node with no morph targets in the scene");
            continue;
          }
          width = targets;
        }
        const auto times = read<float>(s.input, 1, sf + ".input");
        int comps = 0;
        const auto values = readAny(s.output, comps, sf + ".output");
        if (static_cast<std::size_t>(comps) != (weightsPath ? 1 : width) ||
            values.size() != times.size() * width * (isCubic ? 3 : 1)) {
          skip("its output has " + std::to_string(values.size()) + " values for " + std::to_string(times.size()) + " keys");
          continue;
        }
        keys += times.size() * (weightsPath ? width * meshesOfNode_[node].size() : 1);
        if (keys > ctx_.limits.maxKeys)
          fail("animations", "more than the limit of " + std::to_string(ctx_.limits.maxKeys) + " keys");
        cubic += isCubic ? 1 : 0;
        const Interpolation interpolation = s.interpolation == "STEP" ? Interpolation::Step : Interpolation::Linear;
        // The keys kept: finite times that move forward.
        std::vector<std::size_t> kept;
        kept.reserve(times.size());
        for (std::size_t k = 0; k < times.size(); ++k) {
          if (!std::isfinite(times[k]) || (!kept.empty() && !(times[k] > times[kept.back()]))) {
            ++dropped;
            continue;
          }
          if (!kept.empty()) intervals.push_back(times[k] - times[kept.back()]);
          kept.push_back(k);
        }
        if (kept.empty()) continue;
        clip.duration = std::max(clip.duration, times[kept.back()]);
        const auto value = [&](std::size_t k, std::size_t i) { return values[(isCubic ? 3 * k + 1 : k) * width + i]; };
        if (weightsPath) {
          for (const std::size_t mi : meshesOfNode_[node]) {
            const Mesh& mesh = scene_.meshes[mi];
            for (std::size_t t = 0; t < mesh.morphs.size() && t < width; ++t) {
              charge(sizeof(MorphTrack) + mesh.name.size() + mesh.morphs[t].name.size() + kept.size() * 8, cf);
              MorphTrack track{mesh.name, mesh.morphs[t].name, {}};
              track.weight.interpolation = interpolation;
              track.weight.times.reserve(kept.size());
              for (const std::size_t k : kept) track.weight.add(times[k], value(k, t));
              clip.morphTracks.push_back(std::move(track));
            }
          }
          continue;
        }
        const int bone = boneOf_[node];
        auto [it, fresh] = trackOf.emplace(bone, clip.tracks.size());
        if (fresh) {
          Track t;
          t.bone = scene_.skeleton.bones[static_cast<std::size_t>(bone)].name;
          t.sourceIndex = bone;
          clip.tracks.push_back(std::move(t));
        }
        Track& track = clip.tracks[it->second];
        charge(sizeof(Track) + kept.size() * (sizeof(float) + sizeof(glm::quat)), cf);
        // A bone below nodes that are not bones (the armature object) moves in their space.
        const glm::mat4& placed = placed_[static_cast<std::size_t>(bone)];
        const bool isPlaced = placed != glm::mat4(1.0f);
        const Trs above = isPlaced ? decompose(placed) : Trs{};
        if (width == 4) {
          track.rotation = {};
          track.rotation.interpolation = interpolation;
          for (const std::size_t k : kept) {
            glm::quat q(value(k, 3), value(k, 0), value(k, 1), value(k, 2));
            const float len = glm::length(q);
            if (!(len > 1e-6f) || !std::isfinite(len)) {
              ++dropped;
              continue;
            }
            track.rotation.add(times[k], isPlaced ? above.rotation * (q / len) : q / len);
          }
        } else {
          Channel<glm::vec3>& out = ch.path == "translation" ? track.translation : track.scale;
          out = {};
          out.interpolation = interpolation;
          for (const std::size_t k : kept) {
            const glm::vec3 v(value(k, 0), value(k, 1), value(k, 2));
            if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
              ++dropped;
              continue;
            }
            if (!isPlaced) out.add(times[k], v);
            else if (&out == &track.translation) out.add(times[k], glm::vec3(placed * glm::vec4(v, 1.0f)));
            else out.add(times[k], above.scale * v);
          }
        }
      }
      const std::string field = at("animations", a);
      if (skipped)
        warn(field, std::to_string(skipped) + " channels were left out (first: " + skippedWhy + ")");
      if (dropped)
        warn(field, std::to_string(dropped) + " keys were left out: their times did not move forward or their values were not finite");
      if (cubic)
        warn(field, std::to_string(cubic) + " channels interpolate by cubic spline; their keys are kept and interpolated linearly");
      if (clip.tracks.empty() && clip.morphTracks.empty()) {
        warn(field, "'" + clip.name + "' moves nothing the model shows; it is left out");
        continue;
      }
      clip.frameRate = frameRateOf(def.frameRate, intervals);
      scene_.clips.push_back(std::move(clip));
    }
  }

  std::span<const std::byte> data_;
  const ReadContext& ctx_;
  const std::string& file_;
  Container box_;
  Document doc_;
  Scene scene_;
  std::vector<std::vector<std::byte>> owned_;
  std::vector<std::span<const std::byte>> buffers_;
  std::uint64_t budget_ = 0, spent_ = 0, triangles_ = 0;
  // The walk of the scene's nodes (pre-order): the node, its parent's place in the walk and its
  // transform in the scene, per place.
  std::vector<int> order_, parent_, walkOf_;  // walkOf_: per node, its place or -1
  std::vector<glm::mat4> global_;
  // The bones (buildSkeleton): per place in the walk, the bone at or above it that carries what
  // it places; per bone, its place in the walk, its parent bone, the transform of
  // the nodes between it and that parent that are not bones, and its inverse rest transform;
  // per node, its bone.
  std::vector<int> attachBone_;
  std::vector<std::size_t> boneWalk_;
  std::vector<int> boneParent_, boneOf_;
  std::vector<glm::mat4> placed_, restInverse_;
  std::vector<std::vector<std::size_t>> meshesOfNode_;  // per node: the model meshes it shows
  std::vector<std::optional<SkinCache>> skins_;  // per skin, made on first use
  std::vector<std::vector<char>> skipped_;        // per glTF mesh and primitive: left out
  std::unordered_set<std::string> said_;        // diagnostics given
  std::map<std::string, std::size_t> fetched_;  // buffer files beside it → owned_ index
  std::map<std::string, std::vector<std::byte>> images_;  // image files beside it, fetched once
  bool skeleton_ = false;
  std::size_t droppedPrimitives_ = 0;
};

// Of a JSON document (a .glb of glTF 1.0 is told by its header, before any JSON is read).
bool needsAssimp(const std::string& version, const std::vector<std::string>& used,
                 const std::vector<std::string>& required) {
  if (version.starts_with("1")) return true;
  for (const auto* list : {&used, &required})
    for (const auto& e : *list)
      if (e == "KHR_draco_mesh_compression") return true;
  return false;
}

}  // namespace

bool gltfNeedsAssimp(std::span<const std::byte> data) {
  try {
    const Container box = container(data, "");
    if (box.glb && box.glbVersion != 2) return true;
    const auto summary = summarise(box.json);
    return summary && needsAssimp(summary->version, summary->extensionsUsed, summary->extensionsRequired);
  } catch (const FormatException&) {
    return false;  // damaged: the native reader says why
  }
}

Result<Scene> readGltf(std::span<const std::byte> data, const ReadContext& ctx) {
  try {
    const Container box = container(data, ctx.name);
    if (box.glb && box.glbVersion != 2) return readWithAssimp(data, ctx);
    Document doc = parseDocument(box.json, ctx.name);
    if (needsAssimp(doc.version, doc.extensionsUsed, doc.extensionsRequired))
      return readWithAssimp(data, ctx);
    if (!doc.version.starts_with("2"))
      return FormatError{ctx.name, "asset.version", kNoOffset, "glTF '" + doc.version + "' is not a version Marrow reads (2.0)"};
    return Reader(data, ctx, box, std::move(doc)).read();
  } catch (const FormatException& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return FormatError{ctx.name, "", kNoOffset, "out of memory while reading the glTF file"};
  }
}

}  // namespace marrow::formats
