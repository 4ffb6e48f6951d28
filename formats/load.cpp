#include "formats/load.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>

#include "formats/folder_models.h"
#include "formats/format_table.h"
#include "formats/io/file.h"
#include "formats/io/folder_archive.h"
#include "formats/model/frames.h"
#include "formats/model/model_archive.h"
#include "formats/registry.h"

namespace marrow::formats {

namespace {

Result<std::vector<std::byte>> readPath(const std::string& path, const LoadOptions& options) {
  if (options.readOther)
    if (auto other = options.readOther(path)) return std::move(*other);
  return readFile(path);
}

Resolver resolverBeside(const std::string& path, const LoadOptions& options) {
  if (options.resolverFor)
    if (Resolver r = options.resolverFor(path)) return r;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return diskResolver(dir.empty() ? std::string(".") : dir.string());
}

bool onDisk(const std::string& path) { return !path.starts_with(":/"); }

// The file that makes a folder a library a format reads whole (a Warband module's module.ini),
// or "".
std::string libraryFile(const std::string& folder) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec)) {
    if (!e.is_regular_file(ec)) continue;
    const std::string name = e.path().filename().string();
    const std::string lowered = vfs::lowerAscii(name);
    const FormatDescriptor* f = detect({}, name);
    if (f && f->libraryOf && std::find(f->fileNames.begin(), f->fileNames.end(), lowered) != f->fileNames.end() &&
        f->libraryOf(e.path().string()))
      return e.path().string();
  }
  return {};
}

// The files directly in a folder that a format mounts as archives and whose first bytes are that
// format's (a Dragon Nest client's paks, not a Quake .pak beside them), sorted.
std::vector<std::string> archivesIn(const std::string& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec)) {
    if (!e.is_regular_file(ec)) continue;
    const FormatDescriptor* f = archiveFormatFor(e.path().filename().string());
    if (!f) continue;
    std::array<char, 64> head{};
    std::ifstream in(e.path(), std::ios::binary);
    in.read(head.data(), head.size());
    const auto bytes = std::as_bytes(std::span(head.data(), static_cast<std::size_t>(in.gcount())));
    if (f->recognise && f->recognise(bytes)) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// An entry of a mounted archive as an input: named as the archive stores it (a pak entry's own
// case) under `file`, its lookups resolved in every archive mounted, its siblings the entries
// of its folder.
Result<Input> entryInput(const vfs::FileSystem& archives, const std::shared_ptr<const vfs::Archive>& archive,
                         const std::string& path, const std::string& file, const LoadOptions& options) {
  Input in;
  in.ctx.limits = options.limits;
  const auto node = archive->node(path);
  in.ctx.name = file + std::string(kAddressSeparator) +
                (node ? archive->storedName(*node) : archive->addressOf(path).inner);
  auto bytes = archive->read(path, in.ctx.limits);
  if (!bytes) return bytes.error();
  in.bytes = std::move(bytes).value();
  in.ctx.resolve = archives.resolver(in.ctx.limits);
  // The entries of its folder, by their full paths (the resolver finds those first).
  const auto slash = path.rfind('/');
  in.ctx.siblings = [archive, folder = slash == std::string::npos ? std::string() : path.substr(0, slash)] {
    std::vector<std::string> paths;
    for (const vfs::Node& n : archive->children(folder))
      if (!n.container) paths.push_back(n.path);
    return paths;
  };
  in.ctx.fetchTextures = options.fetchTextures;
  in.ctx.codepage = options.codepage.empty() ? archive->codepage() : options.codepage;
  in.ctx.partial = options.partial;
  return in;
}

}  // namespace

