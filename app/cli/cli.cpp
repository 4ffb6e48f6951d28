#include "app/cli/cli.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "app/cli/batch.h"
#include "app/cli/common.h"
#include "app/document.h"
#include "formats/check.h"
#include "formats/write.h"
#include "formats/snapshot/snapshot.h"

namespace marrow::app::cli {
namespace {

struct CommandSpec {
  const char* name;
  std::string usage;
  std::vector<std::string> valueOptions;
  std::vector<std::string> flagOptions;
};

const std::vector<CommandSpec>& commands() {
  static const std::vector<CommandSpec> specs = {
      {"info", "info INPUT... [--animations FILE[,FILE...]] [--bone-map FILE] [--encoding CODEPAGE] [--partial] "
       "[--as-frames [--frame-rate F]] [--json]",
       {"--animations", "--bone-map", "--encoding", "--frame-rate"}, {"--json", "--partial", "--as-frames"}},
      {"list", "list INPUT...|ARCHIVE.pak... [--json] [--find TEXT] [--kind KIND] [--encoding CODEPAGE]",
       {"--find", "--kind", "--encoding"}, {"--json"}},
      {"pose",
       "pose INPUT... [--clip NAME|INDEX|none] [--time SECONDS] [--space native|display] "
       "[--mode once|loop|ping-pong] [--level N] [--animations FILE[,FILE...]] [--bone-map FILE] "
       "[--encoding CODEPAGE] [--as-frames [--frame-rate F]] [--springs] [--json]",
       {"--clip", "--time", "--space", "--mode", "--level", "--animations", "--bone-map", "--encoding", "--frame-rate"},
       {"--json", "--as-frames", "--springs"}},
      {"convert",
       "convert INPUT... -o OUTPUT.(" + formats::outputExtensions() + ") [--version N] "
       "[--xml] [--clip NAME|INDEX]... [--material NAME|INDEX] [--encoding CODEPAGE] [--partial] [--fix]\n"
       "                     [--skeleton FILE[::NAME] [--bone-map FILE]] [--as-frames [--frame-rate F]]\n"
       "  marrow-cli convert INPUT|FOLDER|PATTERN... -o FOLDER/ [--to glb|gltf|omf|cfg] [-j N] "
       "[--timeout SECONDS] [--quiet] [--json]",
       {"-o", "--output", "--version", "--clip", "--material", "--to", "-j", "--jobs", "--timeout",
        "--encoding", "--skeleton", "--bone-map", "--frame-rate"},
       {"--xml", "--quiet", "--json", "--partial", "--fix", "--as-frames"}},
      {"check", "check --target warband|mb1011|dragonnest|cal3d INPUT... [--encoding CODEPAGE] "
       "[--as-frames [--frame-rate F]] [--json]",
       {"--target", "--encoding", "--frame-rate"}, {"--json", "--as-frames"}},
      {"render",
       "render INPUT... -o OUT.png [--clip NAME|INDEX|none] [--time SECONDS] [--size WxH] "
       "[--mode once|loop|ping-pong] [--yaw DEG] [--pitch DEG] [--lod 0..1] [--level N] [--wireframe] "
       "[--no-grid] [--skeleton] [--bone NAME] [--no-bodies] [--frames N] [--fps F] "
       "[--animations FILE[,FILE...]] [--bone-map FILE] [--encoding CODEPAGE] [--as-frames [--frame-rate F]] "
       "[--springs]",
       {"-o", "--output", "--clip", "--time", "--size", "--yaw", "--pitch", "--bone", "--mode",
        "--lod", "--level", "--frames", "--fps", "--animations", "--bone-map", "--encoding", "--frame-rate"},
       {"--wireframe", "--no-grid", "--no-skeleton", "--skeleton", "--no-bodies", "--as-frames", "--springs"}},
      {"extract",
       "extract ARCHIVE.pak... -o DIR [PATH|FOLDER...] [-j N] [--quiet] [--encoding CODEPAGE]",
       {"-o", "--output", "--encoding", "-j", "--jobs"},
       {"--quiet"}},
      {"pack", "pack FOLDER -o OUT.pak [--base IN.pak] [--level 0..9] [--encoding CODEPAGE]",
       {"-o", "--output", "--base", "--level", "--encoding"},
       {}},
      {"formats", "formats [--json|--markdown|--mime-types]", {}, {"--json", "--markdown", "--mime-types"}},
  };
  return specs;
}

const CommandSpec* findCommand(const std::string& name) {
  for (const auto& c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

void printHelp(std::FILE* out) {
  std::fprintf(out,
               "marrow-cli: inspect, pose, convert and render skinned models without a window\n\n"
               "usage:\n");
  for (const auto& c : commands()) std::fprintf(out, "  marrow-cli %s\n", c.usage.c_str());
  std::fprintf(out,
               "\nA model may be given as several INPUTs (a skeleton, its meshes, its clips).\n"
               "FILE.brf::RECORD names one record of a BRF file (a mesh, a skeleton, an\n"
               "animation, a body, a material); the model is the records named, with what they need.\n"
               "':demo' names the bundled demo character.\n"
               "ARCHIVE.pak::path/inside opens an entry of a Dragon Nest archive; the .pak files\n"
               "given form one file system, where a skin finds its mesh and textures by name.\n"
               "Several Dragon Nest .pak archives form one file system, searched in byte-wise\n"
               "order of their paths (00Resource.pak overrides Resource00.pak).\n"
               "convert with -o FOLDER/ converts each model on its own: every model file in a\n"
               "FOLDER, files matching a PATTERN ('models/**/*.dae'), ARCHIVE.pak::PATTERN\n"
               "('char/**/*.skn'; an archive alone: its skins), FILE.brf::PATTERN (its meshes);\n"
               "-j N runs N at once (default: one per core); a failure is reported and the rest go on.\n"
               "--partial (info, convert): a damaged file gives what was read before the damage\n"
               "(a BRF's records up to the one the damage is in), the error among the diagnostics;\n"
               "without it a damaged file is a load error. --encoding CODEPAGE (CP949, GB18030,\n"
               "BIG5, CP932, UTF-8) names the code page of names in paks and Dragon Nest files.\n"
               "--as-frames: the INPUTs are one mesh's shapes at successive times (an OBJ sequence,\n"
               "NAME_0001.obj …), or one INPUT's meshes NAME<number> are: joined into one mesh\n"
               "with a morph target per frame and a clip that plays them (a BRF's vertex\n"
               "animation); the numbers count frames at --frame-rate F (default 30, BRF's).\n"
               "Exit codes: 0 ok, 1 load or write error (in a batch: any model failed), 2 usage,\n"
               "3 nothing to convert (no mesh and no skeleton; a batch skips such files).\n");
  printFormatList(out);
}

// The viewer's import process (app/document.h, AssimpImport): not for people, so not in the
// help. `marrow-cli import-child [--no-textures] [--] INPUT [ARCHIVE.pak...]` reads the one model
// INPUT (a file, or ARCHIVE.pak::entry with the paks of its file system) in this process and
// writes the scene as a snapshot (formats/snapshot/snapshot.h) to stdout, its diagnostics to stderr;
// on failure an error snapshot to stdout, the one-line error to stderr and exit code 1.
constexpr const char* kImportChildUsage =
    "import-child [--no-textures] [--] INPUT [ARCHIVE.pak...]  (internal: the viewer's import "
    "process; writes a binary scene snapshot to stdout)";

bool writeAll(const std::vector<std::byte>& bytes) {
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size();
  return std::fflush(stdout) == 0 && ok;
}

int runImportChild(int argc, char** argv) {
  Textures textures = Textures::Find;
  QStringList inputs;
  bool optionsEnd = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (!optionsEnd && a == "--") {
      optionsEnd = true;
    } else if (!optionsEnd && a == "--no-textures") {
      textures = Textures::Skip;
    } else if (!optionsEnd && a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "marrow-cli: unknown option '%s'\nusage: marrow-cli %s\n", a.c_str(),
                   kImportChildUsage);
      return kUsage;
    } else {
      inputs << QString::fromStdString(a);
    }
  }
  if (inputs.isEmpty()) {
    std::fprintf(stderr, "marrow-cli: no INPUT given\nusage: marrow-cli %s\n", kImportChildUsage);
    return kUsage;
  }
  if (isatty(STDOUT_FILENO)) {
    std::fprintf(stderr, "marrow-cli: import-child writes a binary snapshot for the viewer; "
                         "redirect its standard output\n");
    return kUsage;
  }
  auto scene = readImportInput(inputs, textures);
  std::vector<std::byte> bytes;
  if (scene) {
    try {
      bytes = formats::writeSnapshot(*scene);
    } catch (const std::exception& e) {  // a vector of 2^32 elements, or no memory for the copy
      scene = formats::FormatError{inputs.front().toStdString(), "", formats::kNoOffset,
                                   std::string("the model cannot be handed over: ") + e.what()};
    }
  }
  if (!scene) {
    std::fprintf(stderr, "marrow-cli: %s\n", scene.error().describe().c_str());
    writeAll(formats::writeSnapshotError(scene.error()));
    return kLoadError;
  }
  printDiagnostics(scene->diagnostics);
  if (!writeAll(bytes)) {
    std::fprintf(stderr, "marrow-cli: could not write the snapshot to the standard output\n");
    return kLoadError;
  }
  return kOk;
}

}  // namespace

const std::string* Args::option(const std::string& name) const {
  const auto it = options.find(name);
  return it == options.end() ? nullptr : &it->second;
}

std::vector<std::string> Args::values(const std::string& name) const {
  const auto it = repeated.find(name);
  return it == repeated.end() ? std::vector<std::string>{} : it->second;
}

QStringList Args::inputPaths() const {
  QStringList out;
  for (const auto& i : inputs)
    out << (i == ":demo" ? kDemoPath : QString::fromStdString(i));
  return out;
}

int usageError(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "marrow-cli: %s\n", message.c_str());
  if (const auto* c = findCommand(command))
    std::fprintf(stderr, "usage: marrow-cli %s\n", c->usage.c_str());
  else
    printHelp(stderr);
  return kUsage;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    printHelp(stderr);
    return kUsage;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    printHelp(stdout);
    return kOk;
  }
  if (command == "import-child") return runImportChild(argc, argv);
  const CommandSpec* spec = findCommand(command);
  if (!spec) return usageError("", "unknown command '" + command + "'");

  Args args;
  args.command = command;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("usage: marrow-cli %s\n", spec->usage.c_str());
      return kOk;
    }
    std::string value;
    bool hasValue = false;
    if (a.size() > 2 && a.rfind("-j", 0) == 0 && std::isdigit(static_cast<unsigned char>(a[2]))) {  // -j4
      value = a.substr(2);
      a = "-j";
      hasValue = true;
    } else if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {  // --time=0.5
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      hasValue = true;
    }
    const auto isIn = [&](const std::vector<std::string>& v) {
      return std::find(v.begin(), v.end(), a) != v.end();
    };
    if (isIn(spec->valueOptions)) {
      if (!hasValue) {
        if (i + 1 >= argc) return usageError(command, a + " needs a value");
        value = argv[++i];
      }
      const std::string name = a == "--output" ? "-o" : a == "--jobs" ? "-j" : a;
      args.options[name] = value;
      args.repeated[name].push_back(value);
    } else if (isIn(spec->flagOptions) && !hasValue) {
      args.flags.insert(a);
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      return usageError(command, "unknown option '" + a + "'");
    } else {
      args.inputs.push_back(a);
    }
  }
  if (command == "formats") {
    if (!args.inputs.empty()) return usageError(command, "formats takes no INPUT");
    return runFormats(args);
  }
  if (args.inputs.empty()) return usageError(command, "no INPUT given");

  if (command == "info") return runInfo(args);
  if (command == "list") return runList(args);
  if (command == "pose") return runPose(args);
  if (command == "convert") {
    if (isBatchConvert(args)) {
      if (args.has("--fix") || args.option("--skeleton") || args.has("--as-frames"))
        return usageError(command, "--fix, --skeleton and --as-frames are for one model written to a file (-o FILE)");
      return runBatchConvert(args);
    }
    for (const char* batchOnly : {"--to", "-j", "--timeout"})
      if (args.option(batchOnly))
        return usageError(command, std::string(batchOnly) + " is for batch conversion (-o FOLDER/)");
    for (const char* batchOnly : {"--quiet", "--json"})
      if (args.has(batchOnly))
        return usageError(command, std::string(batchOnly) + " is for batch conversion (-o FOLDER/)");
    return runConvert(args);
  }
  if (command == "check") return runCheck(args);
  if (command == "extract") return runExtract(args);
  if (command == "pack") return runPack(args);
  return runRender(argc, argv, args);
}

}  // namespace marrow::app::cli
