// The Dragon Nest table targets: a table read, made CSV (as the GUI exports it), and validated
// as the only content of a scene.
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/dragonnest/table.h"
#include "tests/fuzz/fuzz_support.h"

namespace marrow::fuzz {

template <class Read>
int fuzzTable(const std::uint8_t* data, std::size_t size, const char* name, Read read) {
  const auto ctx = context(name);
  AllocationWatch watch;
  auto r = read(asBytes(data, size), ctx);
  watch.check(size, name);
  if (!succeeded(r, name, size)) return 0;
  const formats::Table& t = *r;
  if (!t.rowIds.empty() && t.rowIds.size() != t.rows.size())
    finding("a table with " + std::to_string(t.rows.size()) + " rows and " +
            std::to_string(t.rowIds.size()) + " row ids");
  for (const auto& row : t.rows)
    if (row.size() != t.columns.size())
      finding("a table row of " + std::to_string(row.size()) + " cells for " +
              std::to_string(t.columns.size()) + " columns");
  (void)formats::tableCsv(t);
  formats::Scene scene;
  scene.tables.push_back(std::move(r).value());
  checkScene(scene, name);
  return 0;
}

}  // namespace marrow::fuzz
