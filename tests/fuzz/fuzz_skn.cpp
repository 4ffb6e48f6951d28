// Dragon Nest .skn (v10, v11 scrambled): the skin finds the test character's MSH and a texture
// through the resolver, whatever it names; then the model validation.
#include "tests/fuzz/dragonnest_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::fuzzDragonNestFile(data, size, "fuzz.skn", nullptr);
}
