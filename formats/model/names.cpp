#include "formats/model/names.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/io/codepage.h"

namespace marrow::formats {

void forEachName(Scene& scene, const std::function<void(std::string&)>& visit) {
  for (Mesh& m : scene.meshes) {
    visit(m.name);
    for (MorphTarget& t : m.morphs) visit(t.name);
  }
  visit(scene.skeleton.name);
  for (Bone& b : scene.skeleton.bones) visit(b.name);
  for (Clip& c : scene.clips) {
    visit(c.name);
    visit(c.skeleton);
    for (Track& t : c.tracks) visit(t.bone);
    for (MorphTrack& t : c.morphTracks) {
      visit(t.mesh);
      visit(t.target);
    }
  }
  for (Material& m : scene.materials) {
    visit(m.name);
    for (MaterialMap& map : m.maps) visit(map.label);
    for (MaterialProperty& p : m.properties) {
      visit(p.name);
      visit(p.value);
    }
  }
  for (Texture& t : scene.textures) {
    visit(t.name);
    visit(t.path);
  }
  for (Body& b : scene.bodies) visit(b.name);
  for (Attachment& a : scene.attachments) {
    visit(a.name);
    visit(a.parent);
  }
  for (Table& t : scene.tables) {
    visit(t.name);
    for (TableColumn& c : t.columns) visit(c.name);
    for (auto& row : t.rows)
      for (TableCell& cell : row)
        if (auto* text = std::get_if<std::string>(&cell)) visit(*text);
  }
  for (Action& a : scene.actions) {
    visit(a.name);
    for (ActionSequence& s : a.sequences) {
      visit(s.animation);
      visit(s.clip);
    }
  }
}

namespace {

std::size_t decoding(const std::vector<std::string>& names, const std::string& codepage) {
  return static_cast<std::size_t>(std::count_if(names.begin(), names.end(), [&](const std::string& n) {
    return decodeCodepage(n, codepage).has_value();
  }));
}

}  // namespace

DecodedNames decodeNames(Scene& scene, const std::string& hint) {
  // The names that are not ASCII, once each: only they tell code pages apart.
  std::vector<std::string> wide;
  forEachName(scene, [&](std::string& name) {
    if (!isAscii(name)) wide.push_back(name);
  });
  DecodedNames out{"UTF-8", 0};
  if (wide.empty()) return out;
  std::sort(wide.begin(), wide.end());
  wide.erase(std::unique(wide.begin(), wide.end()), wide.end());
  if (!hint.empty() && decoding(wide, hint) == wide.size()) {
    out.codepage = hint;
  } else {
    const std::vector<std::string_view> views(wide.begin(), wide.end());
    out.codepage = detectCodepage(views);  // else the one that explains the most
  }
  // Escaped: what neither decodes in the code page nor is UTF-8 already (nameAsUtf8).
  out.escaped = static_cast<std::size_t>(std::count_if(wide.begin(), wide.end(), [&](const std::string& n) {
    return !(out.codepage.empty() ? false : decodeCodepage(n, out.codepage).has_value()) && !isValidUtf8(n);
  }));
  if (out.codepage == "UTF-8" && out.escaped == 0) return out;
  forEachName(scene, [&](std::string& name) {
    if (!isAscii(name)) name = nameAsUtf8(name, out.codepage);
  });
  return out;
}

Renamed makeNamesUnique(std::vector<std::string>& names) {
  Renamed r;
  const std::unordered_set<std::string> given(names.begin(), names.end());
  std::unordered_set<std::string> taken;
  std::unordered_map<std::string, int> next;  // per base, the suffix to try first: linear, however many repeats
  for (std::string& name : names) {
    if (name.empty() || taken.count(name)) {
      const std::string base = name.empty() ? std::string("node") : name;
      const auto at = next.try_emplace(base, name.empty() ? 0 : 2).first;
      std::string candidate;
      for (int& k = at->second;; ++k) {
        candidate = base + "#" + std::to_string(k);
        if (!taken.count(candidate) && !given.count(candidate)) break;
      }
      if (r.count < 3) r.examples += (r.examples.empty() ? "'" : ", '") + name + "' → '" + candidate + "'";
      ++r.count;
      name = std::move(candidate);
    }
    taken.insert(name);
  }
  return r;
}

}  // namespace marrow::formats
