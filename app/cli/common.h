// Helpers the CLI commands share: loading, clip choice, diagnostics output.
#pragma once

#include <optional>
#include <string>

#include "app/cli/cli.h"
#include "formats/io/json_writer.h"
#include "app/document.h"
#include "formats/check.h"
#include "render/anim/pose.h"

namespace marrow::app::cli {

using formats::JsonWriter;

// --encoding NAME (an iconv code page: CP949, GB18030, BIG5, CP932, UTF-8; any case), as the
// code page names are compared under; "" when not given; nothing (after printing why) when iconv
// does not know it.
std::optional<std::string> encodingOption(const Args& args);

// Loads the inputs as one model (--encoding applied); prints the error ("marrow-cli: file: field at offset: ...")
// to stderr and returns nothing when it fails.
std::optional<Document> loadInputs(const Args& args, Textures textures = Textures::Skip);

// Resolves --clip (a name, an index, or "none"); defaults to the first clip when the model has
// any. Returns false (after printing why, with the clips there are) when the model has no such
// clip: a usage error.
bool chooseClip(const Args& args, const formats::Scene& scene, int& clipIndex);

// --level N: of level meshes (BRF NAME.lodN, formats/model/lod.h), the level drawn (default 0);
// `drawn` gets one flag per mesh. False (after printing why) when N is not a level 0 to 9.
bool levelOption(const Args& args, const formats::Scene& scene, std::vector<bool>& drawn);

// Parses --mode (once, loop, ping-pong; default once); false (after printing why) when unknown.
bool playModeOption(const Args& args, anim::PlayMode& mode);

// -j N: how many at once, a whole number from 1 to `most` (`what`: "processes", "threads");
// `given` is left as it is when -j is absent. False (after printing why) when it is not such a number.
bool jobsOption(const Args& args, unsigned most, const char* what, unsigned& given);

// Parses a number option; false (after printing why) when present but not a number.
bool numberOption(const Args& args, const std::string& name, double& out);

void writeDiagnostics(JsonWriter& json, const formats::Diagnostics& diagnostics);
void printDiagnostics(const formats::Diagnostics& diagnostics);  // to stderr, one per line
// A game's problems with a model (formats/check.h), to stderr, one per line.
void printProblems(const std::vector<formats::Problem>& problems);

}  // namespace marrow::app::cli
