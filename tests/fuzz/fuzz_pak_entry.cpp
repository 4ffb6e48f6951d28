// Dragon Nest .pak entry inflate (§2.3): the input is one entry's stored data, framed as a pak
// our writer makes (PakWriter::addStream) and read back with Pak::read under tight limits.
// Bytes 0–3: the declared original size (little-endian); byte 4: bit 0 picks pak version 10;
// the rest is the stream as stored (zlib, or raw when its size equals the declared one).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "formats/dragonnest/pak.h"
#include "formats/dragonnest/pak_writer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  using namespace marrow::formats::dragonnest;
  if (size < 6) return 0;
  std::uint32_t declared;
  std::memcpy(&declared, data, 4);
  PakWriteOptions options;
  options.version = (data[4] & 1) ? kPakLegacyVersion : kPakVersion;
  const auto stream = fuzz::asBytes(data + 5, size - 5);

  std::ostringstream out;
  PakWriter writer(out, options);
  if (auto e = writer.addStream("\\fuzz\\entry.bin", stream, declared))
    fuzz::finding("PakWriter::addStream refused a stream: " + e->describe());
  if (auto e = writer.finish()) fuzz::finding("PakWriter::finish failed: " + e->describe());
  const std::string bytes = out.str();
  const auto span = std::as_bytes(std::span(bytes.data(), bytes.size()));

  auto pak = Pak::parse(span, "fuzz.pak");
  if (!pak) fuzz::finding("a pak our writer made does not parse: " + pak.error().describe());
  if (pak->entries().size() != 1) fuzz::finding("the pak does not have its one entry");
  const PakEntry& e = pak->entries().front();
  if (!e.readable()) return 0;
  fuzz::AllocationWatch watch;
  auto inflated = pak->read(e, fuzz::tightLimits());
  watch.check(bytes.size(), "Pak::read");
  if (!fuzz::succeeded(inflated, "fuzz.pak::\\fuzz\\entry.bin", bytes.size())) return 0;
  if (inflated->size() != declared)
    fuzz::finding("the entry inflated to " + std::to_string(inflated->size()) +
                  " bytes, not its declared " + std::to_string(declared));
  return 0;
}
