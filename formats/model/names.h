// Names in a model as one list, for passes that treat every name alike: decoding names a
// format stores in a legacy code page (Dragon Nest's Korean and Chinese clients) to UTF-8.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

// Calls `visit` on every name the scene stores as the file stored it: meshes, morph targets,
// the skeleton and its bones, clips and the bones and meshes their tracks name, materials,
// their maps' labels and their properties, textures (name and path), bodies, attachments,
// tables (name, columns, text cells) and actions. Not Clip::group, which names a file, and
// not diagnostics.
void forEachName(Scene& scene, const std::function<void(std::string&)>& visit);

// Every name of the scene as UTF-8 (formats/io/codepage.h): decoded from `hint` when it decodes
// every name (the archive's code page, or the user's), else from the code page detected over the
// scene's own names, else from the one that decodes most of them; a name no code page chosen
// explains is escaped (%NN), never shown as mojibake.
struct DecodedNames {
  std::string codepage;     // "UTF-8" when every name already was; "" when none decoded any
  std::size_t escaped = 0;  // names (distinct) that did not decode
};
DecodedNames decodeNames(Scene& scene, const std::string& hint);

// Node names made fit to be bone names, which clips bind by: the first of a repeated name keeps
// it, later ones get "name#2", "name#3"…, an empty one "node#0", "node#1"…, never a name that is
// already in the list. How many were renamed, and up to three of them ("'a' → 'a#2'") for the
// warning the reader gives.
struct Renamed {
  std::size_t count = 0;
  std::string examples;
};
Renamed makeNamesUnique(std::vector<std::string>& names);

}  // namespace marrow::formats
