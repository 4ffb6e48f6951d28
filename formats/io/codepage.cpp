#include "formats/io/codepage.h"

#include <iconv.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace marrow::formats {

namespace {

// An iconv descriptor, closed at the end of its scope.
class Converter {
 public:
  explicit Converter(const std::string& from, const std::string& to = "UTF-8")
      : cd_(iconv_open(to.c_str(), from.c_str())) {}
  ~Converter() {
    if (ok()) iconv_close(cd_);
  }
  Converter(const Converter&) = delete;
  Converter& operator=(const Converter&) = delete;
  bool ok() const { return cd_ != reinterpret_cast<iconv_t>(-1); }

  std::optional<std::string> convert(std::string_view text) {
    iconv(cd_, nullptr, nullptr, nullptr, nullptr);  // a fresh shift state
    std::string out(text.size() * 4 + 4, '\0');  // 4 bytes of UTF-8 at most per input byte
    char* in = const_cast<char*>(text.data());
    std::size_t inLeft = text.size();
    char* to = out.data();
    std::size_t outLeft = out.size();
    while (inLeft > 0)
      if (iconv(cd_, &in, &inLeft, &to, &outLeft) == static_cast<std::size_t>(-1)) return std::nullopt;
    if (iconv(cd_, nullptr, nullptr, &to, &outLeft) == static_cast<std::size_t>(-1)) return std::nullopt;
    out.resize(out.size() - outLeft);
    return out;
  }

 private:
  iconv_t cd_;
};

unsigned u(char c) { return static_cast<unsigned char>(c); }

// Of the characters of more than one byte, how many are common in the code page's language,
// and how many there are, walking the bytes as the code page lays them out.
struct Share {
  std::size_t common = 0, wide = 0;
};

Share shareOf(std::string_view s, std::string_view codepage) {
  Share share;
  const ByteLayout layout = byteLayout(codepage);
  for (std::size_t i = 0, n = 1; i < s.size(); i += n) {
    n = characterLength(s, i, layout);
    const unsigned lead = u(s[i]);
    if (lead < 0x80) continue;
    if (n == 1) {  // half-width katakana (CP932: rare in names, so not common), or a stray byte
      ++share.wide;
      continue;
    }
    const unsigned trail = u(s[i + 1]);
    ++share.wide;
    bool common = false;
    if (codepage == "CP949") common = lead >= 0xB0 && lead <= 0xC8 && trail >= 0xA1;  // KS X 1001 Hangul
    else if (codepage == "GB18030") common = lead >= 0xB0 && lead <= 0xD7 && trail >= 0xA1;  // GB2312 level 1
    else if (codepage == "BIG5") common = lead >= 0xA4 && lead <= 0xC6;  // Big5 frequent characters
    else if (codepage == "CP932")
      common = lead == 0x82 || lead == 0x83 || (lead >= 0x88 && lead <= 0x98);  // kana, level-1 kanji
    share.common += common;
  }
  return share;
}

std::string upperAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

}  // namespace

ByteLayout byteLayout(std::string_view codepage) {
  const std::string name = upperAscii(codepage);
  static constexpr std::string_view kDouble[] = {"CP949", "UHC", "CP936", "GBK", "MS936", "WINDOWS-936",
                                                 "BIG5", "BIG-5", "CP950", "BIG5-HKSCS", "BIG5HKSCS"};
  static constexpr std::string_view kShiftJis[] = {"CP932", "SHIFT_JIS", "SHIFT-JIS", "SJIS", "MS_KANJI",
                                                   "WINDOWS-31J", "MS932"};
  if (name == "GB18030") return ByteLayout::Gb18030;
  for (std::string_view n : kDouble)
    if (name == n) return ByteLayout::DoubleByte;
  for (std::string_view n : kShiftJis)
    if (name == n) return ByteLayout::ShiftJis;
  return ByteLayout::Single;
}

