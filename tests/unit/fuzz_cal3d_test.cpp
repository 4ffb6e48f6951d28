// cal3d inputs the fuzz targets (tests/fuzz) found mishandled.
#include <gtest/gtest.h>

#include <string_view>

#include "formats/cal3d/parts.h"

namespace marrow::formats::cal3d {
namespace {

std::span<const std::byte> bytesOf(std::string_view s) {
  return std::as_bytes(std::span(s.data(), s.size()));
}

ReadContext named(std::string name) {
  ReadContext ctx;
  ctx.name = std::move(name);
  return ctx;
}

// pugixml reports a document that ends inside a tag one byte past its end; an error's offset is
// a byte of the file (or its end), never past it.
TEST(Cal3dFuzzFinding, ErrorOffsetOfATruncatedTagIsWithinTheFile) {
  constexpr std::string_view kText =
      "<RRRF\xbc\x0d"
      "C";  // an attribute cut off by the end
  auto r = readXrf(bytesOf(kText), named("cut.xrf"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, "cut.xrf");
  EXPECT_LE(r.error().offset, kText.size()) << r.error().describe();
}

TEST(Cal3dFuzzFinding, ErrorOffsetOfATruncatedHeaderIsWithinTheFile) {
  constexpr std::string_view kText = "<?xml version=\"1.0\"?>\n<HEADER M";
  auto r = readXsf(bytesOf(kText), named("cut.xsf"));
  ASSERT_FALSE(r);
  EXPECT_LE(r.error().offset, kText.size()) << r.error().describe();
}

// UTF-16 files are converted before parsing: pugixml's offsets are then not the file's bytes,
// so none is given.
TEST(Cal3dFuzzFinding, Utf16ErrorsGiveNoOffset) {
  constexpr std::string_view kText("\xff\xfe<\0M\0", 6);
  auto r = readXmf(bytesOf(kText), named("wide.xmf"), BoneMap{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, kNoOffset) << r.error().describe();
}

}  // namespace
}  // namespace marrow::formats::cal3d
