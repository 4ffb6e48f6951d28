// Compares two Scenes member by member, floats bit for bit: the first difference as a path
// ("meshes[2].normals[17].y: 0.5 vs 0.25"), or "" when they are the same. Written from
// formats/model/scene.h, independently of formats/snapshot/snapshot.cpp; the structured bindings
// name every member, so a member added to the model breaks this file until it is compared too.
// Header-only, framework-free: the unit tests (gtest) and the GUI tests (Qt Test) both use it.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::testing {

class SceneCompare {
 public:
  std::string difference;  // the first one found

  // Compares one member, its name appended to the path while it is compared.
  template <class T>
  bool field(std::string_view name, const T& a, const T& b) {
    const std::size_t n = path_.size();
    path_ += name;
    const bool same = cmp(a, b);
    path_.resize(n);
    return same;
  }

  bool cmp(float a, float b) {
    if (std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b)) return true;
    char text[96];
    std::snprintf(text, sizeof text, ": %.9g (0x%08x) vs %.9g (0x%08x)", a,
                  std::bit_cast<std::uint32_t>(a), b, std::bit_cast<std::uint32_t>(b));
    return differ(text);
  }
  template <class T>
    requires(std::is_integral_v<T> || std::is_enum_v<T>)
  bool cmp(T a, T b) {
    if (a == b) return true;
    return differ(": " + std::to_string(static_cast<long long>(a)) + " vs " +
                  std::to_string(static_cast<long long>(b)));
  }
  bool cmp(std::byte a, std::byte b) { return cmp(static_cast<int>(a), static_cast<int>(b)); }
  bool cmp(const std::string& a, const std::string& b) {
    return a == b || differ(": '" + a + "' vs '" + b + "'");
  }
  template <int N>
  bool cmp(const glm::vec<N, float>& a, const glm::vec<N, float>& b) {
    static constexpr std::string_view axes[] = {".x", ".y", ".z", ".w"};
    for (int i = 0; i < N; ++i)
      if (!field(axes[i], a[i], b[i])) return false;
    return true;
  }
  bool cmp(const glm::quat& a, const glm::quat& b) {
    return field(".x", a.x, b.x) && field(".y", a.y, b.y) && field(".z", a.z, b.z) &&
           field(".w", a.w, b.w);
  }
  bool cmp(const glm::mat4& a, const glm::mat4& b) {
    static constexpr std::string_view columns[] = {"[0]", "[1]", "[2]", "[3]"};
    for (int c = 0; c < 4; ++c)
      if (!field(columns[c], a[c], b[c])) return false;
    return true;
  }
  template <class T>
  bool cmp(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size())
      return differ(": " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) +
                    " elements");
    // Plain values the same bit for bit need no walk (texture bytes, positions).
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::byte> ||
                  std::is_same_v<T, glm::vec2> || std::is_same_v<T, glm::vec3> ||
                  std::is_same_v<T, glm::vec4>)
      if (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0) return true;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!field("[" + std::to_string(i) + "]", a[i], b[i])) return false;
    return true;
  }
  template <class... T>
  bool cmp(const std::variant<T...>& a, const std::variant<T...>& b) {
    if (!field(".index", a.index(), b.index())) return false;
    return std::visit([&](const auto& x) { return cmp(x, std::get<std::decay_t<decltype(x)>>(b)); },
                      a);
  }

  // The model's structs, every member.
  bool cmp(const formats::Basis& a, const formats::Basis& b) {
    const auto& [up, rightHanded, unitMeters, front] = a;
    const auto& [up2, rightHanded2, unitMeters2, front2] = b;
    return field(".up", up, up2) && field(".rightHanded", rightHanded, rightHanded2) &&
           field(".unitMeters", unitMeters, unitMeters2) && field(".front", front, front2);
  }
  bool cmp(const formats::Influence& a, const formats::Influence& b) {
    const auto& [bone, weight] = a;
    const auto& [bone2, weight2] = b;
    return field(".bone", bone, bone2) && field(".weight", weight, weight2);
  }
  bool cmp(const formats::MorphTarget& a, const formats::MorphTarget& b) {
    const auto& [name, vertices, positions, normals, uvSets] = a;
    const auto& [name2, vertices2, positions2, normals2, uvSets2] = b;
    return field(".name", name, name2) && field(".vertices", vertices, vertices2) &&
           field(".positions", positions, positions2) &&
           field(".normals", normals, normals2) && field(".uvSets", uvSets, uvSets2);
  }
  bool cmp(const formats::LevelOfDetail& a, const formats::LevelOfDetail& b) {
    const auto& [collapsible, collapseTo, faceCollapseCount] = a;
    const auto& [collapsible2, collapseTo2, faceCollapseCount2] = b;
    return field(".collapsible", collapsible, collapsible2) &&
           field(".collapseTo", collapseTo, collapseTo2) &&
           field(".faceCollapseCount", faceCollapseCount, faceCollapseCount2);
  }
  bool cmp(const formats::Spring& a, const formats::Spring& b) {
    const auto& [va, vb, coefficient, idleLength] = a;
    const auto& [va2, vb2, coefficient2, idleLength2] = b;
    return field(".a", va, va2) && field(".b", vb, vb2) &&
           field(".coefficient", coefficient, coefficient2) &&
           field(".idleLength", idleLength, idleLength2);
  }
  bool cmp(const formats::Mesh& a, const formats::Mesh& b) {
    const auto& [name, positions, normals, tangents, uvSets, colors, influenceStart, influences,
                 indices, material, materialSlot, parentBone, inverseBind, morphs, lod, springs,
                 physicalWeights] = a;
    const auto& [name2, positions2, normals2, tangents2, uvSets2, colors2, influenceStart2,
                 influences2, indices2, material2, materialSlot2, parentBone2, inverseBind2,
                 morphs2, lod2, springs2, physicalWeights2] = b;
    return field(".name", name, name2) && field(".positions", positions, positions2) &&
           field(".normals", normals, normals2) && field(".tangents", tangents, tangents2) &&
           field(".uvSets", uvSets, uvSets2) && field(".colors", colors, colors2) &&
           field(".influenceStart", influenceStart, influenceStart2) &&
           field(".influences", influences, influences2) &&
           field(".indices", indices, indices2) && field(".material", material, material2) &&
           field(".materialSlot", materialSlot, materialSlot2) &&
           field(".parentBone", parentBone, parentBone2) &&
           field(".inverseBind", inverseBind, inverseBind2) &&
           field(".morphs", morphs, morphs2) && field(".lod", lod, lod2) &&
           field(".springs", springs, springs2) &&
           field(".physicalWeights", physicalWeights, physicalWeights2);
  }
  bool cmp(const formats::Bone& a, const formats::Bone& b) {
    const auto& [name, parent, translation, rotation, scale] = a;
    const auto& [name2, parent2, translation2, rotation2, scale2] = b;
    return field(".name", name, name2) && field(".parent", parent, parent2) &&
           field(".translation", translation, translation2) &&
           field(".rotation", rotation, rotation2) && field(".scale", scale, scale2);
  }
  bool cmp(const formats::RigidParts& a, const formats::RigidParts& b) {
    const auto& [translation, rotation] = a;
    const auto& [translation2, rotation2] = b;
    return field(".translation", translation, translation2) &&
           field(".rotation", rotation, rotation2);
  }
  bool cmp(const formats::Skeleton& a, const formats::Skeleton& b) {
    const auto& [name, bones, inverseBind, inverseBindParts] = a;
    const auto& [name2, bones2, inverseBind2, inverseBindParts2] = b;
    return field(".name", name, name2) && field(".bones", bones, bones2) &&
           field(".inverseBind", inverseBind, inverseBind2) &&
           field(".inverseBindParts", inverseBindParts, inverseBindParts2);
  }
  template <class T>
  bool cmp(const formats::Channel<T>& a, const formats::Channel<T>& b) {
    const auto& [times, values, interpolation] = a;
    const auto& [times2, values2, interpolation2] = b;
    return field(".times", times, times2) && field(".values", values, values2) &&
           field(".interpolation", interpolation, interpolation2);
  }
  bool cmp(const formats::Track& a, const formats::Track& b) {
    const auto& [bone, sourceIndex, translation, rotation, scale] = a;
    const auto& [bone2, sourceIndex2, translation2, rotation2, scale2] = b;
    return field(".bone", bone, bone2) && field(".sourceIndex", sourceIndex, sourceIndex2) &&
           field(".translation", translation, translation2) &&
           field(".rotation", rotation, rotation2) && field(".scale", scale, scale2);
  }
  bool cmp(const formats::MorphTrack& a, const formats::MorphTrack& b) {
    const auto& [mesh, target, weight] = a;
    const auto& [mesh2, target2, weight2] = b;
    return field(".mesh", mesh, mesh2) && field(".target", target, target2) &&
           field(".weight", weight, weight2);
  }
  bool cmp(const formats::Clip& a, const formats::Clip& b) {
    const auto& [name, duration, frameRate, tracks, wrapsToFirstKey, morphTracks, skeleton,
                 frameIndexed, sourceFrames, loops, group] = a;
    const auto& [name2, duration2, frameRate2, tracks2, wrapsToFirstKey2, morphTracks2,
                 skeleton2, frameIndexed2, sourceFrames2, loops2, group2] = b;
    const auto span = [](const std::optional<formats::Clip::FrameSpan>& f) {
      return f ? std::pair<int, int>{f->first, f->last} : std::pair<int, int>{-1, -1};
    };
    return field(".name", name, name2) && field(".duration", duration, duration2) &&
           field(".frameRate", frameRate, frameRate2) && field(".tracks", tracks, tracks2) &&
           field(".wrapsToFirstKey", wrapsToFirstKey, wrapsToFirstKey2) &&
           field(".morphTracks", morphTracks, morphTracks2) &&
           field(".skeleton", skeleton, skeleton2) &&
           field(".frameIndexed", frameIndexed, frameIndexed2) &&
           field(".sourceFrames.present", sourceFrames.has_value(), sourceFrames2.has_value()) &&
           field(".sourceFrames.first", span(sourceFrames).first, span(sourceFrames2).first) &&
           field(".sourceFrames.last", span(sourceFrames).second, span(sourceFrames2).second) &&
           field(".loops", int(loops.value_or(false)) + 2 * int(loops.has_value()),
                 int(loops2.value_or(false)) + 2 * int(loops2.has_value())) &&
           field(".group", group, group2);
  }
  bool cmp(const formats::Texture& a, const formats::Texture& b) {
    const auto& [name, path, data, embedded] = a;
    const auto& [name2, path2, data2, embedded2] = b;
    return field(".name", name, name2) && field(".path", path, path2) &&
           field(".data", data, data2) && field(".embedded", embedded, embedded2);
  }
  bool cmp(const formats::MaterialMap& a, const formats::MaterialMap& b) {
    const auto& [kind, texture, uvSet, label] = a;
    const auto& [kind2, texture2, uvSet2, label2] = b;
    return field(".kind", kind, kind2) && field(".texture", texture, texture2) &&
           field(".uvSet", uvSet, uvSet2) && field(".label", label, label2);
  }
  bool cmp(const formats::MaterialProperty& a, const formats::MaterialProperty& b) {
    const auto& [name, value] = a;
    const auto& [name2, value2] = b;
    return field(".name", name, name2) && field(".value", value, value2);
  }
  bool cmp(const formats::Material& a, const formats::Material& b) {
    const auto& [name, diffuse, ambient, specular, shininess, diffuseAlphaIsOpacity, maps,
                 properties] = a;
    const auto& [name2, diffuse2, ambient2, specular2, shininess2, diffuseAlphaIsOpacity2, maps2,
                 properties2] = b;
    return field(".name", name, name2) && field(".diffuse", diffuse, diffuse2) &&
           field(".ambient", ambient, ambient2) && field(".specular", specular, specular2) &&
           field(".shininess", shininess, shininess2) &&
           field(".diffuseAlphaIsOpacity", diffuseAlphaIsOpacity, diffuseAlphaIsOpacity2) &&
           field(".maps", maps, maps2) && field(".properties", properties, properties2);
  }
  bool cmp(const formats::BodyPart& a, const formats::BodyPart& b) {
    const auto& [kind, positions, polygons, radius, ea, eb, flags] = a;
    const auto& [kind2, positions2, polygons2, radius2, ea2, eb2, flags2] = b;
    return field(".kind", kind, kind2) && field(".positions", positions, positions2) &&
           field(".polygons", polygons, polygons2) && field(".radius", radius, radius2) &&
           field(".a", ea, ea2) && field(".b", eb, eb2) && field(".flags", flags, flags2);
  }
  bool cmp(const formats::Body& a, const formats::Body& b) {
    const auto& [name, parts] = a;
    const auto& [name2, parts2] = b;
    return field(".name", name, name2) && field(".parts", parts, parts2);
  }
  bool cmp(const formats::Attachment& a, const formats::Attachment& b) {
    const auto& [name, parent, local] = a;
    const auto& [name2, parent2, local2] = b;
    return field(".name", name, name2) && field(".parent", parent, parent2) &&
           field(".local", local, local2);
  }
  bool cmp(const formats::TableColumn& a, const formats::TableColumn& b) {
    const auto& [name, type] = a;
    const auto& [name2, type2] = b;
    return field(".name", name, name2) && field(".type", type, type2);
  }
  bool cmp(const formats::Table& a, const formats::Table& b) {
    const auto& [name, columns, rowIds, rows] = a;
    const auto& [name2, columns2, rowIds2, rows2] = b;
    return field(".name", name, name2) && field(".columns", columns, columns2) &&
           field(".rowIds", rowIds, rowIds2) && field(".rows", rows, rows2);
  }
  bool cmp(const formats::ActionSequence& a, const formats::ActionSequence& b) {
    const auto& [duration, animation, begin, end, flags, pack, offset, phase, clip] = a;
    const auto& [duration2, animation2, begin2, end2, flags2, pack2, offset2, phase2, clip2] = b;
    return field(".duration", duration, duration2) && field(".animation", animation, animation2) &&
           field(".begin", begin, begin2) && field(".end", end, end2) &&
           field(".flags", flags, flags2) && field(".pack", pack, pack2) &&
           field(".offset", offset, offset2) && field(".phase", phase, phase2) &&
           field(".clip", clip, clip2);
  }
  bool cmp(const formats::Action& a, const formats::Action& b) {
    const auto& [name, flags, masterFlags, sequences] = a;
    const auto& [name2, flags2, masterFlags2, sequences2] = b;
    return field(".name", name, name2) && field(".flags", flags, flags2) &&
           field(".masterFlags", masterFlags, masterFlags2) &&
           field(".sequences", sequences, sequences2);
  }
  bool cmp(const formats::Diagnostic& a, const formats::Diagnostic& b) {
    const auto& [severity, file, what, offset, message] = a;
    const auto& [severity2, file2, what2, offset2, message2] = b;
    return field(".severity", severity, severity2) && field(".file", file, file2) &&
           field(".field", what, what2) && field(".offset", offset, offset2) &&
           field(".message", message, message2);
  }
  bool cmp(const formats::Diagnostics& a, const formats::Diagnostics& b) {
    const auto& [items] = a;
    const auto& [items2] = b;
    return field(".items", items, items2);
  }
  bool cmp(const formats::Scene& a, const formats::Scene& b) {
    const auto& [format, basis, meshes, skeleton, clips, materials, textures, bodies, attachments,
                 tables, actions, diagnostics, partial] = a;
    const auto& [format2, basis2, meshes2, skeleton2, clips2, materials2, textures2, bodies2,
                 attachments2, tables2, actions2, diagnostics2, partial2] = b;
    return field("format", format, format2) && field("basis", basis, basis2) &&
           field("meshes", meshes, meshes2) && field("skeleton", skeleton, skeleton2) &&
           field("clips", clips, clips2) && field("materials", materials, materials2) &&
           field("textures", textures, textures2) && field("bodies", bodies, bodies2) &&
           field("attachments", attachments, attachments2) &&
           field("tables", tables, tables2) && field("actions", actions, actions2) &&
           field("diagnostics", diagnostics, diagnostics2) && field("partial", partial, partial2);
  }

 private:
  bool differ(const std::string& what) {
    difference = path_ + what;
    return false;
  }
  std::string path_;
};

// "" when `a` and `b` hold the same model, bit for bit; else where they first differ.
inline std::string sceneDifference(const formats::Scene& a, const formats::Scene& b) {
  SceneCompare c;
  c.cmp(a, b);
  return c.difference;
}

}  // namespace marrow::testing
