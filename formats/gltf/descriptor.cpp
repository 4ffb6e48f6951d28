// glTF 2.0 in the format table: read natively (gltf_reader.h; glTF 1.0 and Draco-compressed files
// through assimp, in a process of its own in the viewer), written by our writer.
#include <cstring>
#include <filesystem>

#include "formats/gltf/gltf_reader.h"
#include "formats/gltf/gltf_writer.h"
#include "formats/write_support.h"

namespace marrow::formats {

namespace {

bool recognise(std::span<const std::byte> head) {
  return head.size() >= 4 && std::memcmp(head.data(), "glTF", 4) == 0;
}

WriteResult write(const WriteSource& source, const OutputKind& kind, const std::string& out,
                  const WriteOptions& options) {
  using namespace writing;
  Prepared p = prepare(*source.scene, kind.holds, out, options);
  WriteResult r = std::move(p.result);
  if (!r.ok()) return r;
  const Scene& s = p.scene;
  Diagnostics& d = r.diagnostics;
  noteModelExtras(s, "glTF", out, d);
  noteCal3dOnlyData(s, "glTF", out, d);
  if (kind.extension == "glb") {
    auto bytes = writeGlb(s, d);
    nameTheOutput(d, out);
    if (!bytes) return failed(std::move(r), bytes.error(), out);
    r.files.push_back({out, std::move(bytes).value()});
    return r;
  }
  // The .gltf, its .bin and its images, side by side; a name never climbs out of the folder.
  const std::filesystem::path target(out);
  auto files = writeGltf(s, target.stem().string(), d);
  nameTheOutput(d, out);
  if (!files) return failed(std::move(r), files.error(), out);
  for (auto& file : files->files)
    r.files.push_back({&file == &files->files.front()
                           ? out
                           : (target.parent_path() / std::filesystem::path(file.name).filename()).string(),
                       std::move(file.bytes)});
  return r;
}

}  // namespace

const FormatDescriptor& gltfFormat() {
  static const FormatDescriptor d{
      .id = "gltf",
      .name = "glTF 2.0",
      .notes = "read natively (glTF 1.0 and Draco through assimp); written by Marrow: meshes, skins, every clip, morph targets, images "
          "(DDS and TGA become PNG), in Y-up right-handed metres, checked by the Khronos validator",
      .extensions = {"gltf", "glb"},
      .mime = "model/gltf-binary",
      .mimeTypes = {"model/gltf-binary", "model/gltf+json"},
      .recognise = recognise,
      .claimsExtension = [](std::string_view e) { return e == "gltf" || e == "glb"; },
      .read = readGltf,
      .readsInChildProcess = gltfNeedsAssimp,
      .outputs = {{"glb", "glTF 2.0 binary", Holds::Model},
                  {"gltf", "glTF 2.0 with .bin and images beside it", Holds::Model}},
      .write = write,
      .cannotHold = "collision bodies, attachment points, tables, levels of detail, springs",
  };
  return d;
}

}  // namespace marrow::formats
