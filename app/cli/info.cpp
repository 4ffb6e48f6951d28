// marrow-cli info: what a model holds.
#include <algorithm>
#include <cstdio>

#include <map>

#include "app/cli/animations.h"
#include "app/cli/common.h"
#include "formats/model/lod.h"
#include "app/cli/records.h"
#include "render/anim/pose.h"

namespace marrow::app::cli {
namespace {

const char* axisName(formats::Axis a) {
  return a == formats::Axis::X ? "X" : a == formats::Axis::Y ? "Y" : "Z";
}

std::string materialName(const formats::Scene& s, int index) {
  return index >= 0 && static_cast<std::size_t>(index) < s.materials.size() ? s.materials[index].name
                                                                             : std::string();
}

std::vector<std::string> texturePaths(const formats::Scene& s, const formats::Material& m) {
  std::vector<std::string> out;
  for (const auto& map : m.maps)
    if (map.texture >= 0 && static_cast<std::size_t>(map.texture) < s.textures.size()) {
      const auto& t = s.textures[map.texture];
      out.push_back(t.path.empty() ? t.name : t.path);
    }
  return out;
}

void printJson(const Args& args, const Document& doc, const Retargeting& retargeting) {
  const formats::Scene& s = *doc.scene;
  JsonWriter j;
  j.beginObject();
  j.key("inputs").beginArray();
  for (const auto& i : args.inputs) j.value(i);
  j.endArray();
  j.field("format", s.format);
  j.field("partial", s.partial);
  j.key("basis").beginObject()
      .field("up", axisName(s.basis.up))
      .field("handedness", s.basis.rightHanded ? "right" : "left")
      .field("unit_meters", s.basis.unitMeters)
      .endObject();

  const formats::MeshLevels levels = formats::meshLevels(s);
  j.key("meshes").beginArray();
  for (std::size_t k = 0; k < s.meshes.size(); ++k) {
    const formats::Mesh& m = s.meshes[k];
    j.beginObject()
        .field("name", m.name)
        .field("vertices", static_cast<std::uint64_t>(m.vertexCount()))
        .field("triangles", static_cast<std::uint64_t>(m.triangleCount()))
        .field("max_influences", m.maxInfluences())
        .field("skinned", m.skinned() || m.parentBone >= 0);
    j.key("material");
    if (m.material >= 0) j.value(materialName(s, m.material)); else j.null();
    j.field("uv_sets", static_cast<std::uint64_t>(m.uvSets.size()))
        .field("normals", !m.normals.empty())
        .field("colors", !m.colors.empty())
        .field("morph_targets", static_cast<std::uint64_t>(m.morphs.size()));
    // Level meshes (NAME.lodN): the level and the mesh it is a level of.
    j.field("level", static_cast<std::int64_t>(levels.level[k]));
    if (levels.level[k] > 0) j.field("level_of", s.meshes[static_cast<std::size_t>(levels.of[k])].name);
    j.endObject();
  }
  j.endArray();

  j.key("skeleton").beginObject();
  j.field("name", s.skeleton.name);
  j.key("bones").beginArray();
  for (const auto& b : s.skeleton.bones) {
    j.beginObject().field("name", b.name);
    j.key("parent");
    if (b.parent >= 0) j.value(s.skeleton.bones[b.parent].name); else j.null();
    j.endObject();
  }
  j.endArray();
  j.field("roots", static_cast<std::uint64_t>(s.skeleton.rootCount()));
  j.endObject();

  j.key("clips").beginArray();
  for (std::size_t i = 0; i < s.clips.size(); ++i) {
    const auto& c = s.clips[i];
    const anim::Binding b = anim::bind(c, s.skeleton);
    j.beginObject()
        .field("name", c.name)
        .field("duration", c.duration)
        .field("frame_rate", c.frameRate)
        .field("tracks", static_cast<std::uint64_t>(c.tracks.size()))
        .field("keys", static_cast<std::uint64_t>(c.keyCount()))
        .field("morph_tracks", static_cast<std::uint64_t>(c.morphTracks.size()));
    j.key("unmatched_tracks").beginArray();
    for (const auto& n : b.tracksWithoutBone) j.value(n);
    j.endArray();
    writeBinding(j, c, s.skeleton, retargeting.find(static_cast<int>(i)), false);
    // A clip cut from an animation (a Warband action, or a motion split at a gap): what it was
    // cut from and the file's frame indices it plays; whether it loops, when the source says.
    j.field("group", c.group);
    j.key("source_frames");
    if (c.sourceFrames)
      j.beginObject()
          .field("first", static_cast<std::int64_t>(c.sourceFrames->first))
          .field("last", static_cast<std::int64_t>(c.sourceFrames->last))
          .endObject();
    else
      j.null();
    j.key("loops");
    if (c.loops) j.value(*c.loops); else j.null();
    j.endObject();
  }
  j.endArray();

  // Warband actions (actions.txt): each sequence with the clip it made ("" when its animation
  // is not open).
  j.key("actions").beginArray();
  for (const auto& a : s.actions) {
    j.beginObject().field("name", a.name).field("flags", static_cast<std::uint64_t>(a.flags));
    j.field("master_flags", static_cast<std::uint64_t>(a.masterFlags));
    j.key("sequences").beginArray();
    for (const auto& q : a.sequences)
      j.beginObject()
          .field("animation", q.animation)
          .field("begin", static_cast<std::int64_t>(q.begin))
          .field("end", static_cast<std::int64_t>(q.end))
          .field("duration", q.duration)
          .field("flags", static_cast<std::uint64_t>(q.flags))
          .field("clip", q.clip)
          .endObject();
    j.endArray().endObject();
  }
  j.endArray();

  // Clips of --animations that could not be retargeted (made for another skeleton, no bones).
  j.key("clips_not_retargeted").beginArray();
  for (const auto& r : retargeting.clips) {
    if (r.clip >= 0) continue;
    j.beginObject().field("name", r.report.clip).field("from", r.from);
    j.key("tracks").beginArray();
    for (const auto& n : r.report.tracksWithoutBone) j.value(n);
    j.endArray().endObject();
  }
  j.endArray();

  j.key("materials").beginArray();
  for (const auto& m : s.materials) {
    j.beginObject().field("name", m.name);
    j.key("textures").beginArray();
    for (const auto& t : texturePaths(s, m)) j.value(t);
    j.endArray();
    j.key("diffuse").numbers(&m.diffuse.x, 4);
    j.endObject();
  }
  j.endArray();

  j.key("textures").beginArray();
  for (const auto& t : s.textures)
    j.beginObject()
        .field("name", t.name)
        .field("path", t.path)
        .field("embedded", t.embedded)
        .field("found", !t.data.empty())
        .endObject();
  j.endArray();

  j.key("bodies").beginArray();
  for (const auto& b : s.bodies) {
    j.beginObject().field("name", b.name).field("parts", static_cast<std::uint64_t>(b.parts.size()));
    std::map<std::string, std::uint64_t> kinds;
    for (const auto& p : b.parts) ++kinds[formats::bodyPartKindName(p.kind)];
    j.key("kinds").beginObject();
    for (const auto& [k, n] : kinds) j.field(k, n);
    j.endObject().endObject();
  }
  j.endArray();

  // Data tables (Dragon Nest .dnt / .ext): their size and columns.
  j.key("tables").beginArray();
  for (const auto& t : s.tables) {
    j.beginObject()
        .field("name", t.name)
        .field("rows", static_cast<std::uint64_t>(t.rows.size()));
    j.key("columns").beginArray();
    for (const auto& c : t.columns)
      j.beginObject().field("name", c.name).field("type", static_cast<std::uint64_t>(c.type)).endObject();
    j.endArray().endObject();
  }
  j.endArray();

  // Archives: every record of every file, whether or not the model uses it.
  if (hasRecords(doc.archives)) {
    j.key("records");
    writeRecords(j, doc.archives);
  }

  writeDiagnostics(j, s.diagnostics);
  j.endObject();
  std::printf("%s\n", j.str().c_str());
}

void printText(const Document& doc, const Retargeting& retargeting) {
  const formats::Scene& s = *doc.scene;
  std::printf("%s\n", doc.title().toStdString().c_str());
  std::printf("  format: %s\n  basis:  %s\n", s.format.c_str(), formats::describe(s.basis).c_str());
  if (s.partial) std::printf("  PARTIAL: the file is damaged; what was read before the damage (see the diagnostics)\n");
  std::size_t verts = 0, tris = 0;
  for (const auto& m : s.meshes) verts += m.vertexCount(), tris += m.triangleCount();
  const formats::MeshLevels levels = formats::meshLevels(s);
  const auto levelMeshes = static_cast<std::size_t>(std::count_if(levels.level.begin(), levels.level.end(), [](int l) { return l > 0; }));
  std::printf("meshes: %zu (%zu vertices, %zu triangles)", s.meshes.size(), verts, tris);
  if (levelMeshes) std::printf(", %zu of them levels of detail (NAME.lod1 … NAME.lod%d; --level picks one)", levelMeshes, levels.deepest);
  std::printf("\n");
  for (std::size_t k = 0; k < s.meshes.size(); ++k) {
    const formats::Mesh& m = s.meshes[k];
    const std::string mat = materialName(s, m.material);
    std::printf("  %-24s %7zu vertices %7zu triangles  influences <= %u%s%s", m.name.c_str(),
                m.vertexCount(), m.triangleCount(), m.maxInfluences(),
                mat.empty() ? "" : "  material ", mat.c_str());
    if (levels.level[k] > 0) std::printf("  (level %d of %s)", levels.level[k], s.meshes[static_cast<std::size_t>(levels.of[k])].name.c_str());
    std::printf("\n");
  }
  std::printf("skeleton: %s%s%zu bones, %zu roots\n", s.skeleton.name.c_str(),
              s.skeleton.name.empty() ? "" : ", ", s.skeleton.bones.size(), s.skeleton.rootCount());
  std::printf("clips: %zu\n", s.clips.size());
  for (std::size_t i = 0; i < s.clips.size(); ++i) {
    const auto& c = s.clips[i];
    const std::size_t unbound = anim::bind(c, s.skeleton).tracksWithoutBone.size();
    std::printf("  %-24s %8.3f s  %6.2f fps  %4zu tracks  %7zu keys", c.name.c_str(), c.duration,
                c.frameRate, c.tracks.size(), c.keyCount());
    if (!c.morphTracks.empty()) std::printf("  %zu morph tracks", c.morphTracks.size());
    if (unbound) std::printf("  (%zu tracks without a bone)", unbound);
    std::printf("\n");
    if (const RetargetedClip* r = retargeting.find(static_cast<int>(i)))
      std::printf("    retargeted from %s: %s\n",
                  r->source >= 0 ? r->from.c_str() : "the model (bone map)",
                  describe(r->report).c_str());
  }
  for (const auto& r : retargeting.clips)
    if (r.clip < 0)
      std::printf("  %-24s from %s: not retargeted\n", r.report.clip.c_str(), r.from.c_str());
  if (!s.actions.empty()) {
    std::size_t sequences = 0, cut = 0;
    for (const auto& a : s.actions)
      for (const auto& q : a.sequences) ++sequences, cut += q.clip.empty() ? 0 : 1;
    std::printf("actions: %zu (%zu sequences, %zu played by open animations)\n", s.actions.size(),
                sequences, cut);
  }
  if (!s.bodies.empty()) std::printf("bodies: %zu\n", s.bodies.size());
  for (const auto& t : s.tables)
    std::printf("table: %s  %zu columns  %zu rows\n", t.name.c_str(), t.columns.size(), t.rows.size());
  std::printf("materials: %zu\n", s.materials.size());
  for (const auto& m : s.materials) {
    std::printf("  %s", m.name.c_str());
    for (const auto& t : texturePaths(s, m)) std::printf("  [%s]", t.c_str());
    std::printf("\n");
  }
  if (!s.diagnostics.empty()) {
    std::printf("diagnostics: %zu\n", s.diagnostics.items.size());
    for (const auto& d : s.diagnostics.items)
      std::printf("  %s: %s\n", formats::severityName(d.severity), formats::describe(d).c_str());
  }
}

}  // namespace

int runInfo(const Args& args) {
  auto doc = loadInputs(args, Textures::Find);  // info says which textures are missing
  if (!doc) return kLoadError;
  Retargeting retargeting;
  if (!applyAnimationOptions(args, *doc, retargeting)) return kLoadError;
  if (args.has("--json"))
    printJson(args, *doc, retargeting);
  else
    printText(*doc, retargeting);
  return kOk;
}

}  // namespace marrow::app::cli
