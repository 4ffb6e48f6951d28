// From bytes or paths to a validated Scene, whatever the format (the format table says which
// reader; formats/load.h reads addresses: archives, records, entries).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "formats/format.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/io/vfs.h"
#include "formats/model/scene.h"

namespace marrow::formats {

// Detects the format and reads it; the scene is validated (formats/model/validate.h) so that
// consumers can index without checking.
Result<Scene> readScene(std::span<const std::byte> data, const ReadContext& ctx);

// Reads files as one model: the files of a format that reads them as a group (the parts of a
// cal3d model, BRF files, Dragon Nest pieces) together, the others one by one, and combines
// everything. What can be browsed of them (BRF files' records) is mounted in `archives`;
// notes about the grouping join the scene's diagnostics.
Result<Scene> readInputs(std::vector<Input> inputs, vfs::FileSystem* archives = nullptr);

// Reads one file from disk.
Result<Scene> loadFile(const std::string& path);

// Merges parts into one model: parts that bring a skeleton first (in the order given), then the
// rest in the order given, so that meshes and clips find their bones. `order`, when given,
// receives the indices of `parts` in the order they were merged. The result is validated.
Result<Scene> combine(std::vector<Part> parts, std::vector<std::size_t>* order = nullptr);

// Reads several files as one model (a skeleton, its meshes, its clips). The first error stops.
// `fetchTextures` false reads no image file (ReadContext::fetchTextures).
Result<Scene> loadFiles(const std::vector<std::string>& paths, bool fetchTextures = true);

}  // namespace marrow::formats
