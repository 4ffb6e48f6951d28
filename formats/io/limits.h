// Caps every reader checks before it allocates, so hostile files cannot exhaust memory.
#pragma once

#include <cstdint>

namespace marrow::formats {

struct Limits {
  std::uint32_t maxBones = 1u << 14;
  std::uint64_t maxVertices = 1ull << 24;
  std::uint64_t maxTriangles = 1ull << 25;
  std::uint64_t maxKeys = 1ull << 26;
  std::uint32_t maxStringLength = 1u << 16;
  std::uint32_t maxInfluencesPerVertex = 64;
  std::uint32_t maxHierarchyDepth = 1024;
  std::uint32_t maxMeshes = 1u << 16;
  std::uint32_t maxClips = 1u << 16;
  // A reader allocates at most allocationFactor bytes per input byte, plus allocationSlack.
  std::uint64_t allocationFactor = 64;
  std::uint64_t allocationSlack = 1ull << 20;
  // Extraction (vfs::Archive::stream) writes a larger entry in pieces instead of holding it.
  std::uint64_t maxWholeEntry = 64ull << 20;

  std::uint64_t maxAllocation(std::uint64_t inputSize) const {
    return inputSize * allocationFactor + allocationSlack;
  }
};

}  // namespace marrow::formats
