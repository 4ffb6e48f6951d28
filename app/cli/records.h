// The records of archives of model files (BRF files: formats/io/vfs.h, Archive::holdsRecords),
// as `list` and `info` print them.
#pragma once

#include "formats/io/json_writer.h"
#include "formats/io/vfs.h"

namespace marrow::app::cli {

using formats::JsonWriter;

// Whether any archive holds records.
bool hasRecords(const formats::vfs::FileSystem& archives);
// A JSON array of every record (that matches `only`, when given): {"file", "kind", "name", …key
// figures of its kind}.
void writeRecords(JsonWriter& json, const formats::vfs::FileSystem& archives,
                  const formats::vfs::Query* only = nullptr);
// Each file with its groups and one line per record (files and groups without a match left out).
void printRecords(const formats::vfs::FileSystem& archives, const formats::vfs::Query* only = nullptr);

}  // namespace marrow::app::cli
