// Every place Marrow reads from, as the one string a user types:
//   PATH                      a file (or a folder) on disk, or a Qt resource ":/…"
//   FILE::INNER               something inside a file that is an archive: a BRF record
//                             ("armour.brf::boots"), a pak entry ("Resource00.pak::char/a.skn")
//   ::NAME                    a name looked up in whatever archives are open ("::warrior.skn")
// The first "::" separates the file from what is inside it; a single ':' (a drive letter, a Qt
// resource) belongs to the path. parse() and str() are each other's inverse.
#pragma once

#include <string>
#include <string_view>

namespace marrow::formats {

inline constexpr std::string_view kAddressSeparator = "::";

struct Address {
  std::string file;   // empty for a lookup by name
  std::string inner;  // empty: the whole file

  static Address parse(std::string_view text);
  std::string str() const;

  bool whole() const { return inner.empty(); }
  bool lookup() const { return file.empty() && !inner.empty(); }
  // The last path component of what is addressed: the inner path's, or the file's when whole.
  std::string_view leafName() const;

  bool operator==(const Address&) const = default;
};

// Whether text is an address with an inner part ("FILE::INNER" or "::NAME").
bool hasInnerPart(std::string_view text);

}  // namespace marrow::formats
