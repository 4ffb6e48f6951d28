// Dragon Nest legacy .ext tables (§7): readExt, the CSV export, the table's consistency.
#include "tests/fuzz/table_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::fuzzTable(data, size, "fuzz.ext", marrow::formats::dragonnest::readExt);
}
