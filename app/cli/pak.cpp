// marrow-cli on Dragon Nest paks: list (via `list`), extract, pack (specs/dragonnest.md §2).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "app/cli/common.h"
#include "formats/dragonnest/extract.h"
#include "formats/dragonnest/pak_writer.h"
#include "formats/io/detect.h"
#include "formats/io/file.h"
#include "formats/io/codepage.h"
#include "formats/io/vfs.h"

namespace marrow::app::cli {
namespace fs = std::filesystem;
namespace dn = formats::dragonnest;

namespace {

// Opens the paks; prints why and returns nothing when one cannot be opened. --encoding NAME
// (an iconv code page: CP949, GB18030, BIG5, CP932, UTF-8) overrides the code page detected
// for the stored names.
std::optional<dn::PakSet> openPaks(const std::vector<std::string>& paths, const Args& args) {
  const auto encoding = encodingOption(args);
  if (!encoding) return std::nullopt;
  auto set = dn::PakSet::open(paths, *encoding);
  if (!set) {
    std::fprintf(stderr, "marrow-cli: %s\n", set.error().describe().c_str());
    return std::nullopt;
  }
  return std::move(*set);
}

formats::Diagnostics allDiagnostics(const dn::PakSet& set) {
  formats::Diagnostics d;
  for (std::size_t k = 0; k < set.size(); ++k) d.append(set.pak(k).diagnostics());
  return d;
}

}  // namespace

bool isPakPath(const std::string& path) {
  return formats::extensionOf(path) == "pak";
}

int runPakList(const Args& args) {
  for (const auto& i : args.inputs)
    if (!isPakPath(i))
      return usageError(args.command, "'" + i + "' is not a .pak: paks are listed on their own");
  const auto set = openPaks(args.inputs, args);
  if (!set) return kLoadError;
  const formats::Diagnostics diagnostics = allDiagnostics(*set);
  // --find TEXT: the entries whose path holds the text (any case).
  const std::string* find = args.option("--find");
  if (args.option("--kind")) return usageError(args.command, "--kind picks records of BRF files and modules, not pak entries");
  const auto shown = [&](const auto& pak, const auto& e) {
    return !find || formats::vfs::containsIgnoringCase(set->displayName(pak.storedPath(e)), *find);
  };
  if (args.has("--json")) {
    JsonWriter j;
    j.beginObject();
    j.key("inputs").beginArray();
    for (const auto& i : args.inputs) j.value(i);
    j.endArray();
    j.key("archives").beginArray();  // in search order (§2.4), which is not the order given
    for (std::size_t k = 0; k < set->size(); ++k) {
      const auto& pak = set->pak(k);
      j.beginObject()
          .field("file", pak.name())
          .field("version", pak.version())
          .field("entries", static_cast<std::uint64_t>(pak.entries().size()))
          .field("table_offset", pak.tableOffset())
          .endObject();
    }
    j.endArray();
    j.key("entries").beginArray();
    for (std::size_t k = 0; k < set->size(); ++k) {
      const auto& pak = set->pak(k);
      for (const auto& e : pak.entries()) {  // table order
        if (!shown(pak, e)) continue;
        j.beginObject()
            .field("archive", pak.name())
            .field("index", e.index)
            .field("path", set->displayName(pak.storedPath(e)))
            .field("normalized_path", set->shownPath(e, pak))
            .field("size", e.size)
            .field("packed_size", e.packedSize)
            .field("allocated_size", e.allocSize)
            .field("offset", e.dataOffset)
            .field("deleted", e.deleted())
            .field("readable", e.readable())
            .field("active", set->isActive({&pak, &e}))
            .endObject();
      }
    }
    j.endArray();
    writeDiagnostics(j, diagnostics);
    j.endObject();
    std::printf("%s\n", j.str().c_str());
    return kOk;
  }
  for (std::size_t k = 0; k < set->size(); ++k) {
    const auto& pak = set->pak(k);
    std::printf("%s: version %u, %zu entries\n", pak.name().c_str(), pak.version(),
                pak.entries().size());
    for (const auto& e : pak.entries()) {
      if (!shown(pak, e)) continue;
      const char* state = e.deleted()                  ? "  (deleted)"
                          : !e.readable()              ? "  (damaged)"
                          : !set->isActive({&pak, &e}) ? "  (overridden)"
                                                       : "";
      std::printf("  %12u %12u  %s%s\n", e.size, e.packedSize,
                  set->displayName(pak.storedPath(e)).c_str(), state);
    }
  }
  printDiagnostics(diagnostics);
  return kOk;
}

int runExtract(const Args& args) {
  const std::string* out = args.option("-o");
  if (!out) return usageError(args.command, "-o DIR is needed");
  // The leading .pak inputs are the archives; what follows selects entries and folders.
  std::vector<std::string> archives, selectors;
  for (const auto& i : args.inputs)
    (selectors.empty() && isPakPath(i) ? archives : selectors).push_back(i);
  if (archives.empty()) return usageError(args.command, "no ARCHIVE.pak given");
  const auto set = openPaks(archives, args);
  if (!set) return kLoadError;
  printDiagnostics(allDiagnostics(*set));

  std::vector<std::string> unmatched;
  const auto entries = dn::selectEntries(*set, selectors, &unmatched);
  for (const auto& s : unmatched)
    std::fprintf(stderr, "marrow-cli: no entry or folder '%s' in the archives\n", s.c_str());

  const bool quiet = args.has("--quiet");
  formats::ExtractOptions options;
  if (!jobsOption(args, 64, "threads", options.threads)) return kUsage;
  options.progress = [&](const formats::ExtractProgress& p) {
    if (!quiet && (p.done % 1000 == 0 || p.done == p.total) && p.total > 0)
      std::fprintf(stderr, "\r%zu / %zu entries, %llu bytes", p.done, p.total,
                   static_cast<unsigned long long>(p.bytes));
    return true;
  };
  const auto report = dn::extractEntries(*set, entries, *out, options);
  if (!quiet) std::fprintf(stderr, "\n");
  for (const auto& r : report.refused)
    std::fprintf(stderr, "refused: '%s': %s\n", r.entry.c_str(), r.message.c_str());
  for (const auto& f : report.failed)
    std::fprintf(stderr, "failed: '%s': %s\n", f.entry.c_str(), f.message.c_str());
  std::fprintf(stderr, "%zu written (%llu bytes), %zu refused, %zu failed\n", report.written,
               static_cast<unsigned long long>(report.bytes), report.refused.size(),
               report.failed.size());
  return report.ok() && unmatched.empty() ? kOk : kLoadError;
}

int runPack(const Args& args) {
  const std::string* out = args.option("-o");
  if (!out) return usageError(args.command, "-o OUT.pak is needed");
  if (args.inputs.size() != 1) return usageError(args.command, "one FOLDER is needed");
  int level = 1;  // §2.3: as the engine packs
  if (const std::string* l = args.option("--level")) {
    if (l->size() != 1 || (*l)[0] < '0' || (*l)[0] > '9')
      return usageError(args.command, "--level needs 0 to 9, not '" + *l + "'");
    level = (*l)[0] - '0';
  }
  const fs::path folder = args.inputs.front();
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    std::fprintf(stderr, "marrow-cli: '%s' is not a folder\n", folder.string().c_str());
    return kLoadError;
  }
  // Every regular file under the folder (symbolic links are not followed), in path order.
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && !it->is_symlink()) files.push_back(it->path());
  if (ec) {
    std::fprintf(stderr, "marrow-cli: cannot read '%s': %s\n", folder.string().c_str(),
                 ec.message().c_str());
    return kLoadError;
  }
  std::sort(files.begin(), files.end());
  std::vector<dn::PakFile> inputs;
  for (const auto& f : files) {
    auto bytes = formats::readFile(f.string());
    if (!bytes) {
      std::fprintf(stderr, "marrow-cli: %s\n", bytes.error().describe().c_str());
      return kLoadError;
    }
    inputs.push_back({f.lexically_relative(folder).generic_string(), std::move(*bytes)});
  }

  // Names go into the pak in its code page: --encoding, else the base's (detected over its
  // names), else as they are (UTF-8). A name the code page cannot spell stays UTF-8, said.
  const auto encoding = encodingOption(args);
  if (!encoding) return kUsage;
  std::string codepage = *encoding;
  std::optional<dn::Pak> basePak;
  if (const std::string* base = args.option("--base")) {
    auto pak = dn::Pak::open(*base);
    if (!pak) {
      std::fprintf(stderr, "marrow-cli: %s\n", pak.error().describe().c_str());
      return kLoadError;
    }
    if (codepage.empty()) {
      std::vector<std::string_view> names;
      for (const auto& e : pak->entries())
        if (e.pathLength > 0) names.push_back(pak->storedPath(e));
      codepage = formats::detectCodepage(names);
    }
    pak->setCodepage(codepage);  // its paths compared in its code page
    printDiagnostics(pak->diagnostics());
    basePak = std::move(*pak);
  }
  if (!codepage.empty() && codepage != "UTF-8")
    for (auto& in : inputs) {
      if (formats::isAscii(in.path)) continue;
      const auto stored = dn::storedPakPath(in.path);  // checked, lower-cased in UTF-8 (ASCII only)
      if (!stored) continue;                            // refused when written, with its reason
      if (auto spelled = formats::encodeCodepage(*stored, codepage)) in.storedName = std::move(*spelled);
      else std::fprintf(stderr, "marrow-cli: %s has no spelling in %s; stored as UTF-8\n", in.path.c_str(), codepage.c_str());
    }

  // Written beside the output and renamed at the end: a failed run leaves no half pak, and
  // --base may be the output itself.
  const fs::path target = *out;
  const fs::path temp = target.string() + ".partial";
  std::optional<formats::FormatError> error;
  {
    std::ofstream stream(temp, std::ios::binary | std::ios::trunc);
    if (!stream) {
      std::fprintf(stderr, "marrow-cli: cannot write '%s'\n", temp.string().c_str());
      return kLoadError;
    }
    const dn::PakWriteOptions options{level, dn::kPakVersion};
    if (basePak) {
      error = dn::writePakCopy(*basePak, inputs, stream, options);
    } else {
      dn::PakWriter writer(stream, options);
      for (const auto& f : inputs)
        if ((error = f.storedName.empty() ? writer.add(f.path, f.data) : writer.addAs(f.storedName, f.data))) break;
      if (!error) error = writer.finish();
    }
    stream.close();
    if (!error && !stream)
      error = formats::FormatError{temp.string(), "", formats::kNoOffset, "write failed"};
  }
  if (!error) fs::rename(temp, target, ec);
  if (error || ec) {
    std::fprintf(stderr, "marrow-cli: %s\n",
                 error ? error->describe().c_str() : ("cannot write " + target.string()).c_str());
    fs::remove(temp, ec);
    return kLoadError;
  }
  std::fprintf(stderr, "%zu files packed into %s\n", inputs.size(), target.string().c_str());
  return kOk;
}

}  // namespace marrow::app::cli
