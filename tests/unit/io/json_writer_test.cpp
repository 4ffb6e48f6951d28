#include "formats/io/json_writer.h"

#include <gtest/gtest.h>

#include <limits>

namespace marrow::formats {
namespace {

TEST(JsonWriter, NestsObjectsAndArraysWithCommasOnlyBetweenElements) {
  JsonWriter j(false);
  j.beginObject().field("a", 1).key("b").beginArray().value(true).null().endArray();
  j.key("c").beginObject().endObject().endObject();
  EXPECT_EQ(j.str(), R"({"a":1,"b":[true,null],"c":{}})");
}

TEST(JsonWriter, EscapesControlCharactersAndQuotes) {
  JsonWriter j(false);
  j.value(std::string_view("a\"b\\c\n\x01", 7));
  EXPECT_EQ(j.str(), R"("a\"b\\c\n\u0001")");
}

TEST(JsonWriter, KeepsUtf8AndReadsOtherBytesAsLatin1) {
  JsonWriter j(false);
  j.value(std::string_view("\xc3\xa9|\xe9|\xed\xa0\x80", 8));  // é, Latin-1 é, a surrogate
  EXPECT_EQ(j.str(), "\"\xc3\xa9|\xc3\xa9|\xc3\xad\xc2\xa0\xc2\x80\"");
}

TEST(JsonWriter, WritesShortestFloatsAndNullForNonFinite) {
  JsonWriter j(false);
  const float v[] = {0.1f, 1.0f, -2.5e-7f, std::numeric_limits<float>::infinity()};
  j.numbers(v, 4);
  EXPECT_EQ(j.str(), "[0.1,1,-2.5e-07,null]");
}

// Shortest is not always right: 500000 is "5e+05" at its shortest, which glTF readers (assimp's
// rapidjson) refuse for an integer member such as an accessor's count.
TEST(JsonWriter, WholeNumbersAreWrittenAsIntegers) {
  JsonWriter j(false);
  j.beginArray();
  for (double d : {500000.0, 1e14, -3e6, 0.0, -0.0, 1e20, 2.5e5 + 0.5}) j.value(d);
  j.value(1e6f);
  j.endArray();
  EXPECT_EQ(j.str(), "[500000,100000000000000,-3000000,0,-0,1e+20,250000.5,1000000]");
}

}  // namespace
}  // namespace marrow::formats
