#include "formats/dragonnest/pak_writer.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

namespace marrow::formats::dragonnest {
namespace {

constexpr std::uint64_t kMaxPakOffset = 0xFFFFFFFFull;  // offsets and sizes are uint32 (§2.2)

void putU32(std::ostream& out, std::uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);  // little-endian host (byte_reader.cpp)
  out.write(b, 4);
}

void putZeros(std::ostream& out, std::size_t n) {
  static const char zeros[256] = {};
  for (; n > 0; n -= std::min<std::size_t>(n, sizeof zeros))
    out.write(zeros, static_cast<std::streamsize>(std::min<std::size_t>(n, sizeof zeros)));
}

void putName(std::ostream& out, std::string_view name) {
  out.write(name.data(), static_cast<std::streamsize>(name.size()));
  putZeros(out, kPakNameSize - name.size());
}

// §2.1: magic, version, count, table offset, the "write pending" flag, zeros to 1024.
void putHeader(std::ostream& out, std::uint32_t version, std::uint32_t count,
               std::uint32_t tableOffset, bool pending) {
  putName(out, kPakMagic);
  putU32(out, version);
  putU32(out, count);
  putU32(out, tableOffset);
  out.put(pending ? 1 : 0);
  putZeros(out, kPakHeaderSize - kPakHeaderFields - 1);
}

std::vector<std::byte> bytesOf(const std::string& s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return {p, p + s.size()};
}

}  // namespace

Result<std::string> storedPakPath(std::string_view path) {
  const std::string normalized = normalizePakPath(path);
  const auto refuse = [&](std::string why) {
    return FormatError{std::string(path), "path", kNoOffset, std::move(why)};
  };
  if (normalized.empty()) return refuse("an empty name");
  std::string stored = "\\";
  std::size_t start = 0;
  while (start <= normalized.size()) {
    const auto slash = std::min(normalized.find('/', start), normalized.size());
    const std::string_view part = std::string_view(normalized).substr(start, slash - start);
    if (part.empty() || part == "." || part == "..")
      return refuse("the component '" + std::string(part) + "' is not a name");
    if (part.find('\0') != std::string_view::npos) return refuse("a NUL in the name");
    stored.append(part);
    if (slash < normalized.size()) stored.push_back('\\');
    start = slash + 1;
  }
  if (stored.size() >= kPakNameSize)
    return refuse("the stored name is " + std::to_string(stored.size()) +
                  " bytes; a pak holds at most 255");
  return stored;
}

void PakWriter::FreeCompressor::operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }

PakWriter::PakWriter(std::ostream& out, PakWriteOptions options) : out_(out), options_(options) {
  putHeader(out_, options_.version, 0, 0, /*pending=*/true);
  offset_ = kPakHeaderSize;
}

std::optional<FormatError> PakWriter::failed(std::string field, std::string message) {
  return FormatError{"pak", std::move(field), offset_, std::move(message)};
}

std::optional<FormatError> PakWriter::add(std::string_view path, std::span<const std::byte> data) {
  auto stored = storedPakPath(path);
  if (!stored) return stored.error();
  return addAs(*stored, data);
}

std::optional<FormatError> PakWriter::addAs(std::string_view path, std::span<const std::byte> data) {
  if (data.size() > kMaxPakOffset)
    return failed("size", std::string(path) + ": over 4 GiB, more than a pak entry can hold");
  if (!compressor_) compressor_.reset(libdeflate_alloc_compressor(std::clamp(options_.level, 0, 9)));
  if (!compressor_) return failed("data", std::string(path) + ": the compressor could not start (out of memory)");
  buffer_.resize(libdeflate_zlib_compress_bound(compressor_.get(), data.size()));
  const std::size_t packed =
      libdeflate_zlib_compress(compressor_.get(), data.data(), data.size(), buffer_.data(), buffer_.size());
  if (packed == 0) return failed("data", std::string(path) + ": it could not be compressed");
  return addStream(path, {reinterpret_cast<const std::byte*>(buffer_.data()), packed},
                   static_cast<std::uint32_t>(data.size()));
}

