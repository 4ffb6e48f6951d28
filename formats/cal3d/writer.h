// Writing cal3d files from any model, binary or XML.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::cal3d {

struct WriteOptions {
  bool xml = false;
  // 700–1100: the plain layout every cal3d since 0.7 reads (1100 is what libcal3d 0.11 writes);
  // 1300: the 0.13 trunk layout (vertex colours, sentinel-ended morph targets, map types);
  // 1301: the fork's layout (count-prefixed morph targets, map types, no vertex colours).
  int version = 1100;
};

// The smallest version that holds everything `scene` has: 1100, or 1300 / 1301 for vertex
// colours / morph targets or morph target animation.
int versionFor(const Scene& scene);

// Each writer converts the scene to cal3d's basis (Z-up, right-handed) first and reports what the
// chosen version cannot hold in `diagnostics` (scale keys, more than the format's names, vertex
// colours before 1300, morph targets before 1300, …). Bone ids and material thread ids are the
// model's indices.
Result<std::vector<std::byte>> writeSkeleton(const Scene& scene, const WriteOptions& options,
                                             Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeAnimation(const Scene& scene, std::size_t clip,
                                              const WriteOptions& options,
                                              Diagnostics& diagnostics);
// Clip `clip`'s morph target weights as a morph animation (.xpf / .cpf, §7.5; common.h
// calMorphClipOf says what each form holds): XML names the targets at IMVU's versions (911–999)
// and numbers them at 1300 and 1301; binary names them, at version 919. The official versions
// (700–1200) hold none.
Result<std::vector<std::byte>> writeMorphAnimation(const Scene& scene, std::size_t clip,
                                                   const WriteOptions& options,
                                                   Diagnostics& diagnostics);
// The meshes become the submeshes of one mesh file.
Result<std::vector<std::byte>> writeMesh(const Scene& scene, std::span<const std::size_t> meshes,
                                         const WriteOptions& options, Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeMaterial(const Scene& scene, std::size_t material,
                                             const WriteOptions& options,
                                             Diagnostics& diagnostics);

struct NamedFile {
  std::string name;  // relative file name, e.g. "hero_walk.caf"
  std::vector<std::byte> bytes;
};

// The whole model: a skeleton, one mesh file per group of meshes ("name" and "name#i" form one
// file), one material file per material, one animation file per clip that moves bones and one
// morph animation file per clip that drives morph targets (at 1300 and 1301), and `<base>.cfg`
// naming them all (with scale= the basis unit). Texture files are not written; maps name them.
Result<std::vector<NamedFile>> writeModel(const Scene& scene, const std::string& baseName,
                                          const WriteOptions& options, Diagnostics& diagnostics);

}  // namespace marrow::formats::cal3d
