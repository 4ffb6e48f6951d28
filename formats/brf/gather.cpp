// New BRF files from records of open ones (brf.h gather, setVersion).
#include "formats/brf/brf.h"

namespace marrow::formats::brf {

void setVersion(Document& doc, int version, Diagnostics& diag) {
  const int from = doc.version;
  doc.version = version;
  doc.hasVersionToken = version >= 1;
  doc.versionTokenAt = 0;
  if ((from == 0) == (version == 0)) return;  // the same vertex layouts
  std::size_t lostUv2 = 0, lostTangents = 0;
  for (Mesh& m : doc.meshes) {
    const VertexLayout before = layoutOf(m, from);
    if (version == 0) {
      m.flags &= ~(3u << 16);  // §3: 1.011 meshes have neither bit
      for (Vertex& v : m.vertices) {
        v.uv2 = v.uv;  // OpenBRF's "tb = ta"
        lostTangents += before == VertexLayout::B_WarbandTangent ? 1 : 0;
        v.tangent = glm::vec3(0.0f);
        v.bitangentSign = 0;
      }
    } else {
      m.flags |= 1u << 17;  // Warband format; bit 16 clear: no tangents to give (layout C)
      m.flags &= ~(1u << 16);
      for (Vertex& v : m.vertices) {
        lostUv2 += v.uv2 != v.uv ? 1 : 0;
        v.uv2 = glm::vec2(0.0f);
      }
    }
  }
  if (lostUv2)
    diag.warn("", "uv2", kNoOffset,
              std::to_string(lostUv2) + " vertices had a second uv set of their own; Warband files "
                                        "have none, so it is not written");
  if (lostTangents)
    diag.warn("", "tangents", kNoOffset,
              std::to_string(lostTangents) + " vertices had tangents; M&B 1.011 files have none");
}

Document gather(std::span<const Source> sources, std::span<const RecordRef> records, int version,
                Diagnostics& diag) {
  std::vector<RecordRef> chosen(records.begin(), records.end());
  if (chosen.empty())
    for (Section kind : kSections)
      for (const RecordRef& r : allRecords(sources, kind)) chosen.push_back(r);
  // Each source's meshes change layout from that source's version.
  std::vector<Document> parts(sources.size());
  for (std::size_t s = 0; s < sources.size(); ++s) parts[s].version = sources[s].doc->version;
  for (const RecordRef& r : chosen) {
    const Document& d = *sources[r.source].doc;
    Document& p = parts[r.source];
    switch (r.kind) {
      case Section::Texture: p.textures.push_back(d.textures.at(r.index)); break;
      case Section::Shader: p.shaders.push_back(d.shaders.at(r.index)); break;
      case Section::Material: p.materials.push_back(d.materials.at(r.index)); break;
      case Section::Mesh: p.meshes.push_back(d.meshes.at(r.index)); break;
      case Section::Skeleton: p.skeletons.push_back(d.skeletons.at(r.index)); break;
      case Section::Animation: p.animations.push_back(d.animations.at(r.index)); break;
      case Section::Body: p.bodies.push_back(d.bodies.at(r.index)); break;
    }
  }
  Document out;
  for (Document& p : parts) {
    setVersion(p, version, diag);
    const auto append = [](auto& to, auto& from) {
      for (auto& x : from) to.push_back(std::move(x));
    };
    append(out.textures, p.textures);
    append(out.shaders, p.shaders);
    append(out.materials, p.materials);
    append(out.meshes, p.meshes);
    append(out.skeletons, p.skeletons);
    append(out.animations, p.animations);
    append(out.bodies, p.bodies);
  }
  out.version = version;
  out.hasVersionToken = version >= 1;
  // An empty `order` is written in OpenBRF's order, empty sections left out (document.h).
  return out;
}

}  // namespace marrow::formats::brf
