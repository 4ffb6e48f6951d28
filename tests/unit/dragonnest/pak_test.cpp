// Dragon Nest paks (specs/dragonnest.md §2): damaged and hostile archives first, then entries
// of paks made by an independent packer (written here from the spec, byte by byte), the
// writer's round trip, several paks as one file system, the lazy tree and safe extraction.
#include "formats/dragonnest/pak.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "formats/dragonnest/extract.h"
#include "formats/dragonnest/pak_writer.h"
#include "formats/io/read_context.h"
#include "tests/support/temp_dir.h"

namespace {
namespace fs = std::filesystem;
using namespace marrow::formats;
using namespace marrow::formats::dragonnest;
using Bytes = std::vector<std::byte>;

Bytes bytesOf(std::string_view s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return {p, p + s.size()};
}

Bytes zlibOf(const Bytes& data, int level = 1) {
  uLongf n = compressBound(static_cast<uLong>(data.size()));
  Bytes out(n);
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &n,
                      reinterpret_cast<const Bytef*>(data.data()), static_cast<uLong>(data.size()),
                      level),
            Z_OK);
  out.resize(n);
  return out;
}

// Repetitive but not trivial text: compresses well, checks every byte.
Bytes sampleData(std::size_t n, unsigned seed) {
  Bytes out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<std::byte>("abcdefgh"[(i * 7 + seed) % 8] + (i % 61 == 0 ? seed % 5 : 0));
  return out;
}

// A packer independent of formats/dragonnest/pak_writer: the layout of §2.1/§2.2 written byte
// by byte, with every field under the test's control.
struct RawPacker {
  struct Row {
    std::string name;  // written as is (up to 256 bytes, no NUL added when it fills them)
    std::uint32_t packed = 0, size = 0, alloc = 0, offset = 0, crypt = 0;
    std::string tail;  // bytes after the name's NUL (0xFD debug fill)
  };
  std::uint32_t version = 11;
  std::uint8_t pending = 0;
  std::size_t headerSize = 1024;  // 268: a community packer's short header (§2.5)
  Bytes data;                     // what follows the header
  std::vector<Row> rows;
  Bytes afterTable;

  // A file as the engine stores it: one zlib stream, allocated exactly.
  Row& add(std::string name, const Bytes& content) {
    return addStream(std::move(name), zlibOf(content), static_cast<std::uint32_t>(content.size()));
  }
  Row& addStream(std::string name, const Bytes& stream, std::uint32_t size) {
    Row r;
    r.name = std::move(name);
    r.offset = static_cast<std::uint32_t>(headerSize + data.size());
    r.packed = r.alloc = static_cast<std::uint32_t>(stream.size());
    r.size = size;
    data.insert(data.end(), stream.begin(), stream.end());
    rows.push_back(r);
    return rows.back();
  }
  Row& addDeleted(std::string name) {
    rows.push_back({std::move(name), 0, 0, 0, 0, 0, {}});
    return rows.back();
  }
  static void u32(Bytes& b, std::size_t at, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) b[at + k] = static_cast<std::byte>((v >> (8 * k)) & 0xFF);
  }
  Bytes bytes() const {
    Bytes out(headerSize, std::byte{0});
    const std::string magic = "EyedentityGames Packing File 0.1";
    std::memcpy(out.data(), magic.data(), magic.size());
    out.insert(out.end(), data.begin(), data.end());
    const std::size_t table = out.size();
    u32(out, 256, version);
    u32(out, 260, static_cast<std::uint32_t>(rows.size()));
    u32(out, 264, static_cast<std::uint32_t>(table));
    if (headerSize > 268) out[268] = static_cast<std::byte>(pending);
    for (const Row& r : rows) {
      const std::size_t at = out.size();
      out.resize(at + 316, std::byte{0});
      std::memcpy(out.data() + at, r.name.data(), std::min<std::size_t>(r.name.size(), 256));
      if (!r.tail.empty() && r.name.size() + 1 + r.tail.size() <= 256)
        std::memcpy(out.data() + at + r.name.size() + 1, r.tail.data(), r.tail.size());
      u32(out, at + 256, r.packed);
      u32(out, at + 260, r.size);
      u32(out, at + 264, r.alloc);
      u32(out, at + 268, r.offset);
      u32(out, at + 280, r.crypt);
    }
    out.insert(out.end(), afterTable.begin(), afterTable.end());
    return out;
  }
};

Pak parsed(const Bytes& b, std::string name = "test.pak") {
  auto pak = Pak::parse(b, std::move(name));
  EXPECT_TRUE(pak.ok()) << (pak.ok() ? "" : pak.error().describe());
  if (!pak.ok()) throw std::runtime_error("no pak");
  return std::move(*pak);
}

std::string errorOf(const Bytes& b) {
  auto pak = Pak::parse(b, "bad.pak");
  return pak.ok() ? std::string("(opened)") : pak.error().describe();
}

std::string readError(const Pak& pak, std::string_view path);

// The read error of `path` in a pak made of `bytes` (which stay alive for the call).
std::string readErrorIn(const Bytes& bytes, std::string_view path) {
  return readError(parsed(bytes), path);
}

std::string readError(const Pak& pak, std::string_view path) {
  const PakEntry* e = nullptr;
  for (const auto& x : pak.entries())
    if (pak.path(x) == normalizePakPath(path)) e = &x;
  if (!e) return "(no entry)";
  auto r = pak.read(*e);
  return r.ok() ? std::string("(read)") : r.error().describe();
}

RawPacker smallPak() {
  RawPacker p;
  p.add("\\resource\\char\\warrior.skn", bytesOf("skin of a warrior"));
  p.add("\\resource\\char\\warrior.msh", sampleData(3000, 1));
  p.addDeleted("\\resource\\old.dds");
  p.add("\\resource\\ext\\jobtable.dnt", sampleData(700, 2));
  return p;
}

