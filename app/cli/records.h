// The records of archives of model files (BRF files: formats/io/vfs.h, Archive::holdsRecords),
// as `list` and `info` print them.
#pragma once

#include "formats/io/json_writer.h"
#include "formats/io/vfs.h"

namespace marrow::app::cli {

using formats::JsonWriter;

// Whether any archive holds records.
bool hasRecords(const formats::vfs::FileSystem& archives);
// A JSON array of every record: {"file", "kind", "name", …key figures of its kind}.
void writeRecords(JsonWriter& json, const formats::vfs::FileSystem& archives);
// Each file with its groups and one line per record.
void printRecords(const formats::vfs::FileSystem& archives);

}  // namespace marrow::app::cli
