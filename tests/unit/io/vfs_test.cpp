// One way in: addresses, the virtual file system's archives (a folder on disk, Dragon Nest paks,
// BRF files), loading from every address form, and the format table that routes it all. The
// paks are written with the project's pak writer; BRF records come from the fixtures, whose
// figures SOURCES.md and the record layer give.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "formats/brf/archive.h"
#include "formats/dragonnest/pak_archive.h"
#include "formats/dragonnest/pak_writer.h"
#include "formats/format_table.h"
#include "formats/io/address.h"
#include "formats/io/extract.h"
#include "formats/io/folder_archive.h"
#include "formats/io/glob.h"
#include "formats/load.h"
#include "formats/registry.h"
#include "formats/write.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

namespace marrow::formats {
namespace {

namespace fs = std::filesystem;
namespace dn = formats::dragonnest;

std::vector<std::byte> bytes(std::string_view s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return {p, p + s.size()};
}

std::string text(const std::vector<std::byte>& b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

void writeFile(const fs::path& p, std::string_view content) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

using ::marrow::testing::TempDir;

std::vector<std::string> names(const std::vector<vfs::Node>& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(n.name);
  return out;
}

// ---- addresses ----

TEST(Address, ParsesAndPrintsEveryForm) {
  for (const auto& [text, file, inner] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"models/hero.omf", "models/hero.omf", ""},
           {"armour.brf::SkinA.boots", "armour.brf", "SkinA.boots"},
           {"Resource00.pak::char/warrior/a.skn", "Resource00.pak", "char/warrior/a.skn"},
           {"::warrior.skn", "", "warrior.skn"},
           {"C:\\Games\\mb\\armour.brf::boots", "C:\\Games\\mb\\armour.brf", "boots"},  // one ':' is the path's
           {":/demo/demo.omf", ":/demo/demo.omf", ""},
           {"a.pak::x::y", "a.pak", "x::y"},  // the first "::" separates
       }) {
    const Address a = Address::parse(text);
    EXPECT_EQ(a.file, file) << text;
    EXPECT_EQ(a.inner, inner) << text;
    EXPECT_EQ(a.str(), text) << text;
    EXPECT_EQ(Address::parse(a.str()), a);
  }
  EXPECT_TRUE(Address::parse("::x").lookup());
  EXPECT_FALSE(Address::parse("a.brf::x").lookup());
  EXPECT_TRUE(Address::parse("a.brf").whole());
  EXPECT_EQ(Address::parse("a.pak::char/warrior/A.skn").leafName(), "A.skn");
  EXPECT_EQ(Address::parse("dir\\sub\\hero.cfg").leafName(), "hero.cfg");
  EXPECT_EQ(Address::parse("folder/").leafName(), "folder");
}

TEST(Glob, MatchesWithinAndAcrossFolders) {
  EXPECT_TRUE(matchGlob("char/**/*.skn", "char/a/b/x.skn"));
  EXPECT_TRUE(matchGlob("char/**/*.skn", "char/x.skn"));
  EXPECT_FALSE(matchGlob("char/*.skn", "char/a/x.skn"));
  EXPECT_TRUE(matchGlob("Skin?.b[o-p]ots", "SkinA.boots"));
  EXPECT_FALSE(matchGlob("Skin[!A].boots", "SkinA.boots"));
  // Linear whatever the pattern: a pathological one on a long text ends at once.
  EXPECT_FALSE(matchGlob(std::string(200, '*') + "b", std::string(5000, 'a')));
  EXPECT_TRUE(hasGlob("a*") && hasGlob("a?") && hasGlob("[ab]") && !hasGlob("plain.skn"));
}

// ---- a folder on disk ----

TEST(FolderArchive, ListsFoldersFirstReadsFindsAndStaysInside) {
  TempDir t;
  const fs::path root = t.path / "module";
  writeFile(root / "Resource" / "armour.brf", "brf");
  writeFile(root / "Textures" / "Boots.DDS", "dds");
  writeFile(root / "module.ini", "ini");
  writeFile(root / "actions.txt", "actions");
  writeFile(t.path / "secret.txt", "outside");
  const auto a = std::make_shared<vfs::FolderArchive>(root.string());
  EXPECT_EQ(names(a->children("")), (std::vector<std::string>{"Resource", "Textures", "actions.txt", "module.ini"}));
  const auto textures = a->children("Textures");
  ASSERT_EQ(textures.size(), 1u);
  EXPECT_EQ(textures[0].path, "Textures/Boots.DDS");
  EXPECT_EQ(textures[0].size, 3u);
  EXPECT_FALSE(textures[0].container);
  EXPECT_TRUE(a->children("").front().container);
  // Found as a model names it: backslashes, any case.
  EXPECT_EQ(a->find("textures\\boots.dds"), std::optional<std::string>("Textures/Boots.DDS"));
  EXPECT_EQ(a->find("nothing.dds"), std::nullopt);
  EXPECT_EQ(a->find("../secret.txt"), std::nullopt);  // exists, but not in the folder
  auto read = a->read("Textures/Boots.DDS", {});
  ASSERT_TRUE(read.ok()) << read.error().describe();
  EXPECT_EQ(text(*read), "dds");
  EXPECT_FALSE(a->read("../secret.txt", {}).ok());
  EXPECT_FALSE(a->read("Resource/../../secret.txt", {}).ok());
  EXPECT_EQ(a->addressOf("module.ini").file, (root / "module.ini").string());
  // Every file once, in tree order; a search by name.
  EXPECT_EQ(names(a->files("")), (std::vector<std::string>{"armour.brf", "Boots.DDS", "actions.txt", "module.ini"}));
  EXPECT_EQ(names(a->search("BOOTS", 10)), (std::vector<std::string>{"Boots.DDS"}));
  const auto resolve = vfs::resolverOf(a, {});
  ASSERT_TRUE(resolve("TEXTURES/boots.dds"));
  EXPECT_EQ(text(*resolve("TEXTURES/boots.dds")), "dds");
}

TEST(FolderArchive, ExtractionWritesItsFilesUnderTheirNames) {
  TempDir t;
  writeFile(t.path / "src" / "a" / "one.txt", "1");
  writeFile(t.path / "src" / "two.txt", "22");
  const auto a = std::make_shared<vfs::FolderArchive>((t.path / "src").string());
  const auto files = selectFiles(*a, std::vector<std::string>{"a", "two.txt", "missing"});
  EXPECT_EQ(names(files), (std::vector<std::string>{"one.txt", "two.txt"}));
  std::vector<std::string> unmatched;
  selectFiles(*a, std::vector<std::string>{"a", "missing"}, &unmatched);
  EXPECT_EQ(unmatched, std::vector<std::string>{"missing"});
  const ExtractReport r = extractItems(extractItemsOf(a, files), t.path / "out");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.written, 2u);
  EXPECT_EQ(r.bytes, 3u);
  EXPECT_EQ(readText(t.path / "out" / "a" / "one.txt"), "1");
  EXPECT_EQ(readText(t.path / "out" / "two.txt"), "22");
}

