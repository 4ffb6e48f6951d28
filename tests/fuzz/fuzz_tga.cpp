// TGA (formats/image/tga.h): decodeTga to RGBA8 under tight limits, and the detection isTga.
#include <cstddef>
#include <cstdint>

#include "formats/image/tga.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const std::string name = "fuzz.tga";
  const auto bytes = fuzz::asBytes(data, size);
  (void)formats::isTga(bytes, name);
  (void)formats::isTga(bytes, "fuzz.bin");
  fuzz::AllocationWatch watch;
  auto image = formats::decodeTga(bytes, name, fuzz::tightLimits());
  watch.check(size, "decodeTga");
  if (!fuzz::succeeded(image, name, size)) return 0;
  if (image->width == 0 || image->height == 0) fuzz::finding("decodeTga made an empty image");
  if (image->rgba.size() != std::size_t{image->width} * image->height * 4)
    fuzz::finding("decodeTga made " + std::to_string(image->rgba.size()) + " bytes for " +
                  std::to_string(image->width) + "x" + std::to_string(image->height));
  return 0;
}
