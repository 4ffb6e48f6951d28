#include "formats/io/extract.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <new>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace marrow::formats {
namespace fs = std::filesystem;

SafePath safeRelativePath(std::string_view entryName) {
  const auto refuse = [](std::string why) { return SafePath{{}, std::move(why)}; };
  std::string name(entryName);
  for (char& c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return refuse("a control character in the name");
    if (c == '\\') c = '/';
  }
  if (name.empty()) return refuse("an empty name");
  if (name.starts_with("//")) return refuse("a network path");
  if (name.size() >= 2 && name[1] == ':' && std::isalpha(static_cast<unsigned char>(name[0])))
    return refuse("an absolute path with a drive letter");
  if (name.find(':') != std::string::npos)
    return refuse("a ':' (a drive or a Windows stream name)");
  if (name.front() == '/') name.erase(0, 1);  // the pak's root (§2.2)
  if (name.empty() || name.back() == '/') return refuse("the name of a folder, not a file");
  fs::path relative;
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto slash = std::min(name.find('/', start), name.size());
    const std::string part = name.substr(start, slash - start);
    if (part.empty()) return refuse("an empty component");
    if (part == "..") return refuse("a '..' component, which would leave the target folder");
    if (part == ".") return refuse("a '.' component");
    relative /= part;
    start = slash + 1;
  }
  return {relative, {}};
}

namespace {

// Creates the folders of `relative`'s parent under `root`, refusing to pass through anything
// that is not a real folder. Returns the refusal, or "". Safe when another thread makes the
// same folders at once (a folder made meanwhile is a folder that exists).
std::string prepareParents(const fs::path& root, const fs::path& relative) {
  fs::path at = root;
  std::error_code ec;
  for (const auto& part : relative.parent_path()) {
    at /= part;
    const auto st = fs::symlink_status(at, ec);
    if (fs::is_symlink(st)) return "'" + at.string() + "' is a symbolic link";
    if (fs::exists(st)) {
      if (!fs::is_directory(st)) return "'" + at.string() + "' exists and is not a folder";
      continue;
    }
    if (!fs::create_directory(at, ec) && ec)
      return "cannot create '" + at.string() + "': " + ec.message();
  }
  return {};
}

// The file an item is written to before it is renamed onto `file`: ".NAME.marrow-part" beside it.
fs::path pieceOf(const fs::path& file) { return file.parent_path() / ("." + file.filename().string() + ".marrow-part"); }

// A new file opened for writing that never is an existing file or a link (O_EXCL), closed by
// its owner.
class NewFile {
 public:
  // Opens `path`; on failure ok() is false and error() says why.
  explicit NewFile(const fs::path& path) {
#if defined(__unix__) || defined(__APPLE__)
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ < 0) errno_ = errno;
#else
    file_ = std::fopen(path.string().c_str(), "wbx");
    if (!file_) errno_ = errno ? errno : EIO;
#endif
  }
  ~NewFile() { close(); }
  NewFile(const NewFile&) = delete;
  NewFile& operator=(const NewFile&) = delete;

  bool ok() const { return errno_ == 0; }
  int error() const { return errno_; }
  // Writes all of `bytes`; false (and error()) when it cannot.
  bool write(std::span<const std::byte> bytes) {
#if defined(__unix__) || defined(__APPLE__)
    while (!bytes.empty()) {
      const auto n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return (errno_ = n < 0 ? errno : EIO), false;
      bytes = bytes.subspan(static_cast<std::size_t>(n));
    }
    return true;
#else
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) == bytes.size()) return true;
    return (errno_ = EIO), false;
#endif
  }
  // Closes the file; false when the close reports a failed write.
  bool close() {
#if defined(__unix__) || defined(__APPLE__)
    if (fd_ < 0) return ok();
    if (::close(fd_) != 0 && ok()) errno_ = errno;
    fd_ = -1;
#else
    if (!file_) return ok();
    if (std::fclose(file_) != 0 && ok()) errno_ = EIO;
    file_ = nullptr;
#endif
    return ok();
  }

 private:
#if defined(__unix__) || defined(__APPLE__)
  int fd_ = -1;
#else
  std::FILE* file_ = nullptr;
#endif
  int errno_ = 0;
};

// What became of one item.
struct Outcome {
  enum Kind : std::uint8_t { NotReached, Written, Refused, Failed } kind = NotReached;
  std::string message;      // why, when refused or failed
  std::uint64_t bytes = 0;  // when written
};

