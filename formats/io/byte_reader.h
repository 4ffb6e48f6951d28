// Bounds-checked little-endian cursor over a byte span. Every read checks the bytes exist first;
// a failure throws FormatException naming the file, the field and the offset.
#pragma once

#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "formats/io/result.h"

namespace marrow::formats {

class ByteReader {
 public:
  ByteReader(std::span<const std::byte> data, std::string file)
      : data_(data), file_(std::move(file)) {}

  std::size_t offset() const { return pos_; }
  std::size_t size() const { return data_.size(); }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool atEnd() const { return pos_ == data_.size(); }
  const std::string& file() const { return file_; }
  std::span<const std::byte> data() const { return data_; }

  // Moves to an absolute offset (== size() allowed).
  void seek(std::uint64_t offset, std::string_view field);
  void skip(std::uint64_t n, std::string_view field);
  // Throws unless `n` bytes are left from the current offset.
  void require(std::uint64_t n, std::string_view field) const;
  // Throws unless [offset, offset + n) lies inside the data.
  void requireRange(std::uint64_t offset, std::uint64_t n, std::string_view field) const;

  // The reads are inline (readers call them per value); only failing leaves the header.
  std::uint8_t u8(std::string_view field) { return little<std::uint8_t>(field); }
  std::uint16_t u16(std::string_view field) { return little<std::uint16_t>(field); }
  std::uint32_t u32(std::string_view field) { return little<std::uint32_t>(field); }
  std::int32_t i32(std::string_view field) { return little<std::int32_t>(field); }
  std::uint64_t u64(std::string_view field) { return little<std::uint64_t>(field); }
  float f32(std::string_view field) { return little<float>(field); }
  float finiteF32(std::string_view field) {  // rejects NaN and infinities
    const float v = f32(field);
    if (!std::isfinite(v)) [[unlikely]]
      notFinite(field);
    return v;
  }

  std::span<const std::byte> bytes(std::uint64_t n, std::string_view field);
  // A fixed-size, NUL-padded string field; the text ends at the first NUL or at n bytes.
  std::string fixedString(std::size_t n, std::string_view field);

  // Reads a count and checks it against `max` and against the bytes left, given that each
  // element occupies at least `minBytesEach` bytes of the file.
  std::uint32_t count32(std::string_view field, std::uint64_t max, std::uint64_t minBytesEach);
  // Checks an already-read count the same way.
  void checkCount(std::uint64_t count, std::string_view field, std::uint64_t max,
                  std::uint64_t minBytesEach, std::uint64_t at) const;

  [[noreturn]] void fail(std::string_view field, std::string message) const;
  [[noreturn]] void failAt(std::uint64_t offset, std::string_view field, std::string message) const;

 private:
  template <class T>
  T little(std::string_view field) {
    if (sizeof(T) > data_.size() - pos_) [[unlikely]]
      tooShort(sizeof(T), field);
    T v;
    std::memcpy(&v, data_.data() + pos_, sizeof(T));  // little-endian host (byte_reader.cpp)
    pos_ += sizeof(T);
    return v;
  }
  [[noreturn]] void tooShort(std::uint64_t n, std::string_view field) const;
  [[noreturn]] void notFinite(std::string_view field) const;

  std::span<const std::byte> data_;
  std::string file_;
  std::size_t pos_ = 0;
};

}  // namespace marrow::formats
