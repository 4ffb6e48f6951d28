#include "formats/io/byte_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "formats/io/byte_writer.h"

namespace marrow::formats {
namespace {

std::vector<std::byte> bytesOf(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int b : v) out.push_back(static_cast<std::byte>(b));
  return out;
}

TEST(ByteReader, RejectsReadPastEndNamingFieldAndOffset) {
  const auto data = bytesOf({1, 2, 3});
  ByteReader r(data, "x.bin");
  r.u16("first");
  try {
    r.u32("second");
    FAIL() << "expected an error";
  } catch (const FormatException& e) {
    EXPECT_EQ(e.error().file, "x.bin");
    EXPECT_EQ(e.error().field, "second");
    EXPECT_EQ(e.error().offset, 2u);
    EXPECT_NE(std::string(e.what()).find("x.bin: second at offset 2"), std::string::npos) << e.what();
  }
}

TEST(ByteReader, RejectsSeekPastEnd) {
  const auto data = bytesOf({0, 0});
  ByteReader r(data, "f");
  EXPECT_NO_THROW(r.seek(2, "end"));
  EXPECT_THROW(r.seek(3, "beyond"), FormatException);
}

TEST(ByteReader, RejectsRangesThatOverflow) {
  const auto data = bytesOf({0, 0, 0, 0});
  ByteReader r(data, "f");
  EXPECT_THROW(r.requireRange(2, std::numeric_limits<std::uint64_t>::max(), "big"), FormatException);
  EXPECT_THROW(r.requireRange(5, 0, "past"), FormatException);
  EXPECT_NO_THROW(r.requireRange(4, 0, "empty at end"));
}

TEST(ByteReader, RejectsCountsThatCannotFitTheBytesLeft) {
  ByteWriter w;
  w.u32(1000);  // claims 1000 records of 8 bytes
  w.zeros(16);
  const auto data = w.take();
  ByteReader r(data, "f");
  EXPECT_THROW(r.count32("records", 1u << 20, 8), FormatException);
  ByteReader r2(data, "f");
  EXPECT_THROW(r2.count32("records", 10, 0), FormatException);  // over the cap
}

TEST(ByteReader, RejectsNonFiniteFloatsWhereAsked) {
  ByteWriter w;
  w.f32(std::numeric_limits<float>::quiet_NaN());
  w.f32(std::numeric_limits<float>::infinity());
  w.f32(1.5f);
  const auto data = w.take();
  ByteReader r(data, "f");
  EXPECT_THROW(r.finiteF32("nan"), FormatException);
  EXPECT_THROW(r.finiteF32("inf"), FormatException);
  EXPECT_FLOAT_EQ(r.finiteF32("ok"), 1.5f);
}

TEST(ByteReader, ReadsLittleEndianValues) {
  const auto data = bytesOf({0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff});
  ByteReader r(data, "f");
  EXPECT_EQ(r.u16("a"), 0x1234);
  EXPECT_EQ(r.u32("b"), 0x12345678u);
  EXPECT_EQ(r.i32("c"), -1);
  EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, FixedStringStopsAtNulOrLength) {
  ByteWriter w;
  w.fixedString("abc", 8);
  w.fixedString("0123456789abcdefXYZ", 16);  // cut at 16, no terminator
  const auto data = w.take();
  ASSERT_EQ(data.size(), 24u);
  ByteReader r(data, "f");
  EXPECT_EQ(r.fixedString(8, "short"), "abc");
  EXPECT_EQ(r.fixedString(16, "full"), "0123456789abcdef");
}

TEST(ByteWriter, PatchesEarlierOffsets) {
  ByteWriter w;
  w.u32(0);
  w.u32(7);
  w.patchU32(0, 0xdeadbeef);
  ByteReader r(w.bytes(), "f");
  EXPECT_EQ(r.u32("patched"), 0xdeadbeefu);
  EXPECT_THROW(w.patchU32(6, 1), std::out_of_range);
}

}  // namespace
}  // namespace marrow::formats