// A key under which names that some file system takes for one file are one: ASCII letters in
// lower case (FAT, NTFS, a case-folding ext4), a component's trailing dots and spaces dropped
// (Windows), and any run of other bytes one marker (Unicode case folding and normalisation are
// not worked out: such names are kept apart in time, as if they were one).
std::string conflictKey(const std::string& path) {
  std::string key;
  key.reserve(path.size());
  const auto endComponent = [&] {
    while (!key.empty() && (key.back() == '.' || key.back() == ' ')) key.pop_back();
  };
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '/') {
      endComponent();
      key += '/';
    } else if (u >= 0x80) {
      if (key.empty() || key.back() != '\x01') key += '\x01';
    } else {
      key += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
  }
  endComponent();
  return key;
}

// One extraction: items taken in order by one or more workers, each written whole or not at
// all; the report assembled in the items' order whatever order they finished in. With several
// workers, items that touch one path are written in rounds, in their order: two of one name
// (the last wins, as one after the other), a name and another's piece file, a file and a folder
// of that name. Within a round no two items touch one path.
class Extractor {
 public:
  Extractor(std::span<const ExtractItem> items, fs::path root, const ExtractOptions& options, unsigned threads)
      : items_(items), root_(std::move(root)), options_(options), threads_(threads), outcomes_(items.size()) {
    progress_.total = items.size();
    safe_.reserve(items.size());
    for (const ExtractItem& item : items) safe_.push_back(safeRelativePath(item.stored));
    order_.resize(items.size());
    for (std::size_t k = 0; k < items.size(); ++k) order_[k] = k;
    if (threads_ > 1) planRounds();
  }

  ExtractReport run() {
    for (std::size_t begin = 0; begin < order_.size() && !cancelled_.load();) {
      std::size_t end = begin;
      while (end < order_.size() && roundOf(order_[end]) == roundOf(order_[begin])) ++end;
      const auto threads = static_cast<unsigned>(std::min<std::size_t>(threads_, end - begin));
      // Each worker starts on a stretch of its own (another folder, mostly: the items come in
      // path order, and two workers in one folder wait for each other in the kernel).
      lanes_ = std::vector<Lane>(threads);
      for (unsigned w = 0; w < threads; ++w) {
        lanes_[w].next = begin + (end - begin) * w / threads;
        lanes_[w].end = begin + (end - begin) * (w + 1) / threads;
      }
      runWorkers(threads);
      if (failure_) std::rethrow_exception(failure_);  // once every worker has stopped
      begin = end;
    }
    ExtractReport report;
    report.cancelled = cancelled_.load();
    for (std::size_t k = 0; k < items_.size(); ++k) {
      Outcome& o = outcomes_[k];
      switch (o.kind) {
        case Outcome::NotReached: break;
        case Outcome::Written:
          ++report.written;
          report.bytes += o.bytes;
          break;
        case Outcome::Refused: report.refused.push_back({items_[k].stored, std::move(o.message)}); break;
        case Outcome::Failed: report.failed.push_back({items_[k].stored, std::move(o.message)}); break;
      }
    }
    if (!report.cancelled && options_.progress) {
      progress_.current = {};
      progress_.bytes = report.bytes;  // pieces of an entry that failed counted no more
      options_.progress(progress_);
    }
    return report;
  }

 private:
  std::uint32_t roundOf(std::size_t k) const { return round_.empty() ? 0 : round_[k]; }