// ---- Dragon Nest paks ----

// Two paks as one file system: "00patch.pak" sorts first and overrides the base's table.
struct Paks {
  TempDir t;
  std::string base, patch;
  std::shared_ptr<const dn::PakArchive> archive;
  Paks() {
    const std::vector<dn::PakFile> baseFiles{{"\\Resource\\Char\\Warrior.skn", bytes("skin")},
                                             {"\\resource\\char\\warrior.msh", bytes("mesh")},
                                             {"\\resource\\mesh\\rock.msh", bytes("rock")},
                                             {"\\resource\\table\\items.dnt", bytes("old table")},
                                             {"\\resource\\ani\\walk.ani", bytes("ani")}};
    const std::vector<dn::PakFile> patchFiles{{"\\Resource\\Table\\Items.dnt", bytes("new table")}};
    base = (t.path / "Resource00.pak").string();
    patch = (t.path / "00patch.pak").string();
    for (const auto& [path, files] : {std::pair{base, baseFiles}, std::pair{patch, patchFiles}}) {
      auto b = dn::writePak(files);
      EXPECT_TRUE(b.ok());
      std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b->data()),
                                                 static_cast<std::streamsize>(b->size()));
    }
    auto set = dn::PakSet::open({base, patch});
    EXPECT_TRUE(set.ok()) << set.error().describe();
    archive = std::make_shared<const dn::PakArchive>(std::make_shared<const dn::PakSet>(std::move(set).value()));
  }
};

