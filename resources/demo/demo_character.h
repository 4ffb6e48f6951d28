// The demo character `marrow` opens when started without a file: a stylised figure built
// entirely by the project's own code, so the bundled demo.omf is also a test of the OMF writer.
#pragma once

#include <string_view>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::demo {

inline constexpr std::string_view kWalkClip = "walk";
inline constexpr std::string_view kWaveClip = "wave";
inline constexpr std::string_view kIdleClip = "idle";

// The whole scene: one skinned mesh with vertex colours, its skeleton, the clips "walk",
// "wave" and "idle", one material. Y-up, right-handed, metres, facing +Z, standing on y = 0.
// Deterministic: the same scene on every call and every machine.
formats::Scene makeDemoCharacter();

// The parts, for tests and tools.
formats::Skeleton makeDemoSkeleton();
formats::Mesh makeDemoMesh();
std::vector<formats::Clip> makeDemoClips();

}  // namespace marrow::demo
