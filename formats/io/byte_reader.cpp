#include "formats/io/byte_reader.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace marrow::formats {

static_assert(std::endian::native == std::endian::little,
              "ByteReader assumes a little-endian host; add byte swapping for others");

void ByteReader::fail(std::string_view field, std::string message) const {
  failAt(pos_, field, std::move(message));
}

void ByteReader::failAt(std::uint64_t offset, std::string_view field, std::string message) const {
  throw FormatException(FormatError{file_, std::string(field), offset, std::move(message)});
}

void ByteReader::requireRange(std::uint64_t offset, std::uint64_t n, std::string_view field) const {
  if (offset > data_.size() || n > data_.size() - offset)
    failAt(offset, field,
           "needs " + std::to_string(n) + " bytes but the file ends at " +
               std::to_string(data_.size()));
}

void ByteReader::require(std::uint64_t n, std::string_view field) const {
  if (n > remaining())
    fail(field, "needs " + std::to_string(n) + " bytes but only " + std::to_string(remaining()) +
                    " are left");
}

void ByteReader::seek(std::uint64_t offset, std::string_view field) {
  if (offset > data_.size())
    fail(field, "offset " + std::to_string(offset) + " is past the end of the file (" +
                    std::to_string(data_.size()) + " bytes)");
  pos_ = static_cast<std::size_t>(offset);
}

void ByteReader::skip(std::uint64_t n, std::string_view field) {
  require(n, field);
  pos_ += static_cast<std::size_t>(n);
}

template <class T>
T ByteReader::little(std::string_view field) {
  require(sizeof(T), field);
  T v;
  std::memcpy(&v, data_.data() + pos_, sizeof(T));
  pos_ += sizeof(T);
  return v;
}

std::uint8_t ByteReader::u8(std::string_view field) { return little<std::uint8_t>(field); }
std::uint16_t ByteReader::u16(std::string_view field) { return little<std::uint16_t>(field); }
std::uint32_t ByteReader::u32(std::string_view field) { return little<std::uint32_t>(field); }
std::int32_t ByteReader::i32(std::string_view field) { return little<std::int32_t>(field); }
std::uint64_t ByteReader::u64(std::string_view field) { return little<std::uint64_t>(field); }
float ByteReader::f32(std::string_view field) { return little<float>(field); }

float ByteReader::finiteF32(std::string_view field) {
  const std::size_t at = pos_;
  const float v = f32(field);
  if (!std::isfinite(v)) failAt(at, field, "is not a finite number");
  return v;
}

std::span<const std::byte> ByteReader::bytes(std::uint64_t n, std::string_view field) {
  require(n, field);
  auto s = data_.subspan(pos_, static_cast<std::size_t>(n));
  pos_ += static_cast<std::size_t>(n);
  return s;
}

std::string ByteReader::fixedString(std::size_t n, std::string_view field) {
  auto b = bytes(n, field);
  const char* p = reinterpret_cast<const char*>(b.data());
  return std::string(p, strnlen(p, n));
}

void ByteReader::checkCount(std::uint64_t count, std::string_view field, std::uint64_t max,
                            std::uint64_t minBytesEach, std::uint64_t at) const {
  if (count > max)
    failAt(at, field, "is " + std::to_string(count) + ", over the limit of " + std::to_string(max));
  if (minBytesEach > 0 && count > remaining() / minBytesEach)
    failAt(at, field,
           "is " + std::to_string(count) + " but " + std::to_string(count) + " records of " +
               std::to_string(minBytesEach) + " bytes do not fit in the " +
               std::to_string(remaining()) + " bytes left");
}

std::uint32_t ByteReader::count32(std::string_view field, std::uint64_t max,
                                  std::uint64_t minBytesEach) {
  const std::size_t at = pos_;
  const std::uint32_t n = u32(field);
  checkCount(n, field, max, minBytesEach, at);
  return n;
}

}  // namespace marrow::formats
