// PLACEHOLDER: being written (issue 2).
#include "formats/assimp/assimp_reader.h"
namespace marrow::formats {
Result<Scene> readWithAssimp(std::span<const std::byte>, const ReadContext& ctx) {
  return FormatError{ctx.name, "", kNoOffset, "assimp import not written yet"};
}
}  // namespace marrow::formats