std::size_t characterLength(std::string_view s, std::size_t at, ByteLayout layout) {
  const unsigned lead = u(s[at]);
  const std::size_t left = s.size() - at;
  bool pairs = false;
  switch (layout) {
    case ByteLayout::Single: return 1;
    case ByteLayout::DoubleByte:
    case ByteLayout::Gb18030: pairs = lead >= 0x81 && lead <= 0xFE; break;
    case ByteLayout::ShiftJis: pairs = (lead >= 0x81 && lead <= 0x9F) || (lead >= 0xE0 && lead <= 0xFC); break;
  }
  if (!pairs || left < 2) return 1;
  const unsigned second = u(s[at + 1]);
  if (layout == ByteLayout::Gb18030 && second >= 0x30 && second <= 0x39 && left >= 4) return 4;
  return 2;
}

std::size_t findCharacters(std::string_view text, std::string_view needle, ByteLayout layout) {
  if (layout == ByteLayout::Single || isAscii(text)) return text.find(needle);
  for (std::size_t i = 0; i + needle.size() <= text.size(); i += characterLength(text, i, layout))
    if (text.compare(i, needle.size(), needle) == 0) return i;
  return std::string_view::npos;
}

bool isAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char ch) { return u(ch) < 0x80; });
}

bool isValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned c = u(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    if (n == 2 && c < 0xC2) return false;  // overlong
    for (std::size_t k = 1; k < n; ++k)
      if ((u(s[i + k]) >> 6) != 2) return false;
    if (n == 3) {
      const unsigned c1 = u(s[i + 1]);
      if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) return false;  // overlong, surrogates
    }
    if (n == 4) {
      const unsigned c1 = u(s[i + 1]);
      if (c > 0xF4 || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) return false;
    }
    i += n;
  }
  return true;
}

std::optional<std::string> decodeCodepage(std::string_view text, const std::string& codepage) {
  if (codepage == "UTF-8") return isValidUtf8(text) ? std::optional<std::string>(std::string(text)) : std::nullopt;
  Converter c(codepage);
  if (!c.ok()) return std::nullopt;
  return c.convert(text);
}

std::optional<std::string> encodeCodepage(std::string_view utf8, const std::string& codepage) {
  if (!isValidUtf8(utf8)) return std::nullopt;
  if (codepage == "UTF-8") return std::string(utf8);
  Converter c("UTF-8", codepage);
  if (!c.ok()) return std::nullopt;
  return c.convert(utf8);
}

std::string detectCodepage(std::span<const std::string_view> names) {
  bool utf8 = true;
  for (std::string_view n : names) utf8 = utf8 && isValidUtf8(n);
  if (utf8) return "UTF-8";
  // Each legacy code page: how many of the names that are not ASCII it decodes (names that
  // happen to be valid UTF-8 too: two GBK characters often are, 战士 is D5 BD CA BF), and the
  // share of common characters among theirs. The best decodes the most, then has the largest
  // share; ties go to the earlier code page. A stray byte in one name (decoded by none) does
  // not spoil the choice for the others.
  std::string best;
  std::size_t bestCount = 0;
  double bestShare = -1.0;
  for (const char* cp : kLegacyCodepages) {
    Converter c(cp);
    if (!c.ok()) continue;
    Share total;
    std::size_t count = 0;
    for (std::string_view n : names) {
      if (isAscii(n) || !c.convert(n)) continue;
      ++count;
      const Share s = shareOf(n, cp);
      total.common += s.common;
      total.wide += s.wide;
    }
    const double share = total.wide ? static_cast<double>(total.common) / static_cast<double>(total.wide) : 0.0;
    if (count > bestCount || (count == bestCount && count > 0 && share > bestShare))
      best = cp, bestCount = count, bestShare = share;
  }
  // When more names are valid UTF-8 than any code page decodes, they are UTF-8 (one stray name).
  std::size_t utf8Count = 0;
  for (std::string_view n : names) utf8Count += !isAscii(n) && isValidUtf8(n);
  if (utf8Count > bestCount) return "UTF-8";
  return best;
}

std::string nameAsUtf8(std::string_view stored, const std::string& codepage) {
  // A legacy code page decodes every name it can, those that happen to be valid UTF-8 too.
  if (!codepage.empty() && codepage != "UTF-8")
    if (auto decoded = decodeCodepage(stored, codepage)) return *decoded;
  if (isValidUtf8(stored)) return std::string(stored);
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (char ch : stored) {
    const unsigned c = u(ch);
    if (c < 0x80) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

}  // namespace marrow::formats
