// cal3d .caf, the binary animation file (float, 0.12 quantised and IMVU bit-packed tracks),
// read with fixed companions (cal3d_target.h), then the model validation.
#include "tests/fuzz/cal3d_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::fuzzCal3dFile(data, size, "fuzz.caf", marrow::fuzz::Companions::Skeleton);
}
