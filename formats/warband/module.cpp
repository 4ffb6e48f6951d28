#include "formats/warband/module.h"
#include "formats/io/vfs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "formats/io/file.h"
#include "formats/brf/archive.h"
#include "formats/warband/actions.h"

namespace marrow::formats::warband {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string_view s) { return vfs::lowerAscii(s); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The entry of `dir` named `name` in any case, or "" (files come from Windows).
std::string child(const std::string& dir, std::string_view name, bool folder) {
  if (dir.empty()) return {};
  std::error_code ec;
  const fs::path exact = fs::path(dir) / std::string(name);
  if (folder ? fs::is_directory(exact, ec) : fs::is_regular_file(exact, ec)) return exact.string();
  const std::string want = lower(name);
  for (const auto& e : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec))
    if (lower(e.path().filename().string()) == want &&
        (folder ? e.is_directory(ec) : e.is_regular_file(ec)))
      return e.path().string();
  return {};
}

// The files of a folder by lower-case name, for lookups of many names.
std::unordered_map<std::string, std::string> listing(const std::string& dir) {
  std::unordered_map<std::string, std::string> out;
  if (dir.empty()) return out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec))
    if (e.is_regular_file(ec)) out.emplace(lower(e.path().filename().string()), e.path().string());
  return out;
}

// Textures as the game finds them: the module's Textures/, then the install's, then beside the
// BRF (OpenBRF's last resort), by the file's name in any case.
Resolver textureResolver(const ModuleFolders& f, const std::string& brf) {
  const std::string beside = fs::path(brf).parent_path().string();
  return [mod = f.moduleTextures, game = f.installTextures, beside](const std::string& name)
             -> std::optional<std::vector<std::byte>> {
    std::string file = name;
    std::replace(file.begin(), file.end(), '\\', '/');
    if (const auto slash = file.find_last_of('/'); slash != std::string::npos) file = file.substr(slash + 1);
    for (const std::string& dir : {mod, game, beside}) {
      const std::string path = child(dir, file, false);
      if (path.empty()) continue;
      if (auto bytes = readFile(path, 1ull << 30)) return std::move(bytes).value();
    }
    return std::nullopt;
  };
}

}  // namespace

Result<ModuleIni> readModuleIni(std::span<const std::byte> data, const ReadContext& ctx) {
  ModuleIni out;
  const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
  std::size_t at = 0, number = 0;
  while (at < text.size()) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    const std::size_t start = at;
    ++number;
    std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string key = lower(trim(line.substr(0, eq)));
    const std::string_view value = trim(line.substr(eq + 1));
    ResourceLine r;
    r.key = key;
    r.name = std::string(value);
    r.line = number;
    if (key == "load_resource" || key == "load_resource_nofast") {
      r.from = ResourceLine::From::CommonRes;
    } else if (key == "load_mod_resource" || key == "load_module_resource") {
      r.from = ResourceLine::From::Module;
    } else {
      if (key == "scan_module_textures") out.scanModuleTextures = value == "1";
      continue;
    }
    if (r.name.empty() || r.name.find_first_of("/\\:") != std::string::npos) {
      out.diagnostics.warn(ctx.name, key + " (line " + std::to_string(number) + ")", start,
                           "names '" + r.name + "', not a file name; the line is left out");
      continue;
    }
    if (out.resources.size() >= ctx.limits.maxMeshes)
      return FormatError{ctx.name, key, kNoOffset,
                         "more resource lines than the limit of " + std::to_string(ctx.limits.maxMeshes)};
    out.resources.push_back(std::move(r));
  }
  return out;
}

std::optional<ModuleFolders> moduleOf(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec).lexically_normal();
  if (p.has_filename() == false) p = p.parent_path();
  std::string folder;
  if (fs::is_directory(p, ec)) {
    folder = p.string();
  } else if (lower(p.filename().string()) == "module.ini") {
    folder = p.parent_path().string();
  } else if (lower(p.extension().string()) == ".brf" && lower(p.parent_path().filename().string()) == "resource") {
    folder = p.parent_path().parent_path().string();
  } else {
    return std::nullopt;
  }
  ModuleFolders f;
  f.module = folder;
  f.moduleIni = child(folder, "module.ini", false);
  if (f.moduleIni.empty()) return std::nullopt;
  f.name = fs::path(folder).filename().string();
  f.resource = child(folder, "Resource", true);
  f.moduleTextures = child(folder, "Textures", true);
  f.moduleData = child(folder, "Data", true);
  const fs::path modules = fs::path(folder).parent_path();
  if (lower(modules.filename().string()) == "modules") {
    f.install = modules.parent_path().string();
    f.commonRes = child(f.install, "CommonRes", true);
    f.installTextures = child(f.install, "Textures", true);
  }
  return f;
}

