// glTF 2.0, the native reader (formats/gltf/gltf_reader.h), then the model validation. The input
// is the file, optionally followed by kSeparator and the bytes every other file it names (its
// .bin, its images) resolves to. Files the reader hands to assimp (glTF 1.0, Draco) are skipped:
// assimp is not ours to fuzz.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "formats/gltf/gltf_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {
constexpr std::string_view kSeparator = "\n--next-file--\n";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = all.find(kSeparator);
  const auto file = fuzz::asBytes(data, cut == std::string_view::npos ? size : cut);
  std::optional<std::vector<std::byte>> sibling;
  if (cut != std::string_view::npos) {
    const auto rest = fuzz::asBytes(data + cut + kSeparator.size(), size - cut - kSeparator.size());
    sibling.emplace(rest.begin(), rest.end());
  }
  if (formats::gltfNeedsAssimp(file)) return 0;
  const auto ctx = fuzz::context("fuzz.gltf", [&](const std::string&) { return sibling; });
  fuzz::AllocationWatch watch;
  auto r = formats::readGltf(file, ctx);
  watch.check(size, "readGltf");
  if (fuzz::succeeded(r, ctx.name, size)) fuzz::checkScene(*r, "readGltf");
  return 0;
}
