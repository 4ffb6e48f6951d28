// cal3d .cpf, the binary morph animation, read beside a mesh with morph targets
// (cal3d_target.h), then the model validation.
#include "tests/fuzz/cal3d_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::fuzzCal3dFile(data, size, "fuzz.cpf", marrow::fuzz::Companions::MorphMesh);
}
