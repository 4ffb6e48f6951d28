// glTF's JSON is UTF-8 text (RFC 8259 §8.1; the Khronos validator rejects anything else): names
// from old files in Latin-1 or a Windows code page are re-encoded, well-formed UTF-8 is kept.
#include <gtest/gtest.h>

#include "formats/gltf/json.h"

namespace marrow::formats {
namespace {

std::string dumped(const std::string& s) {
  gltf::Json a = gltf::Json::array();
  a.push(s);
  return a.dump();
}

TEST(GltfJsonText, LatinOneBytesBecomeUtf8) {
  EXPECT_EQ(dumped("caf\xE9"), "[\"caf\xC3\xA9\"]");       // é in Latin-1
  EXPECT_EQ(dumped("\xFF\x80"), "[\"\xC3\xBF\xC2\x80\"]");  // no lead byte, a lone continuation
}

TEST(GltfJsonText, WellFormedUtf8IsKept) {
  EXPECT_EQ(dumped("caf\xC3\xA9"), "[\"caf\xC3\xA9\"]");
  EXPECT_EQ(dumped("\xE6\x97\xA5\xE6\x9C\xAC"), "[\"\xE6\x97\xA5\xE6\x9C\xAC\"]");  // 日本
  EXPECT_EQ(dumped("\xF0\x9F\x98\x80"), "[\"\xF0\x9F\x98\x80\"]");                  // U+1F600
}

TEST(GltfJsonText, MalformedSequencesAreReadAsLatinOne) {
  // Overlong "/" (C0 AF), a UTF-16 surrogate (ED A0 80), past U+10FFFF (F4 90 80 80), cut short.
  EXPECT_EQ(dumped("\xC0\xAF"), "[\"\xC3\x80\xC2\xAF\"]");
  EXPECT_EQ(dumped("\xED\xA0\x80"), "[\"\xC3\xAD\xC2\xA0\xC2\x80\"]");
  EXPECT_EQ(dumped("\xF4\x90\x80\x80").substr(0, 4), "[\"\xC3\xB4");
  EXPECT_EQ(dumped("a\xE6\x97"), "[\"a\xC3\xA6\xC2\x97\"]");
}

TEST(GltfJsonText, ControlCharactersAreEscaped) {
  EXPECT_EQ(dumped(std::string("a\x01\n", 3)), "[\"a\\u0001\\n\"]");
}

}  // namespace
}  // namespace marrow::formats
