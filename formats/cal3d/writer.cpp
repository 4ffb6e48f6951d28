// Writing cal3d files: the basis conversion (once), the choice between binary and XML, and the
// model as a folder of files with a .cfg.
#include "formats/cal3d/writer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include "formats/cal3d/common.h"
#include "formats/cal3d/writers_internal.h"
#include "formats/model/convert.h"

namespace marrow::formats::cal3d {

int versionFor(const Scene& scene) {
  bool colors = false, morphs = false;
  for (const auto& m : scene.meshes) {
    colors = colors || !m.colors.empty();
    morphs = morphs || !m.morphs.empty();
  }
  for (const auto& c : scene.clips) morphs = morphs || !c.morphTracks.empty();
  if (colors) return 1300;  // only the 0.13 trunk layout stores vertex colours
  if (morphs) return 1301;
  return 1100;
}

namespace {

// The scene in cal3d's basis, keeping its unit (cal3d has none of its own: the .cfg scale says),
// with one bind pose and no bone scale, as cal3d has.
Scene inCal3dBasis(const Scene& scene, Diagnostics& d) {
  Scene s = scene;
  convertBasis(s, cal3dBasis(scene.basis.unitMeters));
  removeBoneScale(s, d);
  unifyBindPoses(s, d);
  return s;
}

template <class Fn>
Result<std::vector<std::byte>> converted(const Scene& scene, const WriteOptions& o,
                                         Diagnostics& d, Fn&& fn) {
  if (!writableVersion(o.version)) return versionError(o.version);
  return fn(inCal3dBasis(scene, d));
}

}  // namespace

Result<std::vector<std::byte>> writeSkeleton(const Scene& scene, const WriteOptions& o,
                                             Diagnostics& d) {
  return converted(scene, o, d, [&](const Scene& s) {
    return o.xml ? writeXsf(s, o.version, d) : writeCsf(s, o.version, d);
  });
}

Result<std::vector<std::byte>> writeAnimation(const Scene& scene, std::size_t clip,
                                              const WriteOptions& o, Diagnostics& d) {
  return converted(scene, o, d, [&](const Scene& s) {
    return o.xml ? writeXaf(s, clip, o.version, d) : writeCaf(s, clip, o.version, d);
  });
}

// Not through `converted`: a morph animation is written at IMVU's versions too (its target names
// are what IMVU reads), which the other files are not (writableVersion).
Result<std::vector<std::byte>> writeMorphAnimation(const Scene& scene, std::size_t clip,
                                                   const WriteOptions& o, Diagnostics& d) {
  if (!holdsMorphAnimations(o.version))
    return FormatError{"", "version", kNoOffset,
                       "is " + std::to_string(o.version) + "; cal3d morph animations exist in "
                       "IMVU's versions 911–999 and in 1300 and 1301, not in the official "
                       "700–1200"};
  const Scene s = inCal3dBasis(scene, d);
  return o.xml ? writeXpf(s, clip, o.version, d) : writeCpf(s, clip, o.version, d);
}

Result<std::vector<std::byte>> writeMesh(const Scene& scene, std::span<const std::size_t> meshes,
                                         const WriteOptions& o, Diagnostics& d) {
  return converted(scene, o, d, [&](const Scene& s) {
    return o.xml ? writeXmf(s, meshes, o.version, d) : writeCmf(s, meshes, o.version, d);
  });
}

Result<std::vector<std::byte>> writeMaterial(const Scene& scene, std::size_t material,
                                             const WriteOptions& o, Diagnostics& d) {
  return converted(scene, o, d, [&](const Scene& s) {
    return o.xml ? writeXrf(s, material, o.version, d) : writeCrf(s, material, o.version, d);
  });
}

namespace {

// File names must be unique within the folder and safe on every file system.
std::string safeStem(std::string name, const std::string& fallback) {
  for (char& c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) c = '_';
  while (!name.empty() && name.front() == '.') name.erase(0, 1);
  return name.empty() ? fallback : name;
}

class UniqueNames {
 public:
  std::string take(const std::string& stem, const std::string& ext) {
    std::string name = stem + ext;
    for (int i = 2; used_.count(lowerCase(name)); ++i) name = stem + "_" + std::to_string(i) + ext;
    used_[lowerCase(name)] = true;
    return name;
  }

