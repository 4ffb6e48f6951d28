// The whole registry (formats/registry.h readInputs): up to four files read as one model, each
// reaching its reader by detection (magic first, extension second), grouped as the CLI and the
// GUI group them (a cal3d model, BRF files, Dragon Nest meshes and animations).
//
// Input: files separated by kSeparator; each file's first byte picks its extension from
// kExtensions (the rest is its content). A file asks the resolver for a sibling (a .cfg's parts,
// a skin's mesh) by name; it gets the first other file of that extension. Files that detection
// sends to assimp are skipped: assimp is a library we do not fuzz (Marrow runs it out of
// process on users' files).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/detect.h"
#include "formats/format_table.h"
#include "formats/registry.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

constexpr std::string_view kSeparator = "\n--next-file--\n";
constexpr const char* kExtensions[] = {"omf", "csf", "caf", "cmf", "crf", "xsf",
                                       "xaf", "xmf", "xrf", "cfg", "brf", "msh",
                                       "skn", "ani", "dnt", "ext", "bin", "cpf", "xpf",
                                       "gltf", "glb"};
constexpr std::size_t kMaxFiles = 4;

struct Part {
  std::string extension;
  std::string_view content;
};

std::string lowerExtension(const std::string& name) {
  const auto dot = name.rfind('.');
  std::string ext = dot == std::string::npos ? "" : name.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return ext;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace marrow;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  std::vector<Part> parts;
  for (std::size_t at = 0; at <= all.size() && parts.size() < kMaxFiles;) {
    std::size_t end = all.find(kSeparator, at);
    if (end == std::string_view::npos || parts.size() + 1 == kMaxFiles) end = all.size();
    const std::string_view file = all.substr(at, end - at);
    if (!file.empty())
      parts.push_back({kExtensions[static_cast<unsigned char>(file[0]) % std::size(kExtensions)],
                       file.substr(1)});
    at = end + kSeparator.size();
  }
  if (parts.empty()) return 0;

  std::vector<formats::Input> inputs;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string name = "file" + std::to_string(i) + "." + parts[i].extension;
    const auto bytes = std::as_bytes(std::span(parts[i].content.data(), parts[i].content.size()));
    // Formats read in a process of their own (assimp, with its known memory bugs) are not ours to fuzz.
    const formats::FormatDescriptor* format = formats::detect(bytes, name);
    if (format && formats::readInChildProcess(*format, bytes)) return 0;
    auto resolve = [&parts, i](const std::string& wanted) -> std::optional<std::vector<std::byte>> {
      const std::string ext = lowerExtension(wanted);
      for (std::size_t k = 0; k < parts.size(); ++k)
        if (k != i && parts[k].extension == ext) {
          const auto b = std::as_bytes(std::span(parts[k].content.data(), parts[k].content.size()));
          return std::vector<std::byte>(b.begin(), b.end());
        }
      return std::nullopt;
    };
    inputs.push_back(
        {std::vector<std::byte>(bytes.begin(), bytes.end()), fuzz::context(name, resolve), {}, {}});
  }
  std::vector<std::size_t> sizes;
  for (const auto& in : inputs) sizes.push_back(in.bytes.size());
  std::vector<std::string> names;
  for (const auto& in : inputs) names.push_back(in.ctx.name);

  std::size_t inputBytes = 0;
  for (std::size_t s : sizes) inputBytes += s;
  fuzz::AllocationWatch watch;
  auto r = formats::readInputs(std::move(inputs));
  // Each file may be fetched by the others through the resolver, once per name they give.
  watch.check(inputBytes * (1 + parts.size()), "readInputs");
  if (r) {
    fuzz::checkScene(*r, "readInputs");
    return 0;
  }
  if (r.error().message.empty())
    fuzz::finding("an error without a message: " + r.error().describe());
  for (std::size_t i = 0; i < names.size(); ++i)
    if (r.error().file == names[i]) fuzz::checkError(r.error(), names[i], sizes[i]);
  if (r.error().message.starts_with("inconsistent model: "))
    fuzz::finding("readInputs: a reader returned an inconsistent model: " + r.error().describe());
  return 0;
}
