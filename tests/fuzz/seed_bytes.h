// Seeds built byte by byte from the specs, for what no writer of ours makes and no fixture has.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace marrow::fuzz::seeds {

// cal3d §4.3: a version 1200 CAF with flags bit 0 (quantised tracks), two tracks.
std::vector<std::byte> quantisedCaf1200();
// cal3d §4.4: an IMVU bit-packed CAF (913–918 always; 919 and 1300 with compressionFlag 1):
// tracks with dynamic low-range, high-range and absent translations.
std::vector<std::byte> bitPackedCaf(int version);
// Dragon Nest §7: a legacy .ext table with text, int and float columns and the trailer.
std::vector<std::byte> extTable();
// DDS files (Microsoft's DDS_HEADER layout): DXT1/3/5 with mip chains, masked RGB(A),
// luminance, 16-bit formats, DX10 headers, a cube map.
std::vector<std::pair<std::string, std::vector<std::byte>>> ddsImages();

// TGA files (Truevision TGA 2.0): every image type (1, 2, 3, 9, 10, 11), depths 8–32, colour
// maps, origins, run-length packets across rows, the 2.0 footer.
std::vector<std::pair<std::string, std::vector<std::byte>>> tgaImages();

}  // namespace marrow::fuzz::seeds
