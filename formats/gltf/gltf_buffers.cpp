// The binary buffer and its views and accessors. Values are written little-endian component by
// component, whatever the host.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "formats/gltf/gltf_internal.h"

namespace marrow::formats::gltf {
namespace {

void put(std::vector<std::byte>& out, std::uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

const char* shapeOf(int components) {
  switch (components) {
    case 1: return "SCALAR";
    case 2: return "VEC2";
    case 3: return "VEC3";
    case 4: return "VEC4";
    default: return "MAT4";
  }
}

}  // namespace

int Document::view(std::span<const std::byte> bytes, BufferTarget target) {
  while (bin.size() % 4) bin.push_back(std::byte{0});
  Json v = Json::object();
  v.set("buffer", 0).set("byteOffset", bin.size()).set("byteLength", bytes.size());
  if (target != kNoTarget) v.set("target", static_cast<int>(target));
  bin.insert(bin.end(), bytes.begin(), bytes.end());
  return static_cast<int>(bufferViews.push(std::move(v)));
}

int Document::accessor(int viewIndex, ComponentType type, std::size_t count, const char* shape,
                       Json min, Json max) {
  Json a = Json::object();
  a.set("bufferView", viewIndex).set("componentType", static_cast<int>(type));
  a.set("count", count).set("type", shape);
  if (min.kind() != Json::Kind::Null) a.set("min", std::move(min)).set("max", std::move(max));
  return static_cast<int>(accessors.push(std::move(a)));
}

int Document::floats(std::span<const float> values, int components, BufferTarget target,
                     bool minMax) {
  std::vector<std::byte> bytes;
  bytes.reserve(values.size() * 4);
  // glTF forbids NaN and infinity in accessors (§3.6.2.3); the writer never means them.
  for (float f : values) put(bytes, std::bit_cast<std::uint32_t>(std::isfinite(f) ? f : 0.0f), 4);
  Json min, max;
  if (minMax) {
    std::vector<float> lo(components, std::numeric_limits<float>::max());
    std::vector<float> hi(components, std::numeric_limits<float>::lowest());
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::size_t c = i % components;
      const float f = std::isfinite(values[i]) ? values[i] : 0.0f;
      lo[c] = std::min(lo[c], f);
      hi[c] = std::max(hi[c], f);
    }
    min = Json::arrayOf(lo);
    max = Json::arrayOf(hi);
  }
  const int v = view(bytes, target);
  return accessor(v, kFloat, values.size() / components, shapeOf(components), std::move(min),
                  std::move(max));
}

int Document::vec2s(std::span<const glm::vec2> v, BufferTarget target) {
  std::vector<float> f;
  for (const auto& x : v) f.insert(f.end(), {x.x, x.y});
  return floats(f, 2, target, false);
}

int Document::vec3s(std::span<const glm::vec3> v, BufferTarget target, bool minMax) {
  std::vector<float> f;
  for (const auto& x : v) f.insert(f.end(), {x.x, x.y, x.z});
  return floats(f, 3, target, minMax);
}

int Document::vec4s(std::span<const glm::vec4> v, BufferTarget target) {
  std::vector<float> f;
  for (const auto& x : v) f.insert(f.end(), {x.x, x.y, x.z, x.w});
  return floats(f, 4, target, false);
}

int Document::mat4s(std::span<const glm::mat4> m) {
  std::vector<float> f;
  for (const auto& x : m)  // column-major, as glTF stores matrices (§3.6.2.2)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) f.push_back(x[c][r]);
  return floats(f, 16, kNoTarget, false);
}

int Document::scalars(std::span<const float> v, bool minMax) {
  return floats(v, 1, kNoTarget, minMax);
}

int Document::indices(std::span<const std::uint32_t> idx, std::size_t vertexCount) {
  // 16-bit indices when every vertex fits below the primitive-restart value 65535 (§3.7.2.1).
  const bool small = vertexCount < 65535;
  std::vector<std::byte> bytes;
  for (std::uint32_t i : idx) put(bytes, i, small ? 2 : 4);
  const int v = view(bytes, kElementArrayBuffer);
  return accessor(v, small ? kUnsignedShort : kUnsignedInt, idx.size(), "SCALAR");
}

int Document::joints(std::span<const std::uint16_t> j) {
  std::vector<std::byte> bytes;
  for (std::uint16_t i : j) put(bytes, i, 2);
  const int v = view(bytes, kArrayBuffer);
  return accessor(v, kUnsignedShort, j.size() / 4, "VEC4");
}

std::string safeFileName(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  while (!out.empty() && out.front() == '.') out.erase(out.begin());
  return out.empty() ? std::string("file") : out;
}

}  // namespace marrow::formats::gltf
