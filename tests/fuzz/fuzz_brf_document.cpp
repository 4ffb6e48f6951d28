// BRF record layer (formats/brf/document_read.cpp): brf::parse. A document that parses is
// written back byte for byte (document.h: "writes what parse read, byte for byte"), so
// write(parse(x)) == x is checked too; one that does not is read in part, and what is kept must
// write and read back.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "formats/brf/document.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const auto ctx = fuzz::context("fuzz.brf");
  fuzz::AllocationWatch watch;
  auto doc = formats::brf::parse(fuzz::asBytes(data, size), ctx);
  watch.check(size, "brf::parse");
  if (!fuzz::succeeded(doc, ctx.name, size)) {
    // Read in part (ReadContext::partial): what came before the damage, a document the writer
    // writes and the reader reads back whole, to the same bytes.
    auto partialCtx = ctx;
    partialCtx.partial = true;
    fuzz::AllocationWatch partWatch;
    auto part = formats::brf::parse(fuzz::asBytes(data, size), partialCtx);
    partWatch.check(size, "brf::parse (partial)");
    if (!part) return 0;  // out of memory or a count too large to hold: said as an error
    if (!part->damage) fuzz::finding("a partial read of a damaged file says no damage");
    if (!formats::brf::orderMatchesRecords(*part)) fuzz::finding("a partial read's spans do not match its records");
    const auto bytes = formats::brf::write(*part);
    auto again = formats::brf::parse(bytes, ctx);
    if (!again) fuzz::finding("what a partial read kept does not read back: " + again.error().describe());
    else if (formats::brf::write(*again) != bytes) fuzz::finding("what a partial read kept does not write back the same");
    return 0;
  }
  const auto written = formats::brf::write(*doc);
  if (written.size() != size || std::memcmp(written.data(), data, size) != 0) {
    std::size_t at = 0;
    while (at < size && at < written.size() && written[at] == std::byte{data[at]}) ++at;
    fuzz::finding("brf::write(parse(x)) differs from x at byte " + std::to_string(at) + " (" +
                  std::to_string(written.size()) + " bytes written, " + std::to_string(size) +
                  " read)");
  }
  return 0;
}
