// A ReadContext for readers under test: a file name (what errors name), optionally the files a
// reader may ask for beside it (ctx.resolve).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/io/read_context.h"
#include "tests/support/bytes.h"

namespace marrow::testing {

inline formats::ReadContext named(std::string name) {
  formats::ReadContext ctx;
  ctx.name = std::move(name);
  return ctx;
}

// `name`, with `files` (name → contents) as the only other files a reader finds.
inline formats::ReadContext namedWithFiles(std::string name,
                                           std::map<std::string, std::string> files) {
  formats::ReadContext ctx = named(std::move(name));
  ctx.resolve = [files = std::move(files)](
                    const std::string& wanted) -> std::optional<std::vector<std::byte>> {
    const auto it = files.find(wanted);
    if (it == files.end()) return std::nullopt;
    return bytes(it->second);
  };
  return ctx;
}

}  // namespace marrow::testing
