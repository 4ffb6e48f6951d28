// Writing a model in any format of the table: which output an extension names, the files an
// output makes (nothing is written), and writing them whole or not at all (formats/io/file.h).
// `marrow-cli convert` and the GUI's File › Export… both come here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/format.h"

namespace marrow::formats {

// The output an extension names and its format, or nothing.
struct Output {
  const FormatDescriptor* format = nullptr;
  const OutputKind* kind = nullptr;
  explicit operator bool() const { return kind != nullptr; }
};
Output outputFor(std::string_view path);

// "omf|cfg|…|gltf": every output extension, in the table's order.
std::string outputExtensions();
// The output formats in words, for messages: ".omf, cal3d's .cfg (the whole model), …".
std::string outputFormatsSentence();
// "glTF 2.0 binary (*.glb)": a file dialog's filter for one output.
std::string outputFilter(const OutputKind& kind);

// The options alone, before anything is loaded: why they cannot work, or nothing.
std::optional<std::string> checkWriteOptions(const Output& output, const WriteOptions& options);

// Whether an output of BRF records writes the records as they were read (the records picked,
// or inputs that are all files of the output's format) rather than records made from the model: then the
// game's limits are the files' own business (formats/check.h checks models).
bool writesRecordsAsRead(const Output& output, const std::vector<std::string>& addresses, const WriteOptions& options);

// The files `path` makes of the model (its format from the extension). Never throws; safe from
// any thread (the source is only read).
WriteResult writeModel(const WriteSource& source, const std::string& path,
                       const WriteOptions& options = {});

}  // namespace marrow::formats
