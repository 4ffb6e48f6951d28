// Mount&Blade / Warband BRF in the format table: BRF files are read together (a module keeps
// skeletons, animations and meshes apart) and browsed as an archive of records; written back
// from records, byte for byte for a whole file, and written from any other model.
#include <algorithm>
#include <cstring>
#include <filesystem>

#include "formats/brf/archive.h"
#include "formats/brf/brf.h"
#include "formats/brf/from_scene.h"
#include "formats/io/file.h"
#include "formats/write.h"
#include "formats/write_support.h"

namespace marrow::formats {

const FormatDescriptor& brfFormat();  // below

namespace {

namespace brf = formats::brf;

// A BRF file starts with a token (brf.md §2): a u32 length and one of these words.
bool recognise(std::span<const std::byte> head) {
  for (std::string_view token : {"rfver ", "texture", "shader", "material", "mesh", "skeleton",
                                 "skeleton_anim", "body", "end"}) {
    const std::byte len[4] = {std::byte(token.size()), std::byte{0}, std::byte{0}, std::byte{0}};
    if (head.size() >= 4 + token.size() && std::memcmp(head.data(), len, 4) == 0 &&
        std::memcmp(head.data() + 4, token.data(), token.size()) == 0)
      return true;
  }
  return false;
}

// The files as one model of the records chosen (all of a file given whole, the records named
// of a FILE.brf::RECORD), and as one archive.
Result<GroupRead> readGroup(std::vector<Input> inputs) {
  std::vector<brf::Source> sources;
  std::vector<std::vector<brf::RecordRef>> addressed;
  for (const Input& in : inputs) {
    auto doc = brf::parse(in.bytes, in.ctx);
    if (!doc) return doc.error();
    sources.push_back({in.ctx.name, std::make_shared<const brf::Document>(std::move(doc).value()), in.ctx, {}});
    auto found = brf::findRecords(sources, sources.size() - 1, in.records);
    if (!found) return found.error();
    addressed.push_back(std::move(found->records));
  }
  auto scene = brf::toScene(sources, brf::selectionFor(sources, addressed));
  if (!scene) return scene.error();
  GroupRead out;
  out.parts.push_back({sources.front().name, std::move(scene).value()});
  out.archive = std::make_shared<const brf::BrfArchive>(std::move(sources));
  return out;
}

// The files as an archive of records, without making a model of them.
Result<std::shared_ptr<const vfs::Archive>> mount(std::span<const std::string> paths, const MountOptions&) {
  std::vector<brf::Source> sources;
  for (const std::string& path : paths) {
    auto bytes = readFile(path);
    if (!bytes) return bytes.error();
    const ReadContext ctx = contextForFile(path);
    auto doc = brf::parse(*bytes, ctx);
    if (!doc) return doc.error();
    sources.push_back({path, std::make_shared<const brf::Document>(std::move(doc).value()), ctx, {}});
  }
  return std::shared_ptr<const vfs::Archive>(std::make_shared<const brf::BrfArchive>(std::move(sources)));
}

// Any other model → BRF: its records made from the model (from_scene.h), at version 1
// (Warband) unless --version 0 (M&B 1.011).
WriteResult writeFromScene(const WriteSource& source, const std::string& out, const WriteOptions& o) {
  using namespace writing;
  Prepared p = prepare(*source.scene, Holds::Model, out, o);
  WriteResult r = std::move(p.result);
  if (!r.ok()) return r;
  std::string stem = std::filesystem::path(out).stem().string();
  auto doc = brf::fromScene(p.scene, o.version ? *o.version : 1, stem, r.diagnostics);
  nameTheOutput(r.diagnostics, out);
  if (!doc) return failed(std::move(r), doc.error(), out);
  if (auto problem = brf::checkWritable(*doc)) return failed(std::move(r), *problem, out);
  r.files.push_back({out, brf::write(*doc)});
  return r;
}

// Whether the model is written as its BRF records (formats/write.h: the one rule for it).
bool fromRecords(const WriteSource& source, const OutputKind& kind, const WriteOptions& o,
                 const std::vector<brf::Source>& sources) {
  if (sources.empty()) return false;
  return writesRecordsAsRead(Output{&brfFormat(), &kind}, o.addresses.empty() ? source.addresses : o.addresses, o);
}

// BRF → BRF: the records as they are (a single whole file comes back byte for byte), or some of
// them (FILE.brf::RECORD, or the nodes picked), or several files in one, at version 0 (M&B
// 1.011) or 1 (Warband). Any other model: writeFromScene.
WriteResult write(const WriteSource& source, const OutputKind& outputKind, const std::string& out,
                  const WriteOptions& o) {
  using namespace writing;
  WriteResult r;
  std::shared_ptr<const brf::BrfArchive> archive;  // the open BRF files, or a module's
  for (std::size_t i = 0; source.archives && !archive && i < source.archives->archives().size(); ++i)
    archive = std::dynamic_pointer_cast<const brf::BrfArchive>(source.archives->archives()[i]);
  const std::vector<brf::Source> none;
  const std::vector<brf::Source>& sources = archive ? archive->sources() : none;
  if (!fromRecords(source, outputKind, o, sources)) {
    if (!source.scene) return failed(std::move(r), {"", "", kNoOffset, "there is no model to write"}, out);
    return writeFromScene(source, out, o);
  }
  std::vector<brf::RecordRef> records;
  bool wholeFile = false;
  if (o.nodes) {
    if (o.nodes->empty()) return refused(std::move(r), "no BRF record to write");
    for (const std::string& path : *o.nodes) {
      const auto ref = archive ? archive->recordAt(path) : std::nullopt;
      if (!ref)
        return failed(std::move(r), {"", "records", kNoOffset, "names a record the open files lack"}, out);
      records.push_back(*ref);
    }
  } else {
    std::vector<std::string> addresses = o.addresses.empty() ? source.addresses : o.addresses;
    // Which records each input names, by file; inputs that are not BRF files cannot be written.
    std::vector<std::vector<brf::RecordRef>> chosen(sources.size());
    for (const auto& input : addresses) {
      const Address a = Address::parse(input);
      std::size_t at = sources.size();
      for (std::size_t i = 0; i < sources.size(); ++i)
        if (sources[i].name == a.file) at = i;
      if (at == sources.size())
        return failed(std::move(r),
                      {a.file, "", kNoOffset, "not a BRF file; .brf files are written from BRF records only"},
                      out);
      if (a.whole()) {
        wholeFile = true;
        continue;
      }
      auto found = brf::findRecords(sources, at, std::span(&a.inner, 1));
      if (!found) return failed(std::move(r), found.error(), out);
      // Shaders and textures are found by name too, for writing.
      for (brf::Section kind : {brf::Section::Texture, brf::Section::Shader})
        for (std::size_t i = 0; i < brf::recordCount(*sources[at].doc, kind); ++i)
          if (brf::recordName(sources[at], kind, i) == a.inner) found->records.push_back({at, kind, i});
      chosen[at].insert(chosen[at].end(), found->records.begin(), found->records.end());
    }
    if (sources.empty())
      return failed(std::move(r),
                    {"", "", kNoOffset,
                     "the model was not read from BRF files; .brf files are written from BRF records only"},
                    out);
    // A file given whole brings all its records; a file given by records, those records.
    for (std::size_t s = 0; s < sources.size(); ++s) {
      if (!chosen[s].empty()) {
        records.insert(records.end(), chosen[s].begin(), chosen[s].end());
        continue;
      }
      for (brf::Section kind : brf::kSections)
        for (std::size_t i = 0; i < brf::recordCount(*sources[s].doc, kind); ++i) records.push_back({s, kind, i});
    }
  }
  if (sources.empty()) return failed(std::move(r), {"", "records", kNoOffset, "no BRF file is open"}, out);
  // --clip NAME…: of the animations, only those named.
  if (!o.clips.empty()) {
    for (const std::string& name : o.clips)
      if (std::none_of(records.begin(), records.end(), [&](const brf::RecordRef& ref) {
            return ref.kind == brf::Section::Animation && brf::recordName(sources[ref.source], ref.kind, ref.index) == name;
          }))
        return refused(std::move(r), "no animation '" + name + "' among the records written");
    const std::size_t before = records.size();
    std::erase_if(records, [&](const brf::RecordRef& ref) {
      return ref.kind == brf::Section::Animation &&
             std::find(o.clips.begin(), o.clips.end(), brf::recordName(sources[ref.source], ref.kind, ref.index)) == o.clips.end();
    });
    wholeFile = wholeFile && records.size() == before;
  }
  const int target = o.version ? *o.version : sources.front().doc->version;
  if (wholeFile && sources.size() == 1 && target == sources.front().doc->version) {
    r.files.push_back({out, brf::write(*sources.front().doc)});
    return r;
  }
  const brf::Document written = brf::gather(sources, records, target, r.diagnostics);
  nameTheOutput(r.diagnostics, out);
  if (auto problem = brf::checkWritable(written)) return failed(std::move(r), *problem, out);
  r.files.push_back({out, brf::write(written)});
  return r;
}

std::optional<std::string> checkOptions(const OutputKind&, const WriteOptions& o) {
  if (o.version && *o.version != 0 && *o.version != 1)
    return std::string("--version for .brf is 0 (M&B 1.011) or 1 (Warband)");
  return std::nullopt;
}

}  // namespace

const FormatDescriptor& brfFormat() {
  static const FormatDescriptor d{
      .id = "brf",
      .name = "Mount&Blade / Warband",
      .notes = "M&B 1.011 and Warband: textures, shaders, materials, meshes (all three vertex layouts, "
          "tangents, colours, second uv set, rigging, vertex-animation frames), skeletons, skeleton "
          "animations (sparse tracks, root translation), collision bodies; the writer gives every "
          "file back byte for byte, and writes any other model as records; `.dds` textures (DXT1/3/5, "
          "uncompressed) beside the file or in `../Textures`, uploaded compressed where the driver "
          "takes S3TC",
      .extensions = {"brf"},
      .mime = "model/x-mount-and-blade-brf",
      .mimeTypes = {"model/x-mount-and-blade-brf"},
      .recognise = recognise,
      .claimsExtension = [](std::string_view e) { return e == "brf"; },
      .read = brf::readBrf,
      .readGroup = readGroup,
      .mount = mount,  // no archiveExtensions: loading reads BRF files, batches browse them
      .hasRecords = true,
      .outputs = {{"brf", "Mount&Blade resource", Holds::Records}},
      .write = write,
      .cannotHold = "bone scale, translation keys of bones other than the root, more than 4 influences a "
                    "position (the 4 strongest are kept), cloth springs, attachment points, tables; "
                    "textures are named as .dds",
      .checkOptions = checkOptions,
  };
  return d;
}

}  // namespace marrow::formats
