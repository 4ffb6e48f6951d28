// Data tables of the model (Scene::tables): their column types, and the table as CSV.
#pragma once

#include <cstdint>
#include <string>

#include "formats/model/scene.h"

namespace marrow::formats {

// Column type codes (TableColumn::type). Dragon Nest's DNT/EXT codes (dragonnest.md §7, §8),
// which the model adopts as its own.
enum TableType : std::uint8_t { kNa = 0, kText = 1, kBool = 2, kInt = 3, kPercent = 4, kFloat = 5 };

// "text", "bool", "int", "percent (float)", "float", or "type N".
std::string tableTypeName(std::uint8_t type);

// The table as CSV (RFC 4180): a header row ("_RowID" and the column names), then one line per
// row; floats in the shortest form that reads back to the same value.
std::string tableCsv(const Table& table);

}  // namespace marrow::formats
