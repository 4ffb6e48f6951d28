// Writing any model as glTF 2.0: a binary .glb, or a .gltf with its .bin and image files.
//
// The scene is first converted to glTF's space (Y-up, right-handed, metres: the display basis,
// formats/model/convert.h), once. Meshes keep normals, tangents, uv sets and vertex colours;
// materials become pbrMetallicRoughness (metallic 0, roughness 1) with their diffuse texture
// (PNG and JPEG as they are, DDS decoded and re-encoded as PNG, other formats left out with a
// diagnostic); the skeleton becomes joint nodes and a skin per set of inverse binds; every clip
// that fits the skeleton becomes an animation, morph weight tracks animating the mesh nodes'
// weights. Bodies, attachments and tables are not written.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats {

struct GltfFile {
  std::string name;  // relative file name: "hero.gltf", "hero.bin", "hero_skin.png"
  std::vector<std::byte> bytes;
};

struct GltfFiles {
  // The .gltf JSON first, then the .bin (when there is binary data), then the images.
  std::vector<GltfFile> files;
};

Result<std::vector<std::byte>> writeGlb(const Scene& scene, Diagnostics& diagnostics);
Result<GltfFiles> writeGltf(const Scene& scene, const std::string& baseName,
                            Diagnostics& diagnostics);

}  // namespace marrow::formats
