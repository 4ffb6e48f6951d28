// marrow-cli convert: any model Marrow reads, written in another format (formats/write.h does
// the writing; this reads the options, loads the inputs and says what happened).
#include <QFileInfo>
#include <cmath>
#include <cstdio>

#include "app/cli/common.h"
#include "app/retarget.h"
#include "app/rig.h"
#include "formats/check.h"
#include "formats/io/file.h"
#include "formats/write.h"

namespace marrow::app::cli {

int runConvert(const Args& args) {
  const std::string* out = args.option("-o");
  if (!out) return usageError("convert", "no output given (-o OUTPUT)");
  const std::string ext = QFileInfo(QString::fromStdString(*out)).suffix().toLower().toStdString();
  const formats::Output output = formats::outputFor(*out);
  if (!output)
    return usageError("convert", "cannot write '." + ext + "' files; the output formats are " +
                                     formats::outputFormatsSentence());
  double version = 0.0;
  if (!numberOption(args, "--version", version)) return kUsage;
  if (version != std::floor(version) || version < 0.0 || version > 1e6)
    return usageError("convert", "--version is a whole number such as 700, 1100 or 1300");

  formats::WriteOptions options;
  if (args.option("--version")) options.version = static_cast<int>(version);
  options.xml = args.has("--xml");
  // --clip: the clip of an animation file (the first named), else the clips written.
  options.clips = args.values("--clip");
  if (!options.clips.empty()) options.clip = options.clips.front();
  if (const std::string* m = args.option("--material")) options.material = *m;
  options.addresses = args.inputs;
  if (auto why = formats::checkWriteOptions(output, options)) return usageError("convert", *why);

  // BRF records read from BRF files are written as they are; anything else is a model (and a
  // model rigged onto another skeleton is no longer its records).
  const std::string* skeletonFile = args.option("--skeleton");
  const bool records = !skeletonFile && !args.has("--as-frames") && formats::writesRecordsAsRead(output, args.inputs, options);
  // A game's output is checked against the game's limits (formats/check.h) and, with --fix,
  // fixed first; BRF records read from BRF files are written as they are.
  const formats::CheckTarget* target = records ? nullptr : formats::checkTargetFor(output.kind->extension, options.version);
  if (args.has("--fix") && records)
    return usageError("convert", "BRF records are written as they are; --fix is for other models written as .brf");
  if (args.has("--fix") && !target)
    return usageError("convert", "--fix is for a game's output: .brf (Warband, M&B 1.011), Dragon Nest's .skn .msh .ani or cal3d's files");
  const bool checked = target && (args.has("--fix") || target->extension == "brf");
  // glTF carries the textures themselves; the other formats only name them (a check says
  // which are missing).
  const bool gltf = output.format->id == "gltf";
  auto doc = loadInputs(args, gltf || checked ? Textures::Find : Textures::Skip);
  if (!doc) return kLoadError;
  // What reading found, before what writing loses (BRF records are written as they were read).
  if (!records) printDiagnostics(doc->scene->diagnostics);

  formats::WriteSource source = doc->writeSource();
  // --skeleton FILE[::NAME]: the model rigged onto that skeleton (app/rig.h), --bone-map for
  // names that differ.
  formats::Scene rigged;
  if (skeletonFile) {
    auto skeleton = loadDocument({QString::fromStdString(*skeletonFile) == QStringLiteral(":demo") ? kDemoPath
                                                                                                 : QString::fromStdString(*skeletonFile)},
                                 Textures::Skip);
    if (!skeleton) {
      std::fprintf(stderr, "marrow-cli: %s\n", skeleton.error().describe().c_str());
      return kLoadError;
    }
    anim::BoneNameMap map;
    if (const std::string* mapFile = args.option("--bone-map")) {
      auto m = loadBoneNameMap(QString::fromStdString(*mapFile));
      if (!m) {
        std::fprintf(stderr, "marrow-cli: %s\n", m.error().describe().c_str());
        return kLoadError;
      }
      map = std::move(m).value();
    }
    RigReport report;
    auto r = rigOnto(*doc->scene, *skeleton->scene, map, report);
    if (!r) {
      std::fprintf(stderr, "marrow-cli: %s: %s\n", skeletonFile->c_str(), r.error().message.c_str());
      return kLoadError;
    }
    rigged = std::move(r).value();
    std::fprintf(stderr, "rigged onto %s: %zu bones by name, %zu by the map, %zu loosely, %zu by their joint%s; %zu without a partner\n",
                 skeletonFile->c_str(), report.exact, report.mapped, report.loose, report.family,
                 report.sourceFamily.empty() ? "" : (" (" + report.sourceFamily + " onto " + report.targetFamily + ")").c_str(),
                 report.unmatched.size());
    printDiagnostics(rigged.diagnostics);
    source.scene = &rigged;
    source.archives = nullptr;  // records made from the rigged model, not the files' own
    source.addresses.clear();
  }
  formats::Scene fixed;
  if (args.has("--fix")) {
    std::vector<std::string> changes;
    fixed = formats::fixModel(*source.scene, *target, changes);
    source.scene = &fixed;
    for (const std::string& c : changes) std::fprintf(stderr, "fixed: %s\n", c.c_str());
    if (changes.empty()) std::fprintf(stderr, "fixed: nothing needed fixing for %s\n", std::string(target->name).c_str());
  }
  if (checked) printProblems(formats::checkModel(*source.scene, *target));

  const formats::WriteResult result = formats::writeModel(source, *out, options);
  printDiagnostics(result.diagnostics);
  if (result.status == formats::WriteResult::Status::Refused) return usageError("convert", result.refusal);
  if (result.status == formats::WriteResult::Status::Nothing) {
    std::fprintf(stderr, "marrow-cli: %s: %s\n", out->c_str(), result.refusal.c_str());
    return kNothing;
  }
  if (!result.ok()) {
    std::fprintf(stderr, "marrow-cli: %s\n", result.error.describe().c_str());
    return kLoadError;
  }
  std::vector<formats::FileToWrite> files;
  for (const auto& f : result.files) files.push_back({f.path, f.bytes});
  const formats::WrittenFiles written = formats::writeFilesAtomically(files);
  for (const auto& [path, size] : written.written)
    std::fprintf(stderr, "wrote %s (%zu bytes)\n", path.c_str(), size);
  if (!written.ok()) {
    std::fprintf(stderr, "marrow-cli: %s: could not be written (%s)\n", written.failedPath.c_str(),
                 written.reason.c_str());
    return kLoadError;
  }
  return kOk;
}

}  // namespace marrow::app::cli
