// BRF record layer (formats/brf/document_read.cpp): brf::parse. A document that parses is
// written back byte for byte (document.h: "writes what parse read, byte for byte"), so
// write(parse(x)) == x is checked too.
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
  if (!fuzz::succeeded(doc, ctx.name, size)) return 0;
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
