// The assimp entry point: import through a resolver-backed IOSystem, then convert (the parts live
// in assimp_skeleton.cpp, assimp_clips.cpp, assimp_mesh.cpp, assimp_material.cpp).
#include "formats/assimp/assimp_reader.h"

#include <cctype>
#include <cstring>

#include <assimp/commonMetaData.h>
#include <assimp/config.h>
#include <assimp/importerdesc.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <memory>
#include <new>
#include <string_view>

#include "formats/assimp/assimp_convert.h"
#include "formats/assimp/assimp_io.h"
#include "formats/io/detect.h"

namespace marrow::formats {
namespace {

// Vertex-affecting steps first: the reference test (tests/reference/assimp_pose_test.cpp) imports
// with the same ones so that its vertex i is ours. No LimitBoneWeights (the model keeps every
// influence and render/anim packs the 8 heaviest), no FlipUVs (done in assimp_mesh.cpp, next to
// the convention it serves), no PreTransformVertices (the hierarchy is the skeleton), no
// ConvertToLeftHanded (it would mirror the data; the basis says what the coordinates are).
// aiProcess_ValidateDataStructure runs on its own before these (see import()).
// Smooth normals for meshes without them are made by the conversion (generateNormals in
// assimp_mesh.cpp), as assimp's GenSmoothNormals would make them but in linear time: that step
// was 1.6 of the 4.4 s of reading a 68 MB OBJ of a million triangles.
constexpr unsigned kPostProcess = aiProcess_Triangulate | aiProcess_SortByPType;

// The name the importer reads: the file's own name in the current folder. The "./" matters:
// some importers (HL1 MDL, SMD) take everything before the last slash as the folder of the
// siblings they look for, and without one they treat the whole name as that folder.
std::string mainFileName(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return "./" + (base.empty() ? std::string("unnamed") : base);
}

const aiMetadataEntry* metadata(const aiScene& s, std::string_view key) {
  if (!s.mMetaData) return nullptr;
  for (unsigned i = 0; i < s.mMetaData->mNumProperties; ++i)
    if (std::string_view(s.mMetaData->mKeys[i].C_Str()) == key) return &s.mMetaData->mValues[i];
  return nullptr;
}

bool number(const aiScene& s, std::string_view key, double& out) {
  const aiMetadataEntry* e = metadata(s, key);
  if (!e || !e->mData) return false;
  switch (e->mType) {
    case AI_INT32: out = *static_cast<const std::int32_t*>(e->mData); return true;
    case AI_UINT64:
      out = static_cast<double>(*static_cast<const std::uint64_t*>(e->mData));
      return true;
    case AI_FLOAT: out = *static_cast<const float*>(e->mData); return true;
    case AI_DOUBLE: out = *static_cast<const double*>(e->mData); return true;
    default: return false;
  }
}

// "assimp: glTF2", from the importer that actually ran (it records itself in the metadata),
// else the one the extension names, else the extension.
std::string formatName(const aiScene& s, const Assimp::Importer& importer,
                       const std::string& name) {
  std::string importerName;
  if (const aiMetadataEntry* e = metadata(s, AI_METADATA_SOURCE_FORMAT);
      e && e->mType == AI_AISTRING && e->mData)
    importerName = static_cast<const aiString*>(e->mData)->C_Str();
  const std::string ext(extensionOf(name));
  if (importerName.empty() && !ext.empty()) {
    const std::size_t index = importer.GetImporterIndex(ext.c_str());
    if (index != static_cast<std::size_t>(-1))
      if (const aiImporterDesc* d = importer.GetImporterInfo(index)) importerName = d->mName;
  }
  if (importerName.empty()) importerName = ext.empty() ? "unknown format" : ext;
  // "Valve SMD Importer", "BVH Importer (MoCap)": the word says nothing here.
  constexpr std::string_view kWord = " Importer";
  if (const auto at = importerName.find(kWord); at != std::string::npos && at > 0)
    importerName.erase(at, kWord.size());
  return "assimp: " + importerName;
}

// Assimp's own space is right-handed and Y-up, and most importers convert into it (Collada
// rotates its root node for Z_UP, the X importer mirrors left-handed data). The FBX importer is
// the exception: it keeps the file's axes and units and only records them in the metadata
// (UpAxis, FrontAxis, CoordAxis with their signs; UnitScaleFactor in centimetres per unit), so
// for FBX the basis comes from there.
Basis basisOf(const aiScene& s, std::string_view format, const std::string& file,
              Diagnostics& diag) {
  Basis b;
  // Valve's SMD is Z-up like the engines it feeds, and assimp's importer keeps it so (the same
  // Wuson model stands on its tail from SMD and on its feet from B3D otherwise).
  if (format.find("Valve SMD") != std::string_view::npos) return Basis{Axis::Z, true, 1.0f};
  if (format.find("FBX") == std::string_view::npos) return b;
  double up = 0, upSign = 0, front = 0, frontSign = 0, coord = 0, coordSign = 0, unit = 0;
  if (number(s, "UpAxis", up) && number(s, "UpAxisSign", upSign) && number(s, "FrontAxis", front) &&
      number(s, "FrontAxisSign", frontSign) && number(s, "CoordAxis", coord) &&
      number(s, "CoordAxisSign", coordSign)) {
    const int u = static_cast<int>(up), f = static_cast<int>(front), c = static_cast<int>(coord);
    if (u >= 0 && u < 3 && f >= 0 && f < 3 && c >= 0 && c < 3 && u != f && u != c && f != c) {
      b.up = u == 0 ? Axis::X : u == 1 ? Axis::Y : Axis::Z;
      // Right-handed when (coord, up, front) with their signs form a positive frame.
      glm::mat3 frame(0.0f);
      frame[0][c] = coordSign < 0 ? -1.0f : 1.0f;
      frame[1][u] = upSign < 0 ? -1.0f : 1.0f;
      frame[2][f] = frontSign < 0 ? -1.0f : 1.0f;
      b.rightHanded = glm::determinant(frame) > 0.0f;
      if (upSign < 0)
        diag.warn(file, "UpAxisSign", kNoOffset,
                  "the file's up axis points down, which the basis cannot say; shown upside down");
    } else {
      diag.warn(file, "UpAxis", kNoOffset, "the file's axis system is inconsistent; Y-up assumed");
    }
  }
  if (number(s, "UnitScaleFactor", unit) && std::isfinite(unit) && unit > 0.0)
    b.unitMeters = static_cast<float>(unit / 100.0);
  return b;
}

}  // namespace

unsigned assimpVertexSteps() { return kPostProcess; }

bool joinsIdenticalVertices(std::span<const std::byte> head, std::string_view name) {
  const auto endsWith = [&](std::string_view ext) {
    if (name.size() < ext.size()) return false;
    for (std::size_t i = 0; i < ext.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(name[name.size() - ext.size() + i])) != ext[i]) return false;
    return true;
  };
  const bool glb = head.size() >= 4 && std::memcmp(head.data(), "glTF", 4) == 0;
  return !(glb || endsWith(".gltf") || endsWith(".glb"));
}

