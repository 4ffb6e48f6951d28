// marrow_fuzz_seeds OUT [FIXTURES]: writes the seed corpus of every fuzz target under OUT/<target>/
// (see README.md): files our own writers make (the demo character and the small test character in
// every format and version we write; single-record BRF files cut from the fixtures), files built
// here byte by byte from the specs where we have no writer (compressed CAF, EXT, DDS), and the
// fixture files themselves, by extension. Nothing here is committed: seeds live in the build tree.
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/warband_module.h"
#include "formats/brf/brf.h"
#include "formats/cal3d/writer.h"
#include "formats/dragonnest/pak_writer.h"
#include "formats/dragonnest/table.h"
#include "formats/io/byte_writer.h"
#include "formats/io/file.h"
#include "formats/snapshot/snapshot.h"
#include "formats/gltf/gltf_writer.h"
#include "formats/omf/omf.h"
#include "resources/demo/demo_character.h"
#include "tests/fuzz/seed_bytes.h"
#include "tests/fuzz/small_models.h"

namespace fs = std::filesystem;
using namespace marrow;
using formats::ByteWriter;

namespace {

// The registry target's file framing (fuzz_registry.cpp): an extension byte before each file.
const std::vector<std::string> kRegistryExtensions = {"omf", "csf", "caf", "cmf", "crf", "xsf",
                                                      "xaf", "xmf", "xrf", "cfg", "brf", "msh",
                                                      "skn", "ani", "dnt", "ext", "bin", "cpf", "xpf",
                                                      "gltf", "glb"};
constexpr std::string_view kRegistrySeparator = "\n--next-file--\n";

class Corpus {
 public:
  explicit Corpus(fs::path root) : root_(std::move(root)) {}

  // Writes a seed of `target`; the registry gets the file too when it has a model extension.
  void add(const std::string& target, const std::string& name, std::span<const std::byte> bytes,
           bool alsoRegistry = true) {
    write(root_ / target / name, bytes);
    ++counts_[target];
    const std::string ext = extension(name);
    if (alsoRegistry && registryIndex(ext) >= 0) addGroup(name, {{name, bytes}});
  }
  // A registry seed of several files read as one model.
  void addGroup(const std::string& name,
                const std::vector<std::pair<std::string, std::span<const std::byte>>>& files) {
    std::vector<std::byte> framed;
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (i) {
        const auto sep = std::as_bytes(std::span(kRegistrySeparator));
        framed.insert(framed.end(), sep.begin(), sep.end());
      }
      const int index = registryIndex(extension(files[i].first));
      framed.push_back(std::byte(index < 0 ? kRegistryExtensions.size() - 1 : index));
      framed.insert(framed.end(), files[i].second.begin(), files[i].second.end());
    }
    write(root_ / "registry" / (name + ".seed"), framed);
    ++counts_["registry"];
  }
  void report() const {
    for (const auto& [target, n] : counts_) std::printf("  %-14s %4zu seeds\n", target.c_str(), n);
  }

