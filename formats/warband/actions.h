// Warband's actions.txt (warband_module.md §3): the actions a module plays, each a name and
// sequences of frame ranges of BRF animations. Read into the model's Action list; the clips
// they make are cut where the animations are open (formats/model/actions.h).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::warband {

// Tokens, not columns: any spacing, CRLF or LF, empty trailing lines. Action headers of 4 tokens
// (Warband: name flags master_flags count) or 3 (M&B 1.011: name flags count), told apart line
// by line; sequence lines of 10 tokens. Flags printed past 2^31 keep their low 32 bits. Every
// count is checked against the bytes and the limits before anything is allocated; an error
// names the line and its byte offset.
Result<std::vector<Action>> readActions(std::span<const std::byte> data, const ReadContext& ctx);

// Whether the first bytes look like an actions.txt: a count, then an action header, then a
// sequence line of 10 tokens whose first is a number.
bool looksLikeActions(std::span<const std::byte> head);

}  // namespace marrow::formats::warband
