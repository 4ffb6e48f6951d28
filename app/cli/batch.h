// marrow-cli convert in batch (app/cli/batch.cpp): each model of many inputs on its own.
#pragma once

#include <string_view>

#include "app/cli/cli.h"

namespace marrow::app::cli {

// Whether a convert command is a batch: -o names a folder (ends with '/' or exists as one), or
// --to is given.
bool isBatchConvert(const Args& args);
int runBatchConvert(const Args& args);

}  // namespace marrow::app::cli
