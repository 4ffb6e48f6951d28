// Little-endian byte sink for writers, with patching of offsets written before they are known.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace marrow::formats {

class ByteWriter {
 public:
  std::size_t offset() const { return out_.size(); }
  const std::vector<std::byte>& bytes() const { return out_; }
  std::vector<std::byte> take() { return std::move(out_); }
  void reserve(std::size_t n) { out_.reserve(n); }

  void u8(std::uint8_t v) { put(&v, 1); }
  void u16(std::uint16_t v) { put(&v, 2); }
  void u32(std::uint32_t v) { put(&v, 4); }
  void i32(std::int32_t v) { put(&v, 4); }
  void u64(std::uint64_t v) { put(&v, 8); }
  void f32(float v) { put(&v, 4); }
  void raw(std::span<const std::byte> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void zeros(std::size_t n) { out_.insert(out_.end(), n, std::byte{0}); }
  // Writes `s` into a field of exactly n bytes, NUL-padded; longer text is cut at n bytes.
  void fixedString(std::string_view s, std::size_t n);

  // Overwrites 4 bytes at `at` (which must already be written).
  void patchU32(std::size_t at, std::uint32_t v);

 private:
  void put(const void* p, std::size_t n);  // host is little-endian (see byte_reader.cpp)
  std::vector<std::byte> out_;
};

}  // namespace marrow::formats
