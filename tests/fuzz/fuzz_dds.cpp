// DDS (formats/image/dds.h): readDds, then every level decoded to RGBA8 (what the viewer and
// the glTF writer do with a texture).
#include <cstddef>
#include <cstdint>

#include "formats/image/dds.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const std::string name = "fuzz.dds";
  fuzz::AllocationWatch watch;
  auto image = formats::readDds(fuzz::asBytes(data, size), name);
  watch.check(size, "readDds");
  if (!fuzz::succeeded(image, name, size)) return 0;
  if (image->levels.empty()) fuzz::finding("readDds succeeded with no level");
  if (image->width == 0 || image->height == 0) fuzz::finding("readDds made an empty image");
  for (std::size_t i = 0; i < image->levels.size(); ++i) {
    const auto& level = image->levels[i];
    if (level.data.size() !=
        formats::ddsLevelSize(image->format, image->masks.bitsPerPixel, level.width, level.height))
      fuzz::finding("level " + std::to_string(i) + " holds " + std::to_string(level.data.size()) +
                    " bytes, not its size");
    auto rgba = formats::decodeDdsLevel(*image, i);
    watch.check(size, "readDds and decodeDdsLevel");
    if (!rgba)
      fuzz::finding("level " + std::to_string(i) +
                    " of a read image does not decode: " + rgba.error().describe());
    if (rgba->size() != std::size_t{level.width} * level.height * 4)
      fuzz::finding("level " + std::to_string(i) + " decoded to " + std::to_string(rgba->size()) +
                    " bytes");
  }
  return 0;
}