  // Each item's round: after every earlier item that writes its file or its piece file, that
  // writes a file where it needs a folder, or that needs a folder where it writes its file.
  void planRounds() {
    round_.assign(items_.size(), 0);
    std::unordered_map<std::string, std::uint32_t> fileFree, folderFree;  // the first round a path is free in
    const auto at = [](const auto& map, const std::string& key) {
      const auto it = map.find(key);
      return it == map.end() ? 0u : it->second;
    };
    fileFree.reserve(2 * items_.size());
    std::vector<std::string> folders;
    for (std::size_t k = 0; k < items_.size(); ++k) {
      if (!safe_[k]) continue;  // refused before it touches anything
      const std::string file = conflictKey(safe_[k].relative.generic_string());
      const std::string piece = conflictKey(pieceOf(safe_[k].relative).generic_string());
      folders.clear();
      for (auto s = file.find('/'); s != std::string::npos; s = file.find('/', s + 1)) folders.push_back(file.substr(0, s));
      std::uint32_t round = std::max({at(fileFree, file), at(fileFree, piece), at(folderFree, file), at(folderFree, piece)});
      for (const auto& f : folders) round = std::max(round, at(fileFree, f));
      round_[k] = round;
      fileFree[file] = fileFree[piece] = round + 1;
      for (const auto& f : folders) {
        auto& free = folderFree[f];
        free = std::max(free, round + 1);
      }
    }
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return round_[a] < round_[b]; });
  }

  void runWorkers(unsigned threads) {
    if (threads <= 1) return work(0);
    std::vector<std::thread> workers;
    workers.reserve(threads - 1);
    try {
      for (unsigned k = 1; k < threads; ++k) workers.emplace_back([this, k] { work(k); });
    } catch (...) {
      // Fewer threads than asked (the system refuses more, or memory for one): those made, and
      // this one, do it all.
    }
    work(0);
    for (auto& w : workers) w.join();
  }

  // The next item of the round to write: from the worker's own stretch, then from the others'.
  std::optional<std::size_t> take(unsigned worker) {
    for (std::size_t n = 0; n < lanes_.size(); ++n) {
      Lane& lane = lanes_[(worker + n) % lanes_.size()];
      if (lane.next.load() >= lane.end) continue;
      const std::size_t at = lane.next.fetch_add(1);
      if (at < lane.end) return order_[at];
    }
    return std::nullopt;
  }

  // Takes the round's next item until none is left or the extraction is cancelled. An exception
  // (from the progress callback, an item's stream) stops every worker and reaches the caller.
  void work(unsigned worker) {
    try {
      for (;;) {
        const auto taken = cancelled_.load() ? std::nullopt : take(worker);
        if (!taken) return;
        const std::size_t k = *taken;
        {
          const std::lock_guard lock(progressMutex_);
          if (cancelled_.load()) return;
          progress_.current = items_[k].stored;
          if (options_.progress && !options_.progress(progress_)) {
            cancelled_.store(true);
            return;
          }
          ++progress_.done;
        }
        outcomes_[k] = extract(items_[k], safe_[k]);
      }
    } catch (...) {
      const std::lock_guard lock(progressMutex_);
      if (!failure_) failure_ = std::current_exception();
      cancelled_.store(true);
    }
  }

  // The folders above `relative`, made or checked once in this extraction.
  std::string prepareFolder(const fs::path& relative) {
    std::string key = relative.parent_path().generic_string();
    {
      const std::lock_guard lock(foldersMutex_);
      if (folders_.contains(key)) return {};
    }
    std::string why = prepareParents(root_, relative);
    if (why.empty()) {
      const std::lock_guard lock(foldersMutex_);
      folders_.insert(std::move(key));
    }
    return why;
  }

  Outcome extract(const ExtractItem& item, const SafePath& safe) {
    const auto refused = [](std::string why) { return Outcome{Outcome::Refused, std::move(why), 0}; };
    const auto failed = [](std::string why) { return Outcome{Outcome::Failed, std::move(why), 0}; };
    if (!safe) return refused(safe.refusal);
    const fs::path target = (root_ / safe.relative).lexically_normal();
    // Belt and braces: the lexical result must still lie under the root.
    const auto [rootEnd, targetAt] = std::mismatch(root_.begin(), root_.end(), target.begin(), target.end());
    if (rootEnd != root_.end()) return refused("resolves outside the target folder");
    if (std::string why = prepareFolder(safe.relative); !why.empty()) return refused(why);
    std::error_code ec;
    const auto st = fs::symlink_status(target, ec);
    if (fs::is_symlink(st)) return refused("'" + target.string() + "' is a symbolic link");
    if (fs::is_directory(st)) return failed("'" + target.string() + "' is a folder");
    if (!item.stream) return failed("cannot be read");

    // In pieces into a file of its own beside the target, renamed onto it once whole: a failure
    // halfway leaves no partial file. A stale one of that name (a link, a file) is removed and
    // the new one made only if nothing else takes its place meanwhile.
    const fs::path part = pieceOf(target);
    // Whatever happens once it is made, the piece file does not outlive this call (removed after
    // it is closed: `out` goes first).
    struct RemovePart {
      const fs::path& part;
      bool made = false, kept = false;
      ~RemovePart() {
        std::error_code ignored;
        if (made && !kept) fs::remove(part, ignored);
      }
    } removePart{part};
    std::optional<NewFile> out(std::in_place, part);
    if (!out->ok() && out->error() == EEXIST) {
      if (fs::is_directory(fs::symlink_status(part, ec))) return failed("'" + part.string() + "' is a folder");
      fs::remove(part, ec);
      out.emplace(part);
    }
    if (!out->ok())
      return failed("cannot create '" + part.string() + "': " + std::generic_category().message(out->error()));
    removePart.made = true;
    bool writeFailed = false, stopped = false;
    std::size_t pieces = 0;
    std::uint64_t soFar = 0, shown = 0;  // bytes written, and of them counted in progress_
    Result<std::uint64_t> given = FormatError{};
    try {
      given = item.stream(options_.limits, [&](std::span<const std::byte> piece) {
        if (!out->write(piece)) return !(writeFailed = true);
        soFar += piece.size();
        // An entry in several pieces reports its progress, and a cancel stops it, from its second
        // piece on (an entry read whole is one piece: reported before it, as any entry).
        if (pieces++ > 0 && options_.progress) {
          const std::lock_guard lock(progressMutex_);
          progress_.bytes += soFar - shown;
          shown = soFar;
          ExtractProgress now = progress_;
          now.current = item.stored;
          if (cancelled_.load() || !options_.progress(now)) {
            cancelled_.store(true);
            return !(stopped = true);
          }
        }
        return true;
      });
    } catch (const std::bad_alloc&) {
      given = FormatError{item.stored, "", kNoOffset, "not enough memory to read it"};
    }
    writeFailed = !out->close() || writeFailed;
    const int writeError = out->error();
    std::error_code renamed;
    if (given && !writeFailed) fs::rename(part, target, renamed);
    const bool written = given && !writeFailed && !renamed;
    removePart.kept = written;
    if (written && *given > shown) {
      const std::lock_guard lock(progressMutex_);
      progress_.bytes += *given - shown;
    }
    if (written) return {Outcome::Written, {}, *given};
    if (stopped) return {};  // cancelled in the middle: not written, as the items not begun
    if (writeFailed)
      return failed("cannot write '" + target.string() + "': " + std::generic_category().message(writeError));
    return failed(renamed ? "cannot write '" + target.string() + "': " + renamed.message() : given.error().describe());
  }

  std::span<const ExtractItem> items_;
  const fs::path root_;
  const ExtractOptions& options_;
  const unsigned threads_;
  std::vector<Outcome> outcomes_;     // one per item, each written by the worker that took it
  std::vector<SafePath> safe_;        // each item's path under the root, or why it has none
  std::vector<std::uint32_t> round_;  // each item's round (all 0 with one worker)
  std::vector<std::size_t> order_;    // the items by round, in their order within one
  struct Lane {
    std::atomic<std::size_t> next{0};  // the next of order_ to take
    std::size_t end = 0;
  };
  std::vector<Lane> lanes_;  // the round being written, a stretch per worker
  std::atomic<bool> cancelled_{false};
  std::mutex progressMutex_;  // the progress calls, what they report, failure_
  ExtractProgress progress_;
  std::exception_ptr failure_;
  std::mutex foldersMutex_;
  std::unordered_set<std::string> folders_;  // parents made or checked in this extraction
};

