// The cal3d models in one folder's files (FormatDescriptor::modelsInFolder): each .cfg is a
// model, and the files no .cfg names (nor begins like one: the clips a .cfg leaves out) are
// grouped as below, or listed unfit when no skeleton is among them; without a .cfg, the parts
// (skeletons, meshes, materials, animations) are grouped per skeleton.
#pragma once

#include <span>
#include <string>

#include "formats/format.h"

namespace marrow::formats::cal3d {

// A part kept in two forms (paladin_body.cmf and .xmf; a skeleton too) is used once, the first
// in natural order (binary before XML), and the other listed unfit. With one skeleton or none,
// every part makes one model. With several, each part goes to a skeleton whose bones its bone
// ids fit: the one its file name begins with ("cally_walk.caf": cally.csf; the longest such
// name), else the one whose name's first words it shares ("hero_body.cmf": hero_skeleton.csf).
// A part whose name says a skeleton it does not fit, that says none or several alike, or whose
// bone ids fit none, is listed unfit with why; one that cannot be read, as unreadable. Each
// model lists its skeleton first, then its parts in natural order ("_2" before "_10": cal3d
// materials are numbered in the order the model uses them), meshes first where there is no
// skeleton. Files are read from disk (`files` are paths): skeletons, meshes and animations.
FolderModels modelsInFolder(std::span<const std::string> files);

}  // namespace marrow::formats::cal3d
