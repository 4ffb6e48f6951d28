// Inflating one pak entry (§2.3) with its declared size as a hard cap.
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>

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

}  // namespace

Result<std::vector<std::byte>> Pak::read(const PakEntry& e, const Limits& limits) const {
  const std::string file = Address{name_, std::string(storedPath(e))}.str();
  const auto fail = [&](std::string field, std::uint64_t offset, std::string message) {
    return FormatError{file, std::move(field), offset, std::move(message)};
  };
  if (e.deleted()) return fail("entry", kNoOffset, "a deleted entry (compressed size 0)");
  if (e.flags & PakEntry::OutOfBounds)
    return fail("data", e.dataOffset,
                std::to_string(e.packedSize) + " bytes at " + std::to_string(e.dataOffset) +
                    " end past the file's " + std::to_string(data_.size()) + " bytes");
  const std::uint64_t allowed = limits.maxAllocation(data_.size());
  const std::uint64_t cap = std::min<std::uint64_t>(
      allowed - std::min(allowed, kInflateState), kDeflateMaxRatio * e.packedSize);
  if (e.size > cap)
    return fail("original size", kNoOffset,
                "declares " + std::to_string(e.size) + " bytes, more than a " +
                    std::to_string(e.packedSize) + "-byte stream can hold or the limits allow (" +
                    std::to_string(cap) + ")");
  const auto src = data_.subspan(e.dataOffset, e.packedSize);

  // §2.3 defensive: a packer built to store data uncompressed writes equal sizes and no zlib
  // header; the first byte of a zlib stream from the engine is 0x78.
  if (e.packedSize == e.size && std::to_integer<unsigned>(src[0]) != 0x78)
    return std::vector<std::byte>(src.begin(), src.end());

  std::vector<std::byte> out(e.size);
  Inflater inflater;
  if (!inflater.ok()) return fail("data", e.dataOffset, "zlib could not start (out of memory)");
  z_stream& z = inflater.z();
  // zlib's counts are 32-bit (uInt); both sizes here are uint32 fields.
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(src.data()));
  z.avail_in = static_cast<uInt>(src.size());
  unsigned char probe = 0;
  z.next_out = out.empty() ? &probe : reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&z, Z_FINISH);
  if (rc != Z_STREAM_END && rc != Z_DATA_ERROR && rc != Z_NEED_DICT && rc != Z_MEM_ERROR &&
      z.avail_out == 0) {
    // The buffer is full: the stream must end here without another byte of output.
    z.next_out = &probe;
    z.avail_out = 1;
    rc = inflate(&z, Z_FINISH);
    if (z.avail_out == 0)
      return fail("data", e.dataOffset + (z.total_in > 0 ? z.total_in - 1 : 0),
                  "the stream inflates past its declared size of " + std::to_string(e.size) +
                      " bytes; stopped there");
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
      return out;  // bytes after the stream's end within packedSize are slot junk (§2.3)
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

}  // namespace marrow::formats::dragonnest
