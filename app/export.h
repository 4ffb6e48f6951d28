// Writing a loaded model to a file of another format, shared by `marrow-cli convert` and the
// GUI's File › Export… and its tree browsers: which formats there are, the bytes of every file
// an output makes (a .gltf or a .cfg makes several), what the target cannot hold (said of the
// output), and writing those files so that a failure never leaves half a file.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/document.h"
#include "formats/brf/brf.h"
#include "formats/io/result.h"
#include "formats/io/diagnostics.h"

namespace marrow::app {

struct ExportFormat {
  // What one output file holds.
  enum class Holds { Model, Skeleton, Meshes, Clip, Material, BrfRecords };
  std::string_view extension;  // lower case, without the dot: "glb"
  std::string_view name;       // for people: "glTF 2.0 binary"
  Holds holds = Holds::Model;
};

// Every format a model can be written in; the GUI's default (glTF binary) first.
std::span<const ExportFormat> exportFormats();
// The format of an output path by its extension (any case), or null.
const ExportFormat* exportFormatFor(std::string_view path);
// "glTF 2.0 binary (*.glb)": a file dialog's filter.
std::string exportFilter(const ExportFormat& format);
// "omf|cfg|…|gltf": the extensions in the order the CLI's usage lists them.
std::string exportExtensions();
// The sentence the CLI says when it cannot write an extension: the output formats, in words.
std::string exportFormatsSentence();

struct ExportOptions {
  // cal3d: the file version (unset or 0: the smallest that holds the model, see
  // formats::cal3d::versionFor). BRF: 0 (M&B 1.011) or 1 (Warband); unset: the first file's.
  std::optional<int> version;
  bool xml = false;                 // cal3d: the XML forms (.xsf … are XML anyway)
  std::optional<std::string> clip;  // .caf/.xaf: by name or index (default: the first)
  // .caf/.xaf: exactly this clip of doc.scene (wins over `clip`, which names one of the clips
  // written: those made for another skeleton are not).
  std::optional<std::size_t> clipIndex;
  std::optional<std::string> material;       // .crf/.xrf: by name or index (default: the first)
  std::optional<std::size_t> materialIndex;  // .crf/.xrf: exactly this one
  // .brf: the records written. Unset: those the document's addresses name (brfAddresses, or its
  // paths when empty: FILE.brf gives every record, FILE.brf::RECORD the records of that name).
  std::optional<std::vector<formats::brf::RecordRef>> brfRecords;
  std::vector<std::string> brfAddresses;
};

struct ExportFile {
  std::string path;  // where it goes: the output, or a file beside it
  std::vector<std::byte> bytes;
};

struct ExportResult {
  enum class Status {
    Ok,
    Refused,  // the request cannot be met (no clip of that name, no skeleton to write): usage
    Failed,   // the model cannot be written in that format
    Nothing,  // the model holds nothing the format can hold (no mesh, no skeleton): `refusal` says what it holds
  };
  Status status = Status::Ok;
  std::string refusal;         // Refused: why, in words
  formats::FormatError error;  // Failed: why, naming the output or the input
  // What the target format cannot hold and what writing changed, each naming the output.
  formats::Diagnostics diagnostics;
  std::vector<ExportFile> files;  // Ok: the output and what goes beside it, in writing order

  bool ok() const { return status == Status::Ok; }
  std::string why() const;  // the refusal or the error described; empty when ok
};

// The options alone, before anything is loaded: why they cannot work, or nothing.
std::optional<std::string> checkExportOptions(const ExportFormat& format,
                                              const ExportOptions& options);

// The files `path` and its format make of the document's model (doc.scene; for .brf its BRF
// records). Nothing is written. Clips made for another skeleton are left out, with a warning.
// Never throws; safe from any thread (the document is only read).
ExportResult exportDocument(const Document& doc, const std::string& path,
                            const ExportOptions& options = {});

struct WrittenFiles {
  std::vector<std::pair<std::string, std::size_t>> written;  // path, bytes
  std::string failedPath;  // the file that could not be written, when one could not
  std::string reason;      // why (the system's words)
  bool ok() const { return failedPath.empty(); }
};

// Writes each file under a temporary name beside it and renames them into place only when
// every one was written whole: a failure leaves the old files (or none) and no partial file.
WrittenFiles writeExportFiles(std::span<const ExportFile> files);

}  // namespace marrow::app
