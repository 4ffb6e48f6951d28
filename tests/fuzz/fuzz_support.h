// What every fuzz target shares: tight limits, and the checks that turn a reader's misbehaviour
// into a finding (an abort libFuzzer reports) rather than a quiet pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::fuzz {

inline std::span<const std::byte> asBytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

// Small caps, so that a count near a limit is still cheap to allocate and a reader that forgets
// one is caught by libFuzzer's -malloc_limit_mb / -rss_limit_mb.
formats::Limits tightLimits();

// A context named `name` (the extension decides among readers), tight limits, no resolver
// unless given.
formats::ReadContext context(std::string name, formats::Resolver resolve = {});

// Reports a finding on stderr and aborts.
[[noreturn]] void finding(const std::string& what);

// An error must say something, and an offset it gives into `file` must lie within its `size`
// bytes (the offset of the end is allowed: "the file ends here").
void checkError(const formats::FormatError& error, std::string_view file, std::size_t size);

template <class T>
bool succeeded(const formats::Result<T>& r, std::string_view file, std::size_t size) {
  if (!r.ok()) checkError(r.error(), file, size);
  return r.ok();
}

// Watches what a reader allocates, through the sanitizer's malloc and free hooks: the peak of
// bytes allocated and not yet freed between construction and check(). The rule: no
// reader holds more than Limits::maxAllocation of its input (a small multiple plus a fixed
// slack; tightLimits() here) at any time.
class AllocationWatch {
 public:
  AllocationWatch();
  ~AllocationWatch();
  AllocationWatch(const AllocationWatch&) = delete;
  AllocationWatch& operator=(const AllocationWatch&) = delete;
  std::size_t peak() const;
  // A finding when the peak exceeds tightLimits().maxAllocation(inputBytes), where inputBytes
  // counts every file the reader was given.
  void check(std::size_t inputBytes, std::string_view what) const;
};

// A scene a reader returned must be consistent (formats/model/validate.h): everything indexes
// within range, every number is finite. Anything else is a finding.
void checkScene(const formats::Scene& scene, std::string_view what);

}  // namespace marrow::fuzz
