// The virtual file system's archives over hostile bytes (formats/io/vfs.h): the bytes as a pak
// (PakArchive over a PakSet) and as a BRF file (BrfArchive), each walked as the Archives dock
// and the CLI walk it: the tree (bounded), nodes by path, search, models, the files extraction
// writes (their stored names never leave the folder), a few reads, addresses that print and
// parse back, properties, and for BRF the picks of a few records. The input's text is also an
// address and a glob pattern.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "formats/brf/archive.h"
#include "formats/dragonnest/pak_archive.h"
#include "formats/io/address.h"
#include "formats/io/extract.h"
#include "formats/io/glob.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace marrow;
namespace vfs = formats::vfs;

void walk(const vfs::Archive& a, const std::string& path, int depth, int& budget) {
  for (const vfs::Node& n : a.children(path)) {
    if (--budget < 0) return;
    if (!a.node(n.path))
      fuzz::finding(std::string(a.kind()) + " node '" + n.path + "' (" + n.name + ") under '" + path +
                    "' is listed but not found by its path");
    const formats::Address address = a.addressOf(n.path);
    if (formats::Address::parse(address.str()) != address && address.file.find("::") == std::string::npos)
      fuzz::finding("address '" + address.str() + "' does not parse back");
    (void)vfs::summary(n.figures);
    if (n.container && depth < 8) walk(a, n.path, depth + 1, budget);
  }
}

void exercise(const vfs::Archive& a, std::size_t size) {
  int budget = 512;
  walk(a, "", 0, budget);
  (void)a.search("a", 64);
  (void)a.search("/", 64);
  (void)a.models("");
  (void)a.models("**/*");
  int reads = 0;
  for (const vfs::Node& f : a.files("")) {
    const auto safe = formats::safeRelativePath(a.storedName(f));
    if (safe && (safe.relative.is_absolute() || safe.relative.has_root_path()))
      fuzz::finding("stored name '" + a.storedName(f) + "' extracts to '" + safe.relative.string() + "'");
    if (reads++ < 4) (void)a.read(f.path, fuzz::tightLimits());
    (void)a.properties(f.path);
  }
  (void)size;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = fuzz::asBytes(data, size);
  const std::string text(reinterpret_cast<const char*>(data), std::min<std::size_t>(size, 256));
  const formats::Address address = formats::Address::parse(text);
  if (formats::Address::parse(address.str()) != address) fuzz::finding("address '" + text + "' does not print back");
  const auto bar = text.find('|');
  if (bar != std::string::npos) (void)formats::matchGlob(text.substr(0, bar), text.substr(bar + 1));

  fuzz::AllocationWatch watch;
  if (auto pak = formats::dragonnest::Pak::parse(bytes, "fuzz.pak")) {
    std::vector<formats::dragonnest::Pak> paks;
    paks.push_back(std::move(pak).value());
    const formats::dragonnest::PakArchive archive(
        std::make_shared<const formats::dragonnest::PakSet>(std::move(paks)));
    exercise(archive, size);
  }
  const auto ctx = fuzz::context("fuzz.brf");
  if (auto doc = formats::brf::parse(bytes, ctx)) {
    std::vector<formats::brf::Source> sources{
        {ctx.name, std::make_shared<const formats::brf::Document>(std::move(doc).value()), ctx, {}}};
    const formats::brf::BrfArchive archive(std::move(sources));
    exercise(archive, size);
    int picks = 0;
    for (const auto& kind : {"mesh", "skeleton", "animation", "material", "body"}) {
      const auto records = archive.children(std::string("0/") + kind);
      if (records.empty() || picks++ > 3) continue;
      const std::vector<std::string> picked{records.front().path};
      if (auto shown = archive.show(picked, std::nullopt, std::nullopt); shown && shown->what ==
          formats::ModelArchive::Shown::What::Model)
        fuzz::checkScene(shown->scene, "BrfArchive::show");
    }
    (void)archive.show({}, std::nullopt, std::nullopt);
  }
  watch.check(size * 2, "the archives of the input");
  return 0;
}
