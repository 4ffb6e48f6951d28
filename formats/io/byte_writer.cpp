#include "formats/io/byte_writer.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace marrow::formats {

void ByteWriter::put(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::byte*>(p);
  out_.insert(out_.end(), b, b + n);
}

void ByteWriter::fixedString(std::string_view s, std::size_t n) {
  const std::size_t len = std::min(s.size(), n);
  put(s.data(), len);
  zeros(n - len);
}

void ByteWriter::patchU32(std::size_t at, std::uint32_t v) {
  if (at > out_.size() || out_.size() - at < 4) throw std::out_of_range("ByteWriter::patchU32");
  std::memcpy(out_.data() + at, &v, 4);
}

}  // namespace marrow::formats