// ---------------------------------------------------------------- damaged and hostile archives

TEST(Pak, RejectsFilesShorterThanTheHeaderFields) {
  EXPECT_NE(errorOf(Bytes(100)).find("shorter than the 268 bytes"), std::string::npos);
}

TEST(Pak, RejectsAnotherMagic) {
  Bytes b = smallPak().bytes();
  std::memcpy(b.data(), "Eternity Engine Mesh File 0.1\0", 30);
  EXPECT_NE(errorOf(b).find("not a Dragon Nest pak"), std::string::npos);
}

TEST(Pak, RejectsVersionsOtherThan10And11) {
  RawPacker p = smallPak();
  p.version = 12;
  EXPECT_NE(errorOf(p.bytes()).find("PAK_12"), std::string::npos);
  p.version = 9;
  EXPECT_NE(errorOf(p.bytes()).find("version 9"), std::string::npos);
}

TEST(Pak, RejectsHugeCountsBeforeAllocating) {
  Bytes b = smallPak().bytes();
  for (std::uint32_t count : {0xFFFFFFFFu, 0x80000000u, 5u}) {
    RawPacker::u32(b, 260, count);
    EXPECT_NE(errorOf(b).find("entry count"), std::string::npos) << count;
  }
  RawPacker legacy = smallPak();
  legacy.version = 10;
  Bytes l = legacy.bytes();
  RawPacker::u32(l, 260, 0xFFFFFFFFu);
  EXPECT_NE(errorOf(l).find("entry count"), std::string::npos);
}

TEST(Pak, RejectsATableOutsideTheFileOrOverTheHeader) {
  Bytes b = smallPak().bytes();
  RawPacker::u32(b, 264, 0xFFFFFF00u);
  EXPECT_NE(errorOf(b).find("entry count"), std::string::npos);
  RawPacker::u32(b, 264, 16);
  EXPECT_NE(errorOf(b).find("overlaps the header"), std::string::npos);
}

TEST(Pak, RejectsAnInterruptedPatch) {
  RawPacker p = smallPak();
  p.pending = 1;
  EXPECT_NE(errorOf(p.bytes()).find("header write pending"), std::string::npos);
}

TEST(Pak, EveryPrefixIsRejectedWithoutCrashing) {
  const Bytes full = smallPak().bytes();
  for (std::size_t n = 0; n < full.size(); ++n) {
    const Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    auto pak = Pak::parse(prefix, "prefix.pak");
    ASSERT_FALSE(pak.ok()) << n;  // the table is at the end: any cut reaches it
    EXPECT_FALSE(pak.error().message.empty());
  }
}

TEST(Pak, ByteFlipsGiveErrorsOrTheDeclaredSizesNeverACrash) {
  const Bytes full = smallPak().bytes();
  for (std::size_t at = 0; at < full.size(); ++at) {
    for (unsigned mask : {0x01u, 0x80u, 0xFFu}) {
      Bytes b = full;
      b[at] ^= static_cast<std::byte>(mask);
      auto pak = Pak::parse(b, "flipped.pak");
      if (!pak.ok()) continue;
      for (const auto& e : pak->entries()) {
        auto r = pak->read(e);
        if (r.ok()) {
          EXPECT_EQ(r->size(), e.size);  // never more, never less than declared
        }
      }
      (void)pak->children("");
      (void)pak->children("resource/char");
    }
  }
}

TEST(Pak, AnEntryThatInflatesPastItsSizeIsStopped) {
  RawPacker p;
  RawPacker::Row& r = p.add("\\bomb.bin", Bytes(100000, std::byte{0}));
  r.size = 1000;  // declares far less than the stream holds
  const Bytes bytes = p.bytes();
  const Pak pak = parsed(bytes);
  EXPECT_NE(readError(pak, "bomb.bin").find("inflates past its declared size of 1000"),
            std::string::npos);
}

TEST(Pak, AStreamEndingShortOfItsSizeIsReported) {
  RawPacker p;
  p.add("\\short.bin", sampleData(500, 3)).size = 800;
  EXPECT_NE(readErrorIn(p.bytes(), "short.bin").find("short of its declared size of 800"),
            std::string::npos);
}

TEST(Pak, ATruncatedStreamIsReported) {
  RawPacker p;
  const Bytes content = sampleData(5000, 4);
  Bytes stream = zlibOf(content, 0);  // stored blocks: the cut is inside the data
  stream.resize(stream.size() / 2);
  p.addStream("\\cut.bin", stream, 5000);
  EXPECT_NE(readErrorIn(p.bytes(), "cut.bin").find("cut short"), std::string::npos);
}

TEST(Pak, ASizeNoStreamCanReachIsRefusedBeforeAllocating) {
  RawPacker p;
  p.add("\\liar.bin", bytesOf("tiny")).size = 0xFFFFFFF0u;
  EXPECT_NE(readErrorIn(p.bytes(), "liar.bin").find("more than a"), std::string::npos);
}

TEST(Pak, NotZlibIsReportedAsEncryptedOrUnsupported) {
  RawPacker p;
  p.addStream("\\secret.bin", bytesOf("\x78\x01garbage that is no deflate"), 50).crypt = 1;
  EXPECT_NE(readErrorIn(p.bytes(), "secret.bin").find("encrypted"), std::string::npos);
}

