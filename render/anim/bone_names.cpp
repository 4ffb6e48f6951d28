#include "render/anim/bone_names.h"

#include "render/anim/bone_families.h"

#include <algorithm>
#include <array>

namespace marrow::anim {

namespace {

std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Known prefixes, in loose form (lower case, separators as '_'): 3ds Max Biped ("Bip01 Spine",
// "Bip001 Spine"), Source engine ("ValveBiped.Bip01_Spine"), Mixamo ("mixamorig:Hips" once its
// namespace is gone, "mixamorig_Hips" without one), Blender's rigify deform bones ("DEF-spine"),
// and plain "Bone_" / "Armature_" exports.
constexpr std::array<std::string_view, 8> kPrefixes = {
    "valvebiped_", "bip01_", "bip001_", "bip02_", "mixamorig_", "def_", "bone_", "armature_"};

bool isSeparator(char c) {
  return c == ' ' || c == '_' || c == '-' || c == '.' || c == ':' || c == '|';
}

}  // namespace

formats::Result<BoneNameMap> parseBoneNameMap(std::string_view text, const std::string& fileName) {
  BoneNameMap out;
  std::map<std::string, std::size_t> lineOf;  // source name → the line that named it
  std::size_t offset = 0, line = 0;
  while (offset < text.size()) {
    std::size_t end = text.find('\n', offset);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    const std::string_view raw = text.substr(offset, end - offset);
    const std::uint64_t at = offset;
    offset = end + 1;
    const std::string_view s = trim(raw);
    if (s.empty() || s.front() == '#') continue;
    const std::string field = "line " + std::to_string(line);
    const std::size_t eq = s.find('=');
    if (eq == std::string_view::npos)
      return formats::FormatError{fileName, field, at,
                                  "is not 'source = target' (no '=' in '" + std::string(s) + "')"};
    const std::string source(trim(s.substr(0, eq)));
    const std::string target(trim(s.substr(eq + 1)));
    if (source.empty() || target.empty())
      return formats::FormatError{
          fileName, field, at,
          std::string(source.empty() ? "the source" : "the target") + " bone name is empty"};
    if (const auto it = lineOf.find(source); it != lineOf.end())
      return formats::FormatError{fileName, field, at,
                                  "'" + source + "' is mapped a second time (first on line " +
                                      std::to_string(it->second) + ")"};
    lineOf[source] = line;
    out.pairs[source] = target;
  }
  return out;
}

std::string looseBoneName(std::string_view name) {
  // A namespace or a node path ends at the last ':' or '|'; the name is what follows.
  if (const std::size_t cut = name.find_last_of(":|");
      cut != std::string_view::npos && cut + 1 < name.size())
    name.remove_prefix(cut + 1);
  std::string s;
  s.reserve(name.size());
  for (char c : name) {
    if (isSeparator(c)) {
      if (!s.empty() && s.back() != '_') s.push_back('_');
    } else {
      s.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
  }
  while (!s.empty() && s.back() == '_') s.pop_back();
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view p : kPrefixes)
      if (s.size() > p.size() && s.compare(0, p.size(), p) == 0) {
        s.erase(0, p.size());
        stripped = true;
      }
  }
  return s;
}

const char* matchKindName(MatchKind kind) {
  switch (kind) {
    case MatchKind::Exact: return "exact";
    case MatchKind::Mapped: return "map";
    case MatchKind::Loose: return "loose";
    case MatchKind::Family: return "family";
  }
  return "?";
}

BoneMatcher::BoneMatcher(const formats::Skeleton& target, const BoneNameMap* map, bool loose,
                         const std::vector<std::string>* sourceNames)
    : target_(target), map_(map && !map->empty() ? map : nullptr), loose_(loose) {
  for (std::size_t i = 0; i < target.bones.size(); ++i) {
    auto [it, added] =
        looseNames_.try_emplace(looseBoneName(target.bones[i].name), static_cast<int>(i));
    if (!added) it->second = -2;
  }
  if (sourceNames) {
    const BoneFamily* from = familyOf(*sourceNames);
    const BoneFamily* to = familyOf(target);
    if (from && to && from != to) from_ = from, to_ = to;
  }
}

int BoneMatcher::looseBone(std::string_view name) const {
  const auto it = looseNames_.find(looseBoneName(name));
  return it != looseNames_.end() ? it->second : -1;
}

NameMatch BoneMatcher::find(std::string_view name) const {
  if (map_) {
    if (const auto it = map_->pairs.find(std::string(name)); it != map_->pairs.end()) {
      int bone = target_.find(it->second);
      if (bone < 0 && loose_) bone = looseBone(it->second);
      if (bone >= 0) return {bone, MatchKind::Mapped};
    }
  }
  if (from_ && to_) {
    const std::string_view partner = familyPartner(*from_, *to_, name);
    if (!partner.empty()) {
      int bone = target_.find(partner);
      if (bone < 0) bone = looseBone(partner);
      if (bone >= 0) return {bone, MatchKind::Family};
    }
  }
  if (const int bone = target_.find(name); bone >= 0) return {bone, MatchKind::Exact};
  if (loose_)
    if (const int bone = looseBone(name); bone >= 0) return {bone, MatchKind::Loose};
  return {-1, MatchKind::Exact};
}

std::vector<NameMatch> matchTracks(const formats::Clip& clip, const BoneMatcher& matcher) {
  std::vector<NameMatch> found(clip.tracks.size());
  for (std::size_t t = 0; t < clip.tracks.size(); ++t) found[t] = matcher.find(clip.tracks[t].bone);
  std::vector<NameMatch> out(clip.tracks.size());
  std::vector<bool> taken;
  for (MatchKind kind : {MatchKind::Mapped, MatchKind::Family, MatchKind::Exact, MatchKind::Loose})
    for (std::size_t t = 0; t < found.size(); ++t) {
      const NameMatch& m = found[t];
      if (m.bone < 0 || m.how != kind) continue;
      const auto b = static_cast<std::size_t>(m.bone);
      if (b >= taken.size()) taken.resize(b + 1, false);
      if (taken[b]) continue;
      taken[b] = true;
      out[t] = m;
    }
  return out;
}

}  // namespace marrow::anim
