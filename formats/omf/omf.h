// OMF 1 ("Oolong mesh format"): reader and writer, exactly as ../shared/specs/omf.md says.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats {

// Reads an OMF file. The scene's basis is Y-up, right-handed, metres; texture v is flipped to
// the model's convention (v = 0 top row — the same as OMF, so values pass through unchanged).
// Every validation of the spec's last section fails with an error naming field and offset;
// repairs (non-unit quaternions, weights that do not sum to 1) become diagnostics.
Result<Scene> readOmf(std::span<const std::byte> data, const ReadContext& ctx);

// Writes a scene as OMF. The scene is converted to OMF's basis first (toDisplay). What OMF
// cannot hold is reported in `diagnostics` (names cut to 16 bytes, influences past 8 dropped
// and the rest renormalised, scale keys dropped, keys that are not on whole frames of
// the one frame rate OMF stores resampled at every frame); an error is
// returned only when nothing sensible can be written.
Result<std::vector<std::byte>> writeOmf(const Scene& scene, Diagnostics& diagnostics);

}  // namespace marrow::formats
