// Binary material .crf (§6): colours, shininess and texture maps, whose files are fetched
// through the context's resolver.
#include <string>
#include <vector>

#include "formats/cal3d/binary_format.h"
#include "formats/cal3d/parts.h"

namespace marrow::formats::cal3d {
namespace {

using std::to_string;

class CrfParser {
 public:
  CrfParser(std::span<const std::byte> data, const ReadContext& ctx)
      : r_(data, ctx.name), ctx_(ctx) {}

  MaterialPart parse() {
    version_ = readHeader(r_, std::string_view("CRF\0", 4));
    MaterialPart part;
    Material& m = part.material;
    m.name = fileStem(ctx_.name);
    m.ambient = color();
    m.diffuse = color();
    m.diffuseAlphaIsOpacity = false;  // §6: the alpha bytes are not opacity
    m.specular = color();
    m.shininess = r_.finiteF32("shininess");
    const bool types = crfHasMapTypes(version_);
    const std::uint32_t maps = readCount(r_, "mapCount", ctx_.limits.maxMeshes, types ? 8 : 4);
    std::vector<std::uint64_t> offsets;
    std::vector<std::string> files;
    for (std::uint32_t i = 0; i < maps; ++i)
      within([i] { return label("map", i); },
             [&] {
               offsets.push_back(r_.offset());
               files.push_back(readString(r_, "filename", ctx_.limits.maxStringLength));
               MaterialMap map;
               if (types) map.label = readString(r_, "mapType", ctx_.limits.maxStringLength);
               // §6: the renderer pairs map i with texture coordinate set i.
               map.kind = mapKind(map.label, i);
               map.uvSet = static_cast<int>(i);
               m.maps.push_back(std::move(map));
             });
    requireEnd(r_, "the last map");
    // Fetched only once the whole file is known to be good; each image once.
    TextureTable table(part.textures);
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (const int same = table.named(files[i]); same >= 0) {
        m.maps[i].texture = same;
        continue;
      }
      Texture tex;
      tex.name = std::move(files[i]);
      fetch(tex, i, offsets[i]);
      m.maps[i].texture = table.add(std::move(tex));
    }
    part.format = "cal3d CRF " + to_string(version_);
    part.diagnostics = std::move(diagnostics_);
    return part;
  }

 private:
  glm::vec4 color() {
    const auto b = r_.bytes(4, "color");
    const auto at = [&](int i) {
      return std::to_integer<std::uint8_t>(b[static_cast<std::size_t>(i)]);
    };
    return colorFromBytes(at(0), at(1), at(2), at(3));
  }

  void fetch(Texture& tex, std::size_t i, std::uint64_t at) {
    tex.path = tex.name;
    if (tex.name.empty()) {
      diagnostics_.warn(ctx_.name, label("map", i) + ": filename", at, "is empty");
      return;
    }
    if (auto found = fetchNamedFile(ctx_, tex.name)) {
      tex.path = std::move(found->name);
      tex.data = std::move(found->bytes);
    } else if (ctx_.fetchTextures) {
      diagnostics_.warn(ctx_.name, label("map", i) + ": filename", at,
                        "'" + tex.name + "' was not found; the map has no image");
    }
  }

  ByteReader r_;
  const ReadContext& ctx_;
  int version_ = 0;
  Diagnostics diagnostics_;
};

}  // namespace

Result<MaterialPart> readCrf(std::span<const std::byte> data, const ReadContext& ctx) {
  return guarded<MaterialPart>(ctx, [&] { return CrfParser(data, ctx).parse(); });
}

}  // namespace marrow::formats::cal3d
