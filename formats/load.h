// Loading: addresses in, one model out, with what can be browsed of the files mounted as
// archives. Every address form (formats/io/address.h) is read here: files, FILE.brf::RECORD,
// ARCHIVE.pak::path (the paks given form one file system, mounted), ::NAME looked up in what is
// mounted. Each format's grouping rule (cal3d parts, BRF records and skeletons, a skin's mesh)
// is its descriptor's (formats/format.h); this file only routes.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "formats/format.h"
#include "formats/io/address.h"
#include "formats/io/limits.h"
#include "formats/io/result.h"
#include "formats/io/vfs.h"
#include "formats/model/scene.h"

namespace marrow::formats {

struct LoadOptions {
  // Whether readers fetch the image files materials name (ReadContext::fetchTextures).
  bool fetchTextures = true;
  Limits limits;
  // The code page of names in archives and in the files read (ReadContext::codepage), as the
  // user set it (`--encoding`); empty: detected.
  std::string codepage{};
  // Damaged files give what was read before the damage (ReadContext::partial).
  bool partial = false;
  // The addresses are the frames of one vertex animation (formats/model/frames.h): several are
  // read one by one and joined; the meshes NAME<number> of one are joined per NAME. Their
  // numbers count frames at framesPerSecond.
  bool asFrames = false;
  float framesPerSecond = 30.0f;
  // Reads the bytes of a file that is not on disk (a program's built-in resource, ":/…");
  // unset, or nothing returned: the disk.
  std::function<std::optional<Result<std::vector<std::byte>>>(const std::string& path)> readOther;
  // A resolver beside such a file; unset: the disk beside the path.
  std::function<Resolver(const std::string& path)> resolverFor;
  // Reads one input whose format's descriptor says readInChildProcess elsewhere (the viewer's
  // import process): given the input's address and the archive files its lookups need, the
  // model or why not. Unset: read in this process.
  std::function<Result<Scene>(const std::string& address, const std::vector<std::string>& archiveFiles)>
      readElsewhere;
};

struct Loaded {
  Scene scene;
  vfs::FileSystem archives;  // what of the inputs can be browsed: pak sets, BRF files
};

// Reads the addresses as one model. The first error stops.
Result<Loaded> load(std::span<const std::string> addresses, const LoadOptions& options = {});

// The inputs the addresses make, read from disk or archives, before any format reads them, and
// the archives mounted on the way; for load() and for the viewer's import process, which reads
// exactly one of them.
struct Gathered {
  std::vector<Input> inputs;
  std::vector<std::string> addresses;       // per input: the address it was read from
  std::vector<std::string> archiveFiles;    // every archive file given (the paks), once
  vfs::FileSystem archives;                 // mounted from them
};
Result<Gathered> gather(std::span<const std::string> addresses, const LoadOptions& options = {});

// The model one node of a mounted archive makes on its own, at rest, as the viewer shows it
// picked or opened: the record of an archive of records as that archive shows it picked alone,
// without clips (ModelArchive::still: a mesh with a skeleton that fits), a file of a folder
// with the files of the model it belongs to there (folder_models.h: a cal3d part with its
// skeleton and the parts that fit it), an entry of another archive of files read as a file whose
// lookups (textures, a skin's mesh) resolve in every archive of `archives`.
// An entry in a format read in a child process goes to options.readElsewhere when it is set.
Result<Scene> readNode(const vfs::FileSystem& archives, std::size_t archive, const std::string& path,
                       const LoadOptions& options = {});

}  // namespace marrow::formats