namespace {

Result<Scene> import(std::span<const std::byte> data, const ReadContext& ctx) {
  const std::string mainName = mainFileName(ctx.name);
  Assimp::Importer importer;
  // Not ReadFileFromMemory: its wrapper answers every name starting with its magic name with the
  // main buffer, so an importer deriving a sibling's name from the main file's (MD5's .md5anim)
  // would be handed the main file again. Serving the main file under its real name keeps
  // derived names meaningful; the magic prefix is still honoured by ResolverIOSystem.
  auto io = std::make_unique<ResolverIOSystem>(mainName, data, ctx.resolve);
  const ResolverIOSystem* files = io.get();
  importer.SetIOHandler(io.release());  // the importer owns and deletes it
  // Our viewer draws skeletons itself; assimp's stand-in meshes for skeleton-only files (BVH,
  // CSM, an animation-only SMD or MD5) would pose as geometry.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);

  // Three steps rather than one ReadFile(name, steps | validate): a file that is only a skeleton
  // and animations (BVH, since stand-in meshes are off) fails validation's "at least one mesh"
  // rule unless the scene says it is incomplete, which assimp's docs define for exactly such
  // skeleton- or animation-only imports. The importer owns the scene and created it mutable;
  // GetScene() merely hands out a const view.
  const aiScene* scene = importer.ReadFile(mainName, 0);
  if (scene && scene->mNumMeshes == 0)
    const_cast<aiScene*>(scene)->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;
  if (scene) scene = importer.ApplyPostProcessing(aiProcess_ValidateDataStructure);
  if (scene) scene = importer.ApplyPostProcessing(assimpVertexSteps());
  if (!scene) {
    std::string message = importer.GetErrorString();
    if (message.empty()) message = "assimp could not import the file";
    if (!files->missing().empty()) {
      message += " (files not found beside it:";
      for (std::size_t i = 0; i < files->missing().size() && i < 4; ++i)
        message += " '" + files->missing()[i] + "'";
      message += ")";
    }
    return FormatError{ctx.name, "", kNoOffset, message};
  }

  Scene out;
  out.format = formatName(*scene, importer, ctx.name);
  out.basis = basisOf(*scene, out.format, ctx.name, out.diagnostics);
  if (scene->mFlags & AI_SCENE_FLAGS_VALIDATION_WARNING)
    out.diagnostics.warn(ctx.name, "", kNoOffset,
                         "assimp's validation found problems it could work around");
  for (const auto& name : files->missing())
    out.diagnostics.info(ctx.name, name, kNoOffset,
                         "assimp looked for this file and it was not found");

  const assimpconv::Context c{*scene, ctx.name, ctx.limits, data.size() + files->siblingBytes(),
                              out.diagnostics, &ctx, joinsIdenticalVertices(data, ctx.name)};
  const assimpconv::NodeTable nodes = assimpconv::flattenNodes(c);
  if (assimpconv::needsSkeleton(*scene)) {
    out.skeleton = assimpconv::buildSkeleton(c, nodes);
    out.clips = assimpconv::convertClips(c, out.skeleton);
  } else if (scene->mNumAnimations > 0) {
    out.diagnostics.warn(ctx.name, "animations", kNoOffset,
                         std::to_string(scene->mNumAnimations) +
                             " animations move vertices or morph targets only; they are not "
                             "supported and were skipped");
  }
  assimpconv::convertMaterials(c, out);
  assimpconv::convertMeshes(c, nodes, out);
  return out;
}

}  // namespace

Result<Scene> readWithAssimp(std::span<const std::byte> data, const ReadContext& ctx) {
  // Assimp reports most failures through ReadFile's null result, but some importers and
  // allocations throw; nothing may leave a reader.
  try {
    return import(data, ctx);
  } catch (const FormatException& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return FormatError{ctx.name, "", kNoOffset, "out of memory while importing through assimp"};
  } catch (const std::exception& e) {
    return FormatError{ctx.name, "", kNoOffset, std::string("assimp failed: ") + e.what()};
  } catch (...) {
    return FormatError{ctx.name, "", kNoOffset, "assimp failed with an unknown error"};
  }
}

}  // namespace marrow::formats
