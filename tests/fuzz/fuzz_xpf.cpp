// cal3d .xpf, the XML morph animation, read beside a mesh with morph targets
// (cal3d_target.h), then the model validation.
#include "tests/fuzz/cal3d_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::fuzzCal3dFile(data, size, "fuzz.xpf", marrow::fuzz::Companions::MorphMesh);
}