TEST(Pak, DataOutsideTheFileMarksTheEntryNotTheArchive) {
  RawPacker p = smallPak();
  p.rows[0].offset = 0x7FFFFFF0u;
  const Bytes bytes = p.bytes();
  const Pak pak = parsed(bytes);
  EXPECT_TRUE(pak.entries()[0].flags & PakEntry::OutOfBounds);
  EXPECT_EQ(pak.diagnostics().count(Severity::Error), 1u);
  EXPECT_NE(readError(pak, "resource/char/warrior.skn").find("end past the file"),
            std::string::npos);
  EXPECT_EQ(readError(pak, "resource/ext/jobtable.dnt"), "(read)");
}

// ---------------------------------------------------------------- entries of an independent packer

TEST(Pak, ListsAndReadsAnIndependentPackersEntriesByteExactly) {
  RawPacker p;
  const Bytes a = sampleData(12345, 5), b = bytesOf("hello"), empty;
  p.add("\\Resource\\Mixed\\CASE.txt", a).tail = "\xFD\xFD\xFD\xFD";  // §1 debug fill
  p.add("\\resource\\empty.bin", empty);
  p.add("\\resource\\hello.txt", b).alloc += 64;  // a reused, larger slot (§2.2)
  const Bytes bytes = p.bytes();
  const Pak pak = parsed(bytes);
  ASSERT_EQ(pak.entries().size(), 3u);
  EXPECT_EQ(pak.storedPath(pak.entries()[0]), "\\Resource\\Mixed\\CASE.txt");
  EXPECT_EQ(pak.path(pak.entries()[0]), "resource/mixed/case.txt");
  const PakEntry* e = pak.find("\\RESOURCE\\mixed\\case.TXT");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(*pak.read(*e), a);
  EXPECT_EQ(*pak.read(*pak.find("resource/empty.bin")), empty);
  EXPECT_EQ(*pak.read(*pak.find("resource/hello.txt")), b);
  EXPECT_TRUE(pak.diagnostics().empty());
}

TEST(Pak, DeletedEntriesAreFlaggedAndNotFound) {
  const Bytes bytes = smallPak().bytes();
  const Pak pak = parsed(bytes);
  const PakEntry& deleted = pak.entries()[2];
  EXPECT_TRUE(deleted.deleted());
  EXPECT_FALSE(deleted.readable());
  EXPECT_EQ(pak.path(deleted), "resource/old.dds");
  EXPECT_EQ(pak.find("resource/old.dds"), nullptr);
  EXPECT_NE(readError(pak, "resource/old.dds").find("deleted"), std::string::npos);
}

TEST(Pak, DuplicatePathsAreReportedAndTheFirstIsRead) {
  RawPacker p;
  p.add("\\a.txt", bytesOf("first"));
  p.add("\\A.TXT", bytesOf("second"));
  const Bytes bytes = p.bytes();
  const Pak pak = parsed(bytes);
  EXPECT_EQ(pak.diagnostics().count(Severity::Warning), 1u);
  EXPECT_EQ(*pak.read(*pak.find("a.txt")), bytesOf("first"));
}

TEST(Pak, ReadsACommunityPakWithAShortHeaderAndPaddingAfterTheTable) {
  RawPacker p;  // §2.5: data straight after the 268 header bytes, DE AD BE EF after the index
  p.headerSize = 268;
  p.add("\\mod\\x.txt", bytesOf("modded"));
  for (int k = 0; k < 64; ++k)
    for (unsigned char c : {0xDE, 0xAD, 0xBE, 0xEF}) p.afterTable.push_back(std::byte{c});
  const Bytes bytes = p.bytes();
  const Pak pak = parsed(bytes);
  EXPECT_EQ(*pak.read(*pak.find("mod/x.txt")), bytesOf("modded"));
}

TEST(Pak, ReadsStoredDataOfEqualSizes) {
  RawPacker p;  // §2.3 defensive: no zlib header, packed == original
  p.addStream("\\raw.bin", bytesOf("plain bytes"), 11);
  const Bytes b = p.bytes();
  const Pak pak = parsed(b);
  EXPECT_EQ(*pak.read(*pak.find("raw.bin")), bytesOf("plain bytes"));
}

TEST(Pak, ReadsVersion10WithTheTableAtTheEnd) {
  RawPacker p = smallPak();
  p.version = 10;
  Bytes b = p.bytes();
  RawPacker::u32(b, 264, 0xDEADBEEF);  // ignored in v10 (§2.1)
  const Pak pak = parsed(b);
  EXPECT_EQ(pak.version(), 10u);
  EXPECT_EQ(*pak.read(*pak.find("resource/ext/jobtable.dnt")), sampleData(700, 2));
}

TEST(Pak, AnOversizedStreamForItsSlotIsWarnedAbout) {
  RawPacker p;
  p.add("\\x.txt", bytesOf("text")).alloc = 2;
  const Bytes bytes = p.bytes();
  const Pak pak = parsed(bytes);
  EXPECT_EQ(pak.diagnostics().count(Severity::Warning), 1u);
  EXPECT_EQ(*pak.read(*pak.find("x.txt")), bytesOf("text"));
}

// ---------------------------------------------------------------- the writer