// How many workers: as asked, or one per core (at most 8), never more than there are items.
unsigned extractionThreads(const ExtractOptions& options, std::size_t items) {
  unsigned threads = options.threads;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  return static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(items, 1)));
}

}  // namespace

ExtractReport extractItems(std::span<const ExtractItem> items, const fs::path& folder,
                           const ExtractOptions& options) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  Extractor extractor(items, fs::weakly_canonical(folder, ec).lexically_normal(), options,
                      extractionThreads(options, items.size()));
  return extractor.run();
}

}  // namespace marrow::formats

namespace marrow::formats {

std::vector<vfs::Node> selectFiles(const vfs::Archive& archive, std::span<const std::string> selectors,
                                   std::vector<std::string>* unmatched) {
  if (selectors.empty()) return archive.files("");
  std::vector<vfs::Node> out;
  std::unordered_set<std::string> seen;
  for (const std::string& s : selectors) {
    auto found = archive.files(s);
    if (found.empty() && unmatched) unmatched->push_back(s);
    for (auto& n : found)
      if (seen.insert(n.path).second) out.push_back(std::move(n));
  }
  return out;
}

std::vector<ExtractItem> extractItemsOf(std::shared_ptr<const vfs::Archive> archive,
                                        std::span<const vfs::Node> files) {
  std::vector<ExtractItem> items;
  items.reserve(files.size());
  for (const vfs::Node& n : files)
    items.push_back({archive->storedName(n), [archive, path = n.path](const Limits& limits, const vfs::Archive::Sink& sink) {
                       return archive->stream(path, limits, sink);
                     }});
  return items;
}

}  // namespace marrow::formats
