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

}  // namespace
}  // namespace marrow::formats
