// marrow-cli check --target GAME INPUT...: what the game cannot hold of the model, or will show
// wrong (formats/check.h); exit 0 when nothing is an error.
#include <cstdio>

#include "app/cli/common.h"
#include "formats/check.h"
#include "formats/io/json_writer.h"

namespace marrow::app::cli {

const formats::CheckTarget* checkTargetOption(const Args& args, const char* command) {
  const std::string* id = args.option("--target");
  if (!id) {
    usageError(command, "no target given (--target " + formats::checkTargetList() + ")");
    return nullptr;
  }
  const formats::CheckTarget* target = formats::findCheckTarget(*id);
  if (!target) usageError(command, "--target is " + formats::checkTargetList() + "; not '" + *id + "'");
  return target;
}

void printProblems(const std::vector<formats::Problem>& problems) {
  for (const formats::Problem& p : problems)
    std::fprintf(stderr, "%s: %s%s%s: %s%s%s\n", p.severity == formats::Severity::Error ? "error" : "warning",
                 p.code.c_str(), p.where.empty() ? "" : " ", p.where.c_str(), p.message.c_str(),
                 p.fix.empty() ? "" : p.fixable ? "; fix (--fix): " : "; fix: ", p.fix.c_str());
}

int runCheck(const Args& args) {
  const formats::CheckTarget* target = checkTargetOption(args, "check");
  if (!target) return kUsage;
  // Textures are looked for: one that is not found is a problem.
  auto doc = loadInputs(args, Textures::Find);
  if (!doc) return kLoadError;
  const auto problems = formats::checkModel(*doc->scene, *target);
  std::size_t errors = 0;
  for (const auto& p : problems) errors += p.severity == formats::Severity::Error;
  if (args.has("--json")) {
    formats::JsonWriter j;
    j.beginObject().field("target", std::string(target->id)).key("problems").beginArray();
    for (const auto& p : problems) {
      j.beginObject()
          .field("severity", p.severity == formats::Severity::Error ? "error" : "warning")
          .field("code", p.code)
          .field("where", p.where)
          .field("message", p.message)
          .field("fix", p.fix)
          .field("fixable", p.fixable)
          .endObject();
    }
    j.endArray().field("errors", static_cast<std::uint64_t>(errors))
        .field("warnings", static_cast<std::uint64_t>(problems.size() - errors))
        .endObject();
    std::printf("%s\n", j.str().c_str());
  } else {
    printProblems(problems);
    std::printf("%s: %zu error(s), %zu warning(s) for %s\n", doc->title().toStdString().c_str(), errors,
                problems.size() - errors, std::string(target->name).c_str());
  }
  return errors ? kLoadError : kOk;
}

}  // namespace marrow::app::cli
