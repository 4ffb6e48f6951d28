// The cal3d models in one folder's files (FormatDescriptor::modelsInFolder): each .cfg is a
// model; without one, the parts (skeletons, meshes, materials, animations) are grouped per
// skeleton.
#pragma once

#include <span>
#include <string>

#include "formats/format.h"

namespace marrow::formats::cal3d {

// With one skeleton or none, every part makes one model. With several, each part goes to a
// skeleton that fits it (the bone ids its influences or tracks use are bones of the skeleton):
// the one its file name begins with ("cally_walk.caf": cally.csf); else, when its name begins
// with no skeleton's, the only one it fits, or the one whose name begins most like its own. A
// part that fits none, whose name says a skeleton it does not fit, or that fits several alike
// is reported unfit with why. Each model lists its skeleton first, then its parts in name order. Files are read
// from disk (`files` are paths); one that cannot be read goes by its name alone.
FolderModels modelsInFolder(std::span<const std::string> files);

}  // namespace marrow::formats::cal3d
