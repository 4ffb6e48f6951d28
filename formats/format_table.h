// The one table of formats: each format folder's descriptor (formats/format.h), in the order
// detection tries them. formats/format_table.cpp is the list; nothing else names the formats.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/format.h"

namespace marrow::formats {

std::span<const FormatDescriptor* const> formatTable();

// The format of a file: by content (its first bytes, up to 1024) first, then by extension;
// null when none claims it.
const FormatDescriptor* detect(std::span<const std::byte> head, std::string_view fileName);
const FormatDescriptor* formatById(std::string_view id);
// The format whose `mount` takes files of this name (a Dragon Nest .pak), or null.
const FormatDescriptor* archiveFormatFor(std::string_view fileName);
// Whether a file of that name holds animations only (FormatDescriptor::animationExtensions).
bool holdsAnimationsOnly(std::string_view fileName);

// The folder of the library a file belongs to, as the first format that knows says (the Warband
// module of a BRF in its Resource/ folder), or nothing: File › Open Module of This File.
std::optional<std::string> libraryOf(const std::string& path);

// Every extension the table reads ("omf", "csf", …), in table order, once each.
std::vector<std::string> readExtensions();
// "*.omf *.csf …": a file dialog's pattern of everything readable.
std::string readPattern();
// Every MIME type the table claims, in table order, once each (the desktop entry's list).
std::vector<std::string> mimeTypes();

}  // namespace marrow::formats