TEST(PakWriter, RoundTripsFilesInTheEnginesLayout) {
  std::vector<PakFile> files = {{"Resource/Char/Warrior.SKN", sampleData(999, 6)},
                                {"resource\\ext\\jobtable.dnt", sampleData(70000, 7)},
                                {"empty.txt", {}}};
  auto bytes = writePak(files);
  ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
  const Pak pak = parsed(*bytes);
  EXPECT_EQ(std::memcmp(bytes->data(), "EyedentityGames Packing File 0.1\0", 33), 0);
  EXPECT_EQ(pak.version(), 11u);
  EXPECT_EQ(std::to_integer<int>((*bytes)[268]), 0);  // the pending flag cleared at the end
  EXPECT_EQ(pak.tableOffset() + 3 * kPakEntrySize, bytes->size());
  ASSERT_EQ(pak.entries().size(), 3u);
  EXPECT_EQ(pak.storedPath(pak.entries()[0]), "\\resource\\char\\warrior.skn");  // §2.2
  for (std::size_t k = 0; k < files.size(); ++k) {
    const PakEntry& e = pak.entries()[k];
    EXPECT_EQ(e.dataOffset >= kPakHeaderSize, true);
    EXPECT_EQ(std::to_integer<int>((*bytes)[e.dataOffset]), 0x78);  // zlib, level 1: 78 01
    EXPECT_EQ(std::to_integer<int>((*bytes)[e.dataOffset + 1]), 0x01);
    EXPECT_EQ(*pak.read(e), files[k].data);
  }
  EXPECT_TRUE(pak.diagnostics().empty());
}

TEST(PakWriter, RefusesNamesThatAreNotPaths) {
  for (const char* bad : {"", "a/../b", "..", "a//b/./c", "/"})
    EXPECT_FALSE(storedPakPath(bad).ok()) << bad;
  EXPECT_FALSE(storedPakPath(std::string(300, 'a')).ok());
  EXPECT_EQ(*storedPakPath("/a//B\\c"), "\\a\\b\\c");
}

TEST(PakWriter, AddsAndReplacesEntriesInACopy) {
  RawPacker p = smallPak();
  const Bytes baseBytes = p.bytes();
  const Pak base = parsed(baseBytes, "base.pak");
  const std::vector<PakFile> changes = {{"resource/char/warrior.msh", bytesOf("new mesh")},
                                        {"resource/new.txt", bytesOf("added")}};
  auto copy = writePakCopy(base, changes);
  ASSERT_TRUE(copy.ok()) << copy.error().describe();
  const Pak pak = parsed(*copy, "copy.pak");
  ASSERT_EQ(pak.entries().size(), 4u);  // the deleted slot is left out
  EXPECT_EQ(pak.path(pak.entries()[1]), "resource/char/warrior.msh");  // in its place
  EXPECT_EQ(*pak.read(*pak.find("resource/char/warrior.msh")), bytesOf("new mesh"));
  EXPECT_EQ(*pak.read(*pak.find("resource/new.txt")), bytesOf("added"));
  EXPECT_EQ(*pak.read(*pak.find("resource/char/warrior.skn")), bytesOf("skin of a warrior"));
  EXPECT_EQ(*pak.read(*pak.find("resource/ext/jobtable.dnt")), sampleData(700, 2));
}

// ---------------------------------------------------------------- several paks, the tree

PakSet stockAndMod(const Bytes& stock, const Bytes& mod) {
  std::vector<Pak> paks;
  paks.push_back(parsed(stock, "Resource00.pak"));  // given first, searched second
  paks.push_back(parsed(mod, "00Resource.pak"));
  return PakSet(std::move(paks));
}

TEST(PakSet, AModPakSortingFirstOverridesTheStockOne) {
  RawPacker stock = smallPak(), mod;
  mod.add("\\resource\\char\\elsewhere\\warrior.msh", bytesOf("mod mesh"));
  mod.add("\\resource\\ext\\jobtable.dnt", bytesOf("mod table"));
  mod.addDeleted("\\resource\\char\\warrior.skn");  // a deleted copy hides nothing
  const Bytes sb = stock.bytes(), mb = mod.bytes();
  const PakSet set = stockAndMod(sb, mb);
  EXPECT_EQ(set.pak(0).name(), "00Resource.pak");
  EXPECT_EQ(*PakSet::read(set.findPath("\\resource\\ext\\jobtable.dnt")), bytesOf("mod table"));
  EXPECT_EQ(*PakSet::read(set.findName("Warrior.MSH")), bytesOf("mod mesh"));  // by bare name
  EXPECT_EQ(*PakSet::read(set.findPath("resource/char/warrior.msh")), sampleData(3000, 1));
  EXPECT_EQ(*PakSet::read(set.find("warrior.skn")), bytesOf("skin of a warrior"));
  EXPECT_FALSE(set.find("nothing.dds"));
  const PakRef stockTable{&set.pak(1), set.pak(1).find("resource/ext/jobtable.dnt")};
  ASSERT_TRUE(stockTable);
  EXPECT_FALSE(set.isActive(stockTable));  // overridden
  EXPECT_TRUE(set.isActive(set.findPath("resource/ext/jobtable.dnt")));
}

TEST(PakSet, ResolvesASkinsNamesThroughReadContext) {
  const Bytes b = smallPak().bytes();
  std::vector<Pak> paks;
  paks.push_back(parsed(b));
  ReadContext ctx;
  ctx.resolve = PakSet(std::move(paks)).resolver();  // the resolver keeps the paks alive
  const auto found = fetchNamedFile(ctx, "D:\\art\\WARRIOR.MSH");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->bytes, sampleData(3000, 1));
  EXPECT_FALSE(ctx.resolve("old.dds").has_value());  // deleted
}

TEST(PakSet, ChildrenAreComputedPerFolderFoldersFirst) {
  RawPacker stock = smallPak(), mod;
  mod.add("\\resource\\char-b.txt", bytesOf("x"));
  mod.add("\\resource\\char.txt", bytesOf("y"));
  mod.add("\\resource\\char\\z.dds", bytesOf("z"));
  const Bytes sb = stock.bytes(), mb = mod.bytes();
  const PakSet set = stockAndMod(sb, mb);
  const auto names = [](const std::vector<PakSetNode>& nodes) {
    std::vector<std::string> out;
    for (const auto& n : nodes) out.push_back((n.folder ? "/" : "") + n.name);
    return out;
  };
  EXPECT_EQ(names(set.children("")), std::vector<std::string>{"/resource"});
  EXPECT_EQ(names(set.children("\\Resource\\")),
            (std::vector<std::string>{"/char", "/ext", "char-b.txt", "char.txt", "old.dds"}));
  const auto chars = set.children("resource/char");
  EXPECT_EQ(names(chars), (std::vector<std::string>{"warrior.msh", "warrior.skn", "z.dds"}));
  EXPECT_EQ(chars[2].file.pak->name(), "00Resource.pak");
  const auto res = set.children("resource");
  EXPECT_TRUE(res.back().file.entry->deleted());  // shown as such
  EXPECT_TRUE(set.children("resource/char/warrior.msh").empty());
}

