// marrow-cli list: the records of archives (BRF; Dragon Nest paks: pak.cpp), or the parts of a
// model in any other format.
#include <cstdio>
#include <optional>

#include "app/cli/common.h"
#include "app/cli/records.h"

namespace marrow::app::cli {
namespace {

namespace vfs = formats::vfs;

bool keep(const vfs::Query* only, const char* kind, const std::string& name) {
  if (!only) return true;
  vfs::Node n;
  n.kind = kind;
  n.name = name;
  return vfs::matches(n, *only);
}

// A model that is not an archive lists what it is made of, as records of the same shape.
void writeModelItems(JsonWriter& j, const std::string& file, const formats::Scene& s, const vfs::Query* only) {
  j.beginArray();
  const auto item = [&](const char* kind, const std::string& name) {
    if (!keep(only, kind, name)) return;
    j.beginObject().field("file", file).field("kind", kind).field("name", name).endObject();
  };
  for (const auto& m : s.meshes) item("mesh", m.name);
  if (!s.skeleton.empty()) item("skeleton", s.skeleton.name);
  for (const auto& c : s.clips) item("animation", c.name);
  for (const auto& m : s.materials) item("material", m.name);
  for (const auto& b : s.bodies) item("body", b.name);
  j.endArray();
}

void printModelItems(const formats::Scene& s, const vfs::Query* only) {
  const auto item = [&](const char* kind, const std::string& name, const std::string& more = {}) {
    if (keep(only, kind, name)) std::printf("  %-10s %s%s\n", kind, name.c_str(), more.c_str());
  };
  for (const auto& m : s.meshes) item("mesh", m.name);
  if (!s.skeleton.empty())
    item("skeleton", s.skeleton.name, " (" + std::to_string(s.skeleton.bones.size()) + " bones)");
  for (const auto& c : s.clips) item("animation", c.name);
  for (const auto& m : s.materials) item("material", m.name);
  for (const auto& b : s.bodies) item("body", b.name);
}

}  // namespace

int runList(const Args& args) {
  if (isPakPath(args.inputs.front())) return runPakList(args);  // app/cli/pak.cpp
  // --find TEXT (a part of the name, any case; "KIND:TEXT" as the GUI's filter takes it) and
  // --kind KIND keep what matches.
  std::optional<vfs::Query> only;
  if (const std::string* find = args.option("--find")) only = vfs::parseQuery(*find);
  if (const std::string* kind = args.option("--kind")) {
    if (!only) only.emplace();
    only->kind = vfs::lowerAscii(*kind);
  }
  const vfs::Query* filter = only ? &*only : nullptr;
  auto doc = loadInputs(args, Textures::Skip);
  if (!doc) return kLoadError;
  if (args.has("--json")) {
    JsonWriter j;
    j.beginObject();
    j.key("inputs").beginArray();
    for (const auto& i : args.inputs) j.value(i);
    j.endArray();
    j.key("records");
    if (hasRecords(doc->archives))
      writeRecords(j, doc->archives, filter);
    else
      writeModelItems(j, args.inputs.front(), *doc->scene, filter);
    writeDiagnostics(j, doc->scene->diagnostics);
    j.endObject();
    std::printf("%s\n", j.str().c_str());
  } else if (hasRecords(doc->archives)) {
    printRecords(doc->archives, filter);
  } else {
    std::printf("%s\n", doc->title().toStdString().c_str());
    printModelItems(*doc->scene, filter);
  }
  return kOk;
}

}  // namespace marrow::app::cli