Result<Module> openModule(const ModuleFolders& folders, const Limits& limits, bool fetchTextures) {
  Module m;
  m.folders = folders;
  auto iniBytes = readFile(folders.moduleIni, 16u << 20);
  if (!iniBytes) return iniBytes.error();
  ReadContext iniCtx;
  iniCtx.name = folders.moduleIni;
  iniCtx.limits = limits;
  auto ini = readModuleIni(*iniBytes, iniCtx);
  if (!ini) return ini.error();
  m.diagnostics.append(ini->diagnostics);
  if (folders.commonRes.empty())
    m.diagnostics.warn(folders.module, "CommonRes", kNoOffset,
                       "the module is not in an install's Modules folder (or the install has no "
                       "CommonRes): its load_resource files and the core files are left out");

  const auto commonRes = listing(folders.commonRes);
  const auto resource = listing(folders.resource);
  const auto data = listing(folders.moduleData);
  std::set<std::string> loaded;  // lower-case paths read already
  const auto load = [&](const std::string& path, const std::string& note, const std::string& field) {
    if (!loaded.insert(lower(path)).second) {
      m.diagnostics.info(folders.moduleIni, field, kNoOffset, "names " + fs::path(path).filename().string() +
                                                                  " again; it is read once");
      return;
    }
    auto bytes = readFile(path);
    if (!bytes) {
      m.diagnostics.warn(folders.moduleIni, field, kNoOffset, bytes.error().describe());
      return;
    }
    ReadContext ctx;
    ctx.name = path;
    ctx.limits = limits;
    ctx.fetchTextures = fetchTextures;
    ctx.resolve = textureResolver(folders, path);
    auto doc = brf::parse(*bytes, ctx);
    if (!doc) {
      m.diagnostics.warn(folders.moduleIni, field, kNoOffset, doc.error().describe() + "; the file is left out");
      return;
    }
    m.sources.push_back({path, std::make_shared<const brf::Document>(std::move(doc).value()), ctx, note});
  };

  // The core files: the module's Data/, its Resource/, then CommonRes/ (openbrf-redux's order).
  for (const char* core : kCoreResources) {
    const std::string file = std::string(core) + ".brf";
    std::string found;
    for (const auto* in : {&data, &resource, &commonRes})
      if (auto it = in->find(file); it != in->end()) {
        found = it->second;
        break;
      }
    if (found.empty()) {
      if (!folders.commonRes.empty())
        m.diagnostics.warn(folders.moduleIni, std::string("core file ") + core, kNoOffset,
                           "not found in the module's Data/ or Resource/ or in CommonRes/");
      continue;
    }
    load(found, "core", std::string("core file ") + core);
  }
  for (const ResourceLine& r : ini->resources) {
    const std::string field = r.key + " = " + r.name + " (line " + std::to_string(r.line) + ")";
    const bool common = r.from == ResourceLine::From::CommonRes;
    if (common && folders.commonRes.empty()) continue;  // said once above
    const auto& in = common ? commonRes : resource;
    const auto it = in.find(lower(r.name) + ".brf");
    if (it == in.end()) {
      m.diagnostics.warn(folders.moduleIni, field, kNoOffset,
                         r.name + ".brf is not in " + (common ? folders.commonRes : folders.resource.empty() ? folders.module + "/Resource" : folders.resource));
      continue;
    }
    load(it->second, "module.ini line " + std::to_string(r.line) + ", " + (common ? "CommonRes" : "module"), field);
  }
  if (m.sources.empty())
    return FormatError{folders.moduleIni, "", kNoOffset, "the module loads no BRF file that could be read"};

  if (const std::string actions = child(folders.module, "actions.txt", false); !actions.empty()) {
    auto bytes = readFile(actions, 64u << 20);
    ReadContext ctx;
    ctx.name = actions;
    ctx.limits = limits;
    auto read = bytes ? readActions(*bytes, ctx) : Result<std::vector<Action>>(bytes.error());
    if (read) m.actions = std::move(read).value();
    else m.diagnostics.warn(actions, "", kNoOffset, read.error().describe() + "; the module's actions are left out");
  }
  m.diagnostics.append(checkModule(m));
  return m;
}

