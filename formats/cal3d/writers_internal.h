// The binary and XML writers behind writer.h. Each takes a scene already in cal3d's basis
// (Z-up, right-handed: writer.cpp converts once) and a version from WriteOptions (for the morph
// animation writers, one holdsMorphAnimations accepts).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::cal3d {

Result<std::vector<std::byte>> writeCsf(const Scene& scene, int version, Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeCaf(const Scene& scene, std::size_t clip, int version,
                                        Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeCmf(const Scene& scene, std::span<const std::size_t> meshes,
                                        int version, Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeCpf(const Scene& scene, std::size_t clip, int version,
                                        Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeCrf(const Scene& scene, std::size_t material, int version,
                                        Diagnostics& diagnostics);

Result<std::vector<std::byte>> writeXsf(const Scene& scene, int version, Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeXaf(const Scene& scene, std::size_t clip, int version,
                                        Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeXmf(const Scene& scene, std::span<const std::size_t> meshes,
                                        int version, Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeXpf(const Scene& scene, std::size_t clip, int version,
                                        Diagnostics& diagnostics);
Result<std::vector<std::byte>> writeXrf(const Scene& scene, std::size_t material, int version,
                                        Diagnostics& diagnostics);

// The file name a material map is written as: Texture::name when set, else its path.
std::string mapFileName(const Scene& scene, const MaterialMap& map);

}  // namespace marrow::formats::cal3d
