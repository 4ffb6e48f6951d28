// Bounds-checked little-endian cursor over a byte span. Every read checks the bytes exist first;
// a failure throws FormatException naming the file, the field and the offset.
#pragma once

#include <cstddef>
#include <cstdint>
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

  std::uint8_t u8(std::string_view field);
  std::uint16_t u16(std::string_view field);
  std::uint32_t u32(std::string_view field);
  std::int32_t i32(std::string_view field);
  std::uint64_t u64(std::string_view field);
  float f32(std::string_view field);
  float finiteF32(std::string_view field);  // rejects NaN and infinities

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
  T little(std::string_view field);

  std::span<const std::byte> data_;
  std::string file_;
  std::size_t pos_ = 0;
};

}  // namespace marrow::formats
