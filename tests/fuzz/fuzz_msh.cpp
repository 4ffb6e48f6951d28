// Dragon Nest .msh (v10–v13), read as a model with the test character's ANI (which gives the
// bones their hierarchy), then the model validation.
#include "tests/fuzz/dragonnest_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::fuzzDragonNestFile(data, size, "fuzz.msh", ".ani");
}
