// What a format folder declares about its format: one FormatDescriptor, listed by one line in
// formats/format_table.cpp. Detection, loading, writing, `marrow-cli formats`, the CLI's and the
// GUI's lists of extensions, the desktop entry's MIME types and the README's format table all
// come from these descriptors (docs/architecture.md: "Adding a format").
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/diagnostics.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/io/vfs.h"
#include "formats/model/scene.h"

namespace marrow::formats {

// ---- reading ----

// How archives are mounted.
struct MountOptions {
  // The code page of the names stored in the archives (formats/io/codepage.h), as the user set
  // it (`--encoding`); empty: detected.
  std::string codepage{};
};

// One file to read, with its context (name, limits, a resolver beside it).
struct Input {
  std::vector<std::byte> bytes;
  ReadContext ctx;
  // What of an archive file the model is made of ("FILE.brf::RECORD"); empty: the whole file.
  std::vector<std::string> records;
  // Where the file is on disk, when it is a file on disk (a .cfg is looked for beside it).
  std::string diskPath;
};

// What one folder's files of a format make (FormatDescriptor::modelsInFolder): models, each a
// list of files whose first names it, and the files that fit no model, each with why.
struct FolderModels {
  std::vector<std::vector<std::string>> models;
  struct Unfit {
    std::string file;
    std::string why;
    bool unreadable = false;  // the file could not be read: a failure rather than a misfit
  };
  std::vector<Unfit> unfit;
};

// A model read from some of the inputs, named after the first of them.
struct Part {
  std::string name;
  Scene scene;
};

// What a format's group reader makes of all the inputs of that format.
struct GroupRead {
  std::vector<Part> parts;
  // What of them can be browsed (BRF files: their records), or null.
  std::shared_ptr<const vfs::Archive> archive;
  Diagnostics notes;  // about the grouping itself ("material files put in the .cfg's order")
};

// ---- writing ----

// What one output file holds.
enum class Holds { Model, Skeleton, Meshes, Clip, Material, Records };

struct OutputKind {
  std::string_view extension;  // lower case, without the dot: "glb"
  std::string_view name;       // for people: "glTF 2.0 binary"
  Holds holds = Holds::Model;
};

struct WriteOptions {
  // cal3d: the file version (unset or 0: the smallest that holds the model). BRF: 0 (M&B 1.011)
  // or 1 (Warband); unset: the first file's.
  std::optional<int> version;
  bool xml = false;                 // cal3d: the XML forms (.xsf … are XML anyway)
  std::optional<std::string> clip;  // an animation file: by name or index (default: the first)
  // Any other output: only these clips, by name or index (empty: every clip that fits).
  std::vector<std::string> clips;
  // An animation file: exactly this clip of the scene (wins over `clip`).
  std::optional<std::size_t> clipIndex;
  std::optional<std::string> material;       // a material file: by name or index (default: the first)
  std::optional<std::size_t> materialIndex;  // a material file: exactly this one
  // Records of an archive (.brf): the paths of these nodes of the archives given. Unset: those
  // the addresses name (FILE.brf: every record of it, FILE.brf::RECORD the records of that name).
  std::optional<std::vector<std::string>> nodes;
  std::vector<std::string> addresses;
};

// What is written from: the model, the archives it was read from (BRF records are written as
// records), the addresses it was opened by.
struct WriteSource {
  const Scene* scene = nullptr;
  const vfs::FileSystem* archives = nullptr;
  std::vector<std::string> addresses;
};

struct OutputFile {
  std::string path;  // where it goes: the output, or a file beside it
  std::vector<std::byte> bytes;
};

struct WriteResult {
  enum class Status {
    Ok,
    Refused,  // the request cannot be met (no clip of that name, no skeleton to write): usage
    Failed,   // the model cannot be written in that format
    Nothing,  // the model holds nothing the format can hold: `refusal` says what it holds
  };
  Status status = Status::Ok;
  std::string refusal;  // Refused, Nothing: why, in words
  FormatError error;    // Failed: why, naming the output or the input
  // What the target format cannot hold and what writing changed, each naming the output.
  Diagnostics diagnostics;
  std::vector<OutputFile> files;  // Ok: the output and what goes beside it, in writing order

