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
  if (n > remaining()) tooShort(n, field);
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

void ByteReader::tooShort(std::uint64_t n, std::string_view field) const {
  fail(field, "needs " + std::to_string(n) + " bytes but only " + std::to_string(remaining()) +
                  " are left");
}

void ByteReader::notFinite(std::string_view field) const {
  failAt(pos_ - sizeof(float), field, "is not a finite number");
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
