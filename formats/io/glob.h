// Shell-style patterns over '/'-separated paths: `*` and `?` within a name, `**` across folders,
// `**/` any number of whole folders, `[a-z]` / `[!a-z]` classes. Case-sensitive: callers fold case
// where the names do. Linear in the text per pattern element, whatever the pattern.
#pragma once

#include <string_view>

namespace marrow::formats {

bool matchGlob(std::string_view pattern, std::string_view text);
bool hasGlob(std::string_view text);  // whether text has a wildcard (*, ?, [)

}  // namespace marrow::formats
