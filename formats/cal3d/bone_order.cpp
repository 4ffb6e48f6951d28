// The model order and names of a skeleton file's bones (common.h orderBones, makeBoneNamesUnique),
// shared by the binary and XML skeleton readers.
#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <unordered_set>
#include <vector>

#include "formats/cal3d/common.h"

namespace marrow::formats::cal3d {
namespace {

// A bone none of whose ancestors is a root lies on, or hangs below, a cycle of parent ids: walk
// up from it until a bone repeats, which is on the cycle, and name the cycle from there.
void describeCycle(std::span<const std::int64_t> parents, std::size_t start, BoneOrder& out) {
  std::vector<bool> seen(parents.size(), false);
  std::size_t b = start;
  while (!seen[b]) {
    seen[b] = true;
    b = static_cast<std::size_t>(parents[b]);
  }
  // A cycle can be as long as the skeleton: name a few of its bones.
  constexpr std::size_t kNamed = 8;
  std::string path = std::to_string(b);
  std::size_t named = 1;
  for (auto c = static_cast<std::size_t>(parents[b]); c != b;
       c = static_cast<std::size_t>(parents[c]), ++named) {
    if (named == kNamed) {
      path += " -> …";
      break;
    }
    path += " -> ";
    path += std::to_string(c);
  }
  out.fault = BoneOrder::Fault::Cycle;
  out.faultyBone = b;
  out.message = "makes a cycle of parents (" + path + " -> " + std::to_string(b) + ")";
}

}  // namespace

BoneOrder orderBones(std::span<const std::int64_t> parents, std::uint32_t maxDepth) {
  const std::size_t n = parents.size();
  BoneOrder out;
  out.fileIndexAt.reserve(n);
  bool sorted = true;
  for (std::size_t i = 0; i < n; ++i) sorted = sorted && parents[i] < static_cast<std::int64_t>(i);
  if (sorted) {
    for (std::size_t i = 0; i < n; ++i) out.fileIndexAt.push_back(static_cast<std::uint32_t>(i));
  } else {
    // Kahn's algorithm with a min-heap: among the bones whose parent is placed, the smallest
    // file index goes first, so that the order stays as close to the file's as it can.
    std::vector<std::vector<std::uint32_t>> children(n);
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
    for (std::size_t i = 0; i < n; ++i) {
      if (parents[i] < 0)
        ready.push(static_cast<std::uint32_t>(i));
      else
        children[static_cast<std::size_t>(parents[i])].push_back(static_cast<std::uint32_t>(i));
    }
    while (!ready.empty()) {
      const std::uint32_t i = ready.top();
      ready.pop();
      out.fileIndexAt.push_back(i);
      for (std::uint32_t c : children[i]) ready.push(c);
    }
    if (out.fileIndexAt.size() < n) {
      std::vector<bool> placed(n, false);
      for (std::uint32_t i : out.fileIndexAt) placed[i] = true;
      describeCycle(
          parents,
          static_cast<std::size_t>(std::find(placed.begin(), placed.end(), false) - placed.begin()),
          out);
      return out;
    }
    out.reordered = true;
  }

  out.modelIndexOfFileBone.assign(n, -1);
  for (std::size_t m = 0; m < n; ++m)
    out.modelIndexOfFileBone[out.fileIndexAt[m]] = static_cast<int>(m);
  // Parents come first now: a bone's depth is its parent's plus one.
  std::vector<std::uint32_t> depth(n, 0);
  for (std::size_t m = 0; m < n; ++m) {
    const std::int64_t parent = parents[out.fileIndexAt[m]];
    depth[m] = parent < 0 ? 1
                          : depth[static_cast<std::size_t>(
                                out.modelIndexOfFileBone[static_cast<std::size_t>(parent)])] +
                                1;
    if (depth[m] > maxDepth) {
      out.fault = BoneOrder::Fault::TooDeep;
      out.faultyBone = out.fileIndexAt[m];
      out.message = "is nested " + std::to_string(depth[m]) + " bones deep, over the limit of " +
                    std::to_string(maxDepth);
      return out;
    }
  }
  return out;
}

std::string makeBoneNamesUnique(std::vector<std::string>& names) {
  std::unordered_set<std::string> taken(names.begin(), names.end());
  std::unordered_set<std::string> seen;
  std::size_t renamed = 0;
  std::string examples;
  for (std::string& name : names) {
    if (seen.insert(name).second) continue;
    std::string candidate;
    for (int k = 2;; ++k) {
      // (Built in steps: GCC 12 warns, falsely, on name + "#" + std::to_string(k), -Wrestrict.)
      candidate = name;
      candidate += '#';
      candidate += std::to_string(k);
      if (!taken.count(candidate)) break;
    }
    if (renamed++ < 3)
      examples += (examples.empty() ? "'" : ", '") + name + "' -> '" + candidate + "'";
    taken.insert(candidate);
    seen.insert(candidate);
    name = std::move(candidate);
  }
  if (!renamed) return {};
  return std::to_string(renamed) + " bone name(s) repeat an earlier bone's and were made unique (" +
         examples + ")";
}

}  // namespace marrow::formats::cal3d