TEST(PakArchive, IsOneFileSystemWithOverriddenCopiesListed) {
  Paks p;
  const auto& a = *p.archive;
  EXPECT_EQ(a.kind(), "pak");
  EXPECT_EQ(a.openedFrom(), (std::vector<std::string>{p.patch, p.base}));  // in search order
  EXPECT_EQ(names(a.children("")), std::vector<std::string>{"resource"});
  const auto table = a.children("resource/table");
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[0].name, "items.dnt");  // the writer stores names as the packer does (§2.2)
  EXPECT_FALSE(table[0].has(vfs::Node::Overridden));
  EXPECT_EQ(table[0].detail, "00patch.pak, overrides Resource00.pak");
  EXPECT_TRUE(table[1].has(vfs::Node::Overridden));
  EXPECT_EQ(text(*a.read(table[0].path, {})), "new table");
  EXPECT_EQ(text(*a.read(table[1].path, {})), "old table");  // the copy's own path reads it
  EXPECT_EQ(a.addressOf(table[0].path).str(), p.patch + "::resource/table/items.dnt");
  EXPECT_EQ(a.storedName(table[0]), "\\resource\\table\\items.dnt");
  // A skin finds its mesh by bare name, anywhere.
  EXPECT_EQ(a.find("WARRIOR.MSH"), std::optional<std::string>("resource/char/warrior.msh"));
  // Extraction writes the winning copy once; overridden copies are not written.
  EXPECT_EQ(a.files("resource/table").size(), 1u);
  EXPECT_EQ(a.files("").size(), 5u);
}

// Every node listed is found by its path, whatever bytes the names hold (a name beginning with a
// control character once read as the path of an overridden copy: found by the archives fuzz target).
TEST(PakArchive, EveryNodeIsFoundByItsPathWhateverItsName) {
  TempDir t;
  const std::vector<dn::PakFile> files{{std::string("\\a\\\x01""0:0"), bytes("one")},
                                       {std::string("\\\x01odd.txt"), bytes("two")},
                                       {"\\b\\c.txt", bytes("three")}};
  auto b = dn::writePak(files);
  if (!b) MARROW_SKIP() << "the pak writer refuses control characters: " << b.error().describe();
  const std::string path = (t.path / "odd.pak").string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b->data()),
                                             static_cast<std::streamsize>(b->size()));
  auto set = dn::PakSet::open({path});
  ASSERT_TRUE(set.ok()) << set.error().describe();
  const dn::PakArchive a(std::make_shared<const dn::PakSet>(std::move(set).value()));
  std::size_t seen = 0;
  std::vector<std::string> stack{""};
  while (!stack.empty()) {
    const std::string at = stack.back();
    stack.pop_back();
    for (const auto& n : a.children(at)) {
      ++seen;
      ASSERT_TRUE(a.node(n.path)) << n.path;
      if (n.container) stack.push_back(n.path);
      else EXPECT_TRUE(a.read(n.path, {}).ok()) << n.path;
    }
  }
  EXPECT_EQ(seen, 5u);  // a/, its file, the odd file, b/, c.txt
}

TEST(PakArchive, ItsModelsAreSkinsAndMeshesNoSkinWears) {
  Paks p;
  EXPECT_EQ(names(p.archive->models("")), (std::vector<std::string>{"warrior.skn", "rock.msh"}));
  EXPECT_EQ(names(p.archive->models("resource/**/*.msh")), (std::vector<std::string>{"warrior.msh", "rock.msh"}));
  EXPECT_EQ(names(p.archive->models("\\Resource\\Mesh\\Rock.msh")), std::vector<std::string>{"rock.msh"});
  EXPECT_TRUE(p.archive->models("monster/*.skn").empty());
}

// ---- BRF files ----

const std::string kBrf = std::string(MARROW_FIXTURES_DIR) + "/brf/openbrf_redux_reference.brf";

