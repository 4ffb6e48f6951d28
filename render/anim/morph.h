// Morph targets (blend shapes) and progressive-mesh level of detail: the CPU reference the GPU
// path matches. No Qt, no GL.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/model/lod.h"
#include "formats/model/scene.h"

namespace marrow::anim {

// Base shape plus the weighted target offsets (Scene.h's MorphTarget formula): positions and
// normals (normals renormalised) of every vertex. `weights` has one entry per target (missing
// entries count as 0).
void applyMorphs(const formats::Mesh& mesh, std::span<const float> weights,
                 std::vector<glm::vec3>& positions, std::vector<glm::vec3>& normals);

// What `clip`'s morph tracks say at clip time `t`: weights[m][k] for morph target k of
// meshes[m], where a track names that mesh and target (lerp between keys, hold outside them).
// weights must have one entry per mesh (each resized to the mesh's target count); targets the
// clip does not animate keep the value they had.
void sampleMorphWeights(const formats::Clip& clip, float t, std::span<const formats::Mesh> meshes,
                        std::vector<std::vector<float>>& weights);

// A target's offsets from the base for every vertex (zero where it does not move the vertex).
void morphDeltas(const formats::Mesh& mesh, const formats::MorphTarget& target,
                 std::vector<glm::vec3>& positionDeltas, std::vector<glm::vec3>& normalDeltas);

// The triangles to draw at a level of detail (formats/model/lod.h, the one implementation).
using formats::lodIndices;

}  // namespace marrow::anim
