// Dragon Nest .ani (v10, v11, and list files naming other .ani, which the resolver serves),
// read as a model with the test character's MSH, then the model validation.
#include "tests/fuzz/dragonnest_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::fuzzDragonNestFile(data, size, "fuzz.ani", ".msh");
}
