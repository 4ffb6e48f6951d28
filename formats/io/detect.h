// File names: the extension a format is told by when its content says nothing.
#pragma once

#include <string_view>

namespace marrow::formats {

// The extension without the dot, as written ("OMF"), or "" when there is none.
std::string_view extensionOf(std::string_view fileName);

}  // namespace marrow::formats
