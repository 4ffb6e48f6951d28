// Which reader a file needs: by magic first, by extension second.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace marrow::formats {

enum class FormatId {
  Unknown,
  Omf,
  Cal3d,   // any of .csf .caf .cmf .crf .xsf .xaf .xmf .xrf .cfg (formats/cal3d/cal3d.h)
  Brf,     // Mount&Blade / Warband resource files (formats/brf/brf.h)
  DragonNest,  // .msh .skn .ani .dnt .ext (formats/dragonnest/dragonnest.h)
  Assimp,  // anything assimp imports (glTF, FBX, DAE, X, SMD, MD5, OBJ, …)
};

const char* formatName(FormatId id);

// Lower-case extension without the dot ("omf"), or "" when there is none.
std::string_view extensionOf(std::string_view fileName);
bool isAssimpExtension(std::string_view lowerExtension);

FormatId detectFormat(std::span<const std::byte> head, std::string_view fileName);

}  // namespace marrow::formats
