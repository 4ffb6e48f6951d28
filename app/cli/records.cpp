#include "app/cli/records.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace marrow::app::cli {
namespace {

namespace brf = formats::brf;
using U = std::uint64_t;

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

// Key figures of one record, written as JSON fields (and, for the text listing, as a line).
struct Figures {
  JsonWriter* json = nullptr;
  std::string text;

  template <class T>
  Figures& add(const char* key, const T& v, bool show = true) {
    if (json) json->field(key, v);
    if (show) {
      if constexpr (std::is_same_v<T, std::string>)
        text += std::string("  ") + key + " " + v;
      else if constexpr (std::is_same_v<T, bool>)
        text += v ? std::string("  ") + key : std::string();
      else
        text += std::string("  ") + key + " " + std::to_string(v);
    }
    return *this;
  }
};

void mesh(Figures& f, const brf::Mesh& m, int version) {
  const int highest = brf::maxRiggedBone(m);
  const std::size_t riggedBones = brf::riggedBoneCount(m);
  f.add("flags", hex(m.flags), false)
      .add("material", m.material)
      .add("positions", U(m.positions.size()))
      .add("vertices", U(m.vertices.size()))
      .add("faces", U(m.faces.size()))
      .add("rigged_bones", U(riggedBones), riggedBones > 0)
      .add("max_bone", highest, highest >= 0)
      .add("tangents", brf::layoutOf(m, version) == brf::VertexLayout::B_WarbandTangent);
  // §7.3: the stored frames (frame 0, the mesh itself, is not among them), times as stored.
  if (f.json) {
    f.json->key("frame_times").beginArray();
    for (const auto& fr : m.frames) f.json->value(fr.time);
    f.json->endArray();
  }
  if (!m.frames.empty()) {
    f.text += "  frames " + std::to_string(m.frames.size()) + " [";
    for (std::size_t k = 0; k < m.frames.size(); ++k)
      f.text += (k ? " " : "") + std::to_string(m.frames[k].time);
    f.text += "]";
  }
}

void animation(Figures& f, const brf::Animation& a) {
  std::size_t keys = 0, minKeys = ~std::size_t{0}, maxKeys = 0;
  for (const auto& t : a.tracks) {
    keys += t.size();
    minKeys = std::min(minKeys, t.size());
    maxKeys = std::max(maxKeys, t.size());
  }
  if (a.tracks.empty()) minKeys = 0;
  const brf::KeyTimes times = brf::keyTimes(a);
  f.add("bones", U(a.tracks.size()))
      .add("rotation_keys", U(keys))
      .add("translation_keys", U(a.translations.size()))
      .add("frames", U(times.count))
      .add("first_time", times.first)
      .add("last_time", times.last)
      .add("min_keys_per_bone", U(minKeys), false)
      .add("max_keys_per_bone", U(maxKeys), false);
}

void body(Figures& f, const brf::Body& b) {
  std::map<std::string, std::size_t> kinds;
  for (const auto& p : b.parts) ++kinds[p.kind];
  f.add("parts", U(b.parts.size())).add("composite", b.composite);
  if (f.json) {
    f.json->key("kinds").beginObject();
    for (const auto& [k, n] : kinds) f.json->field(k, U(n));
    f.json->endObject();
  }
  for (const auto& [k, n] : kinds) f.text += "  " + k + " " + std::to_string(n);
}

void record(Figures& f, const brf::Source& src, brf::Section kind, std::size_t i) {
  const brf::Document& d = *src.doc;
  switch (kind) {
    case brf::Section::Texture:
      f.add("flags", hex(d.textures[i].flags), false).add("frames", d.textures[i].frames(), d.textures[i].frames() > 0);
      break;
    case brf::Section::Shader: {
      const auto& s = d.shaders[i];
      f.add("flags", hex(s.flags), false).add("technique", s.technique)
          .add("fallback", s.fallback ? *s.fallback : std::string(), s.fallback.has_value())
          .add("stages", U(s.stages.size()));
      break;
    }
    case brf::Section::Material: {
      const auto& m = d.materials[i];
      f.add("flags", hex(m.flags), false).add("shader", m.shader).add("diffuse", m.diffuseA)
          .add("bump", m.bump, m.bump != "none")
          .add("spec", m.spec ? *m.spec : std::string("none"), false);
      break;
    }
    case brf::Section::Mesh: mesh(f, d.meshes[i], d.version); break;
    case brf::Section::Skeleton: {
      std::size_t roots = 0;
      for (const auto& b : d.skeletons[i].bones) roots += b.parent < 0 ? 1 : 0;
      f.add("bones", U(d.skeletons[i].bones.size())).add("roots", U(roots), false);
      break;
    }
    case brf::Section::Animation: animation(f, d.animations[i]); break;
    case brf::Section::Body: body(f, d.bodies[i]); break;
  }
}

}  // namespace

void writeRecords(JsonWriter& json, std::span<const brf::Source> sources) {
  json.beginArray();
  for (const auto& src : sources)
    for (brf::Section kind : brf::kSections)
      for (std::size_t i = 0; i < brf::recordCount(*src.doc, kind); ++i) {
        json.beginObject()
            .field("file", src.name)
            .field("kind", brf::kindName(kind))
            .field("name", brf::recordName(src, kind, i));
        Figures f{&json, {}};
        record(f, src, kind, i);
        json.endObject();
      }
  json.endArray();
}

void printRecords(std::span<const brf::Source> sources) {
  for (const auto& src : sources) {
    std::printf("%s  (%s)\n", src.name.c_str(),
                src.doc->version == 0 ? "M&B 1.011" : ("Warband, version " + std::to_string(src.doc->version)).c_str());
    for (brf::Section kind : brf::kSections) {
      const std::size_t n = brf::recordCount(*src.doc, kind);
      if (n == 0) continue;
      std::printf("  %s: %zu\n", brf::kindName(kind), n);
      for (std::size_t i = 0; i < n; ++i) {
        Figures f;
        record(f, src, kind, i);
        std::printf("    %-28s%s\n", brf::recordName(src, kind, i).c_str(), f.text.c_str());
      }
    }
  }
}

}  // namespace marrow::app::cli