std::shared_ptr<const brf::BrfArchive> brfArchive(std::vector<std::string> paths) {
  const FormatDescriptor* f = formatById("brf");
  auto a = f->mount(paths, {});
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().describe());
  return a.ok() ? std::dynamic_pointer_cast<const brf::BrfArchive>(*a) : nullptr;
}

TEST(BrfArchive, ListsRecordsByKindWithTheirFigures) {
  if (!fs::exists(kBrf)) MARROW_SKIP() << kBrf << " is absent (../shared/fixtures)";
  const auto a = brfArchive({kBrf});
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->holdsRecords());
  const auto files = a->children("");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "openbrf_redux_reference.brf");
  std::vector<std::string> groups;
  for (const auto& g : a->children(files[0].path)) groups.push_back(g.name + " " + g.detail);
  EXPECT_EQ(groups, (std::vector<std::string>{"Meshes 7", "Skeletons 2", "Animations 7"}));
  // Every record's path comes back as the record, and its address names it.
  for (const auto& g : a->children(files[0].path))
    for (const auto& r : a->children(g.path)) {
      const auto ref = a->recordAt(r.path);
      ASSERT_TRUE(ref) << r.path;
      EXPECT_EQ(a->pathOf(*ref), r.path);
      EXPECT_EQ(brf::recordName(a->sources()[0], ref->kind, ref->index), r.name);
      EXPECT_EQ(a->addressOf(r.path).str(), kBrf + "::" + r.name);
    }
  const auto horse = a->find("skel_horse");
  ASSERT_TRUE(horse);
  EXPECT_EQ(a->node(*horse)->detail, "28 bones");
  EXPECT_FALSE(a->recordAt("0/mesh/99").has_value());
  EXPECT_FALSE(a->recordAt("1/mesh/0").has_value());
  EXPECT_FALSE(a->recordAt("0/nonsense/0").has_value());
}

TEST(BrfArchive, ARecordReadsAsABrfFileOfThatRecord) {
  if (!fs::exists(kBrf)) MARROW_SKIP() << kBrf << " is absent (../shared/fixtures)";
  const auto a = brfArchive({kBrf});
  ASSERT_TRUE(a);
  const auto boots = a->models("*light_leather_boots");
  ASSERT_EQ(boots.size(), 1u);
  auto one = a->read(boots[0].path, {});
  ASSERT_TRUE(one.ok()) << one.error().describe();
  ReadContext ctx;
  ctx.name = "one.brf";
  const auto doc = brf::parse(*one, ctx);
  ASSERT_TRUE(doc.ok()) << doc.error().describe();
  ASSERT_EQ(doc->meshes.size(), 1u);
  EXPECT_EQ(doc->meshes[0].name, boots[0].name);
  EXPECT_TRUE(doc->skeletons.empty());
  EXPECT_EQ(a->storedName(boots[0]), "openbrf_redux_reference/" + boots[0].name + ".brf");
  // The whole file reads back byte for byte.
  std::ifstream in(kBrf, std::ios::binary);
  const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text(*a->read("0", {})), original);
  EXPECT_EQ(a->models("").size(), 7u);
}

TEST(BrfArchive, APickShowsWhatItMakes) {
  if (!fs::exists(kBrf)) MARROW_SKIP() << kBrf << " is absent (../shared/fixtures)";
  const auto a = brfArchive({kBrf});
  ASSERT_TRUE(a);
  using What = ModelArchive::Shown::What;
  auto whole = a->show({}, std::nullopt, std::nullopt);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->what, What::WholeFiles);
  EXPECT_FALSE(whole->skeletons.empty());
  const std::vector<std::string> sword{a->models("*bastard_sword").at(0).path};
  auto shown = a->show(sword, std::nullopt, std::nullopt);
  ASSERT_TRUE(shown.ok()) << shown.error().describe();
  EXPECT_EQ(shown->what, What::Model);
  EXPECT_EQ(shown->scene.meshes.size(), 1u);
  ASSERT_TRUE(shown->onScreen);
  EXPECT_EQ(*shown->onScreen, sword);
  // A skeleton alone brings the animations of its bone count.
  auto horse = a->show(std::vector<std::string>{*a->find("skel_horse")}, shown->onScreen, std::nullopt);
  ASSERT_TRUE(horse.ok());
  EXPECT_EQ(horse->scene.skeleton.name, "skel_horse");
  ASSERT_FALSE(horse->scene.clips.empty());
  EXPECT_EQ(horse->scene.clips[0].name, "anim_horse");
  for (std::size_t c = 1; c < horse->scene.clips.size(); ++c)  // its motions, cut at the gaps
    EXPECT_EQ(horse->scene.clips[c].group, "anim_horse") << horse->scene.clips[c].name;
}