std::map<std::string, std::vector<std::string>> moduleUsage(const Module& m, std::size_t limit) {
  std::map<std::string, std::vector<std::string>> users;
  std::map<std::string, std::size_t> more;
  const auto use = [&](brf::Section kind, const std::string& name, const std::string& by) {
    auto& list = users[brf::BrfArchive::usageKey(kind, name)];
    if (std::find(list.begin(), list.end(), by) != list.end()) return;
    if (list.size() < limit) list.push_back(by);
    else ++more[brf::BrfArchive::usageKey(kind, name)];
  };
  // Tokens of the text files, each with the first file that has it.
  std::unordered_map<std::string, std::string> tokens;
  std::vector<std::string> files;
  for (const char* file : kUsageFiles) files.push_back(child(m.folders.module, file, false));
  const std::string installData = child(m.folders.install, "Data", true);
  for (const char* file : kUsageDataFiles) {
    std::string path = child(m.folders.moduleData, file, false);
    files.push_back(path.empty() ? child(installData, file, false) : path);
  }
  for (const std::string& path : files) {
    if (path.empty()) continue;
    auto bytes = readFile(path, 256u << 20);
    if (!bytes) continue;
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    for (std::size_t i = 0; i < text.size();) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      const std::size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i > start) tokens.emplace(std::string(text.substr(start, i - start)), fs::path(path).filename().string());
    }
  }
  const auto named = [&](const std::string& name) -> const std::string* {
    auto it = tokens.find(name);
    if (it == tokens.end())
      if (const auto lod = name.find(".lod"); lod != std::string::npos) it = tokens.find(name.substr(0, lod));
    return it == tokens.end() ? nullptr : &it->second;
  };
  for (const brf::Source& src : m.sources) {
    const brf::Document& d = *src.doc;
    const bool core = src.note == "core";
    for (brf::Section kind : {brf::Section::Mesh, brf::Section::Skeleton, brf::Section::Animation, brf::Section::Body,
                              brf::Section::Material})
      for (std::size_t i = 0; i < brf::recordCount(d, kind); ++i) {
        const std::string& name = brf::recordName(src, kind, i);
        if (core) use(kind, name, "the game (a core file)");
        else if (const std::string* file = named(name)) use(kind, name, *file);
      }
    for (const auto& mesh : d.meshes)
      if (!mesh.material.empty()) use(brf::Section::Material, mesh.material, "mesh '" + mesh.name + "'");
    for (const auto& mat : d.materials) {
      const std::string by = "material '" + mat.name + "'";
      if (core) use(brf::Section::Material, mat.name, "the game (a core file)");
      if (!mat.shader.empty()) use(brf::Section::Shader, mat.shader, by);
      for (const std::string* t : {&mat.diffuseA, &mat.diffuseB, &mat.bump, &mat.enviro})
        if (!t->empty() && *t != "none") use(brf::Section::Texture, *t, by);
      if (mat.spec && !mat.spec->empty() && *mat.spec != "none") use(brf::Section::Texture, *mat.spec, by);
    }
    if (core) {
      for (std::size_t i = 0; i < d.shaders.size(); ++i)
        use(brf::Section::Shader, brf::recordName(src, brf::Section::Shader, i), "the game (a core file)");
      for (std::size_t i = 0; i < d.textures.size(); ++i)
        use(brf::Section::Texture, brf::recordName(src, brf::Section::Texture, i), "the game (a core file)");
    }
  }
  for (const auto& [key, n] : more) users[key].push_back("… " + std::to_string(n) + " more");
  return users;
}