Result<Gathered> gather(std::span<const std::string> addresses, const LoadOptions& options) {
  if (addresses.empty()) return FormatError{"", "", kNoOffset, "no file given"};
  Gathered out;
  std::vector<std::string> files;  // the file of each input
  // Archive files by the format that mounts them, in the order given; and what is asked of them.
  std::vector<std::pair<const FormatDescriptor*, std::vector<std::string>>> mounts;
  std::vector<Address> entries;  // FILE::INNER of an archive, and ::NAME lookups
  std::vector<std::string> folders;  // folders given: browsed as archives of their files
  for (const std::string& text : addresses) {
    Address a = Address::parse(text);
    if (a.lookup()) {
      entries.push_back(a);
      continue;
    }
    std::error_code ec;
    if (onDisk(a.file) && std::filesystem::is_directory(a.file, ec)) {
      // A folder that is a library (a Warband module: it holds module.ini) is read as one;
      // MODULE::RECORD names its records.
      const std::vector<std::string> archives = archivesIn(a.file);
      std::error_code missing;
      if (const std::string library = libraryFile(a.file); !library.empty()) {
        a.file = library;
      } else if (!archives.empty() &&
                 (a.whole() || !std::filesystem::is_regular_file(std::filesystem::path(a.file) / a.inner, missing))) {
        // A folder of archives that mount together (a Dragon Nest client's Resource*.pak): they
        // are one file system, as if each had been given; FOLDER::path is an entry in them.
        for (const std::string& file : archives) {
          const FormatDescriptor* f = archiveFormatFor(file);
          auto at = std::find_if(mounts.begin(), mounts.end(), [f](const auto& m) { return m.first == f; });
          if (at == mounts.end()) at = mounts.insert(mounts.end(), {f, {}});
          if (std::find(at->second.begin(), at->second.end(), file) == at->second.end()) {
            at->second.push_back(file);
            out.archiveFiles.push_back(file);
          }
        }
        if (!a.whole()) entries.push_back(Address{archives.front(), a.inner});
        continue;
      } else {  // a folder: browsed; FOLDER::file is that file
        if (std::find(folders.begin(), folders.end(), a.file) == folders.end()) folders.push_back(a.file);
        if (a.whole()) continue;
        a = Address{(std::filesystem::path(a.file) / a.inner).string(), {}};
      }
    }
    if (const FormatDescriptor* f = archiveFormatFor(a.file)) {
      auto at = std::find_if(mounts.begin(), mounts.end(), [f](const auto& m) { return m.first == f; });
      if (at == mounts.end()) at = mounts.insert(mounts.end(), {f, {}});
      if (std::find(at->second.begin(), at->second.end(), a.file) == at->second.end()) {
        at->second.push_back(a.file);
        out.archiveFiles.push_back(a.file);
      }
      if (!a.whole()) entries.push_back(a);
      continue;
    }
    // FILE::RECORD names records of an archive file; the file is read once, with all of them.
    const auto same = std::find(files.begin(), files.end(), a.file);
    if (same != files.end()) {
      Input& in = out.inputs[static_cast<std::size_t>(same - files.begin())];
      if (!in.records.empty() && !a.whole()) in.records.push_back(a.inner);
      if (a.whole()) in.records.clear();  // the whole file was asked for too
      continue;
    }
    auto bytes = readPath(a.file, options);
    if (!bytes) return bytes.error();
    Input in;
    in.bytes = std::move(bytes).value();
    in.ctx.name = a.file;
    in.ctx.limits = options.limits;
    in.ctx.resolve = resolverBeside(a.file, options);
    if (onDisk(a.file)) in.ctx.siblings = [dir = std::filesystem::path(a.file).parent_path()] {
      std::vector<std::string> names;
      std::error_code failed;
      for (const auto& e : std::filesystem::directory_iterator(dir.empty() ? "." : dir, failed))
        if (e.is_regular_file(failed)) names.push_back(e.path().filename().string());
      std::sort(names.begin(), names.end());
      return names;
    };
    in.ctx.fetchTextures = options.fetchTextures;
    in.ctx.codepage = options.codepage;
    in.ctx.partial = options.partial;
    if (!a.whole()) in.records.push_back(a.inner);
    if (onDisk(a.file)) in.diskPath = a.file;
    out.inputs.push_back(std::move(in));
    out.addresses.push_back(onDisk(a.file) ? a.file : std::string());
    files.push_back(a.file);
  }
  // Archives given together are one file system (a Dragon Nest client's paks, §2.4): an entry's
  // parts and textures are found by name in any of them.
  std::map<std::string, std::shared_ptr<const vfs::Archive>> archiveOf;
  for (const std::string& folder : folders) out.archives.mount(std::make_shared<const vfs::FolderArchive>(folder));
  for (const auto& [format, paths] : mounts) {
    auto archive = format->mount(paths, MountOptions{options.codepage});
    if (!archive) return archive.error();
    for (const std::string& p : paths) archiveOf[p] = *archive;
    out.archives.mount(std::move(archive).value());
  }
  for (const Address& a : entries) {
    std::shared_ptr<const vfs::Archive> archive;
    std::optional<std::string> path;
    if (a.lookup()) {
      for (const auto& m : out.archives.archives())
        if ((path = m->find(a.inner))) {
          archive = m;
          break;
        }
      if (!archive)
        return FormatError{a.str(), "entry", kNoOffset,
                           out.archives.empty() ? "no archive is open to look '" + a.inner + "' up in"
                                                : "no entry '" + a.inner + "' in the open archives"};
    } else {
      archive = archiveOf.at(a.file);
      path = archive->find(a.inner);
      if (!path) return FormatError{a.file, "entry", kNoOffset, "no entry '" + a.inner + "' in the archive"};
    }
    auto in = entryInput(out.archives, archive, *path,
                         a.lookup() ? archive->addressOf(*path).file : a.file, options);
    if (!in) return in.error();
    out.inputs.push_back(std::move(in).value());
    out.addresses.push_back(a.lookup() ? a.str() : a.file + std::string(kAddressSeparator) + a.inner);
  }
  return out;
}

