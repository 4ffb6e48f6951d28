// The readers of the single cal3d files, for readModel (cal3d.h) and the tests. Each returns a
// part of a model, not a Scene: parts refer to one another by index and are only consistent
// once readModel has put them together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::cal3d {

// The skeleton a mesh or animation file refers to by bone id. Without one (skeleton null),
// readers keep going: influences are dropped, tracks are named "#<id>" (one diagnostic each).
struct BoneMap {
  const Skeleton* skeleton = nullptr;
  std::vector<int> modelIndexOfFileBone;  // file bone id → index in *skeleton

  // The model index of a file bone id, or -1 when the skeleton has no such bone (or there is
  // no skeleton). Without a table, ids are the skeleton's own indices.
  int find(std::int64_t fileId) const {
    if (!skeleton || fileId < 0) return -1;
    const auto id = static_cast<std::uint64_t>(fileId);
    if (modelIndexOfFileBone.empty())
      return id < skeleton->bones.size() ? static_cast<int>(id) : -1;
    return id < modelIndexOfFileBone.size() ? modelIndexOfFileBone[id] : -1;
  }
};

struct SkeletonPart {
  Skeleton skeleton;
  std::vector<int> modelIndexOfFileBone;  // identity unless bones had to be reordered
  std::string format;                     // "cal3d CSF 700", "cal3d XSF 1000"
  Diagnostics diagnostics;
};

struct AnimationPart {
  Clip clip;  // named after the file (stem), wrapsToFirstKey = true
  std::string format;
  Diagnostics diagnostics;
};

struct MeshPart {
  std::vector<Mesh> meshes;           // one per submesh; Mesh::material left at -1
  std::vector<int> materialThreads;   // per submesh: the material thread id as stored (-1: none)
  std::string format;                 // "cal3d CMF 1300 (count-prefixed morphs)"
  Diagnostics diagnostics;
};

// A morph animation (.xpf / .cpf, spec §7.5): morph target weights over time. IMVU's files name
// each track's target; the fork's number it: MORPHID, the target's index in each of the SUBMESH
// submeshes of mesh file MESHID (the file's place among the model's mesh files, in load order).
// The fork's binary tracks state neither mesh nor submeshes. readModel resolves the tracks
// against the model's meshes (resolveMorphAnimation).
struct MorphAnimationPart {
  struct Track {
    std::string morphName;             // IMVU: the target's name; "" in the fork's files
    std::int64_t morphId = -1;         // the fork: the target's index in each submesh below
    std::int64_t meshId = -1;          // the fork's XML: the mesh file; -1 when not stated
    std::vector<std::int64_t> submeshes;
    Channel<float> weight;             // sorted by time, linear
    std::uint64_t offset = kNoOffset;  // where the track starts, for messages
  };
  std::string file;  // as read (ReadContext::name), for messages
  std::string name;  // the file's stem
  float duration = 0.0f;
  std::vector<Track> tracks;
  std::string format;  // "cal3d XPF 1300 (morph ids)", "cal3d CPF 919"
  Diagnostics diagnostics;
};

struct MaterialPart {
  Material material;              // named after the file (stem); maps index `textures` below
  std::vector<Texture> textures;  // each image once (TextureTable); bytes through ctx.resolve
  std::string format;
  Diagnostics diagnostics;
};

// Binary or XML, decided by the content ("CSF\0" etc. for binary, '<' after optional
// whitespace / BOM for XML). Names in messages are ctx.name.
Result<SkeletonPart> readSkeleton(std::span<const std::byte> data, const ReadContext& ctx);
Result<AnimationPart> readAnimation(std::span<const std::byte> data, const ReadContext& ctx,
                                    const BoneMap& bones);
Result<MeshPart> readMesh(std::span<const std::byte> data, const ReadContext& ctx,
                          const BoneMap& bones);
Result<MaterialPart> readMaterial(std::span<const std::byte> data, const ReadContext& ctx);
Result<MorphAnimationPart> readMorphAnimation(std::span<const std::byte> data,
                                              const ReadContext& ctx);

// The meshes of one mesh file of a model: scene.meshes[first, first + count).
struct MeshFileRange {
  std::size_t first = 0, count = 0;
};

// A morph animation as a clip of the model (named after the file, no wrap to the first key):
// a named target's track drives that target in every mesh that has one (as IMVU's mixer sets
// it on every submesh); a numbered one drives target MORPHID of each SUBMESH of mesh file
// MESHID. When MESHID is past the files loaded (the .cfg it was made for had more) and exactly
// one file has every submesh and target the tracks of that MESHID name, that file is meant: a
// note says so. Tracks that fit no mesh are kept under the names "#MESHID#SUBMESH" (mesh) and
// "#MORPHID" (target), or "" and the target's name, so that writing the animation again keeps
// them; a warning counts them.
// A track copied to many meshes counts its keys each time: past Limits::maxKeys in all, the
// rest are left out (a warning says so).
Clip resolveMorphAnimation(const MorphAnimationPart& part, const std::vector<Mesh>& meshes,
                           std::span<const MeshFileRange> files, const Limits& limits,
                           Diagnostics& diagnostics);

// The binary and XML readers behind those.
Result<SkeletonPart> readCsf(std::span<const std::byte> data, const ReadContext& ctx);
Result<AnimationPart> readCaf(std::span<const std::byte> data, const ReadContext& ctx,
                              const BoneMap& bones);
Result<MeshPart> readCmf(std::span<const std::byte> data, const ReadContext& ctx,
                         const BoneMap& bones);
Result<MaterialPart> readCrf(std::span<const std::byte> data, const ReadContext& ctx);
Result<SkeletonPart> readXsf(std::span<const std::byte> data, const ReadContext& ctx);
Result<AnimationPart> readXaf(std::span<const std::byte> data, const ReadContext& ctx,
                              const BoneMap& bones);
Result<MeshPart> readXmf(std::span<const std::byte> data, const ReadContext& ctx,
                         const BoneMap& bones);
Result<MaterialPart> readXrf(std::span<const std::byte> data, const ReadContext& ctx);
Result<MorphAnimationPart> readCpf(std::span<const std::byte> data, const ReadContext& ctx);
Result<MorphAnimationPart> readXpf(std::span<const std::byte> data, const ReadContext& ctx);

// A .cfg file's lines (§9), before any file is read.
struct ConfigEntry {
  std::string file;  // as written, less trailing blanks, backslashes turned into '/'
  std::string path;  // the path= in force when it was named, ending in '/' ("" for none)
  int line = 0;      // 1-based, for messages
};

struct ConfigFile {
  float scale = 1.0f;
  std::vector<ConfigEntry> skeletons;  // more than one is an error readConfig reports
  std::vector<ConfigEntry> meshes, materials, animations;
  std::vector<ConfigEntry> morphAnimations;  // morphanim= (the fork's .cfg files)
  Diagnostics diagnostics;  // unknown keys, bad lines (offset: the line's byte offset)
};
Result<ConfigFile> parseConfig(std::span<const std::byte> data, const ReadContext& ctx);

}  // namespace marrow::formats::cal3d
