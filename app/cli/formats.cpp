// marrow-cli formats: the format table (formats/format_table.h) as people and scripts read it.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/cli/cli.h"
#include "formats/io/json_writer.h"
#include "formats/format_table.h"

namespace marrow::app::cli {

using formats::JsonWriter;

namespace {

std::string str(std::string_view s) { return std::string(s); }

std::string dotted(const std::vector<std::string_view>& extensions) {
  std::string out;
  for (std::string_view e : extensions) out += (out.empty() ? "." : " .") + str(e);
  return out;
}

// The extensions as the README lists them: all of them, or the first dozen of a long list.
std::string listed(const std::vector<std::string_view>& extensions) {
  constexpr std::size_t kShown = 12;
  std::vector<std::string_view> shown(extensions.begin(),
                                      extensions.begin() + static_cast<std::ptrdiff_t>(std::min(extensions.size(), kShown)));
  std::string out = dotted(shown);
  if (extensions.size() > kShown) out += " … (" + std::to_string(extensions.size()) + " in all)";
  return out;
}

// The extensions, then the whole file names the format is known by.
std::string namesOf(const formats::FormatDescriptor& f) {
  std::string out = listed(f.extensions);
  for (std::string_view n : f.fileNames) out += (out.empty() ? "" : " ") + str(n);
  return out;
}

}  // namespace

std::string formatsMarkdown() {
  std::string out = "| Format | Extensions | Read | Write | Notes |\n|---|---|---|---|---|\n";
  for (const formats::FormatDescriptor* f : formats::formatTable()) {
    std::string outputs;
    for (const auto& k : f->outputs) outputs += (outputs.empty() ? "." : " .") + str(k.extension);
    out += "| " + str(f->name) + " | `" + namesOf(*f) + "` | " + (f->reads() ? "✓" : "—") + " | " +
           (outputs.empty() ? std::string("—") : "`" + outputs + "`") + " | " + str(f->notes) + " |\n";
  }
  return out;
}

void printFormatList(std::FILE* out) {
  std::fprintf(out, "\nFormats (marrow-cli formats --json lists them for scripts):\n");
  for (const formats::FormatDescriptor* f : formats::formatTable()) {
    std::string outputs;
    for (const auto& k : f->outputs) outputs += (outputs.empty() ? "." : " .") + str(k.extension);
    std::fprintf(out, "  %-30s read %-3s write %s\n    %s\n", str(f->name).c_str(),
                 f->reads() ? "yes" : "no", outputs.empty() ? "no" : outputs.c_str(),
                 namesOf(*f).c_str());
  }
}

int runFormats(const Args& args) {
  if (args.has("--mime-types")) {  // as a desktop entry's MimeType= list
    for (const std::string& m : formats::mimeTypes()) std::printf("%s;", m.c_str());
    std::printf("\n");
    return kOk;
  }
  if (args.has("--markdown")) {
    std::printf("%s", formatsMarkdown().c_str());
    return kOk;
  }
  if (!args.has("--json")) {
    printFormatList(stdout);
    return kOk;
  }
  JsonWriter j;
  j.beginObject();
  j.key("formats").beginArray();
  for (const formats::FormatDescriptor* f : formats::formatTable()) {
    j.beginObject().field("name", str(f->name));
    j.key("extensions").beginArray();
    for (std::string_view e : f->extensions) j.value("." + str(e));
    j.endArray();
    j.key("file_names").beginArray();
    for (std::string_view n : f->fileNames) j.value(str(n));
    j.endArray();
    j.key("animation_extensions").beginArray();  // files that play on a model (GUI: Play on the Open Model)
    for (std::string_view e : f->animationExtensions) j.value("." + str(e));
    j.endArray();
    j.field("mime", str(f->mime)).field("read", f->reads()).field("write", f->writes());
    j.field("id", str(f->id));
    j.key("mime_types").beginArray();
    for (std::string_view m : f->mimeTypes) j.value(str(m));
    j.endArray();
    j.key("outputs").beginArray();
    for (const auto& k : f->outputs)
      j.beginObject().field("extension", "." + str(k.extension)).field("name", str(k.name)).endObject();
    j.endArray();
    j.field("archive", f->mount != nullptr);
    j.field("notes", str(f->notes));
    j.field("cannot_hold", str(f->cannotHold));
    j.endObject();
  }
  j.endArray().endObject();
  std::printf("%s\n", j.str().c_str());
  return kOk;
}

}  // namespace marrow::app::cli
