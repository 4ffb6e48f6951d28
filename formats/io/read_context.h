// What a reader gets besides its bytes: a name for messages, the limits, and a way to ask for
// sibling files (textures, a skin's mesh). Readers never open files themselves.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/io/limits.h"

namespace marrow::formats {

using Resolver =
    std::function<std::optional<std::vector<std::byte>>(const std::string& relativePath)>;

struct ReadContext {
  std::string name;  // the file's name as the user gave it: for messages and extension hints
  Limits limits;
  Resolver resolve;  // may be empty: then no sibling file can be found
  // The files beside this one (in its disk folder, or its folder of an archive), as names
  // `resolve` finds, for readers that bring what lies beside a file (a Dragon Nest skin's
  // animations). May be empty: then nothing is listed.
  std::function<std::vector<std::string>()> siblings{};
  // Whether readers fetch the image files materials name (Texture::data). Off when only the
  // geometry matters (posing, converting to a format without textures): faster, and no
  // "not found" warnings.
  bool fetchTextures = true;
  // The code page the names inside the file are in (formats/io/codepage.h), when something
  // outside it says: the user (`--encoding`), or the archive it came from, whose code page was
  // detected over all its names. Empty: a reader of legacy names detects it over the file's own.
  std::string codepage{};
  // Whether a reader that meets damage keeps what it read before it (the file's records up to
  // the one the damage is in), saying why it stopped in the model's diagnostics as an error,
  // instead of failing. Readers that cannot (most) fail as before.
  bool partial = false;
};

struct FoundFile {
  std::string name;  // the name it was found under
  std::vector<std::byte> bytes;
};

// A file a model names (a texture) through ctx.resolve: as named, then by its last path
// component (files made on other machines name absolute paths). Nothing when it is not found,
// when there is no resolver, or when ctx.fetchTextures is off.
std::optional<FoundFile> fetchNamedFile(const ReadContext& ctx, const std::string& name);

}  // namespace marrow::formats
