// What the format writers share: results that refuse or fail naming the output, the notes about
// what a model format cannot hold, and the model as it is written (clips of other skeletons left
// out, what the output holds checked).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "formats/format.h"

namespace marrow::formats::writing {

WriteResult refused(WriteResult r, std::string why);
WriteResult failed(WriteResult r, FormatError e, const std::string& out);
// What a writer could not keep is said of the output.
void nameTheOutput(Diagnostics& d, const std::string& out);
std::string plural(std::size_t n, const char* one, const char* many);

// Collision bodies, attachment points and tables belong to no model format but BRF and Dragon
// Nest's own: said when `fmt` leaves them out.
void noteModelExtras(const Scene& s, const std::string& fmt, const std::string& out, Diagnostics& d);
// cal3d's progressive meshes and springs: only cal3d stores them.
void noteCal3dOnlyData(const Scene& s, const std::string& fmt, const std::string& out, Diagnostics& d);
std::size_t clipsWithMorphTracks(const Scene& s);
// Says the morph targets and morph animation a format without them (`fmt`) leaves out.
void noteMorphData(const Scene& s, const std::string& fmt, const std::string& out, Diagnostics& d);

// A colour as the 32-bit 0xAARRGGBB that Direct3D games store (BRF vertices, Dragon Nest's
// D3DCOLOR), each channel clamped to 0..1 and rounded.
std::uint32_t argb8(const glm::vec4& colour);
// A texture as the games name it: its file name without folders, the extension made ".dds".
std::string ddsName(const Texture& texture);

// The model as `kind` writes it: clips made for another skeleton left out (with a warning), and
// what the output must hold checked (a clip, a material, a mesh, a skeleton, or anything at all:
// Status::Nothing). `clip` and `material` get the index into the prepared scene.
struct Prepared {
  WriteResult result;  // ok, or why not
  Scene scene;
  int clip = 0, material = 0;
};
Prepared prepare(const Scene& scene, Holds holds, const std::string& out, const WriteOptions& o);

}  // namespace marrow::formats::writing
