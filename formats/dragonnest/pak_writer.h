// Writing Dragon Nest `.pak` archives (specs/dragonnest.md §2) as the engine's packer does: a
// 1024-byte header, each file one zlib stream, the entry table after the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/dragonnest/pak.h"
#include "formats/io/result.h"

struct libdeflate_compressor;

namespace marrow::formats::dragonnest {

struct PakFile {
  std::string path;  // any separators and case: stored as storedPakPath(path)
  std::vector<std::byte> data;
  // When set, the stored name exactly (a name in a legacy code page, formats/io/codepage.h),
  // instead of storedPakPath(path); matched against a base's entries by it.
  std::string storedName{};
};

struct PakWriteOptions {
  int level = 1;                        // §2.3: the engine packs with compress2(level 1)
  std::uint32_t version = kPakVersion;  // 11, or 10 (the table is at the end either way)
};

// The name as the packer stores it (§2.2): backslashes, a leading '\', lower case. Refuses
// empty names, empty, "." or ".." components, and names longer than 255 bytes.
Result<std::string> storedPakPath(std::string_view path);

// Writes a pak to a seekable stream, entry by entry, so that a folder of any size is packed
// without holding it. The header's "write pending" flag (§2.1) stays set until finish().
class PakWriter {
 public:
  explicit PakWriter(std::ostream& out, PakWriteOptions options = {});

  // Compresses `data` and adds it under storedPakPath(path).
  std::optional<FormatError> add(std::string_view path, std::span<const std::byte> data);
  // Compresses `data` and adds it under `storedName` exactly as given.
  std::optional<FormatError> addAs(std::string_view storedName, std::span<const std::byte> data);
  // Adds a zlib stream as it is, under `storedName` exactly as given (copying from a pak).
  std::optional<FormatError> addStream(std::string_view storedName,
                                       std::span<const std::byte> stream,
                                       std::uint32_t originalSize);
  // Writes the table and the final header. Nothing may be added afterwards.
  std::optional<FormatError> finish();

  std::size_t count() const { return rows_.size(); }

 private:
  struct Row {
    std::string name;
    std::uint32_t packedSize, size, offset;
  };
  std::optional<FormatError> failed(std::string field, std::string message);

  std::ostream& out_;
  PakWriteOptions options_;
  std::uint64_t offset_ = 0;
  std::vector<Row> rows_;
  std::vector<unsigned char> buffer_;  // compression scratch
  // libdeflate at the options' level (whole buffers, about twice zlib's speed; zlib reads its
  // streams): made on the first entry.
  struct FreeCompressor {
    void operator()(libdeflate_compressor* c) const;
  };
  std::unique_ptr<libdeflate_compressor, FreeCompressor> compressor_;
  bool finished_ = false;
};

// A whole pak in memory.
Result<std::vector<std::byte>> writePak(std::span<const PakFile> files,
                                        PakWriteOptions options = {});

// A copy of `base` with `files` added, or replacing the live entry of the same path in its
// place, under that entry's stored name (its case, its code page). The other live entries are
// copied stream for stream under their stored names; deleted slots are left out.
std::optional<FormatError> writePakCopy(const Pak& base, std::span<const PakFile> files,
                                        std::ostream& out, PakWriteOptions options = {});
Result<std::vector<std::byte>> writePakCopy(const Pak& base, std::span<const PakFile> files,
                                            PakWriteOptions options = {});

}  // namespace marrow::formats::dragonnest
