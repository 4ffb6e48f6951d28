// marrow-cli list: the records of archives (BRF; Dragon Nest paks: pak.cpp), or the parts of a
// model in any other format.
#include <cstdio>

#include "app/cli/common.h"
#include "app/cli/records.h"

namespace marrow::app::cli {
namespace {

// A model that is not an archive lists what it is made of, as records of the same shape.
void writeModelItems(JsonWriter& j, const std::string& file, const formats::Scene& s) {
  j.beginArray();
  const auto item = [&](const char* kind, const std::string& name) {
    j.beginObject().field("file", file).field("kind", kind).field("name", name).endObject();
  };
  for (const auto& m : s.meshes) item("mesh", m.name);
  if (!s.skeleton.empty()) item("skeleton", s.skeleton.name);
  for (const auto& c : s.clips) item("animation", c.name);
  for (const auto& m : s.materials) item("material", m.name);
  for (const auto& b : s.bodies) item("body", b.name);
  j.endArray();
}

void printModelItems(const formats::Scene& s) {
  for (const auto& m : s.meshes) std::printf("  mesh       %s\n", m.name.c_str());
  if (!s.skeleton.empty()) std::printf("  skeleton   %s (%zu bones)\n", s.skeleton.name.c_str(), s.skeleton.bones.size());
  for (const auto& c : s.clips) std::printf("  animation  %s\n", c.name.c_str());
  for (const auto& m : s.materials) std::printf("  material   %s\n", m.name.c_str());
  for (const auto& b : s.bodies) std::printf("  body       %s\n", b.name.c_str());
}

}  // namespace

int runList(const Args& args) {
  if (isPakPath(args.inputs.front())) return runPakList(args);  // app/cli/pak.cpp
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
      writeRecords(j, doc->archives);
    else
      writeModelItems(j, args.inputs.front(), *doc->scene);
    writeDiagnostics(j, doc->scene->diagnostics);
    j.endObject();
    std::printf("%s\n", j.str().c_str());
  } else if (hasRecords(doc->archives)) {
    printRecords(doc->archives);
  } else {
    std::printf("%s\n", doc->title().toStdString().c_str());
    printModelItems(*doc->scene);
  }
  return kOk;
}

}  // namespace marrow::app::cli
