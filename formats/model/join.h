// Joining identical vertices: what formats that store a triangle's corners one by one (SMD, X,
// COLLADA, OBJ through assimp) need before a model is drawn or written. No Qt, no GL.
#pragma once

#include <cstddef>

#include "formats/model/scene.h"

namespace marrow::formats {

// Vertices that are the same vertex become one, at the place of the first of them, with its
// values; the triangles refer to it, and the vertices keep their order otherwise. The same:
// equal bit for bit in position, every uv set, colour, influences (in their order) and every
// morph target's position and uvs at that vertex; and normal, tangent and morph-target normals
// each within 1e-5 of the first's (directions an exporter computed differ in their last bits
// where one vertex was meant: assimp's JoinIdenticalVertices uses the same tolerance). Meshes
// whose vertex order carries meaning (levels of detail, springs, physical weights) and meshes
// whose arrays disagree (in length, influence rows that go back,
// blend-shape normals without normals, indices outside the vertices) are left as they are
// (validation reports those). Hashes the vertices (meshoptimizer, with a seeded digest that a
// file cannot aim at one bucket): linear in the vertex count. Returns how many vertices went.
std::size_t joinIdenticalVertices(Mesh& mesh);

}  // namespace marrow::formats
