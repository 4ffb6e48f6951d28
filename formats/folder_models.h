// The models in a folder's files, whatever their formats: each format says which of its files
// are models of their own, which make one model together (cal3d parts per skeleton) and which
// fit none (FormatDescriptor::modelsInFolder). Batch conversion converts them, the gallery draws
// them, and opening one part of a model in a folder opens the model.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "formats/format.h"

namespace marrow::formats {

struct FolderModel {
  const FormatDescriptor* format = nullptr;
  std::vector<std::string> files;  // the first names it (a cal3d model: its skeleton)
};
struct FolderContents {
  std::vector<FolderModel> models;  // by format in table order, each format's in its own order
  std::vector<FolderModels::Unfit> unfit;
};

// `files`: the paths of one folder's files. Files no format reads, archives (which are mounted,
// not read) and files a format claims by their whole name (a module's module.ini) are left out.
FolderContents modelsInFolder(std::span<const std::string> files);

// The files of the model `file` makes or belongs to among the files of its folder on disk: a
// cal3d part with its skeleton and the parts that fit it; the file alone when it is a model of
// its own or belongs to none.
std::vector<std::string> modelFilesOf(const std::string& file);

}  // namespace marrow::formats
