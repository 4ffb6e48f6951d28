// The Dragon Nest model targets: the fuzzed file read with the valid test character's other
// files (tests/support/dragonnest_test_character.h), then the model validation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/dragonnest/dragonnest.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/small_models.h"

namespace marrow::fuzz {

// The character's files (MSH 13, SKN and ANI 11) by extension, whatever the name asked for;
// any other name (a texture) gets a few bytes.
inline formats::Resolver characterFiles() {
  static const std::vector<NamedFile> files = dragonNestCharacter(13);
  return [](const std::string& name) -> std::optional<std::vector<std::byte>> {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    for (const auto& f : files)
      if (lower.size() >= 4 && lower.ends_with(f.name.substr(f.name.size() - 4))) return f.bytes;
    return std::vector<std::byte>(16, std::byte{0x42});
  };
}

inline const NamedFile& characterFile(const char* extension) {
  static const std::vector<NamedFile> files = dragonNestCharacter(13);
  for (const auto& f : files)
    if (f.name.ends_with(extension)) return f;
  return files.front();
}

// `name` (the fuzzed file) read as a model with `companion` (one of the character's files, or
// nullptr for the file alone, through readFile).
inline int fuzzDragonNestFile(const std::uint8_t* data, std::size_t size, const char* name,
                              const char* companion) {
  const auto ctx = context(name, characterFiles());
  formats::Result<formats::Scene> r = formats::FormatError{};
  // The reader may fetch each of the character's files (an ANI list, a skin's mesh).
  static const std::size_t characterBytes = [] {
    std::size_t n = 0;
    for (const NamedFile& f : dragonNestCharacter(13)) n += f.bytes.size();
    return n;
  }();
  const std::size_t inputBytes = size + characterBytes;
  AllocationWatch watch;
  if (companion) {
    const NamedFile& other = characterFile(companion);
    const formats::dragonnest::Input inputs[] = {{other.bytes, context(other.name)},
                                                 {asBytes(data, size), ctx}};
    r = formats::dragonnest::readModel(inputs);
  } else {
    r = formats::dragonnest::readFile(asBytes(data, size), ctx);
  }
  watch.check(inputBytes, std::string("Dragon Nest model of ") + name);
  if (succeeded(r, name, size)) checkScene(*r, std::string("Dragon Nest model of ") + name);
  return 0;
}

}  // namespace marrow::fuzz
