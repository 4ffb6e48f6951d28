// One entry point from bytes or paths to a validated Scene, whatever the format.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "formats/brf/brf.h"
#include "formats/io/detect.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats {

// Detects the format and reads it; the scene is validated (formats/model/validate.h) so that
// consumers can index without checking.
Result<Scene> readScene(std::span<const std::byte> data, const ReadContext& ctx);

// One file to read, with its context (name, limits, a resolver beside it).
struct Input {
  std::vector<std::byte> bytes;
  ReadContext ctx;
  // Records of an archive the model is made of ("FILE.brf::RECORD"); empty: the whole file.
  std::vector<std::string> records;
};

// What readInputs read on the way that a caller may want to browse: the BRF files' records.
struct Archives {
  std::vector<brf::Source> brf;
};

// Reads files as one model: files that only make sense together (the parts of a cal3d model,
// the BRF files: a module keeps skeletons, animations and meshes apart) are read as one group,
// the others one by one, and everything is combined.
Result<Scene> readInputs(std::vector<Input> inputs, Archives* archives = nullptr);

// Reads one file from disk.
Result<Scene> loadFile(const std::string& path);

struct Part {
  std::string name;
  Scene scene;
};

// Merges parts into one model: parts that bring a skeleton first (in the order given), then the
// rest in the order given, so that meshes and clips find their bones. `order`, when given,
// receives the indices of `parts` in the order they were merged. The result is validated.
Result<Scene> combine(std::vector<Part> parts, std::vector<std::size_t>* order = nullptr);

// Reads several files as one model (a skeleton, its meshes, its clips): files that bring a
// skeleton are merged first so that meshes and clips find their bones. The first error stops.
// `fetchTextures` false reads no image file (ReadContext::fetchTextures).
Result<Scene> loadFiles(const std::vector<std::string>& paths, bool fetchTextures = true);

}  // namespace marrow::formats
