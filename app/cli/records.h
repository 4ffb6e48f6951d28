// The records of archive files (BRF), as `list` and `info` print them.
#pragma once

#include <span>

#include "app/cli/json_writer.h"
#include "formats/brf/brf.h"

namespace marrow::app::cli {

// A JSON array of every record: {"file", "kind", "name", …key figures of its kind}.
void writeRecords(JsonWriter& json, std::span<const formats::brf::Source> sources);
// One line per record.
void printRecords(std::span<const formats::brf::Source> sources);

}  // namespace marrow::app::cli
