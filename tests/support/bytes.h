// Bytes for readers under test: text as bytes, bytes by value, little-endian words patched into
// a buffer (a count or an offset made wrong on purpose).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <vector>

namespace marrow::testing {

// The bytes of `text`, as a reader gets a file.
inline std::vector<std::byte> bytes(std::string_view text) {
  const auto* p = reinterpret_cast<const std::byte*>(text.data());
  return {p, p + text.size()};
}

// Bytes given by value: bytesOf({0x43, 0x53, 0x46, 0}).
inline std::vector<std::byte> bytesOf(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  out.reserve(values.size());
  for (int b : values) out.push_back(static_cast<std::byte>(b));
  return out;
}

// `value` as four little-endian bytes at `at` of any byte buffer (std::vector<std::byte>,
// QByteArray, std::string).
template <class Buffer>
void putU32(Buffer& buffer, std::size_t at, std::uint32_t value) {
  using Byte = std::remove_reference_t<decltype(buffer[0])>;
  for (std::size_t k = 0; k < 4; ++k)
    buffer[static_cast<decltype(buffer.size())>(at + k)] =
        static_cast<Byte>((value >> (8 * k)) & 0xFF);
}

}  // namespace marrow::testing