// ---------------------------------------------------------------- safe extraction

TEST(Extract, RefusesNamesThatLeaveTheFolder) {
  for (const char* bad : {"..\\..\\evil.txt", "\\resource\\..\\..\\evil.txt", "C:\\evil.txt",
                          "c:evil.txt", "\\\\server\\share\\evil.txt", "//host/evil", "a\\.\\b",
                          "a\\\\b", "", "\\", "folder\\", "a:b", "bad\x01name", "\\..", ".."})
    EXPECT_FALSE(safeRelativePath(bad)) << bad;
  EXPECT_EQ(safeRelativePath("\\resource\\ext\\x.dnt").relative, fs::path("resource/ext/x.dnt"));
  EXPECT_EQ(safeRelativePath("plain.txt").relative, fs::path("plain.txt"));
  EXPECT_EQ(safeRelativePath("/etc/passwd").relative, fs::path("etc/passwd"));  // pak root
}

using ::marrow::testing::TempDir;

std::set<std::string> treeOf(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    out.insert(e.path().lexically_relative(root).generic_string());
  return out;
}

Bytes fileBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return bytesOf(s);
}

TEST(Extract, WritesEntriesByteExactlyAndNothingOutsideTheTarget) {
  RawPacker p;
  const Bytes a = sampleData(4321, 8), b = bytesOf("second");
  p.add("\\Resource\\a.bin", a);
  p.add("..\\..\\evil.txt", bytesOf("evil"));
  p.add("C:\\evil.txt", bytesOf("evil"));
  p.add("\\\\server\\evil.txt", bytesOf("evil"));
  p.addDeleted("\\resource\\deleted.bin");
  p.add("\\resource\\sub\\b.txt", b);
  p.add("\\resource\\bomb.bin", Bytes(50000, std::byte{1})).size = 10;
  const Bytes bytes = p.bytes();
  std::vector<Pak> paks;
  paks.push_back(parsed(bytes));
  const PakSet set(std::move(paks));

  TempDir tmp;
  const fs::path target = tmp.path / "x" / "y" / "out";
  fs::create_directories(target);
  fs::create_directories(tmp.path / "x" / "y" / "sibling");
  const auto before = treeOf(tmp.path);
  const auto entries = selectEntries(set, {});
  EXPECT_EQ(entries.size(), 6u);  // live only
  std::size_t calls = 0;
  ExtractOptions options;
  options.progress = [&](const ExtractProgress& pr) {
    ++calls;
    EXPECT_LE(pr.done, pr.total);
    return true;
  };
  const ExtractReport report = extractEntries(set, entries, target, options);
  EXPECT_EQ(report.written, 2u);
  EXPECT_EQ(report.refused.size(), 3u);
  ASSERT_EQ(report.failed.size(), 1u);
  EXPECT_NE(report.failed[0].message.find("inflates past"), std::string::npos);
  EXPECT_EQ(calls, entries.size() + 1);
  EXPECT_EQ(fileBytes(target / "Resource" / "a.bin"), a);
  EXPECT_EQ(fileBytes(target / "resource" / "sub" / "b.txt"), b);
  // Outside the target nothing changed; inside it only the two files and their folders.
  auto after = treeOf(tmp.path);
  std::set<std::string> inside;
  for (auto it = after.begin(); it != after.end();)
    if (it->starts_with("x/y/out/")) {
      inside.insert(it->substr(8));
      it = after.erase(it);
    } else {
      ++it;
    }
  EXPECT_EQ(after, before);
  EXPECT_EQ(inside, (std::set<std::string>{"Resource", "Resource/a.bin", "resource", "resource/sub",
                                           "resource/sub/b.txt"}));
}

