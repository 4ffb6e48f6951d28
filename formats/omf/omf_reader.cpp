// PLACEHOLDER: being written (issue 2).
#include "formats/omf/omf.h"
namespace marrow::formats {
Result<Scene> readOmf(std::span<const std::byte>, const ReadContext& ctx) {
  return FormatError{ctx.name, "", kNoOffset, "OMF reader not written yet"};
}
}  // namespace marrow::formats
