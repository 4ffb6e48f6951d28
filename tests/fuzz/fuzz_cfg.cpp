// cal3d .cfg model files: the fuzzed text names files that a resolver serves from a small model
// our writer made (binary and XML; by name, else by extension), then the model validation.
#include <map>

#include "tests/fuzz/cal3d_target.h"

namespace {

// Every file the resolver serves, in bytes (a .cfg may name each several times: the reader may
// hold that much of them).
std::size_t modelBytes() {
  static const std::size_t bytes = [] {
    std::size_t n = 0;
    for (bool xml : {false, true})
      for (const auto& f : marrow::fuzz::smallCal3dModel(xml, xml ? 1000 : 1100))
        n += f.bytes.size();
    return n;
  }();
  return bytes;
}

marrow::formats::Resolver modelFiles() {
  using marrow::fuzz::NamedFile;
  std::map<std::string, std::vector<std::byte>> byName, byExtension;
  for (bool xml : {false, true})
    for (NamedFile& f : marrow::fuzz::smallCal3dModel(xml, xml ? 1000 : 1100)) {
      const std::string ext = f.name.substr(f.name.rfind('.') + 1);
      byExtension.emplace(ext, f.bytes);
      byName.emplace(f.name, std::move(f.bytes));
    }
  return [byName = std::move(byName), byExtension = std::move(byExtension)](
             const std::string& name) -> std::optional<std::vector<std::byte>> {
    const auto slash = name.find_last_of('/');
    const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
    if (auto it = byName.find(base); it != byName.end()) return it->second;
    const auto dot = base.rfind('.');
    if (dot == std::string::npos) return std::nullopt;
    std::string ext = base.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (auto it = byExtension.find(ext); it != byExtension.end()) return it->second;
    return std::vector<std::byte>(16, std::byte{0x42});  // a texture, or any other file
  };
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  static const formats::Resolver resolve = modelFiles();
  const auto ctx = fuzz::context("models/fuzz.cfg", resolve);
  fuzz::AllocationWatch watch;
  auto r = formats::cal3d::readConfig(fuzz::asBytes(data, size), ctx);
  watch.check(size + modelBytes(), "cal3d readConfig");
  if (fuzz::succeeded(r, ctx.name, size)) fuzz::checkScene(*r, "cal3d readConfig");
  return 0;
}
