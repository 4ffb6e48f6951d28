// The scene snapshot (formats/snapshot/snapshot.h) the import child process hands to the viewer:
// readSnapshot, whose scenes are validated, and the round trip it promises (lossless: writing
// what was read gives the same bytes).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "formats/snapshot/snapshot.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const auto ctx = fuzz::context("fuzz.snapshot");
  fuzz::AllocationWatch watch;
  auto r = formats::readSnapshot(fuzz::asBytes(data, size), ctx);
  watch.check(size, "readSnapshot");
  if (!fuzz::succeeded(r, ctx.name, size)) return 0;
  fuzz::checkScene(*r, "readSnapshot");
  const auto written = formats::writeSnapshot(*r);
  if (written.size() != size || std::memcmp(written.data(), data, size) != 0)
    fuzz::finding("writeSnapshot(readSnapshot(x)) differs from x (" +
                  std::to_string(written.size()) + " bytes written, " + std::to_string(size) +
                  " read)");
  return 0;
}
