#include "app/cli/common.h"

#include <cmath>

#include "formats/model/lod.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include "formats/io/codepage.h"
#include "formats/io/vfs.h"

namespace marrow::app::cli {

std::optional<std::string> encodingOption(const Args& args) {
  const std::string* given = args.option("--encoding");
  if (!given) return std::string();
  std::string name;
  for (char c : *given) name.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (name == "UTF8") name = "UTF-8";
  if (!formats::decodeCodepage("a", name)) {
    usageError(args.command, "--encoding '" + *given +
                                 "' is not a code page iconv knows (CP949, GB18030, BIG5, CP932, UTF-8)");
    return std::nullopt;
  }
  return name;
}

bool jobsOption(const Args& args, unsigned most, const char* what, unsigned& given) {
  const std::string* j = args.option("-j");
  if (!j) return true;
  unsigned v = 0;
  const auto r = std::from_chars(j->data(), j->data() + j->size(), v);
  if (r.ec != std::errc() || r.ptr != j->data() + j->size() || v == 0 || v > most) {
    usageError(args.command, "-j is a number of " + std::string(what) + " from 1 to " + std::to_string(most));
    return false;
  }
  given = v;
  return true;
}

std::optional<Document> loadInputs(const Args& args, Textures textures) {
  const auto encoding = encodingOption(args);
  if (!encoding) return std::nullopt;
  LoadOptions options;
  options.textures = textures;
  options.codepage = *encoding;
  options.partial = args.has("--partial");
  options.asFrames = args.has("--as-frames");
  double rate = 30.0;
  if (!numberOption(args, "--frame-rate", rate)) return std::nullopt;
  if (!(rate > 0.0 && rate <= 10000.0)) {
    usageError(args.command, "--frame-rate is frames per second, above 0");
    return std::nullopt;
  }
  if (args.option("--frame-rate") && !options.asFrames) {
    usageError(args.command, "--frame-rate is the rate of --as-frames's frame numbers");
    return std::nullopt;
  }
  options.framesPerSecond = static_cast<float>(rate);
  auto doc = loadDocument(args.inputPaths(), options);
  if (!doc) {
    std::fprintf(stderr, "marrow-cli: %s\n", doc.error().describe().c_str());
    return std::nullopt;
  }
  return std::move(doc).value();
}

bool chooseClip(const Args& args, const formats::Scene& scene, int& clipIndex) {
  const std::string* c = args.option("--clip");
  if (!c) {
    clipIndex = scene.clips.empty() ? -1 : 0;
    return true;
  }
  if (*c == "none" || *c == "rest") {
    clipIndex = -1;
    return true;
  }
  for (std::size_t i = 0; i < scene.clips.size(); ++i)
    if (scene.clips[i].name == *c) {
      clipIndex = static_cast<int>(i);
      return true;
    }
  int index = -1;
  const auto r = std::from_chars(c->data(), c->data() + c->size(), index);
  if (r.ec == std::errc() && r.ptr == c->data() + c->size() && index >= 0 &&
      static_cast<std::size_t>(index) < scene.clips.size()) {
    clipIndex = index;
    return true;
  }
  // The clips whose names hold the text (any case), else all of them; a module has hundreds, so
  // at most 20 are named.
  constexpr std::size_t kNamed = 20;
  std::vector<const std::string*> like;
  for (const auto& clip : scene.clips)
    if (formats::vfs::containsIgnoringCase(clip.name, *c)) like.push_back(&clip.name);
  const bool similar = !like.empty();
  if (!similar)
    for (const auto& clip : scene.clips) like.push_back(&clip.name);
  std::string names;
  for (std::size_t i = 0; i < like.size() && i < kNamed; ++i) names += (names.empty() ? "" : ", ") + *like[i];
  if (like.size() > kNamed) names += ", … " + std::to_string(like.size() - kNamed) + " more (info lists them)";
  std::fprintf(stderr, "marrow-cli: no clip '%s' in this model (%s: %s)\n", c->c_str(),
               similar ? "clips like it" : "clips", names.empty() ? "none" : names.c_str());
  return false;
}

bool playModeOption(const Args& args, anim::PlayMode& mode) {
  mode = anim::PlayMode::Once;
  const std::string* m = args.option("--mode");
  if (!m || *m == "once") return true;
  if (*m == "loop") {
    mode = anim::PlayMode::Loop;
  } else if (*m == "ping-pong" || *m == "pingpong") {
    mode = anim::PlayMode::PingPong;
  } else {
    usageError(args.command, "--mode is once, loop or ping-pong, not '" + *m + "'");
    return false;
  }
  return true;
}

bool levelOption(const Args& args, const formats::Scene& scene, std::vector<bool>& drawn) {
  double level = 0.0;
  if (!numberOption(args, "--level", level)) return false;
  if (level != std::floor(level) || level < 0.0 || level > 9.0) {
    usageError(args.command, "--level is a level of level meshes (NAME.lod1 … NAME.lod9): 0 to 9");
    return false;
  }
  drawn = formats::drawnAtLevel(formats::meshLevels(scene), static_cast<int>(level));
  return true;
}

bool numberOption(const Args& args, const std::string& name, double& out) {
  const std::string* v = args.option(name);
  if (!v) return true;
  double d = 0.0;
  const auto r = std::from_chars(v->data(), v->data() + v->size(), d);
  if (r.ec != std::errc() || r.ptr != v->data() + v->size() || !std::isfinite(d)) {
    usageError(args.command, name + " needs a number, not '" + *v + "'");
    return false;
  }
  out = d;
  return true;
}

void writeDiagnostics(JsonWriter& json, const formats::Diagnostics& diagnostics) {
  json.key("diagnostics").beginArray();
  for (const auto& d : diagnostics.items) {
    json.beginObject()
        .field("severity", formats::severityName(d.severity))
        .field("file", d.file)
        .field("field", d.field);
    json.key("offset");
    if (d.offset == formats::kNoOffset)
      json.null();
    else
      json.value(static_cast<std::uint64_t>(d.offset));
    json.field("message", d.message).endObject();
  }
  json.endArray();
}

void printDiagnostics(const formats::Diagnostics& diagnostics) {
  for (const auto& d : diagnostics.items)
    std::fprintf(stderr, "%s: %s\n", formats::severityName(d.severity),
                 formats::describe(d).c_str());
}

}  // namespace marrow::app::cli
