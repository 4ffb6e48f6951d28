// Dragon Nest MSH v10–v13 ("Eternity Engine Mesh File"): the file as records, read and written
// field for field (../shared/specs/dragonnest.md §3). The model is made from these in convert.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/glm.h"

namespace marrow::formats::dragonnest {

// Sixteen floats in D3DX layout: row-major, row vectors, translation in 12–14 (§1 "Matrices").
using D3dMatrix = std::array<float, 16>;
D3dMatrix identityMatrix();
glm::mat4 toGlm(const D3dMatrix& m);  // the column-vector form (the transpose)
D3dMatrix fromGlm(const glm::mat4& m);

struct MshBone {
  std::string name;
  D3dMatrix inverseBind{};  // inverse of the bone's world (bind) matrix (§3.2)
};

struct MshSubmesh {
  std::string parent = "Scene Root";  // §3.3: a bone for a rigid submesh
  std::string name;
  bool strip = false;
  bool skinned = false;
  bool hasColors = false;
  std::vector<std::uint16_t> indices;
  std::vector<glm::vec3> positions;  // bind-pose model space
  std::vector<glm::vec3> normals;
  std::vector<std::vector<glm::vec2>> uvSets;  // at least one, each one per vertex
  std::vector<std::uint32_t> colors;           // D3DCOLOR (A8R8G8B8), when hasColors
  // When skinned: four palette slots and weights per vertex, and the palette's bone names.
  std::vector<std::array<std::int16_t, 4>> boneIndices;
  std::vector<std::array<float, 4>> weights;
  std::vector<std::string> palette;
};

// §3.4. Box: centre, three axes, three extents. Sphere: centre, radius. Capsule: segment origin
// and vector, radius. Triangles (type 3 or 4): (origin, edge1, edge2) each.
struct MshCollision {
  enum Type : std::int32_t { Box = 0, Sphere = 1, Capsule = 2, Triangles = 3, TriangleList = 4 };
  std::int32_t type = Sphere;
  std::string parent;  // v11+ only; empty for none
  glm::vec3 centre{0.0f};
  std::array<glm::vec3, 3> axes{glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)};
  glm::vec3 extent{0.0f};
  float radius = 0.0f;
  glm::vec3 segment{0.0f};
  std::vector<std::array<glm::vec3, 3>> triangles;
};

// §3.5. v13 stores a matrix relative to the parent; older files only a position (the
// translation of `matrix` here) and a parent when the name is marked with a leading 'L'.
struct MshDummy {
  std::string name;
  std::string parent;  // empty for none
  D3dMatrix matrix = identityMatrix();
};

struct Msh {
  std::int32_t version = 13;
  std::string magic;  // as read; empty: the one the engine wrote for `version`
  std::int32_t lodCount = 1;
  std::uint8_t uvAnimation = 0;
  glm::vec3 boundsMax{0.0f}, boundsMin{0.0f};
  std::vector<MshBone> bones;
  std::vector<MshSubmesh> submeshes;
  std::vector<MshCollision> collisions;
  std::vector<MshDummy> dummies;
};

inline constexpr const char* kMeshMagic = "Eternity Engine Mesh File";

// Reads the whole file; every count is checked against the bytes left, errors name the field
// and the offset. Bytes after the last dummy are an error (the fixtures end there, §3).
Result<Msh> parseMsh(std::span<const std::byte> data, const ReadContext& ctx);

// Writes `msh` in msh.version (10–13); the magic string is the one of that version.
Result<std::vector<std::byte>> writeMsh(const Msh& msh);

// The triangles of a submesh as a list: lists as stored, strips expanded with the odd-triangle
// swap and their degenerate stitches dropped (§3.3).
std::vector<std::uint32_t> triangleList(const MshSubmesh& submesh);

}  // namespace marrow::formats::dragonnest
