// BRF as a model (formats/brf/convert.cpp): the records of a whole file made into a scene
// (readBrf: every mesh, body, animation and material, the skeleton that fits), then the model
// validation.
#include <cstddef>
#include <cstdint>

#include "formats/brf/brf.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const auto ctx = fuzz::context("fuzz.brf", [](const std::string&) {
    return std::optional<std::vector<std::byte>>(std::vector<std::byte>(16, std::byte{0x42}));
  });
  fuzz::AllocationWatch watch;
  auto r = formats::brf::readBrf(fuzz::asBytes(data, size), ctx);
  watch.check(size, "brf::readBrf");
  if (fuzz::succeeded(r, ctx.name, size)) fuzz::checkScene(*r, "brf::readBrf");
  return 0;
}
