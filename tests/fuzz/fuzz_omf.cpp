// OMF 1 (formats/omf): the reader, then the model validation.
#include <cstddef>
#include <cstdint>

#include "formats/omf/omf.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const auto ctx = fuzz::context("fuzz.omf");
  fuzz::AllocationWatch watch;
  auto r = formats::readOmf(fuzz::asBytes(data, size), ctx);
  watch.check(size, "readOmf");
  if (fuzz::succeeded(r, ctx.name, size)) fuzz::checkScene(*r, "readOmf");
  return 0;
}
