// Everything assimp imports, in the format table: read in a process of its own in the viewer
// (Debian's assimp 5.2.5 has known memory-safety bugs); assimp is also the reference the tests
// compare our own readers with.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

#include "formats/assimp/assimp_reader.h"
#include "formats/format.h"

namespace marrow::formats {

namespace {

// The extensions Debian's assimp 5.2.5 imports (`assimp listext`), less those we read ourselves
// and glTF's (formats/gltf/descriptor.cpp); the ones people meet most first.
constexpr std::string_view kExtensions[] = {
    "fbx", "dae", "x", "smd", "md5mesh", "md5anim", "bvh", "obj", "3ds", "blend", "ply", "stl",
    "3d", "3mf", "ac", "ac3d", "acc", "amf", "ase", "ask", "assbin", "b3d", "bsp", "cob", "csm",
    "dxf", "enff", "hmp", "ifc", "ifczip", "iqm", "irr", "irrmesh", "lwo", "lws", "lxo", "m3d",
    "md2", "md3", "md5camera", "mdc", "mdl", "mesh", "mot", "ms3d", "ndo", "nff", "off", "ogex",
    "pk3", "pmx", "prj", "q3o", "q3s", "raw", "scn", "sib", "stp", "ter", "uc", "vta", "x3d",
    "x3db", "xgl", "xml", "zae", "zgl", "xmesh"};

// Halves of models and files that are not models: not converted on their own from a folder.
constexpr std::string_view kNotModels[] = {"md5anim", "md5camera", "xml", "vta", "mot", "bvh", "pk3", "raw"};

bool claims(std::string_view ext) {
  return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

bool startsWith(std::span<const std::byte> head, std::string_view magic) {
  return head.size() >= magic.size() && std::memcmp(head.data(), magic.data(), magic.size()) == 0;
}

// Magic numbers of assimp formats that another extension might hide.
bool recognise(std::span<const std::byte> head) {
  return startsWith(head, "Kaydara FBX Binary") || startsWith(head, "xof ");
}

FolderModels modelsInFolder(std::span<const std::string> files) {
  FolderModels out;
  for (const std::string& f : files) {
    const auto dot = f.rfind('.');
    std::string ext = dot == std::string::npos ? std::string() : f.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::find(std::begin(kNotModels), std::end(kNotModels), ext) == std::end(kNotModels))
      out.models.push_back({f});
  }
  return out;
}

std::vector<std::string_view> extensions() { return {std::begin(kExtensions), std::end(kExtensions)}; }

}  // namespace

const FormatDescriptor& assimpFormat() {
  static const FormatDescriptor d{
      .id = "assimp",
      .name = "Everything assimp 5.2 imports",
      .notes = "meshes, bones (aiBone + node hierarchy), clips; the reference we compare against; read "
          "in a process of its own in the viewer",
      .extensions = extensions(),
      .mime = "model/vnd.collada+xml",
      .mimeTypes = {"model/vnd.collada+xml", "model/x-fbx", "model/x-directx", "model/x-md5mesh",
                    "model/x-ms3d", "model/obj", "model/stl", "model/x.stl-ascii",
                    "model/x.stl-binary", "model/3mf", "application/x-blender", "image/x-3ds"},
      .recognise = recognise,
      .claimsExtension = claims,
      .read = readWithAssimp,
      .modelsInFolder = modelsInFolder,
      .readInChildProcess = true,
  };
  return d;
}

}  // namespace marrow::formats
