// Names stored in legacy code pages (Dragon Nest paks of Korean, Chinese, Taiwanese and Japanese
// clients): which code page a set of names is in, and the names as UTF-8. Decoding is the C
// library's iconv (glibc), strict: a byte sequence that is not valid in the code page fails
// rather than turning into a replacement character.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace marrow::formats {

// "UTF-8" and the legacy code pages Marrow tells apart, in the order ties are broken: iconv's
// names. CP949 is Korean (a superset of EUC-KR), GB18030 simplified Chinese (a superset of GBK
// and GB2312), BIG5 traditional Chinese, CP932 Japanese (Windows' Shift-JIS: glibc's SHIFT_JIS
// reads 0x5C as ¥ and would turn every backslash of a path into one).
inline constexpr const char* kLegacyCodepages[] = {"CP949", "GB18030", "BIG5", "CP932"};

bool isValidUtf8(std::string_view text);

// How a code page lays out its characters in bytes, as far as finding the ASCII ones goes: in
// the double-byte code pages a trail byte may be an ASCII letter or a backslash (Big5 許 is
// B3 5C, Shift-JIS ソ is 83 5C, CP949 갂 is 81 41), which is part of its character, not a path
// separator nor a letter to lower-case.
enum class ByteLayout {
  Single,      // ASCII, UTF-8, single-byte pages, EUC-*: no byte of 0x80 and above pairs with ASCII
  DoubleByte,  // CP949/UHC, GBK/CP936, BIG5/CP950: lead 0x81-0xFE, then any trail byte
  Gb18030,     // as DoubleByte, and lead, digit, lead, digit four-byte sequences
  ShiftJis,    // CP932: lead 0x81-0x9F and 0xE0-0xFC; 0xA1-0xDF are half-width katakana
};
// The layout of a code page by its iconv name or a common alias ("CP949", "GBK", "big5",
// "Shift_JIS"); Single for UTF-8, "" and the rest.
ByteLayout byteLayout(std::string_view codepage);
// The bytes of the character that starts at `at`: 2 at a lead byte (4 for a four-byte GB18030
// sequence), else 1; never past the end of the text.
std::size_t characterLength(std::string_view text, std::size_t at, ByteLayout layout);
// Where `needle` (ASCII) first occurs in `text` at the start of a character; npos when nowhere.
std::size_t findCharacters(std::string_view text, std::string_view needle, ByteLayout layout);
// Whether every byte is below 0x80: text every code page here spells the same.
bool isAscii(std::string_view text);

// The text in `codepage` as UTF-8; nothing when a byte sequence is not valid in it (or iconv
// does not know the code page). "UTF-8" checks and copies.
std::optional<std::string> decodeCodepage(std::string_view text, const std::string& codepage);

// UTF-8 text in `codepage`: how a name the user typed (or a decoded name) is stored there;
// nothing when the text is not UTF-8 or a character has no encoding in the code page.
std::optional<std::string> encodeCodepage(std::string_view utf8, const std::string& codepage);

// The code page of a set of names: "UTF-8" when every name is valid UTF-8 (ASCII included);
// else the legacy code page that decodes the most of the names that are not ASCII (those that
// happen to be valid UTF-8 too), ties going to the one whose common characters (Hangul syllables
// of KS X 1001; the GB2312 level-1 hanzi; Big5's frequent characters; Shift-JIS full-width kana
// and level-1 kanji) make up the largest share of the non-ASCII characters (half-width katakana,
// which GBK text often reads as, count as rare) — so that a stray
// byte in one name does not spoil the others; "UTF-8" when more of them are valid UTF-8 than
// any code page decodes; "" when none decodes any.
std::string detectCodepage(std::span<const std::string_view> names);

// A name as UTF-8: decoded from a legacy `codepage` when it decodes, else as it is when it is
// UTF-8, else its bytes of 0x80 and above
// escaped as %NN (never mojibake: a name no code page explains is shown as bytes; no backslash,
// which extraction would read as a folder).
std::string nameAsUtf8(std::string_view stored, const std::string& codepage);

}  // namespace marrow::formats