// Entries over Limits::maxWholeEntry are extracted in pieces, never held whole, and checked
// as a whole read checks them: a stream that ends short or runs past its size leaves no file,
// not even a partial one.
TEST(Extract, EntriesOverTheWholeLimitStreamToDiskAndAreCheckedTheSame) {
  RawPacker p;
  const Bytes big = sampleData(5u << 20, 9);
  p.add("\\big.bin", big);
  p.add("\\short.bin", sampleData(3u << 20, 10)).size = 4u << 20;        // ends short of its size
  p.add("\\bomb.bin", Bytes(4u << 20, std::byte{2})).size = 2u << 20;   // runs past its size
  p.add("\\small.bin", bytesOf("small"));
  const Bytes bytes = p.bytes();
  std::vector<Pak> paks;
  paks.push_back(parsed(bytes));
  const PakSet set(std::move(paks));

  // Pieces of at most 1 MiB, in order, the whole checked.
  std::size_t pieces = 0;
  Bytes joined;
  const PakRef bigRef = set.find("big.bin");
  ASSERT_TRUE(bigRef);
  auto given = bigRef.pak->stream(*bigRef.entry, [&](std::span<const std::byte> piece) {
    ++pieces;
    EXPECT_LE(piece.size(), 1u << 20);
    joined.insert(joined.end(), piece.begin(), piece.end());
    return true;
  });
  ASSERT_TRUE(given.ok()) << given.error().describe();
  EXPECT_EQ(*given, big.size());
  EXPECT_EQ(pieces, 5u);
  EXPECT_TRUE(joined == big);

  TempDir tmp;
  ExtractOptions options;
  options.limits.maxWholeEntry = 1u << 20;
  options.limits.allocationFactor = 1;  // a whole read of the big entry would be refused
  const ExtractReport report = extractEntries(set, selectEntries(set, {}), tmp.path, options);
  EXPECT_EQ(report.written, 2u);
  ASSERT_EQ(report.failed.size(), 2u);
  std::string failures = report.failed[0].message + "\n" + report.failed[1].message;
  EXPECT_NE(failures.find("short of its declared size of 4194304"), std::string::npos) << failures;
  EXPECT_NE(failures.find("inflates past its declared size of 2097152"), std::string::npos) << failures;
  EXPECT_TRUE(fileBytes(tmp.path / "big.bin") == big);
  EXPECT_EQ(fileBytes(tmp.path / "small.bin"), bytesOf("small"));
  EXPECT_EQ(treeOf(tmp.path), (std::set<std::string>{"big.bin", "small.bin"}));  // nothing partial

  // A link where the piece file goes is removed, not written through; a cancel in the middle of
  // an entry leaves nothing of it.
  TempDir again;
  const fs::path outside = again.path / "outside.txt";
  std::ofstream(outside) << "keep";
  fs::create_directories(again.path / "out");
  fs::create_symlink(outside, again.path / "out" / ".big.bin.marrow-part");
  const ExtractReport linked = extractEntries(set, std::vector<PakRef>{bigRef}, again.path / "out", options);
  EXPECT_EQ(linked.written, 1u);
  EXPECT_TRUE(fileBytes(again.path / "out" / "big.bin") == big);
  EXPECT_EQ(fileBytes(outside), bytesOf("keep"));
  fs::remove(again.path / "out" / "big.bin");
  int calls = 0;
  options.progress = [&](const ExtractProgress&) { return ++calls < 3; };  // stops during the big entry
  const ExtractReport cancelled = extractEntries(set, std::vector<PakRef>{bigRef}, again.path / "out", options);
  EXPECT_TRUE(cancelled.cancelled);
  EXPECT_EQ(treeOf(again.path / "out"), std::set<std::string>{});
}

// With the default limits, an entry over 64 MiB streams (a pak of a client's movies).
TEST(Extract, AnEntryOver64MiBIsExtractedWhole) {
  RawPacker p;
  const std::size_t size = (64u << 20) + 12345;
  Bytes content(size, std::byte{7});
  content[size - 1] = std::byte{9};
  p.add("\\movie.bik", content);
  const Bytes bytes = p.bytes();  // the pak reads it in place
  std::vector<Pak> paks;
  paks.push_back(parsed(bytes));
  const PakSet set(std::move(paks));
  TempDir tmp;
  const ExtractReport report = extractEntries(set, selectEntries(set, {}), tmp.path);
  ASSERT_EQ(report.written, 1u) << (report.failed.empty() ? "" : report.failed[0].message);
  EXPECT_EQ(report.bytes, size);
  EXPECT_TRUE(fileBytes(tmp.path / "movie.bik") == content);
}

// The writer's streams (libdeflate) are zlib streams: zlib's own uncompress gives the data back.
TEST(PakWriter, ZlibReadsWhatItWrites) {
  std::vector<PakFile> files;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{300000}})
    for (unsigned seed : {1u, 2u}) {
      PakFile f;
      f.path = "f" + std::to_string(n) + "_" + std::to_string(seed);
      f.data = sampleData(n, seed);
      if (seed == 2)  // noise: little to compress
        for (std::size_t i = 0; i < n; ++i) f.data[i] = static_cast<std::byte>((i * 2654435761u) >> 13);
      files.push_back(std::move(f));
    }
  for (int level : {0, 1, 6, 9}) {
    auto bytes = writePak(files, {level, kPakVersion});
    ASSERT_TRUE(bytes.ok());
    const Pak pak = parsed(*bytes);
    ASSERT_EQ(pak.entries().size(), files.size());
    for (std::size_t k = 0; k < files.size(); ++k) {
      const PakEntry& e = pak.entries()[k];
      Bytes out(files[k].data.size() + 1);
      uLongf n = static_cast<uLongf>(out.size());
      ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(out.data()), &n,
                           reinterpret_cast<const Bytef*>(bytes->data() + e.dataOffset), e.packedSize),
                Z_OK)
          << "level " << level << ", " << files[k].path;
      out.resize(n);
      EXPECT_TRUE(out == files[k].data) << "level " << level << ", " << files[k].path;
    }
  }
}

TEST(Extract, RefusesToWriteThroughASymbolicLink) {
  RawPacker p;
  p.add("\\link\\x.txt", bytesOf("x"));
  p.add("\\file.txt", bytesOf("y"));
  const Bytes bytes = p.bytes();
  std::vector<Pak> paks;
  paks.push_back(parsed(bytes));
  const PakSet set(std::move(paks));
  TempDir tmp;
  fs::create_directories(tmp.path / "out");
  fs::create_directories(tmp.path / "elsewhere");
  fs::create_directory_symlink(tmp.path / "elsewhere", tmp.path / "out" / "link");
  fs::create_symlink(tmp.path / "elsewhere" / "f", tmp.path / "out" / "file.txt");
  const ExtractReport report = extractEntries(set, selectEntries(set, {}), tmp.path / "out");
  EXPECT_EQ(report.refused.size(), 2u);
  EXPECT_TRUE(fs::is_empty(tmp.path / "elsewhere"));
}

