// Shared by the binary cal3d tests: fixture files, contexts, and error expectations.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/io/byte_writer.h"
#include "formats/io/file.h"

#include "tests/support/read_context.h"
#include "tests/support/skip.h"

namespace marrow::formats::cal3d::testing {

inline std::filesystem::path fixtureDir() {
  return std::filesystem::path(MARROW_FIXTURES_DIR) / "cal3d";
}
inline bool haveFixtures() {
  return std::filesystem::is_directory(fixtureDir() / "cally");
}

#define MARROW_SKIP_WITHOUT_CAL3D_FIXTURES()                               \
  if (!::marrow::formats::cal3d::testing::haveFixtures())                  \
  MARROW_SKIP() << "cal3d fixtures not found in "                           \
               << ::marrow::formats::cal3d::testing::fixtureDir().string() \
               << " (shared/fixtures/cal3d); the built-file tests cover the same rules"

inline std::vector<std::byte> fixture(const std::string& relative) {
  auto r = readFile((fixtureDir() / relative).string());
  EXPECT_TRUE(r.ok()) << relative;
  return r.ok() ? std::move(r).value() : std::vector<std::byte>{};
}

inline ReadContext context(const std::string& name) { return ::marrow::testing::named(name); }

// The error names the file, contains `field` in its field, and points at `offset`.
template <class T>
void expectError(const Result<T>& r, std::uint64_t offset, const std::string& field,
                 const std::string& file) {
  ASSERT_FALSE(r.ok()) << "expected an error at " << offset << " naming " << field;
  const std::string text = r.error().describe();
  EXPECT_EQ(r.error().file, file) << text;
  EXPECT_EQ(r.error().offset, offset) << text;
  EXPECT_NE(r.error().field.find(field), std::string::npos) << text;
}

template <class T>
void put(std::vector<std::byte>& bytes, std::size_t at, T v) {
  ASSERT_LE(at + sizeof v, bytes.size());
  std::memcpy(bytes.data() + at, &v, sizeof v);
}

inline void vec3(ByteWriter& w, glm::vec3 v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}
inline void quat4(ByteWriter& w, float x, float y, float z, float qw) {
  w.f32(x);
  w.f32(y);
  w.f32(z);
  w.f32(qw);
}
inline void string(ByteWriter& w, std::string_view s) {
  writeString(w, s);
}
inline void header(ByteWriter& w, const char* magic, int version) {
  for (int i = 0; i < 4; ++i) w.u8(static_cast<std::uint8_t>(magic[i]));
  w.i32(version);
}

inline std::size_t count(const Diagnostics& d, Severity s) {
  return d.count(s);
}

}  // namespace marrow::formats::cal3d::testing
