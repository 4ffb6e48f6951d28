// A minimal glTF 2.0 document builder for precise inputs to the glTF readers (one buffer, embedded
// as a data URI): accessors of floats and indices, and a document around a body of scenes,
// nodes, meshes and animations. Used by the native reader's tests and assimp's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace marrow::testing {

inline std::string base64(const std::vector<std::uint8_t>& in) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < in.size(); i += 3) {
    const std::uint32_t b = (std::uint32_t{in[i]} << 16) |
                            (i + 1 < in.size() ? std::uint32_t{in[i + 1]} << 8 : 0) |
                            (i + 2 < in.size() ? std::uint32_t{in[i + 2]} : 0);
    out += kAlphabet[(b >> 18) & 63];
    out += kAlphabet[(b >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(b >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kAlphabet[b & 63] : '=';
  }
  return out;
}

class Gltf {
 public:
  // Returns the accessor index.
  int floats(const std::vector<float>& values, const char* type, int components) {
    const std::size_t offset = bin_.size();
    bin_.resize(offset + values.size() * 4);
    std::memcpy(bin_.data() + offset, values.data(), values.size() * 4);
    std::string minmax;
    if (components == 3 && std::string(type) == "VEC3") {  // POSITION needs its bounds
      float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
      for (std::size_t i = 0; i < values.size(); ++i) {
        lo[i % 3] = std::min(lo[i % 3], values[i]);
        hi[i % 3] = std::max(hi[i % 3], values[i]);
      }
      minmax = ",\"min\":[" + num(lo[0]) + "," + num(lo[1]) + "," + num(lo[2]) + "],\"max\":[" +
               num(hi[0]) + "," + num(hi[1]) + "," + num(hi[2]) + "]";
    } else if (components == 1) {
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      minmax = ",\"min\":[" + num(*lo) + "],\"max\":[" + num(*hi) + "]";
    }
    return add(offset, values.size() * 4, 5126, values.size() / components, type, minmax);
  }
  int indices(const std::vector<std::uint16_t>& values) {
    const std::size_t offset = bin_.size();
    bin_.resize(offset + values.size() * 2);
    std::memcpy(bin_.data() + offset, values.data(), values.size() * 2);
    while (bin_.size() % 4) bin_.push_back(0);
    return add(offset, values.size() * 2, 5123, values.size(), "SCALAR", "");
  }
  // Any bytes as an accessor's view (4-byte aligned): `extra` is more accessor members
  // (",\"normalized\":true", ",\"byteOffset\":4"), `viewExtra` more view members (",\"byteStride\":20").
  int raw(const std::vector<std::uint8_t>& bytes, int componentType, std::size_t count, const char* type,
          const std::string& extra = "", const std::string& viewExtra = "") {
    const std::size_t offset = bin_.size();
    bin_.insert(bin_.end(), bytes.begin(), bytes.end());
    while (bin_.size() % 4) bin_.push_back(0);
    return add(offset, bytes.size(), componentType, count, type, extra, viewExtra);
  }
  // An accessor with no buffer view (zeros), its own JSON members after the type.
  int noView(int componentType, std::size_t count, const char* type, const std::string& extra = "") {
    if (!accessors_.empty()) accessors_ += ",";
    accessors_ += "{\"componentType\":" + std::to_string(componentType) + ",\"count\":" + std::to_string(count) +
                  ",\"type\":\"" + type + "\"" + extra + "}";
    return accessorCount_++;
  }
  // The index the next buffer view gets.
  int nextView() const { return viewCount_; }
  const std::vector<std::uint8_t>& binary() const { return bin_; }
  // `body` holds the scene, nodes, meshes (and animations); accessors and buffers are added.
  std::string document(const std::string& body, const std::string& bufferUri = "") const {
    const std::string uri =
        bufferUri.empty() ? "data:application/octet-stream;base64," + base64(bin_) : bufferUri;
    return "{\"asset\":{\"version\":\"2.0\"}," + body + ",\"accessors\":[" + accessors_ +
           "],\"bufferViews\":[" + views_ +
           "],\"buffers\":[{\"byteLength\":" + std::to_string(bin_.size()) + ",\"uri\":\"" + uri +
           "\"}]}";
  }

 private:
  static std::string num(float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
    return buf;
  }
  int add(std::size_t offset, std::size_t length, int componentType, std::size_t count,
          const char* type, const std::string& minmax, const std::string& viewExtra = "") {
    if (!views_.empty()) views_ += ",";
    views_ += "{\"buffer\":0,\"byteOffset\":" + std::to_string(offset) +
              ",\"byteLength\":" + std::to_string(length) + viewExtra + "}";
    if (!accessors_.empty()) accessors_ += ",";
    accessors_ += "{\"bufferView\":" + std::to_string(viewCount_++) +
                  ",\"componentType\":" + std::to_string(componentType) +
                  ",\"count\":" + std::to_string(count) + ",\"type\":\"" + type + "\"" + minmax +
                  "}";
    return accessorCount_++;
  }
  std::vector<std::uint8_t> bin_;
  std::string views_, accessors_;
  int viewCount_ = 0, accessorCount_ = 0;
};

// One triangle in the XY plane, counter-clockwise seen from +Z; accessors 0, 1, 2.
inline Gltf triangleGltf() {
  Gltf g;
  g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
  g.floats({0, 0, 1, 0, 0, 0.25f}, "VEC2", 2);
  g.indices({0, 1, 2});
  return g;
}
inline const char* kTriangleMesh =
    "\"meshes\":[{\"name\":\"tri\",\"primitives\":[{\"attributes\":{\"POSITION\":0,"
    "\"TEXCOORD_0\":1},\"indices\":2}]}]";

}  // namespace marrow::testing
