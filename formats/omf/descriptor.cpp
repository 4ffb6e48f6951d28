// OMF in the format table.
#include <cstring>

#include "formats/omf/omf.h"
#include "formats/write_support.h"

namespace marrow::formats {

namespace {

bool recognise(std::span<const std::byte> head) {
  return head.size() >= 4 && std::memcmp(head.data(), "OMF1", 4) == 0;
}

WriteResult write(const WriteSource& source, const OutputKind& kind, const std::string& out,
                  const WriteOptions& options) {
  using namespace writing;
  Prepared p = prepare(*source.scene, kind.holds, out, options);
  WriteResult r = std::move(p.result);
  if (!r.ok()) return r;
  const Scene& s = p.scene;
  Diagnostics& d = r.diagnostics;
  noteModelExtras(s, "OMF", out, d);
  noteCal3dOnlyData(s, "OMF", out, d);
  if (const std::size_t n = clipsWithMorphTracks(s))
    d.warn(out, "clips", kNoOffset,
           plural(n, "clip animates", "clips animate") +
               " morph targets (vertex animation), which OMF cannot store: those weights are "
               "not written");
  auto bytes = writeOmf(s, d);
  nameTheOutput(d, out);
  if (!bytes) return failed(std::move(r), bytes.error(), out);
  r.files.push_back({out, std::move(bytes).value()});
  return r;
}

}  // namespace

const FormatDescriptor& omfFormat() {
  static const FormatDescriptor d{
      .id = "omf",
      .name = "OMF 1 (Oolong mesh format)",
      .notes = "meshes, armature, actions; every validation of `specs/omf.md`",
      .extensions = {"omf"},
      .mime = "model/x-omf",
      .mimeTypes = {"model/x-omf"},
      .recognise = recognise,
      .claimsExtension = [](std::string_view e) { return e == "omf"; },
      .read = readOmf,
      .outputs = {{"omf", "OMF model", Holds::Model}},
      .write = write,
      .cannotHold = "more than 8 influences a vertex, scale keys, morph-target animation, "
                    "collision bodies, levels of detail, springs",
  };
  return d;
}

}  // namespace marrow::formats
