// Dragon Nest paks for tests, written by the project's own writer (formats/dragonnest/
// pak_writer.h): entries by path as the writer stores them, and what a packer may leave in a
// table that the writer will not make itself, for the readers and the viewer to cope with: names
// stored exactly as given (mixed case, `..\evil.txt`, `C:\evil.txt`), a declared size the stream
// inflates past, deleted slots. Bytes no writer makes (a wrong count, a short header, overlapping
// streams) are patched or built where a test needs them.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "formats/dragonnest/pak_writer.h"
#include "tests/support/bytes.h"

namespace marrow::testing {

class PakBuilder {
 public:
  explicit PakBuilder(formats::dragonnest::PakWriteOptions options = {}) : options_(options) {}

  // `data` under `path` as the writer stores it (storedPakPath: backslashes, lower case).
  PakBuilder& add(std::string_view path, std::vector<std::byte> data) {
    entries_.push_back({Kind::Path, std::string(path), std::move(data), std::nullopt});
    return *this;
  }
  PakBuilder& add(std::string_view path, std::string_view text) {
    return add(path, ::marrow::testing::bytes(text));
  }

  // `data`, compressed as the writer compresses, under `storedName` exactly as given; with
  // `declaredSize`, the table says the entry inflates to that many bytes instead.
  PakBuilder& addStored(std::string_view storedName, std::vector<std::byte> data,
                        std::optional<std::uint32_t> declaredSize = std::nullopt) {
    entries_.push_back({Kind::Stored, std::string(storedName), std::move(data), declaredSize});
    return *this;
  }
  PakBuilder& addStored(std::string_view storedName, std::string_view text,
                        std::optional<std::uint32_t> declaredSize = std::nullopt) {
    return addStored(storedName, ::marrow::testing::bytes(text), declaredSize);
  }

  // A deleted slot (§2.3: compressed size 0) named `storedName`. The writer refuses to write one:
  // it is written as an entry of one byte whose row then gets sizes and offset 0.
  PakBuilder& addDeleted(std::string_view storedName) {
    entries_.push_back({Kind::Deleted, std::string(storedName), {}, std::nullopt});
    return *this;
  }

  // The pak; throws std::runtime_error with the writer's error when it refuses an entry.
  std::vector<std::byte> bytes() const {
    namespace dn = formats::dragonnest;
    std::ostringstream out(std::ios::binary);
    dn::PakWriter writer(out, options_);
    for (const Entry& e : entries_) {
      std::optional<formats::FormatError> error;
      if (e.kind == Kind::Path) {
        error = writer.add(e.name, e.data);
      } else if (e.kind == Kind::Stored) {
        const std::vector<std::byte> stream = compressed(e.data);
        error = writer.addStream(
            e.name, stream, e.declaredSize.value_or(static_cast<std::uint32_t>(e.data.size())));
      } else {
        const std::byte placeholder[1] = {std::byte{0}};
        error = writer.addStream(e.name, placeholder, 0);
      }
      if (error) throw std::runtime_error("PakBuilder: " + error->describe());
    }
    if (auto error = writer.finish()) throw std::runtime_error("PakBuilder: " + error->describe());
    const std::string s = out.str();
    std::vector<std::byte> pak(reinterpret_cast<const std::byte*>(s.data()),
                               reinterpret_cast<const std::byte*>(s.data()) + s.size());
    const std::size_t table = readU32(pak, 264);  // §2.1: the table offset
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].kind != Kind::Deleted) continue;
      const std::size_t row = table + i * dn::kPakEntrySize + dn::kPakNameSize;
      for (std::size_t field = 0; field < 4; ++field)  // packed, size, allocated, offset
        putU32(pak, row + 4 * field, 0);
    }
    return pak;
  }

 private:
  enum class Kind { Path, Stored, Deleted };
  struct Entry {
    Kind kind;
    std::string name;
    std::vector<std::byte> data;
    std::optional<std::uint32_t> declaredSize;
  };

  std::vector<std::byte> compressed(const std::vector<std::byte>& data) const {
    uLongf n = compressBound(static_cast<uLong>(data.size()));
    std::vector<std::byte> out(n);
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &n,
                  reinterpret_cast<const Bytef*>(data.data()), static_cast<uLong>(data.size()),
                  options_.level) != Z_OK)
      throw std::runtime_error("PakBuilder: zlib could not compress an entry");
    out.resize(n);
    return out;
  }

  static std::uint32_t readU32(const std::vector<std::byte>& b, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k)
      v |= std::to_integer<std::uint32_t>(b.at(at + k)) << (8 * k);
    return v;
  }

  formats::dragonnest::PakWriteOptions options_;
  std::vector<Entry> entries_;
};

}  // namespace marrow::testing
