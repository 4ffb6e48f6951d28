// Inflating one pak entry (§2.3) with its declared size as a hard cap: whole, with libdeflate
// (the sizes are known, and it inflates two to three times as fast as zlib), or in pieces with
// zlib for an entry too large to hold (extraction). zlib also says where a damaged stream fails.
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <optional>

#include "formats/dragonnest/pak.h"
#include "formats/io/address.h"

namespace marrow::formats::dragonnest {
namespace {

// Deflate encodes at most 258 bytes in 2 bits: no zlib stream inflates to more than 1032 bytes
// per input byte. A larger declared size is a lie, refused before anything is allocated.
constexpr std::uint64_t kDeflateMaxRatio = 1032;
// What zlib allocates besides the output while inflating (its state, about 7 KiB, and the
// 32 KiB window), rounded up: it counts against the same allocation limit.
constexpr std::uint64_t kInflateState = 64 << 10;

class Inflater {
 public:
  Inflater() { ok_ = inflateInit(&z_) == Z_OK; }
  ~Inflater() {
    if (ok_) inflateEnd(&z_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  bool ok() const { return ok_; }
  z_stream& z() { return z_; }

 private:
  z_stream z_{};
  bool ok_ = false;
};

// A libdeflate decompressor per thread (one is not safe to share), made on first use.
libdeflate_decompressor* decompressor() {
  struct Owner {
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    ~Owner() { libdeflate_free_decompressor(d); }
  };
  thread_local Owner owner;
  return owner.d;
}

}  // namespace

// What goes wrong with an entry before its stream is read: deleted, outside the file.
std::optional<FormatError> Pak::unreadable(const PakEntry& e, const std::function<std::string()>& file) const {
  if (e.deleted()) return FormatError{file(), "entry", kNoOffset, "a deleted entry (compressed size 0)"};
  if (e.flags & PakEntry::OutOfBounds)
    return FormatError{file(), "data", e.dataOffset,
                       std::to_string(e.packedSize) + " bytes at " + std::to_string(e.dataOffset) +
                           " end past the file's " + std::to_string(data_.size()) + " bytes"};
  return std::nullopt;
}

namespace {

// §2.3 defensive: a packer built to store data uncompressed writes equal sizes and no zlib
// header; the first byte of a zlib stream from the engine is 0x78.
bool storedRaw(const PakEntry& e, std::span<const std::byte> src) {
  return e.packedSize == e.size && std::to_integer<unsigned>(src[0]) != 0x78;
}

// Inflates `src` with zlib into pieces of `out` (refilled by `flush` when full), the entry's
// declared size a hard cap; the error, naming where in the file the stream fails, or nothing.
std::optional<FormatError> inflateZlib(const PakEntry& e, std::span<const std::byte> src, const std::string& file,
                                       std::span<std::byte> out, const std::function<bool(std::size_t)>& flush) {
  const auto fail = [&](std::string field, std::uint64_t offset, std::string message) {
    return FormatError{file, std::move(field), offset, std::move(message)};
  };
  Inflater inflater;
  if (!inflater.ok()) return fail("data", e.dataOffset, "zlib could not start (out of memory)");
  z_stream& z = inflater.z();
  // zlib's counts are 32-bit (uInt); both sizes here are uint32 fields.
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(src.data()));
  z.avail_in = static_cast<uInt>(src.size());
  unsigned char probe = 0;
  std::uint64_t left = e.size;  // bytes the declared size still allows
  int rc = Z_OK;
  while (true) {
    const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(left, out.size()));
    z.next_out = room == 0 ? &probe : reinterpret_cast<Bytef*>(out.data());
    z.avail_out = room == 0 ? 1 : static_cast<uInt>(room);
    rc = inflate(&z, Z_FINISH);
    const std::size_t made = room == 0 ? 1 - z.avail_out : room - z.avail_out;
    if (room == 0 && made > 0)
      return fail("data", e.dataOffset + (z.total_in > 0 ? z.total_in - 1 : 0),
                  "the stream inflates past its declared size of " + std::to_string(e.size) +
                      " bytes; stopped there");
    if (made > 0 && flush && !flush(made)) return fail("data", e.dataOffset, "stopped");
    left -= made;
    // On: the piece filled and the stream goes on (a whole read's one piece is the whole size,
    // so the next pass probes for a byte past it).
    if (rc == Z_STREAM_END || rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR) break;
    if (z.avail_out != 0) break;  // the input ran out
  }
  const std::string crypt = (e.flags & PakEntry::CryptFlag)
                                ? " (the entry's private-server 'crypted' flag is set: "
                                  "encrypted entries are unsupported)"
                                : " (encrypted or unsupported?)";
  switch (rc) {
    case Z_STREAM_END:
      if (z.total_out != e.size)
        return fail("data", e.dataOffset + z.total_in,
                    "the stream ends after " + std::to_string(z.total_out) +
                        " bytes, short of its declared size of " + std::to_string(e.size));
      return std::nullopt;  // bytes after the stream's end within packedSize are slot junk (§2.3)
    case Z_DATA_ERROR:
    case Z_NEED_DICT:
      return fail(
          "data", e.dataOffset + z.total_in,
          std::string("not a valid zlib stream: ") + (z.msg ? z.msg : "corrupt data") + crypt);
    case Z_MEM_ERROR: return fail("data", e.dataOffset, "zlib ran out of memory");
    default:  // Z_BUF_ERROR / Z_OK: the input ran out before the stream ended
      return fail("data", e.dataOffset + z.total_in,
                  "the stream is cut short after " + std::to_string(z.total_in) + " bytes (" +
                      std::to_string(z.total_out) + " of " + std::to_string(e.size) +
                      " bytes inflated)" + crypt);
  }
}

}  // namespace

Result<std::vector<std::byte>> Pak::read(const PakEntry& e, const Limits& limits) const {
  // The entry's name for messages, made only for one (a read of many small entries should not
  // pay for it).
  const auto file = [&] { return Address{name_, std::string(storedPath(e))}.str(); };
  if (auto why = unreadable(e, file)) return *why;
  const std::uint64_t allowed = limits.maxAllocation(data_.size());
  const std::uint64_t cap = std::min<std::uint64_t>(
      allowed - std::min(allowed, kInflateState), kDeflateMaxRatio * e.packedSize);
  if (e.size > cap)
    return FormatError{file(), "original size", kNoOffset,
                       "declares " + std::to_string(e.size) + " bytes, more than a " +
                           std::to_string(e.packedSize) + "-byte stream can hold or the limits allow (" +
                           std::to_string(cap) + ")"};
  const auto src = data_.subspan(e.dataOffset, e.packedSize);
  if (storedRaw(e, src)) return std::vector<std::byte>(src.begin(), src.end());

  std::vector<std::byte> out(e.size);
  // libdeflate inflates the whole stream into exactly its declared size (anything else, or a
  // damaged stream, fails); zlib then reads it again to say where and how.
  std::byte probe{};
  std::size_t used = 0, made = 0;
  libdeflate_decompressor* d = decompressor();
  if (d && libdeflate_zlib_decompress_ex(d, src.data(), src.size(), out.empty() ? &probe : out.data(), out.size(),
                                         &used, &made) == LIBDEFLATE_SUCCESS &&
      made == out.size())
    return out;
  if (auto why = inflateZlib(e, src, file(), out, {})) return *why;
  return out;
}

Result<std::uint64_t> Pak::stream(const PakEntry& e, const std::function<bool(std::span<const std::byte>)>& sink) const {
  const auto file = [&] { return Address{name_, std::string(storedPath(e))}.str(); };
  if (auto why = unreadable(e, file)) return *why;
  if (e.size > kDeflateMaxRatio * e.packedSize)
    return FormatError{file(), "original size", kNoOffset,
                       "declares " + std::to_string(e.size) + " bytes, more than a " +
                           std::to_string(e.packedSize) + "-byte stream can hold"};
  const auto src = data_.subspan(e.dataOffset, e.packedSize);
  if (storedRaw(e, src)) {
    if (!sink(src)) return FormatError{file(), "data", e.dataOffset, "stopped"};
    return std::uint64_t{src.size()};
  }
  std::vector<std::byte> piece(std::min<std::size_t>(e.size, 1u << 20));
  if (auto why = inflateZlib(e, src, file(), piece, [&](std::size_t n) { return sink(std::span(piece).first(n)); }))
    return *why;
  return std::uint64_t{e.size};
}

}  // namespace marrow::formats::dragonnest
