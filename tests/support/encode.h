// Text in a legacy code page for tests, encoded by the C library's iconv from UTF-8: the
// reference the project's own decoding (formats/io/codepage.h) is compared with.
#pragma once

#include <gtest/gtest.h>
#include <iconv.h>

#include <string>

namespace marrow::testing {

// UTF-8 → `codepage` ("CP949", "GB18030", "BIG5", "CP932"), by iconv.
inline std::string encodeIn(const std::string& utf8, const char* codepage) {
  iconv_t cd = iconv_open(codepage, "UTF-8");
  EXPECT_NE(cd, reinterpret_cast<iconv_t>(-1)) << codepage;
  if (cd == reinterpret_cast<iconv_t>(-1)) return utf8;
  std::string out(utf8.size() * 4 + 4, '\0');
  char* in = const_cast<char*>(utf8.data());
  std::size_t inLeft = utf8.size(), outLeft = out.size();
  char* to = out.data();
  EXPECT_NE(iconv(cd, &in, &inLeft, &to, &outLeft), static_cast<std::size_t>(-1)) << utf8 << " in " << codepage;
  iconv_close(cd);
  out.resize(out.size() - outLeft);
  return out;
}

// `codepage` → UTF-8, by iconv; "" when the bytes are not valid there.
inline std::string decodeFrom(const std::string& stored, const char* codepage) {
  iconv_t cd = iconv_open("UTF-8", codepage);
  if (cd == reinterpret_cast<iconv_t>(-1)) return {};
  std::string out(stored.size() * 4 + 4, '\0');
  char* in = const_cast<char*>(stored.data());
  std::size_t inLeft = stored.size(), outLeft = out.size();
  char* to = out.data();
  const bool ok = iconv(cd, &in, &inLeft, &to, &outLeft) != static_cast<std::size_t>(-1);
  iconv_close(cd);
  if (!ok) return {};
  out.resize(out.size() - outLeft);
  return out;
}

}  // namespace marrow::testing