// Several workers write what one writes: every file byte for byte, the same report in the
// entries' order (refusals and failures among the files), progress called one at a time with
// a count that only grows, nothing left half-written; a cancel stops after the entries begun.
TEST(Extract, SeveralWorkersWriteWhatOneWrites) {
  RawPacker p;
  std::map<std::string, Bytes> files;
  for (unsigned k = 0; k < 240; ++k) {
    const std::string name = "resource/set" + std::to_string(k % 5) + "/folder" + std::to_string(k % 17) +
                             "/item" + std::to_string(k) + ".bin";
    if (k % 41 == 7) {
      p.add("..\\..\\escape" + std::to_string(k), bytesOf("evil"));  // refused
    } else if (k % 53 == 11) {
      p.add("\\" + name, Bytes(9000, std::byte{3})).size = 100;  // inflates past its size: fails
    } else if (k % 29 == 5) {
      p.addDeleted("\\" + name);
    } else {
      files[name] = sampleData(50 + (k * 997) % 20000, k);
      p.add("\\" + name, files[name]);
    }
  }
  p.add("\\link\\x.bin", bytesOf("through a link"));  // refused: the folder is a link
  for (unsigned k = 0; k < 2; ++k) {  // written in pieces of 1 MiB (the limit below)
    const std::string name = "resource/big" + std::to_string(k) + ".bin";
    files[name] = sampleData((5u << 19) + k, 100 + k);
    p.add("\\" + name, files[name]);
  }
  const Bytes bytes = p.bytes();
  std::vector<Pak> paks;
  paks.push_back(parsed(bytes));
  const PakSet set(std::move(paks));
  const auto entries = selectEntries(set, {});

  const auto run = [&](unsigned threads, const fs::path& out) {
    fs::create_directories(out);
    fs::create_directories(out.parent_path() / "elsewhere");
    fs::create_directory_symlink(out.parent_path() / "elsewhere", out / "link");
    ExtractOptions options;
    options.threads = threads;
    options.limits.maxWholeEntry = 1u << 20;
    std::vector<std::size_t> done;
    std::vector<std::uint64_t> written;
    bool lastCurrentEmpty = false;
    std::atomic<int> inside{0};
    bool overlapped = false;
    options.progress = [&](const ExtractProgress& pr) {
      overlapped = overlapped || inside.fetch_add(1) != 0;
      done.push_back(pr.done);
      written.push_back(pr.bytes);
      EXPECT_EQ(pr.total, entries.size());
      lastCurrentEmpty = pr.current.empty();
      inside.fetch_sub(1);
      return true;
    };
    ExtractReport report = extractEntries(set, entries, out, options);
    EXPECT_FALSE(overlapped) << threads << " threads";
    EXPECT_EQ(done.size(), entries.size() + 1 + 2 * 2);  // and the big entries' later pieces
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
    EXPECT_TRUE(std::is_sorted(written.begin(), written.end()));
    EXPECT_EQ(done.back(), entries.size());
    EXPECT_TRUE(lastCurrentEmpty);
    return report;
  };
  const auto describe = [](const std::vector<ExtractProblem>& list) {
    std::vector<std::string> out;
    for (const auto& x : list) out.push_back(x.entry + ": " + x.message.substr(0, x.message.find('/')));
    return out;
  };
  TempDir one, four;
  const ExtractReport serial = run(1, one.path / "out");
  const ExtractReport parallel = run(4, four.path / "out");
  EXPECT_EQ(serial.written, files.size());
  std::uint64_t total = 0;
  for (const auto& [name, content] : files) total += content.size();
  EXPECT_EQ(serial.bytes, total);
  for (const ExtractReport* r : {&serial, &parallel}) {
    EXPECT_EQ(r->written, files.size());
    EXPECT_EQ(r->bytes, total);
    EXPECT_FALSE(r->cancelled);
  }
  EXPECT_EQ(describe(parallel.refused), describe(serial.refused));
  EXPECT_EQ(describe(parallel.failed), describe(serial.failed));
  EXPECT_EQ(serial.refused.size(), 6u + 1u);  // k % 41 == 7 for k < 240, and the link
  EXPECT_EQ(serial.failed.size(), 5u);        // k % 53 == 11
  for (const fs::path& root : {one.path / "out", four.path / "out"}) {
    std::set<std::string> expected = {"link"};
    for (const auto& [name, content] : files) {
      EXPECT_TRUE(fileBytes(root / name) == content) << root << " " << name;
      for (fs::path at = name; !at.empty(); at = at.parent_path()) expected.insert(at.generic_string());
    }
    EXPECT_EQ(treeOf(root), expected);  // nothing half-written, nothing through the link
    EXPECT_TRUE(fs::is_empty(root.parent_path() / "elsewhere"));
  }

  // A cancel: the entries begun are finished, no other is touched.
  TempDir cancelled;
  ExtractOptions options;
  options.threads = 4;
  options.progress = [](const ExtractProgress& pr) { return pr.done < 30; };
  const ExtractReport stopped = extractEntries(set, entries, cancelled.path, options);
  EXPECT_TRUE(stopped.cancelled);
  EXPECT_EQ(stopped.written + stopped.refused.size() + stopped.failed.size(), 30u);
  std::size_t written = 0;
  for (const auto& e : fs::recursive_directory_iterator(cancelled.path)) {
    EXPECT_EQ(e.path().filename().string().find(".marrow-part"), std::string::npos) << e.path();
    written += e.is_regular_file();
  }
  EXPECT_EQ(written, stopped.written);
}