std::optional<FormatError> PakWriter::addStream(std::string_view storedName,
                                                std::span<const std::byte> stream,
                                                std::uint32_t originalSize) {
  if (finished_) return failed("entry", "the pak is already finished");
  if (storedName.empty() || storedName.size() >= kPakNameSize)
    return failed("path", "'" + std::string(storedName) + "': a name of 1 to 255 bytes is needed");
  if (stream.empty()) return failed("data", "an empty stream would mark the entry deleted");
  if (offset_ + stream.size() > kMaxPakOffset)
    return failed("data", "the pak would pass 4 GiB, past what its uint32 offsets reach");
  rows_.push_back({std::string(storedName), static_cast<std::uint32_t>(stream.size()), originalSize,
                   static_cast<std::uint32_t>(offset_)});
  out_.write(reinterpret_cast<const char*>(stream.data()),
             static_cast<std::streamsize>(stream.size()));
  offset_ += stream.size();
  if (!out_) return failed("data", "write failed");
  return std::nullopt;
}

std::optional<FormatError> PakWriter::finish() {
  if (finished_) return failed("table", "the pak is already finished");
  finished_ = true;
  if (offset_ + rows_.size() * kPakEntrySize > kMaxPakOffset)
    return failed("table", "the table would end past 4 GiB");
  const auto tableOffset = static_cast<std::uint32_t>(offset_);
  for (const Row& r : rows_) {  // §2.2
    putName(out_, r.name);
    putU32(out_, r.packedSize);
    putU32(out_, r.size);
    putU32(out_, r.packedSize);  // allocated: exactly the stream
    putU32(out_, r.offset);
    putZeros(out_, kPakEntrySize - kPakNameSize - 16);  // seed, checksum, reserved
  }
  // The header last, with the flag cleared: an interrupted write leaves a pak that is refused.
  out_.seekp(0);
  putHeader(out_, options_.version, static_cast<std::uint32_t>(rows_.size()), tableOffset,
            /*pending=*/false);
  out_.seekp(0, std::ios::end);
  if (!out_) return failed("table", "write failed");
  return std::nullopt;
}

Result<std::vector<std::byte>> writePak(std::span<const PakFile> files, PakWriteOptions options) {
  std::ostringstream out(std::ios::binary);
  PakWriter writer(out, options);
  for (const auto& f : files)
    if (auto e = f.storedName.empty() ? writer.add(f.path, f.data) : writer.addAs(f.storedName, f.data)) return *e;
  if (auto e = writer.finish()) return *e;
  return bytesOf(out.str());
}

std::optional<FormatError> writePakCopy(const Pak& base, std::span<const PakFile> files,
                                        std::ostream& out, PakWriteOptions options) {
  // A stored name is in the base's code page; a path is UTF-8.
  const auto keyOf = [&](const PakFile& f) {
    return f.storedName.empty() ? normalizePakPath(f.path) : normalizePakPath(f.storedName, base.codepage());
  };
  std::map<std::string, const PakFile*> byPath;  // normalised path → the new file
  for (const auto& f : files) byPath[keyOf(f)] = &f;
  PakWriter writer(out, options);
  for (const PakEntry& e : base.entries()) {
    if (e.deleted()) continue;
    const auto it = byPath.find(std::string(base.path(e)));
    if (it != byPath.end()) {
      if (!it->second) continue;  // replaced already (a duplicate path in the base)
      if (auto err = writer.addAs(base.storedPath(e), it->second->data)) return err;  // its stored name
      it->second = nullptr;
      continue;
    }
    if (!e.readable())
      return FormatError{
          base.name(), "entry " + std::to_string(e.index), e.dataOffset,
          "'" + std::string(base.storedPath(e)) + "' lies outside the file and cannot be copied"};
    if (auto err = writer.addStream(base.storedPath(e),
                                    base.bytes().subspan(e.dataOffset, e.packedSize), e.size))
      return err;
  }
  for (const auto& f : files)  // the new paths, in the order given
    if (const auto it = byPath.find(keyOf(f)); it->second == &f)
      if (auto err = f.storedName.empty() ? writer.add(f.path, f.data) : writer.addAs(f.storedName, f.data)) return err;
  return writer.finish();
}

Result<std::vector<std::byte>> writePakCopy(const Pak& base, std::span<const PakFile> files,
                                            PakWriteOptions options) {
  std::ostringstream out(std::ios::binary);
  if (auto e = writePakCopy(base, files, out, options)) return *e;
  return bytesOf(out.str());
}

}  // namespace marrow::formats::dragonnest