TEST(BrfArchive, AMaterialAloneIsInspected) {
  const std::string flora = std::string(MARROW_FIXTURES_DIR) + "/brf/wfas_oim_flora_materials.brf";
  if (!fs::exists(flora)) MARROW_SKIP() << flora << " is absent (../shared/fixtures)";
  const auto a = brfArchive({flora});
  ASSERT_TRUE(a);
  const auto materials = a->children("0/material");
  ASSERT_FALSE(materials.empty());
  auto inspected = a->show(std::vector<std::string>{materials[0].path}, std::nullopt, std::nullopt);
  ASSERT_TRUE(inspected.ok()) << inspected.error().describe();
  EXPECT_EQ(inspected->what, ModelArchive::Shown::What::Inspect);
  ASSERT_EQ(inspected->scene.materials.size(), 1u);
  EXPECT_EQ(inspected->scene.materials[0].name, materials[0].name);
  EXPECT_FALSE(inspected->onScreen.has_value());
}

// ---- loading addresses ----

TEST(Load, ReadsPakEntriesLooksNamesUpAndMountsThePaks) {
  Paks p;
  // A table entry, by path in one pak: the file system is both paks.
  auto loaded = load(std::vector<std::string>{p.base + "::resource/table/items.dnt", p.patch});
  ASSERT_FALSE(loaded.ok());  // "new table" is no DNT: the entry was read, and its reader said so
  EXPECT_NE(loaded.error().describe().find(p.base + "::\\resource\\table\\items.dnt"), std::string::npos)
      << loaded.error().describe();
  // No such entry; a lookup with nothing open; a lookup of a name no archive has.
  EXPECT_FALSE(load(std::vector<std::string>{p.base + "::nothing.skn"}).ok());
  EXPECT_NE(load(std::vector<std::string>{"::warrior.skn"}).error().message.find("no archive is open"),
            std::string::npos);
  EXPECT_NE(load(std::vector<std::string>{p.base, "::nobody.skn"}).error().message.find("no entry"),
            std::string::npos);
  // The paks alone: nothing to show, everything to browse.
  auto paks = load(std::vector<std::string>{p.base, p.patch});
  ASSERT_TRUE(paks.ok()) << paks.error().describe();
  EXPECT_TRUE(paks->scene.meshes.empty());
  ASSERT_EQ(paks->archives.archives().size(), 1u);
  EXPECT_EQ(paks->archives.archives()[0]->kind(), "pak");
  const auto gathered = gather(std::vector<std::string>{p.base, "::WARRIOR.SKN"});
  ASSERT_TRUE(gathered.ok());
  ASSERT_EQ(gathered->inputs.size(), 1u);
  EXPECT_EQ(text(gathered->inputs[0].bytes), "skin");
  EXPECT_EQ(gathered->inputs[0].ctx.name, p.base + "::\\resource\\char\\warrior.skn");
  EXPECT_EQ(gathered->archiveFiles, std::vector<std::string>{p.base});
}

TEST(Load, AFolderIsBrowsedAndItsFilesRead) {
  TempDir t;
  writeFile(t.path / "game" / "notes.txt", "notes");
  auto loaded = load(std::vector<std::string>{(t.path / "game").string()});
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  ASSERT_EQ(loaded->archives.archives().size(), 1u);
  EXPECT_EQ(loaded->archives.archives()[0]->kind(), "folder");
  // FOLDER::file is the file.
  const auto g = gather(std::vector<std::string>{(t.path / "game").string() + "::notes.txt"});
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(g->inputs.size(), 1u);
  EXPECT_EQ(text(g->inputs[0].bytes), "notes");
  EXPECT_EQ(g->inputs[0].diskPath, (t.path / "game" / "notes.txt").string());
}

