// PLACEHOLDER: being written (issue 2).
#include "formats/omf/omf.h"
namespace marrow::formats {
Result<std::vector<std::byte>> writeOmf(const Scene&, Diagnostics&) {
  return FormatError{"", "", kNoOffset, "OMF writer not written yet"};
}
}  // namespace marrow::formats
