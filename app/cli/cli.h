// marrow-cli: everything that needs no window. Exit codes: 0 ok, 1 load or write error, 2 usage,
// 3 nothing to convert (convert: no mesh and no skeleton in the inputs).
#pragma once

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <QStringList>

namespace marrow::app::cli {

inline constexpr int kOk = 0;
inline constexpr int kLoadError = 1;
inline constexpr int kUsage = 2;
inline constexpr int kNothing = 3;  // convert: the inputs hold nothing the output can hold

struct Args {
  std::string command;
  std::vector<std::string> inputs;
  std::map<std::string, std::string> options;  // "--clip" → "walk" (the last given)
  std::map<std::string, std::vector<std::string>> repeated;  // "--clip" → every value given, in order
  std::set<std::string> flags;                 // "--json"

  bool has(const std::string& flag) const { return flags.count(flag) > 0; }
  const std::string* option(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;
  QStringList inputPaths() const;  // ":demo" names the bundled demo character
};

// Prints "marrow-cli: message" and the command's usage line to stderr; returns kUsage.
int usageError(const std::string& command, const std::string& message);

int runInfo(const Args& args);
int runList(const Args& args);
int runPose(const Args& args);
int runConvert(const Args& args);
int runCheck(const Args& args);
int runRender(int argc, char** argv, const Args& args);
// Dragon Nest paks (app/cli/pak.cpp): `list` hands .pak inputs to runPakList.
bool isPakPath(const std::string& path);
int runPakList(const Args& args);
int runExtract(const Args& args);
int runPack(const Args& args);
// The format table (app/cli/formats.cpp): `marrow-cli formats`, and the list --help ends with.
int runFormats(const Args& args);
void printFormatList(std::FILE* out);
// The README's table of formats (`marrow-cli formats --markdown`; a test keeps the README's the same).
std::string formatsMarkdown();

int main(int argc, char** argv);

}  // namespace marrow::app::cli