Result<Scene> readNode(const vfs::FileSystem& archives, std::size_t index, const std::string& path,
                       const LoadOptions& options) {
  if (index >= archives.archives().size())
    return FormatError{path, "archive", kNoOffset, "no archive " + std::to_string(index) + " is open"};
  const std::shared_ptr<const vfs::Archive>& archive = archives.archives()[index];
  const Address address = archive->addressOf(path);
  if (const auto* records = dynamic_cast<const ModelArchive*>(archive.get()))
    return records->still(std::span(&path, 1));
  if (address.whole()) {  // a file on disk (a folder's): read with the files of its model
    const std::vector<std::string> files = modelFilesOf(address.file);
    auto loaded = load(files, options);
    if (!loaded) return loaded.error();
    // A file that opens on a pick of its own (a pack of many BRF meshes: its first), as the
    // viewer opens it.
    for (const auto& a : loaded->archives.archives())
      if (const auto* records = dynamic_cast<const ModelArchive*>(a.get()))
        if (const auto pick = records->openingPick(); !pick.empty()) return records->still(pick);
    return std::move(loaded->scene);
  }
  auto in = entryInput(archives, archive, path, address.file, options);
  if (!in) return in.error();
  const FormatDescriptor* f = detect(in->bytes, in->ctx.name);
  if (f && options.readElsewhere && readInChildProcess(*f, in->bytes)) {
    return options.readElsewhere(address.str(), archive->openedFrom());
  }
  std::vector<Input> inputs;
  inputs.push_back(std::move(in).value());
  return readInputs(std::move(inputs));
}

Result<Loaded> load(std::span<const std::string> addresses, const LoadOptions& options) {
  if (options.asFrames) {
    LoadOptions one = options;
    one.asFrames = false;
    if (addresses.size() == 1) {
      auto loaded = load(addresses, one);
      if (loaded && joinNumberedMeshes(loaded->scene, options.framesPerSecond) == 0)
        loaded->scene.diagnostics.warn(addresses.front(), "frames", kNoOffset,
                                       "no meshes NAME<number> of the same vertices and triangles to join as frames");
      return loaded;
    }
    Loaded out;
    std::vector<Scene> frames;
    for (const std::string& a : addresses) {
      auto loaded = load(std::span(&a, 1), one);
      if (!loaded) return loaded.error();
      frames.push_back(std::move(loaded->scene));
      if (frames.size() == 1) out.archives = std::move(loaded->archives);  // what the first frame's files hold
    }
    auto joined = joinFrames(std::move(frames), {addresses.begin(), addresses.end()}, options.framesPerSecond);
    if (!joined) return joined.error();
    out.scene = std::move(joined).value();
    return out;
  }
  auto gathered = gather(addresses, options);
  if (!gathered) return gathered.error();
  Loaded loaded;
  loaded.archives = std::move(gathered->archives);
  std::vector<Input> inputs = std::move(gathered->inputs);
  // Inputs read elsewhere (the viewer's import process) come back as parts of the model; the rest
  // are read here, as one part where the first of them was.
  std::vector<Part> parts;
  std::size_t othersAt = 0;
  if (options.readElsewhere) {
    std::vector<Input> others;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const FormatDescriptor* f = detect(inputs[i].bytes, inputs[i].ctx.name);
      if (gathered->addresses[i].empty() || !f || !readInChildProcess(*f, inputs[i].bytes)) {
        if (others.empty()) othersAt = parts.size();
        others.push_back(std::move(inputs[i]));
        continue;
      }
      auto scene = options.readElsewhere(gathered->addresses[i], gathered->archiveFiles);
      if (!scene) return scene.error();
      parts.push_back({inputs[i].ctx.name, std::move(scene).value()});
    }
    inputs = std::move(others);
  }
  Result<Scene> scene = Scene{};
  if (parts.empty()) {
    scene = readInputs(std::move(inputs), &loaded.archives);
  } else {
    if (!inputs.empty()) {
      const std::string name = inputs.front().ctx.name;
      auto rest = readInputs(std::move(inputs), &loaded.archives);
      if (!rest) return rest.error();
      parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(othersAt), Part{name, std::move(rest).value()});
    }
    scene = combine(std::move(parts));
  }
  if (!scene) return scene.error();
  loaded.scene = std::move(scene).value();
  return loaded;
}

}  // namespace marrow::formats