// Items that go to one file (two archives' entries of one name, extracted together) are
// written one after the other whatever the workers: the last one wins, as written in order.
TEST(Extract, ItemsOfOneNameAreWrittenInTheirOrder) {
  std::vector<ExtractItem> items;
  const auto item = [](std::string name, std::string content) {
    return ExtractItem{std::move(name), [content](const Limits&, const vfs::Archive::Sink& sink) -> Result<std::uint64_t> {
                         // The first of a name is the slowest: a worker free meanwhile
                         // must not write a later one first.
                         if (content == "take 3" || content == "case 5")
                           std::this_thread::sleep_for(std::chrono::milliseconds(40));
                         const Bytes bytes = bytesOf(content);
                         sink(bytes);
                         return std::uint64_t{bytes.size()};
                       }};
  };
  for (int k = 0; k < 40; ++k) {
    items.push_back(item("f" + std::to_string(k) + ".txt", std::to_string(k)));
    if (k % 10 == 3) items.push_back(item("\\dup.txt", "take " + std::to_string(k)));
    if (k % 10 == 5) items.push_back(item("Dup.txt", "case " + std::to_string(k)));
  }
  // A file where a later item needs a folder, and the other way round; an item named as
  // another's piece file.
  items.push_back(item("a", "file a"));
  items.push_back(item("a/b", "under a"));
  items.push_back(item("c/d/e", "under c"));
  items.push_back(item("c/d", "file c/d"));
  items.push_back(item("x.txt", "x"));
  items.push_back(item(".x.txt.marrow-part", "looks like x's piece"));
  items.push_back(item("x.txt", "x again"));
  for (unsigned threads : {1u, 4u}) {
    TempDir tmp;
    ExtractOptions options;
    options.threads = threads;
    const ExtractReport report = extractItems(items, tmp.path, options);
    EXPECT_EQ(report.written, items.size() - 2) << threads;
    ASSERT_EQ(report.refused.size(), 1u) << threads;
    EXPECT_EQ(report.refused[0].entry, "a/b");
    EXPECT_NE(report.refused[0].message.find("exists and is not a folder"), std::string::npos);
    ASSERT_EQ(report.failed.size(), 1u) << threads;
    EXPECT_EQ(report.failed[0].entry, "c/d");
    EXPECT_NE(report.failed[0].message.find("is a folder"), std::string::npos);
    EXPECT_EQ(fileBytes(tmp.path / "dup.txt"), bytesOf("take 33")) << threads;
    EXPECT_EQ(fileBytes(tmp.path / "Dup.txt"), bytesOf("case 35")) << threads;
    EXPECT_EQ(fileBytes(tmp.path / "f17.txt"), bytesOf("17")) << threads;
    EXPECT_EQ(fileBytes(tmp.path / "a"), bytesOf("file a")) << threads;
    EXPECT_EQ(fileBytes(tmp.path / "c" / "d" / "e"), bytesOf("under c")) << threads;
    EXPECT_EQ(fileBytes(tmp.path / "x.txt"), bytesOf("x again")) << threads;
    // The look-alike was written, then taken for a stale piece file by the x.txt after it.
    EXPECT_FALSE(fs::exists(tmp.path / ".x.txt.marrow-part")) << threads;
    EXPECT_EQ(treeOf(tmp.path).size(), 42u + 5u) << threads;  // a, c, c/d, c/d/e, x.txt
  }
}

// An exception in a worker (here from the progress callback) reaches the caller once every
// worker has stopped, and leaves no piece file; an item that runs out of memory only fails.
TEST(Extract, AnExceptionInAWorkerReachesTheCaller) {
  std::vector<ExtractItem> items;
  for (int k = 0; k < 200; ++k)
    items.push_back({"f" + std::to_string(k) + ".bin", [k](const Limits&, const vfs::Archive::Sink& sink) -> Result<std::uint64_t> {
                       if (k == 7) throw std::bad_alloc();
                       const Bytes bytes = sampleData(1000, k);
                       sink(bytes);
                       return std::uint64_t{bytes.size()};
                     }});
  for (unsigned threads : {1u, 4u}) {
    TempDir tmp;
    ExtractOptions options;
    options.threads = threads;
    const ExtractReport report = extractItems(items, tmp.path, options);
    EXPECT_EQ(report.written, items.size() - 1) << threads;
    ASSERT_EQ(report.failed.size(), 1u) << threads;
    EXPECT_EQ(report.failed[0].entry, "f7.bin");
    EXPECT_NE(report.failed[0].message.find("not enough memory"), std::string::npos);

    TempDir again;
    options.progress = [](const ExtractProgress& p) {
      if (p.done == 50) throw std::runtime_error("the callback's own failure");
      return true;
    };
    EXPECT_THROW(extractItems(items, again.path, options), std::runtime_error) << threads;
    for (const auto& e : fs::recursive_directory_iterator(again.path))
      EXPECT_EQ(e.path().filename().string().find(".marrow-part"), std::string::npos) << e.path();
  }
}

TEST(Extract, SelectsPathsAndFoldersAndStopsWhenCancelled) {
  const Bytes bytes = smallPak().bytes();
  std::vector<Pak> paks;
  paks.push_back(parsed(bytes));
  const PakSet set(std::move(paks));
  std::vector<std::string> unmatched;
  const std::vector<std::string> sel = {"\\resource\\char", "resource/ext/jobtable.dnt", "nope",
                                        "resource/cha"};
  EXPECT_EQ(selectEntries(set, sel, &unmatched).size(), 3u);
  EXPECT_EQ(unmatched, (std::vector<std::string>{"nope", "resource/cha"}));
  TempDir tmp;
  ExtractOptions options;
  options.progress = [](const ExtractProgress& pr) { return pr.done < 1; };
  const auto report = extractEntries(set, selectEntries(set, {}), tmp.path, options);
  EXPECT_TRUE(report.cancelled);
  EXPECT_EQ(report.written, 1u);
}

}  // namespace
