#include "formats/io/read_context.h"

namespace marrow::formats {

std::optional<FoundFile> fetchNamedFile(const ReadContext& ctx, const std::string& name) {
  if (!ctx.fetchTextures || !ctx.resolve || name.empty()) return std::nullopt;
  if (auto bytes = ctx.resolve(name)) return FoundFile{name, std::move(*bytes)};
  const auto slash = name.find_last_of("/\\");
  if (slash == std::string::npos || slash + 1 == name.size()) return std::nullopt;
  const std::string base = name.substr(slash + 1);
  if (auto bytes = ctx.resolve(base)) return FoundFile{base, std::move(*bytes)};
  return std::nullopt;
}

}  // namespace marrow::formats
