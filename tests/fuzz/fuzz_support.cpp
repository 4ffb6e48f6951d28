#include "tests/fuzz/fuzz_support.h"

#include <cstdio>
#include <cstdlib>

#include "formats/model/validate.h"

#if defined(__has_include)
#if __has_include(<sanitizer/allocator_interface.h>)
#include <sanitizer/allocator_interface.h>
#define MARROW_FUZZ_MALLOC_HOOKS 1
#endif
#endif

namespace marrow::fuzz {

namespace {

// The live and peak bytes of the watch in force (the targets run one input at a time, on one
// thread; other threads' allocations, if any, would only raise the figures).
struct Watched {
  bool on = false;
  std::size_t live = 0, peak = 0;
};
Watched g_watched;

#ifdef MARROW_FUZZ_MALLOC_HOOKS
void onMalloc(const volatile void*, std::size_t n) {
  if (!g_watched.on) return;
  g_watched.live += n;
  if (g_watched.live > g_watched.peak) g_watched.peak = g_watched.live;
}
void onFree(const volatile void* p) {
  if (!g_watched.on || !p) return;
  const std::size_t n = __sanitizer_get_allocated_size(p);  // freed after the hook returns
  g_watched.live = n > g_watched.live ? 0 : g_watched.live - n;
}
const bool g_hooksInstalled = __sanitizer_install_malloc_and_free_hooks(onMalloc, onFree) != 0;
#else
const bool g_hooksInstalled = false;
#endif

}  // namespace

AllocationWatch::AllocationWatch() {
  g_watched = Watched{true, 0, 0};
}

AllocationWatch::~AllocationWatch() {
  g_watched.on = false;
}

std::size_t AllocationWatch::peak() const {
  return g_watched.peak;
}

void AllocationWatch::check(std::size_t inputBytes, std::string_view what) const {
  if (!g_hooksInstalled) return;
  const std::uint64_t allowed = tightLimits().maxAllocation(inputBytes);
  static const bool print = std::getenv("MARROW_FUZZ_PRINT_PEAK") != nullptr;
  if (print)
    std::fprintf(stderr, "%.*s: peak %zu bytes for %zu input bytes\n",
                 static_cast<int>(what.size()), what.data(), g_watched.peak, inputBytes);
  if (g_watched.peak > allowed)
    finding(std::string(what) + " held " + std::to_string(g_watched.peak) +
            " bytes at its peak for " + std::to_string(inputBytes) + " bytes of input (" +
            std::to_string(allowed) + " allowed: Limits::maxAllocation)");
}

formats::Limits tightLimits() {
  formats::Limits l;
  l.maxBones = 512;
  l.maxVertices = 1u << 16;
  l.maxTriangles = 1u << 17;
  l.maxKeys = 1u << 18;
  l.maxStringLength = 1024;
  l.maxInfluencesPerVertex = 16;
  l.maxHierarchyDepth = 256;
  l.maxMeshes = 256;
  l.maxClips = 64;
  l.allocationFactor = 64;
  l.allocationSlack = 1u << 20;
  return l;
}

formats::ReadContext context(std::string name, formats::Resolver resolve) {
  formats::ReadContext ctx;
  ctx.name = std::move(name);
  ctx.limits = tightLimits();
  ctx.resolve = std::move(resolve);
  return ctx;
}

void finding(const std::string& what) {
  std::fprintf(stderr, "\n==== fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void checkError(const formats::FormatError& error, std::string_view file, std::size_t size) {
  static const bool verbose = std::getenv("MARROW_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "error: %s\n", error.describe().c_str());
  if (error.message.empty()) finding("an error without a message: " + error.describe());
  if (error.file == file && error.offset != formats::kNoOffset && error.offset > size)
    finding("an error's offset lies past the " + std::to_string(size) +
            "-byte file: " + error.describe());
}

void checkScene(const formats::Scene& scene, std::string_view what) {
  const auto problems = formats::validate(scene);
  if (problems.empty()) return;
  std::string all;
  for (const auto& p : problems) all += "\n  " + p;
  finding(std::string(what) + " returned an inconsistent model:" + all);
}

}  // namespace marrow::fuzz
