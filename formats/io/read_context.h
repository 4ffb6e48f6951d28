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
};

}  // namespace marrow::formats