  static std::string extension(const std::string& name) {
    std::string ext = fs::path(name).extension().string();
    if (!ext.empty()) ext.erase(0, 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
  }

 private:
  static int registryIndex(const std::string& ext) {
    for (std::size_t i = 0; i + 1 < kRegistryExtensions.size(); ++i)
      if (kRegistryExtensions[i] == ext) return static_cast<int>(i);
    return -1;
  }
  static void write(const fs::path& path, std::span<const std::byte> bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }

  fs::path root_;
  std::map<std::string, std::size_t> counts_;
};

template <class T>
T ok(formats::Result<T> r, const std::string& what) {
  if (!r) {
    std::fprintf(stderr, "marrow_fuzz_seeds: %s: %s\n", what.c_str(), r.error().describe().c_str());
    std::exit(1);
  }
  return std::move(r).value();
}

std::vector<std::byte> zlibCompress(std::span<const std::byte> data) {
  uLongf n = compressBound(static_cast<uLong>(data.size()));
  std::vector<std::byte> out(n);
  compress2(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(data.data()),
            static_cast<uLong>(data.size()), 6);
  out.resize(n);
  return out;
}

void omfSeeds(Corpus& c, const formats::Scene& demo) {
  formats::Diagnostics d;
  c.add("omf", "demo.omf", ok(formats::writeOmf(demo, d), "OMF of the demo"));
  c.add("omf", "small.omf",
        ok(formats::writeOmf(fuzz::smallCharacter(), d), "OMF of the character"));
}

// Our writer's .glb of the demo and the small character, and the character's .gltf with its .bin
// (the target's companion after the separator; the registry's as a second file).
void gltfSeeds(Corpus& c, const formats::Scene& demo) {
  formats::Diagnostics d;
  c.add("gltf", "demo.glb", ok(formats::writeGlb(demo, d), "glTF of the demo"));
  c.add("gltf", "small.glb", ok(formats::writeGlb(fuzz::smallCharacter(), d), "glTF of the character"));
  const auto files = ok(formats::writeGltf(fuzz::smallCharacter(), "small", d), ".gltf of the character");
  const auto& json = files.files.at(0).bytes;
  const auto& bin = files.files.at(1).bytes;
  std::vector<std::byte> framed(json.begin(), json.end());
  const auto sep = std::as_bytes(std::span(kRegistrySeparator));
  framed.insert(framed.end(), sep.begin(), sep.end());
  framed.insert(framed.end(), bin.begin(), bin.end());
  c.add("gltf", "small_gltf_and_bin", framed, false);
  c.addGroup("small.gltf", {{"small.gltf", json}, {"small.bin", bin}});
}

void cal3dSeeds(Corpus& c, const formats::Scene& demo) {
  for (bool xml : {false, true})
    for (int version : {700, 1000, 1100, 1300, 1301}) {
      const std::string tag = (xml ? "x" : "b") + std::to_string(version);
      std::vector<fuzz::NamedFile> files = fuzz::smallCal3dModel(xml, version);
      std::vector<std::pair<std::string, std::span<const std::byte>>> group;
      for (const auto& f : files) {
        const std::string ext = Corpus::extension(f.name);
        c.add(ext, tag + "_" + f.name, f.bytes);
        group.emplace_back(f.name, f.bytes);
      }
      c.addGroup("cal3d_" + tag, group);
    }
  formats::Diagnostics d;
  for (bool xml : {false, true}) {
    auto files = ok(formats::cal3d::writeModel(demo, "demo", {xml, 1300}, d), "cal3d demo");
    for (const auto& f : files) c.add(Corpus::extension(f.name), f.name, f.bytes);
  }
  // Morph animations: named (binary; XML at IMVU's 919) and numbered (XML at 1301), over the
  // morph meshes the targets read them with.
  {
    const formats::Scene& s = fuzz::morphCharacter();
    for (auto [xml, version] : {std::pair{false, 1301}, std::pair{true, 919}, std::pair{true, 1301}})
      c.add(xml ? "xpf" : "cpf", "talk_" + std::to_string(version) + (xml ? ".xpf" : ".cpf"),
            ok(formats::cal3d::writeMorphAnimation(s, 0, {xml, version}, d), "morph animation"));
  }
  // Compressed animations have no writer and no fixture (spec §4): built from §4.3 and §4.4.
  c.add("caf", "quantised_1200.caf", fuzz::seeds::quantisedCaf1200());
  c.add("caf", "imvu_919.caf", fuzz::seeds::bitPackedCaf(919));
  c.add("caf", "imvu_915.caf", fuzz::seeds::bitPackedCaf(915));
  c.add("caf", "imvu_1300.caf", fuzz::seeds::bitPackedCaf(1300));
}

void dragonNestSeeds(Corpus& c) {
  for (int version : {10, 11, 12, 13}) {
    const auto files = fuzz::dragonNestCharacter(version);
    std::vector<std::pair<std::string, std::span<const std::byte>>> group;
    for (const auto& f : files) {
      const std::string ext = Corpus::extension(f.name);
      if (ext == "msh" || version == 10 || version == 11)
        c.add(ext, "v" + std::to_string(version) + "_" + f.name, f.bytes);
      group.emplace_back(f.name, f.bytes);
    }
    c.addGroup("dragonnest_v" + std::to_string(version), group);
  }
  const std::string list = "Character.ani\r\nother.ani\r\n";
  c.add("ani", "list.ani", std::as_bytes(std::span(list)));

  // Tables: every column type, DNT through the writer, EXT built from §7.
  formats::Table t;
  t.name = "small";
  t.columns = {{"_Name", 1}, {"_Flag", 2}, {"_Count", 3}, {"_Rate", 4}, {"_Scale", 5}};
  t.rowIds = {3, 1, 2};
  for (int i = 0; i < 3; ++i)
    t.rows.push_back({std::string("row") + char('a' + i), i % 2, 10 * i, 0.5f * i, 1.5f + i});
  c.add("dnt", "small.dnt", ok(formats::dragonnest::writeDnt(t), "DNT"));
  c.add("ext", "small.ext", fuzz::seeds::extTable());

  // Paks: the character's files in folders, v11 and v10; single entries for the inflate target.
  std::vector<formats::dragonnest::PakFile> pakFiles;
  for (const auto& f : fuzz::dragonNestCharacter(13))
    pakFiles.push_back({"\\resource\\char\\" + f.name, f.bytes});
  pakFiles.push_back({"\\resource\\ext\\small.dnt", ok(formats::dragonnest::writeDnt(t), "DNT")});
  for (std::uint32_t v : {formats::dragonnest::kPakVersion, formats::dragonnest::kPakLegacyVersion})
  {
    const auto pak = ok(formats::dragonnest::writePak(pakFiles, {1, v}), "pak");
    c.add("pak_index", "character_v" + std::to_string(v) + ".pak", pak, false);
    c.add("archives", "character_v" + std::to_string(v) + ".pak", pak, false);
  }
  for (const auto& f : pakFiles) {
    std::vector<std::byte> entry(5);
    const auto size = static_cast<std::uint32_t>(f.data.size());
    std::memcpy(entry.data(), &size, 4);
    const auto stream = zlibCompress(f.data);
    entry.insert(entry.end(), stream.begin(), stream.end());
    c.add("pak_entry", fs::path(f.path.substr(f.path.rfind('\\') + 1)).string() + ".z", entry,
          false);
  }
  std::vector<std::byte> raw(5);
  const std::uint32_t rawSize = 12;
  std::memcpy(raw.data(), &rawSize, 4);
  for (char ch : std::string("stored as is")) raw.push_back(std::byte(ch));
  c.add("pak_entry", "raw.bin", raw, false);
}

void snapshotSeeds(Corpus& c, const formats::Scene& demo) {
  c.add("snapshot", "small.snapshot", formats::writeSnapshot(fuzz::smallCharacter()), false);
  c.add("snapshot", "demo.snapshot", formats::writeSnapshot(demo), false);
  c.add("snapshot", "error.snapshot",
        formats::writeSnapshotError({"model.fbx", "mesh 2", 1234, "a message"}), false);
  formats::Scene tables;
  tables.tables.push_back(
      {"t", {{"_A", 1}, {"_B", 5}}, {1, 2}, {{std::string("x"), 1.5f}, {std::string("y"), 2.5f}}});
  tables.bodies.push_back({"body", {formats::BodyPart{}}});
  tables.attachments.push_back({"dummy", "", glm::mat4(1.0f)});
  c.add("snapshot", "tables.snapshot", formats::writeSnapshot(tables), false);
}

void ddsSeeds(Corpus& c) {
  for (const auto& [name, bytes] : fuzz::seeds::ddsImages()) c.add("dds", name, bytes, false);
  for (const auto& [name, bytes] : fuzz::seeds::tgaImages()) c.add("tga", name, bytes, false);
}

// A BRF fixture gives itself, and one small file per record (gather, both versions), so that
// every record kind is a seed of its own, not only a prefix of a large file.
void brfSeeds(Corpus& c, const fs::path& file) {
  auto bytes = ok(formats::readFile(file.string()), file.string());
  formats::ReadContext ctx;
  ctx.name = file.filename().string();
  auto doc = formats::brf::parse(bytes, ctx);
  if (!doc) return;
  const std::vector<formats::brf::Source> sources = {
      {ctx.name, std::make_shared<const formats::brf::Document>(std::move(doc).value()), ctx, {}}};
  const std::string stem = file.stem().string();
  for (formats::brf::Section kind : formats::brf::kSections) {
    const auto records = formats::brf::allRecords(sources, kind);
    for (std::size_t i = 0; i < records.size() && i < 6; ++i)
      for (int version : {0, 1}) {
        formats::Diagnostics d;
        const auto one = formats::brf::gather(sources, std::span(&records[i], 1), version, d);
        const auto written = formats::brf::write(one);
        const std::string name = stem + "_" + formats::brf::kindName(kind) + std::to_string(i) +
                                 "_v" + std::to_string(version) + ".brf";
        c.add("brf", name, written);
        c.add("brf_document", name, written, false);
        c.add("archives", name, written, false);
      }
  }
}

// Warband's text files as the module tests write them (both header layouts mixed, CRLF).
void warbandSeeds(Corpus& c) {
  const auto text = [](const char* s) { return std::as_bytes(std::span(s, std::strlen(s))); };
  c.add("warband_text", "test_actions.txt", text(testing::kTestActions), false);
  c.add("warband_text", "test_module.ini", text(testing::kTestModuleIni), false);
}

void fixtureSeeds(Corpus& c, const fs::path& fixtures) {
  static const std::map<std::string, std::vector<std::string>> kTargets = {
      {"csf", {"csf"}}, {"cmf", {"cmf"}},
      {"caf", {"caf"}}, {"crf", {"crf"}},
      {"xsf", {"xsf"}}, {"xmf", {"xmf"}},
      {"xaf", {"xaf"}}, {"xrf", {"xrf"}},
      {"cpf", {"cpf"}}, {"xpf", {"xpf"}},
      {"cfg", {"cfg"}}, {"brf", {"brf", "brf_document", "archives"}},
      {"msh", {"msh"}}, {"skn", {"skn"}},
      {"ani", {"ani"}}, {"dnt", {"dnt"}},
      {"ext", {"ext"}}, {"omf", {"omf"}},
      {"dds", {"dds"}}, {"pak", {"pak_index", "archives"}},
      {"txt", {"warband_text"}}, {"ini", {"warband_text"}}};
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(fixtures))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const auto it = kTargets.find(Corpus::extension(file.filename().string()));
    if (it == kTargets.end()) continue;
    const auto bytes = ok(formats::readFile(file.string()), file.string());
    const std::string name = fs::relative(file, fixtures).string();
    std::string flat = name;
    for (char& ch : flat)
      if (ch == '/') ch = '_';
    bool first = true;
    for (const auto& target : it->second) {
      c.add(target, flat, bytes, first);
      first = false;
    }
    if (it->first == "brf") brfSeeds(c, file);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: marrow_fuzz_seeds OUT [FIXTURES]\n");
    return 2;
  }
  Corpus corpus{fs::path(argv[1])};
  const formats::Scene demo = demo::makeDemoCharacter();
  omfSeeds(corpus, demo);
  gltfSeeds(corpus, demo);
  cal3dSeeds(corpus, demo);
  dragonNestSeeds(corpus);
  ddsSeeds(corpus);
  snapshotSeeds(corpus, demo);
  warbandSeeds(corpus);
  if (argc == 3 && fs::is_directory(argv[2]))
    fixtureSeeds(corpus, argv[2]);
  else
    std::printf("no fixtures folder: seeds from our writers only\n");
  std::printf("seeds written under %s:\n", argv[1]);
  corpus.report();
  return 0;
}