 private:
  static std::string lowerCase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  }
  std::map<std::string, bool> used_;
};

}  // namespace

Result<std::vector<NamedFile>> writeModel(const Scene& scene, const std::string& baseName,
                                          const WriteOptions& o, Diagnostics& d) {
  if (!writableVersion(o.version)) return versionError(o.version);
  Scene s = inCal3dBasis(scene, d);
  if (s.skeleton.empty()) {
    // cal3d models have a skeleton (libcal3d refuses one without): a single root bone at the
    // origin, which the unskinned meshes ignore.
    Bone root;
    root.name = "root";
    s.skeleton.bones.push_back(root);
    d.info("", "skeleton", kNoOffset,
           "the model has no skeleton; one root bone was written, as cal3d needs a skeleton");
  }
  const std::string base = safeStem(baseName, "model");
  const char* ext[] = {o.xml ? ".xsf" : ".csf", o.xml ? ".xaf" : ".caf", o.xml ? ".xmf" : ".cmf",
                       o.xml ? ".xrf" : ".crf"};
  std::vector<NamedFile> files;
  UniqueNames names;
  std::string cfg = "# cal3d model configuration, written by Marrow\n\n";
  char scale[64];
  std::snprintf(scale, sizeof scale, "%.9g", static_cast<double>(s.basis.unitMeters));
  cfg += std::string("scale=") + scale + "\n\n";

  if (!s.skeleton.empty()) {
    auto bytes = o.xml ? writeXsf(s, o.version, d) : writeCsf(s, o.version, d);
    if (!bytes) return bytes.error();
    files.push_back({names.take(base, ext[0]), std::move(bytes).value()});
    cfg += "skeleton=" + files.back().name + "\n\n";
  }
  std::string morphLines;
  for (std::size_t c = 0; c < s.clips.size(); ++c) {
    const Clip& clip = s.clips[c];
    const std::string stem = safeStem(clip.name, base + "_clip");
    if (hasBoneKeys(clip, s.skeleton)) {
      auto bytes = o.xml ? writeXaf(s, c, o.version, d) : writeCaf(s, c, o.version, d);
      if (!bytes) return bytes.error();
      files.push_back({names.take(stem, ext[1]), std::move(bytes).value()});
      cfg += "animation=" + files.back().name + "\n";
    }
    if (!clip.morphTracks.empty() && holdsMorphAnimations(o.version)) {
      // A clip whose weights this form cannot hold (targets known only by number, in a binary
      // file of names) is left out, not the whole model.
      auto bytes = o.xml ? writeXpf(s, c, o.version, d) : writeCpf(s, c, o.version, d);
      if (!bytes) {
        d.warn("", "clip '" + clip.name + "'", kNoOffset,
               bytes.error().message + ": its morph animation is not written");
        continue;
      }
      files.push_back({names.take(stem, o.xml ? ".xpf" : ".cpf"), std::move(bytes).value()});
      morphLines += "morphanim=" + files.back().name + "\n";
    }
  }
  if (!s.clips.empty()) cfg += morphLines + "\n";
  // Meshes "name" and "name#i" were the submeshes of one file: they go back into one.
  const auto meshGroups = meshFiles(s);
  for (const auto& members : meshGroups) {
    auto bytes = o.xml ? writeXmf(s, members, o.version, d) : writeCmf(s, members, o.version, d);
    if (!bytes) return bytes.error();
    files.push_back({names.take(safeStem(meshGroup(s.meshes[members.front()].name), base + "_mesh"), ext[2]),
                     std::move(bytes).value()});
    cfg += "mesh=" + files.back().name + "\n";
  }
  if (!meshGroups.empty()) cfg += "\n";
  for (std::size_t m = 0; m < s.materials.size(); ++m) {
    auto bytes = o.xml ? writeXrf(s, m, o.version, d) : writeCrf(s, m, o.version, d);
    if (!bytes) return bytes.error();
    files.push_back({names.take(safeStem(s.materials[m].name, base + "_material"), ext[3]),
                     std::move(bytes).value()});
    cfg += "material=" + files.back().name + "\n";
  }
  const auto* p = reinterpret_cast<const std::byte*>(cfg.data());
  files.push_back({names.take(base, ".cfg"), std::vector<std::byte>(p, p + cfg.size())});
  return files;
}

}  // namespace marrow::formats::cal3d
