// The cal3d targets: one fuzzed file read as part of a model with fixed, valid companions (a
// skeleton for meshes and animations; a mesh and an animation for skeletons), through
// cal3d::readModel, then the model validation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/cal3d/cal3d.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/small_models.h"

namespace marrow::fuzz {

enum class Companions { None, Skeleton, MeshAndAnimation, MorphMesh };

// Texture maps a material names resolve to these bytes, whatever the name: large enough that a
// reader holding a copy per map (not per image) goes past the allocation watch's limit.
inline constexpr std::size_t kTextureBytes = 16 * 1024;
inline formats::Resolver anyTexture() {
  return [](const std::string&) -> std::optional<std::vector<std::byte>> {
    return std::vector<std::byte>(kTextureBytes, std::byte{0x42});
  };
}

inline int fuzzCal3dFile(const std::uint8_t* data, std::size_t size, const char* name,
                         Companions companions) {
  static const std::vector<std::byte> skeleton = wideSkeletonCsf();
  static const std::vector<NamedFile> small = smallCal3dModel(false, 1100);
  std::vector<formats::cal3d::Input> inputs;
  static const std::vector<std::byte> morphMesh = morphMeshCmf();
  if (companions == Companions::Skeleton) inputs.push_back({skeleton, context("skeleton.csf")});
  if (companions == Companions::MorphMesh) inputs.push_back({morphMesh, context("head.cmf")});
  if (companions == Companions::MeshAndAnimation)
    for (const auto& f : small)
      if (f.name.ends_with(".cmf") || f.name.ends_with(".caf"))
        inputs.push_back({f.bytes, context(f.name)});
  inputs.push_back({asBytes(data, size), context(name, anyTexture())});
  std::size_t inputBytes = 0;
  for (const auto& in : inputs) inputBytes += in.bytes.size();
  const std::string_view fuzzed(name);
  if (fuzzed.ends_with(".crf") || fuzzed.ends_with(".xrf")) inputBytes += kTextureBytes;
  AllocationWatch watch;
  auto r = formats::cal3d::readModel(inputs);
  watch.check(inputBytes, std::string("cal3d readModel of ") + name);
  if (succeeded(r, name, size)) checkScene(*r, std::string("cal3d readModel of ") + name);
  return 0;
}

}  // namespace marrow::fuzz
