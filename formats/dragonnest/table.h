// Dragon Nest data tables: the legacy .ext (§7) and the .dnt that replaced it (§8)
// (../shared/specs/dragonnest.md), as formats::Table.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"
#include "formats/model/table.h"

namespace marrow::formats::dragonnest {

// Column type codes (§8; the legacy table uses the same codes, §7) are the model's TableType.

// Reads a .dnt. The table is named after ctx.name without its folder and extension. The
// `05 THEND` trailer is optional (the engine ignores it); other trailing bytes are an error.
Result<Table> readDnt(std::span<const std::byte> data, const ReadContext& ctx);
// Reads a legacy .ext (§7).
Result<Table> readExt(std::span<const std::byte> data, const ReadContext& ctx);
// Whether the bytes look like a legacy .ext rather than a .dnt (§7 and §8 differ in the header:
// DNT starts with two int16 zeros, EXT with a uint32 that is not 0).
bool looksLikeExt(std::span<const std::byte> data);

// Writes a table as DNT version 0 with the trailer. Cells must fit their column's type (text
// for 1, int32 for 0/2/3, float for 4/5); strings must be shorter than 4096 bytes.
Result<std::vector<std::byte>> writeDnt(const Table& table);


}  // namespace marrow::formats::dragonnest
