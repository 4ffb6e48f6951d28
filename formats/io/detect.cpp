#include "formats/io/detect.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <cstring>
#include <string>

namespace marrow::formats {
namespace {

bool startsWith(std::span<const std::byte> head, std::string_view magic) {
  return head.size() >= magic.size() && std::memcmp(head.data(), magic.data(), magic.size()) == 0;
}

// A BRF file starts with a token (brf.md §2): a u32 length and one of these words.
bool startsLikeBrf(std::span<const std::byte> head) {
  for (std::string_view token : {"rfver ", "texture", "shader", "material", "mesh", "skeleton",
                                 "skeleton_anim", "body", "end"}) {
    const std::byte len[4] = {std::byte(token.size()), std::byte{0}, std::byte{0}, std::byte{0}};
    if (head.size() >= 4 + token.size() && std::memcmp(head.data(), len, 4) == 0 &&
        std::memcmp(head.data() + 4, token.data(), token.size()) == 0)
      return true;
  }
  return false;
}

// The extensions Debian's assimp 5.2.5 imports (`assimp listext`), minus those we read ourselves.
constexpr std::string_view kAssimpExtensions[] = {
    "3d",   "3ds",    "3mf",  "ac",    "ac3d",  "acc",  "amf",   "ase",  "ask",  "assbin",
    "b3d",  "blend",  "bsp",  "bvh",   "cob",   "csm",  "dae",   "dxf",  "enff", "fbx",
    "glb",  "gltf",   "hmp",  "ifc",   "ifczip", "iqm", "irr",   "irrmesh", "lwo", "lws",
    "lxo",  "m3d",    "md2",  "md3",   "md5anim", "md5camera", "md5mesh", "mdc", "mdl", "mesh",
    "mot",  "ms3d",   "ndo",  "nff",   "obj",   "off",  "ogex",  "pk3",  "ply",  "pmx",
    "prj",  "q3o",    "q3s",  "raw",   "scn",   "sib",  "smd",   "stl",  "stp",  "ter",
    "uc",   "vta",    "x",    "x3d",   "x3db",  "xgl",  "xml",   "zae",  "zgl",  "xmesh"};

}  // namespace

const char* formatName(FormatId id) {
  switch (id) {
    case FormatId::Unknown: return "unknown";
    case FormatId::Omf: return "OMF";
    case FormatId::Cal3d: return "cal3d";
    case FormatId::Brf: return "BRF";
    case FormatId::DragonNest: return "Dragon Nest";
    case FormatId::Assimp: return "assimp";
  }
  return "unknown";
}

std::string_view extensionOf(std::string_view fileName) {
  const auto slash = fileName.find_last_of("/\\");
  if (slash != std::string_view::npos) fileName.remove_prefix(slash + 1);
  const auto dot = fileName.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == fileName.size()) return {};
  return fileName.substr(dot + 1);
}

bool isAssimpExtension(std::string_view ext) {
  return std::find(std::begin(kAssimpExtensions), std::end(kAssimpExtensions), ext) !=
         std::end(kAssimpExtensions);
}

FormatId detectFormat(std::span<const std::byte> head, std::string_view fileName) {
  if (startsWith(head, "OMF1")) return FormatId::Omf;
  for (const char* magic : {"CSF", "CAF", "CMF", "CRF"})
    if (startsWith(head, std::string_view(magic, 4))) return FormatId::Cal3d;  // with the NUL
  // Magic numbers of assimp formats that other extensions might hide.
  if (startsWith(head, "glTF") || startsWith(head, "Kaydara FBX Binary") ||
      startsWith(head, "xof "))
    return FormatId::Assimp;
  if (startsLikeBrf(head)) return FormatId::Brf;
  // Dragon Nest: "Eternity Engine Mesh File 0.13" and so on; the suffix varies (dragonnest.md §3.1).
  for (const char* magic : {"Eternity Engine Mesh File", "Eternity Engine Skin File",
                            "Eternity Engine Ani File"})
    if (startsWith(head, magic)) return FormatId::DragonNest;

  std::string ext(extensionOf(fileName));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "omf") return FormatId::Omf;
  if (ext == "brf") return FormatId::Brf;
  for (const char* e : {"msh", "skn", "ani", "dnt", "ext"})
    if (ext == e) return FormatId::DragonNest;
  for (const char* e : {"csf", "caf", "cmf", "crf", "xsf", "xaf", "xmf", "xrf", "cfg"})
    if (ext == e) return FormatId::Cal3d;
  if (isAssimpExtension(ext)) return FormatId::Assimp;
  return FormatId::Unknown;
}

}  // namespace marrow::formats