  bool ok() const { return status == Status::Ok; }
  std::string why() const;  // the refusal or the error described; empty when ok
};

// ---- the descriptor ----

struct FormatDescriptor {
  std::string_view id{};    // "cal3d": stable, for scripts
  std::string_view name{};  // "cal3d": for people (README, --help, dialogs)
  std::string_view notes{};  // one line: what of the format is read and written
  std::vector<std::string_view> extensions{};  // read, lower case, without the dot
  // Whole file names that say the file is this format ("module.ini"), lower case: asked after no
  // format recognised the content and before extensions are.
  std::vector<std::string_view> fileNames{};
  std::string_view mime{};                     // the main MIME type
  std::vector<std::string_view> mimeTypes{};   // every type the desktop entry claims for it
  // By content: whether the first bytes (up to 1024) are this format's. Formats told only by
  // their extension have none.
  bool (*recognise)(std::span<const std::byte> head) = nullptr;
  // Whether an extension alone says the file is this format (after no format recognised it).
  bool (*claimsExtension)(std::string_view lowerExtension) = nullptr;

  // One file as a model; null when the format is not read on its own (see readGroup).
  Result<Scene> (*read)(std::span<const std::byte> data, const ReadContext& ctx) = nullptr;
  // All the inputs of this format as one or more models (files that only make sense together:
  // a cal3d model's parts, BRF files, a Dragon Nest skin with its mesh); null: one by one.
  Result<GroupRead> (*readGroup)(std::vector<Input> inputs) = nullptr;
  // Inputs of this format that hold others (FILE::INNER addresses their entries), mounted as
  // one archive: Dragon Nest paks. Null: the format's files are read, not mounted.
  Result<std::shared_ptr<const vfs::Archive>> (*mount)(std::span<const std::string> paths,
                                                       const MountOptions& options) = nullptr;
  std::vector<std::string_view> archiveExtensions{};  // the extensions mount takes ("pak")
  // Extensions of files that hold animations only: they play on a model rather than make one
  // (the viewer offers "Play on the Open Model" for them).
  std::vector<std::string_view> animationExtensions{};
  // FILE::RECORD names records of the format's files, which readGroup then reads (BRF).
  bool hasRecords = false;
  // In a folder, the files of this format that are models of their own, or groups of files
  // that make one model together, and the files that fit none (batch conversion, the gallery,
  // opening a part of a model in a folder); null: every file of the format is one. It may read
  // the files (paths on disk).
  FolderModels (*modelsInFolder)(std::span<const std::string> files) = nullptr;
  // The folder of the library a file belongs to (the Warband module of a BRF in its Resource/
  // folder), or nothing: File › Open Module of This File.
  std::optional<std::string> (*libraryOf)(const std::string& path) = nullptr;
  // Read through a library with known memory-safety bugs (assimp): the viewer reads it in a
  // process of its own.
  bool readInChildProcess = false;
  // Per file, for a format read natively that hands some files to such a library (glTF 1.0 to
  // assimp): whether this one is read in a process of its own. Null: readInChildProcess decides.
  bool (*readsInChildProcess)(std::span<const std::byte> data) = nullptr;

  std::vector<OutputKind> outputs{};  // what it writes, one entry per extension
  WriteResult (*write)(const WriteSource& source, const OutputKind& kind, const std::string& path,
                       const WriteOptions& options) = nullptr;
  // What its writer cannot hold, in words (said in --help and the README).
  std::string_view cannotHold{};
  // A check of the options before anything is loaded; a refusal, or nothing.
  std::optional<std::string> (*checkOptions)(const OutputKind& kind, const WriteOptions& options) = nullptr;

  bool reads() const { return read != nullptr || readGroup != nullptr || mount != nullptr; }
  bool writes() const { return write != nullptr && !outputs.empty(); }
};

// Whether the viewer reads this file of format `f` in a process of its own.
inline bool readInChildProcess(const FormatDescriptor& f, std::span<const std::byte> data) {
  return f.readInChildProcess || (f.readsInChildProcess && f.readsInChildProcess(data));
}

}  // namespace marrow::formats