Diagnostics checkModule(const Module& m, std::size_t limit) {
  Diagnostics out;
  // Where each name is first defined, per kind: (source, record).
  using Key = std::pair<int, std::string>;  // (kind, name); textures without ".dds", lower case
  std::map<Key, std::size_t> firstFile;
  const auto textureKey = [](std::string name) {
    name = lower(name);
    if (name.size() > 4 && name.ends_with(".dds")) name.resize(name.size() - 4);
    return name;
  };
  const auto where = [&](std::size_t s) {
    const brf::Source& src = m.sources[s];
    return fs::path(src.name).filename().string() + (src.note.empty() ? "" : " (" + src.note + ")");
  };
  std::map<std::string, std::size_t> counts;  // per message kind, for the limit
  const auto say = [&](const std::string& kind, Severity sev, const std::string& file, const std::string& field,
                       const std::string& message) {
    if (++counts[kind] <= limit) out.add(sev, file, field, kNoOffset, message);
  };
  for (std::size_t s = 0; s < m.sources.size(); ++s)
    for (brf::Section kind : brf::kSections)
      for (std::size_t i = 0; i < brf::recordCount(*m.sources[s].doc, kind); ++i) {
        const std::string& name = brf::recordName(m.sources[s], kind, i);
        const Key key{static_cast<int>(kind), kind == brf::Section::Texture ? textureKey(name) : name};
        const auto [it, fresh] = firstFile.emplace(key, s);
        if (!fresh)
          say("duplicate", Severity::Warning, m.sources[s].name,
              std::string(brf::kindName(kind)) + " '" + name + "'",
              "is defined again here; the first, in " + where(it->second) + ", is the one used");
      }
  const auto defined = [&](brf::Section kind, const std::string& name) -> std::optional<std::size_t> {
    const auto it = firstFile.find({static_cast<int>(kind), kind == brf::Section::Texture ? textureKey(name) : name});
    if (it == firstFile.end()) return std::nullopt;
    return it->second;
  };
  const auto reference = [&](std::size_t s, const std::string& what, brf::Section kind, const std::string& name) {
    if (name.empty() || name == "none" || name == "0") return;
    const auto at = defined(kind, name);
    if (!at) {
      say("missing", Severity::Warning, m.sources[s].name, what,
          "uses " + std::string(brf::kindName(kind)) + " '" + name + "', which no file of the module defines");
    } else if (*at > s) {
      say("order", Severity::Warning, m.sources[s].name, what,
          "uses " + std::string(brf::kindName(kind)) + " '" + name + "', defined only later, in " + where(*at) +
              " (an ordering problem: the game expects it loaded first)");
    }
  };
  for (std::size_t s = 0; s < m.sources.size(); ++s) {
    const brf::Document& d = *m.sources[s].doc;
    for (const auto& mesh : d.meshes) reference(s, "mesh '" + mesh.name + "'", brf::Section::Material, mesh.material);
    for (const auto& mat : d.materials) {
      const std::string what = "material '" + mat.name + "'";
      reference(s, what, brf::Section::Shader, mat.shader);
      for (const std::string* t : {&mat.diffuseA, &mat.diffuseB, &mat.bump, &mat.enviro})
        reference(s, what, brf::Section::Texture, *t);
      if (mat.spec) reference(s, what, brf::Section::Texture, *mat.spec);
    }
  }
  // Texture records whose DDS is in neither Textures folder.
  const auto modTextures = listing(m.folders.moduleTextures), gameTextures = listing(m.folders.installTextures);
  if (!modTextures.empty() || !gameTextures.empty())
    for (std::size_t s = 0; s < m.sources.size(); ++s)
      for (const auto& t : m.sources[s].doc->textures) {
        std::vector<std::string> files;
        const std::string base = textureKey(t.name);
        if (t.frames() > 0)
          for (int k = 0; k < t.frames(); ++k) files.push_back(base + "_" + std::to_string(k) + ".dds");
        else
          files.push_back(base + ".dds");
        for (const std::string& f : files)
          if (!modTextures.count(f) && !gameTextures.count(f))
            say("dds", Severity::Warning, m.sources[s].name, "texture '" + t.name + "'",
                f + " is in neither the module's Textures/ nor the game's");
      }
  for (const auto& [kind, n] : counts)
    if (n > limit)
      out.info(m.folders.moduleIni, kind, kNoOffset,
               std::to_string(n - limit) + " more like the above (" + std::to_string(n) + " in all)");
  return out;
}

}  // namespace marrow::formats::warband