TEST(Load, BrfRecordsAreReadWithWhatTheyNeed) {
  if (!fs::exists(kBrf)) MARROW_SKIP() << kBrf << " is absent (../shared/fixtures)";
  auto loaded = load(std::vector<std::string>{kBrf + "::skel_horse"});
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  EXPECT_EQ(loaded->scene.skeleton.name, "skel_horse");
  EXPECT_TRUE(loaded->scene.meshes.empty());
  ASSERT_EQ(loaded->archives.archives().size(), 1u);
  EXPECT_TRUE(loaded->archives.archives()[0]->holdsRecords());
  EXPECT_FALSE(load(std::vector<std::string>{kBrf + "::no_such_record"}).ok());
}

// ---- the format table ----

TEST(FormatTable, DetectsByContentThenByExtension) {
  const auto id = [](std::string_view head, std::string_view name) {
    const FormatDescriptor* f = detect(bytes(head), name);
    return f ? std::string(f->id) : std::string("none");
  };
  EXPECT_EQ(id("OMF1....", "a.glb"), "omf");
  EXPECT_EQ(id(std::string("CSF\0", 4), "a.bin"), "cal3d");
  EXPECT_EQ(id(std::string("\x06\0\0\0rfver ", 10), "a.bin"), "brf");
  EXPECT_EQ(id("Eternity Engine Skin File 0.1", "a.bin"), "dragonnest");
  EXPECT_EQ(id("EyedentityGames Packing File 0.1", "a.bin"), "dragonnest");
  EXPECT_EQ(id("glTF....", "model.omf"), "gltf");
  EXPECT_EQ(id("Kaydara FBX Binary  ", "a.bin"), "assimp");
  EXPECT_EQ(id("", "hero.XMF"), "cal3d");
  EXPECT_EQ(id("", "scene.gltf"), "gltf");
  EXPECT_EQ(id("", "walk.SMD"), "assimp");
  EXPECT_EQ(id("", "table.dnt"), "dragonnest");
  EXPECT_EQ(id("", "readme.txt"), "none");
  EXPECT_EQ(archiveFormatFor("x/Resource00.PAK"), formatById("dragonnest"));
  EXPECT_EQ(archiveFormatFor("armour.brf"), nullptr);  // read, not mounted
}

TEST(FormatTable, EveryFormatIsWholeAndEveryOutputIsFound) {
  std::vector<std::string> extensions;
  for (const FormatDescriptor* f : formatTable()) {
    EXPECT_FALSE(f->id.empty());
    EXPECT_FALSE(f->name.empty());
    EXPECT_TRUE(f->reads()) << f->id;
    // A format with extensions of its own claims their MIME types; one known by whole file names
    // (a Warband module's module.ini) claims none: they are plain text other programs own.
    EXPECT_EQ(f->mimeTypes.empty(), f->extensions.empty()) << f->id;
    if (!f->mimeTypes.empty()) {
      EXPECT_NE(std::find(f->mimeTypes.begin(), f->mimeTypes.end(), f->mime), f->mimeTypes.end()) << f->id;
    }
    for (std::string_view n : f->fileNames) {
      EXPECT_EQ(detect({}, "Some/Folder/" + std::string(n)), f) << n;
      std::string upper(n);
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      EXPECT_EQ(detect({}, upper), f) << n << ": names from Windows come in any case";
    }
    EXPECT_EQ(f->writes(), !f->outputs.empty()) << f->id;
    for (std::string_view e : f->extensions) {
      EXPECT_EQ(std::find(extensions.begin(), extensions.end(), e), extensions.end()) << e << " claimed twice";
      extensions.emplace_back(e);
      EXPECT_EQ(detect({}, "x." + std::string(e)), f) << e;  // each extension leads to its format
    }
    for (const OutputKind& k : f->outputs) {
      const Output o = outputFor("out/model." + std::string(k.extension));
      EXPECT_EQ(o.format, f);
      EXPECT_EQ(o.kind, &k);
    }
  }
  EXPECT_EQ(readExtensions(), extensions);
  EXPECT_EQ(extensions.size(), 89u);  // OMF 1, cal3d 11, BRF 1, Dragon Nest 6, glTF 2, assimp 68
}

}  // namespace
}  // namespace marrow::formats
