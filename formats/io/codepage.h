// Names stored in legacy code pages (Dragon Nest paks of Korean, Chinese, Taiwanese and Japanese
// clients): which code page a set of names is in, and the names as UTF-8. Decoding is the C
// library's iconv (glibc), strict: a byte sequence that is not valid in the code page fails
// rather than turning into a replacement character.
#pragma once

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
// of KS X 1001; the GB2312 level-1 hanzi; Big5's frequent characters; Shift-JIS kana and level-1
// kanji) make up the largest share of the characters of more than one byte — so that a stray
// byte in one name does not spoil the others; "UTF-8" when more of them are valid UTF-8 than
// any code page decodes; "" when none decodes any.
std::string detectCodepage(std::span<const std::string_view> names);

// A name as UTF-8: decoded from a legacy `codepage` when it decodes, else as it is when it is
// UTF-8, else its bytes of 0x80 and above
// escaped as %NN (never mojibake: a name no code page explains is shown as bytes; no backslash,
// which extraction would read as a folder).
std::string nameAsUtf8(std::string_view stored, const std::string& codepage);

}  // namespace marrow::formats
