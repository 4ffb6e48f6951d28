// XML material .xrf (§7.4): the colours, shininess and maps of a .crf (§6) as elements; a map's
// type is an optional TYPE attribute.
#include <algorithm>
#include <optional>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/xml_common.h"

namespace marrow::formats::cal3d {
namespace {

using xml::Children;
using xml::step;

std::string trimmed(std::string s) {
  const char* ws = " \t\r\n";
  const auto first = s.find_first_not_of(ws);
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(ws) - first + 1);
}

class XrfReader {
 public:
  XrfReader(std::span<const std::byte> data, const ReadContext& ctx)
      : ctx_(ctx), doc_(data, ctx, part_.diagnostics) {}

  MaterialPart read() {
    const pugi::xml_node material = doc_.open("XRF", "MATERIAL");
    part_.format = doc_.format("XRF");
    Material& m = part_.material;
    m.name = fileStem(ctx_.name);
    const std::string path = "MATERIAL";
    Children c(material);
    m.ambient = color(doc_.expect(c, "AMBIENT", material, path), "AMBIENT");
    m.diffuse = color(doc_.expect(c, "DIFFUSE", material, path), "DIFFUSE");
    m.diffuseAlphaIsOpacity = false;  // §6: the alpha bytes are not opacity
    m.specular = color(doc_.expect(c, "SPECULAR", material, path), "SPECULAR");
    m.shininess = doc_.floats<1>(doc_.expect(c, "SHININESS", material, path), "SHININESS")[0];

    const std::size_t n = xml::countChildren(material, "MAP");
    doc_.checkLimit(n, ctx_.limits.maxMeshes, material, path, "MAP elements");
    doc_.charge(n * (sizeof(MaterialMap) + sizeof(Texture)), material, path);
    m.maps.reserve(n);
    part_.textures.reserve(n);
    for (std::size_t i = 0; c.nextIs("MAP"); ++i) readMap(c.take(), step("", "MAP", i), i);
    doc_.expectEnd(c, path, "MAP elements");
    doc_.checkDeclaredCount(material, "NUMMAPS", path, m.maps.size(), "MAP elements");
    doc_.flushRepeated();
    return std::move(part_);
  }

 private:
  // §7.4: four integers 0…255 (the public doc says FLOAT; the loaders read int).
  glm::vec4 color(pugi::xml_node node, const xml::Path& path) {
    std::int64_t v[4] = {0, 0, 0, 0};
    doc_.integers(node, path, v);
    std::uint8_t b[4];
    for (int i = 0; i < 4; ++i) {
      if (v[i] < 0 || v[i] > 255)
        doc_.warnRepeated("colorRange", node, path,
                          "has " + std::to_string(v[i]) + ", outside 0…255; it is clamped");
      b[i] = static_cast<std::uint8_t>(std::clamp<std::int64_t>(v[i], 0, 255));
    }
    return colorFromBytes(b[0], b[1], b[2], b[3]);
  }

  void readMap(pugi::xml_node node, const xml::Path& path, std::size_t index) {
    // The text is the file name; surrounding whitespace (a pretty-printed file) is not part of it.
    const std::string name = trimmed(doc_.text(node, path));
    MaterialMap map;
    const pugi::xml_attribute type = doc_.attribute(node, "TYPE");
    // §6 / cal3d.h: the label is the type string where the file stores one; without TYPE the
    // kind is what mapKind gives a map without type string (the loaders' default is "Diffuse
    // Color", which is what map 0 gets).
    map.label = type.empty() ? std::string() : doc_.stringAttribute(node, "TYPE", path);
    map.kind = mapKind(map.label, index);
    map.uvSet = static_cast<int>(index);  // §6: map i is sampled with uv set i
    if (const int same = table_.named(name); same >= 0) {  // each image once
      map.texture = same;
      part_.material.maps.push_back(std::move(map));
      return;
    }

    Texture texture;
    texture.name = name;
    texture.path = name;
    if (name.empty()) {
      doc_.warn(node, path, "names no file");
    } else if (auto found = fetchNamedFile(ctx_, name)) {
      texture.path = std::move(found->name);
      texture.data = std::move(found->bytes);
    } else if (ctx_.fetchTextures) {
      doc_.warn(node, path,
                "texture '" + name + "' was not found");
    }
    map.texture = table_.add(std::move(texture));
    part_.material.maps.push_back(std::move(map));
  }

  const ReadContext& ctx_;
  MaterialPart part_;
  TextureTable table_{part_.textures};
  xml::Document doc_;
};

}  // namespace

Result<MaterialPart> readXrf(std::span<const std::byte> data, const ReadContext& ctx) {
  return guarded<MaterialPart>(ctx, [&] { return XrfReader(data, ctx).read(); });
}

}  // namespace marrow::formats::cal3d
