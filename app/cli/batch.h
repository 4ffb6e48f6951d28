// marrow-cli convert in batch (app/cli/batch.cpp): each model of many inputs on its own.
#pragma once

#include <string_view>

#include "app/cli/cli.h"

namespace marrow::app::cli {

// Whether a convert command is a batch: -o names a folder (ends with '/' or exists as one), or
// --to is given.
bool isBatchConvert(const Args& args);
int runBatchConvert(const Args& args);

// Shell-style patterns over '/'-separated paths: `*` and `?` within a name, `**` across folders,
// `**/` any number of whole folders, `[a-z]` / `[!a-z]` classes. Case-sensitive: callers fold case
// where the names do.
bool matchGlob(std::string_view pattern, std::string_view text);

}  // namespace marrow::app::cli
