#include "app/cli/records.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <variant>

namespace marrow::app::cli {
namespace {

namespace vfs = formats::vfs;

struct FigureJson {
  JsonWriter& j;
  void operator()(std::int64_t v) const { j.value(v); }
  void operator()(std::uint64_t v) const { j.value(v); }
  void operator()(bool v) const { j.value(v); }
  void operator()(const std::string& v) const { j.value(v); }
  void operator()(const std::vector<std::int64_t>& v) const {
    j.beginArray();
    for (std::int64_t x : v) j.value(x);
    j.endArray();
  }
  void operator()(const vfs::Count& v) const {
    j.beginObject();
    for (const auto& [k, n] : v) j.field(k, n);
    j.endObject();
  }
};

// Every record of an archive: the leaves under its files and groups, in tree order.
template <class Each>
void eachRecord(const vfs::Archive& a, Each&& each) {
  for (const vfs::Node& file : a.children(""))
    for (const vfs::Node& group : a.children(file.path))
      for (const vfs::Node& record : a.children(group.path))
        if (!record.container) each(file, record);
}

}  // namespace

bool hasRecords(const vfs::FileSystem& archives) {
  for (const auto& a : archives.archives())
    if (a->holdsRecords()) return true;
  return false;
}

void writeRecords(JsonWriter& json, const vfs::FileSystem& archives, const vfs::Query* only) {
  json.beginArray();
  for (const auto& a : archives.archives()) {
    if (!a->holdsRecords()) continue;
    eachRecord(*a, [&](const vfs::Node&, const vfs::Node& r) {
      if (only && !vfs::matches(r, *only)) return;
      json.beginObject()
          .field("file", a->addressOf(r.path).file)
          .field("kind", r.kind)
          .field("name", r.name);
      for (const vfs::Figure& f : r.figures) {
        json.key(f.key);
        std::visit(FigureJson{json}, f.value);
      }
      json.endObject();
    });
  }
  json.endArray();
}

void printRecords(const vfs::FileSystem& archives, const vfs::Query* only) {
  for (const auto& a : archives.archives()) {
    if (!a->holdsRecords()) continue;
    for (const vfs::Node& file : a->children("")) {
      std::vector<std::pair<vfs::Node, std::vector<vfs::Node>>> groups;
      for (vfs::Node& group : a->children(file.path)) {
        auto records = a->children(group.path);
        if (only)
          records.erase(std::remove_if(records.begin(), records.end(),
                                       [&](const vfs::Node& r) { return !vfs::matches(r, *only); }),
                        records.end());
        if (!only || !records.empty()) groups.emplace_back(std::move(group), std::move(records));
      }
      if (only && groups.empty()) continue;
      std::printf("%s  (%s)\n", a->addressOf(file.path).file.c_str(), file.detail.c_str());
      for (const auto& [group, records] : groups) {
        std::string kind = records.empty() ? group.name : records.front().kind;
        std::printf("  %s: %zu\n", kind.c_str(), records.size());
        for (const vfs::Node& r : records)
          std::printf("    %-28s%s\n", r.name.c_str(), vfs::summary(r.figures).c_str());
      }
    }
  }
}

}  // namespace marrow::app::cli
