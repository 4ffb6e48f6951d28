// marrow-cli convert in batch: `convert INPUT... -o FOLDER/ [--to glb] [-j N]`.
//
// Each model the inputs name (a file, every model file under a folder, the entries of Dragon
// Nest archives a pattern matches, the meshes of a BRF file a pattern matches) is converted on
// its own, by a child `marrow-cli convert` process: a file that crashes a reader (assimp has
// known memory bugs) or hangs is one failed model, not a failed batch. N children run at once;
// a terminal sees one progress line, a pipe one line per model; a summary follows, and the exit
// status is 1 when any model failed.
#include "app/cli/batch.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "app/cli/json_writer.h"
#include "formats/brf/brf.h"
#include "formats/dragonnest/extract.h"
#include "formats/dragonnest/pak.h"
#include "formats/io/detect.h"
#include "formats/io/file.h"

extern char** environ;

namespace marrow::app::cli {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool hasGlob(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

bool isPak(const std::string& path) { return lower(fs::path(path).extension().string()) == ".pak"; }

// One model to convert.
struct Job {
  std::string label;                // what the user named: a path, ARCHIVE.pak::entry, FILE.brf::record
  std::vector<std::string> inputs;  // the child's inputs
  fs::path output;                  // relative to the output folder, without the extension
};

// "a/b.skn" → "a/b" with every component a plain name: ".." and "." and empty parts dropped,
// characters that file systems refuse replaced.
fs::path plainRelative(const fs::path& p) {
  fs::path out;
  for (const auto& part : p) {
    std::string s = part.string();
    if (s.empty() || s == "." || s == ".." || s == "/") continue;
    for (char& c : s)
      if (static_cast<unsigned char>(c) < 0x20 || std::strchr("\\:*?\"<>|", c)) c = '_';
    out /= s;
  }
  return out;
}

fs::path withoutExtension(fs::path p) { return p.replace_extension(); }

// The kinds of file a folder is searched for. cal3d parts without a .cfg in their folder make
// one model together; a Dragon Nest mesh is its own model only where no skin of its name wraps it.
enum class Kind { None, Model, Cal3dPart, DragonNestMesh };

Kind kindOf(const fs::path& file) {
  const std::string ext = lower(file.extension().string());
  if (ext == ".omf" || ext == ".brf" || ext == ".skn" || ext == ".cfg") return Kind::Model;
  if (ext == ".msh") return Kind::DragonNestMesh;
  for (const char* e : {".csf", ".cmf", ".caf", ".crf", ".xsf", ".xmf", ".xaf", ".xrf"})
    if (ext == e) return Kind::Cal3dPart;
  // Everything assimp imports, less the files that are only halves of a model or are not models.
  const std::string bare = ext.empty() ? ext : ext.substr(1);
  for (const char* e : {"md5anim", "md5camera", "xml", "vta", "mot", "bvh", "pk3", "raw"})
    if (bare == e) return Kind::None;
  return formats::isAssimpExtension(bare) ? Kind::Model : Kind::None;
}

// The models in one folder's listing (files only), as jobs relative to `base`.
void folderJobs(const std::vector<fs::path>& files, const fs::path& base, std::vector<Job>& jobs) {
  bool hasCfg = false;
  std::set<std::string> skins;
  for (const auto& f : files) {
    const std::string ext = lower(f.extension().string());
    hasCfg |= ext == ".cfg";
    if (ext == ".skn") skins.insert(lower(f.stem().string()));
  }
  std::vector<std::string> parts;
  for (const auto& f : files) {
    const Kind kind = kindOf(f);
    if (kind == Kind::None) continue;
    if (kind == Kind::Cal3dPart) {
      if (!hasCfg) parts.push_back(f.string());
      continue;
    }
    if (kind == Kind::DragonNestMesh && skins.count(lower(f.stem().string()))) continue;
    jobs.push_back({f.string(), {f.string()}, withoutExtension(plainRelative(fs::relative(f, base)))});
  }
  if (parts.empty()) return;
  // One model of the parts, named after its skeleton (or its folder).
  std::sort(parts.begin(), parts.end());
  fs::path name = fs::path(parts.front()).parent_path().filename();
  for (const auto& p : parts)
    if (const auto e = lower(fs::path(p).extension().string()); e == ".csf" || e == ".xsf")
      name = fs::path(p).stem();
  const fs::path dir = fs::path(parts.front()).parent_path();
  const fs::path rel = fs::relative(dir, base);
  jobs.push_back({dir.string() + "/ (cal3d parts)", parts, plainRelative(rel / name)});
}

// Every folder under `root` (itself included), its files in name order; symbolic links to
// folders are not followed (no loops), unreadable folders are skipped with a note.
std::map<fs::path, std::vector<fs::path>> walk(const fs::path& root, std::vector<std::string>& notes) {
  std::map<fs::path, std::vector<fs::path>> folders;
  std::error_code ec;
  folders[root];
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) notes.push_back(root.string() + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) {
      notes.push_back(it->path().string() + ": " + ec.message());
      break;
    }
    std::error_code sec;
    if (it->is_directory(sec)) {
      folders[it->path()];
    } else if (it->is_regular_file(sec)) {
      folders[it->path().parent_path()].push_back(it->path());
    }
  }
  for (auto& [dir, files] : folders) std::sort(files.begin(), files.end());
  return folders;
}

std::string describeSignal(int sig) {
  const char* name = sig == SIGSEGV   ? "SIGSEGV"
                     : sig == SIGABRT ? "SIGABRT"
                     : sig == SIGBUS  ? "SIGBUS"
                     : sig == SIGFPE  ? "SIGFPE"
                     : sig == SIGILL  ? "SIGILL"
                     : sig == SIGKILL ? "SIGKILL"
                                      : nullptr;
  return name ? std::string(name) : "signal " + std::to_string(sig);
}

struct Outcome {
  bool ok = false;
  bool skipped = false;  // nothing to convert (exit status 3): not a failure
  std::string message;  // why it failed (the child's own error line when it gave one)
  int warnings = 0;
  std::string log;  // everything the child printed
};

struct Running {
  std::size_t job = 0;
  pid_t pid = -1;
  int fd = -1;
  Clock::time_point start;
  std::string log;
  bool killed = false;
};

// The child's error line: its last "marrow-cli: …" line, else its last line.
std::string errorLine(const std::string& log) {
  std::string last, lastError;
  std::size_t pos = 0;
  while (pos < log.size()) {
    std::size_t nl = log.find('\n', pos);
    if (nl == std::string::npos) nl = log.size();
    std::string line = log.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    last = line;
    if (line.rfind("marrow-cli: ", 0) == 0) lastError = line.substr(12);
  }
  return lastError.empty() ? last : lastError;
}

int countWarnings(const std::string& log) {
  int n = 0;
  for (std::size_t pos = 0; pos < log.size();) {
    if (log.compare(pos, 8, "warning:") == 0) ++n;
    const std::size_t nl = log.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return n;
}

std::string selfExe() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("marrow-cli") : p.string();
}

}  // namespace

bool matchGlob(std::string_view pattern, std::string_view text) {
  // The text positions reachable after each pattern element, element by element: linear in the
  // text per element, never exponential whatever the pattern. `*` and `?` stay within a folder
  // name, `**` crosses folders, `**/` is any number of whole folders (none included: "a/**/b"
  // matches "a/b"), `[a-z]` and `[!a-z]` are classes.
  const std::size_t n = text.size();
  std::vector<char> row(n + 1, 0), next(n + 1, 0);
  row[0] = 1;
  for (std::size_t p = 0; p < pattern.size();) {
    std::fill(next.begin(), next.end(), 0);
    const char c = pattern[p];
    const bool deep = c == '*' && p + 1 < pattern.size() && pattern[p + 1] == '*';
    if (deep && p + 2 < pattern.size() && pattern[p + 2] == '/') {
      bool reached = false;  // some position at or before t-1 was reachable
      for (std::size_t t = 0; t <= n; ++t) {
        next[t] = row[t] || (t > 0 && reached && text[t - 1] == '/');
        reached = reached || row[t];
      }
      p += 3;
    } else if (c == '*') {
      for (std::size_t t = 0; t <= n; ++t)
        next[t] = row[t] || (t > 0 && next[t - 1] && (deep || text[t - 1] != '/'));
      p += deep ? 2 : 1;
    } else if (const std::size_t close = c == '[' ? pattern.find(']', p + 2) : std::string_view::npos;
               close != std::string_view::npos) {
      std::string_view set = pattern.substr(p + 1, close - p - 1);
      const bool negate = set[0] == '!' || set[0] == '^';
      if (negate) set.remove_prefix(1);
      for (std::size_t t = 1; t <= n; ++t) {
        const char ch = text[t - 1];
        if (!row[t - 1] || ch == '/') continue;
        bool in = false;
        for (std::size_t k = 0; k < set.size(); ++k) {
          if (k + 2 < set.size() && set[k + 1] == '-') {
            in = in || (ch >= set[k] && ch <= set[k + 2]);
            k += 2;
          } else {
            in = in || ch == set[k];
          }
        }
        next[t] = in != negate;
      }
      p = close + 1;
    } else {  // a literal character ('[' without its ']' included), or '?'
      for (std::size_t t = 1; t <= n; ++t)
        next[t] = row[t - 1] && (c == '?' ? text[t - 1] != '/' : text[t - 1] == c);
      ++p;
    }
    row.swap(next);
  }
  return row[n] != 0;
}

bool isBatchConvert(const Args& args) {
  const std::string* out = args.option("-o");
  if (args.option("--to")) return true;
  if (!out || out->empty()) return false;
  std::error_code ec;
  return out->back() == '/' || fs::is_directory(*out, ec);
}

int runBatchConvert(const Args& args) {
  const std::string* outOption = args.option("-o");
  if (!outOption) return usageError("convert", "no output folder given (-o FOLDER/)");
  const fs::path outDir(*outOption);
  std::error_code ec;
  if (fs::exists(outDir, ec) && !fs::is_directory(outDir, ec))
    return usageError("convert", *outOption + " is a file: batch conversion writes into a folder (-o FOLDER/)");

  std::string to = args.option("--to") ? lower(*args.option("--to")) : "glb";
  if (!to.empty() && to[0] == '.') to.erase(0, 1);
  static const std::set<std::string> kTargets = {"glb", "gltf", "omf", "cfg", "xsf", "csf", "cmf", "xmf"};
  if (!kTargets.count(to))
    return usageError("convert", "--to is one of glb, gltf, omf, cfg (a whole cal3d model); not '" + to + "'");

  unsigned jobsWanted = std::max(1u, std::thread::hardware_concurrency());
  if (const std::string* j = args.option("-j")) {
    unsigned v = 0;
    const auto r = std::from_chars(j->data(), j->data() + j->size(), v);
    if (r.ec != std::errc() || r.ptr != j->data() + j->size() || v == 0 || v > 256)
      return usageError("convert", "-j is a number of processes from 1 to 256");
    jobsWanted = v;
  }
  double timeout = 600.0;
  if (const std::string* t = args.option("--timeout")) {
    char* end = nullptr;
    timeout = std::strtod(t->c_str(), &end);
    if (end == t->c_str() || *end || !(timeout > 0.0) || timeout > 86400.0)
      return usageError("convert", "--timeout is a number of seconds (0 < s ≤ 86400)");
  }

  // Inputs → jobs.
  std::vector<Job> jobs;
  std::vector<std::pair<std::string, std::string>> failedInputs;  // input, why
  std::vector<std::string> notes;
  std::vector<std::string> paks;                     // every archive given, in order
  std::vector<std::pair<std::string, std::string>> pakPatterns;  // archive, pattern
  for (const auto& input : args.inputs) {
    const auto sep = input.find("::");
    const std::string file = sep == std::string::npos ? input : input.substr(0, sep);
    const std::string inner = sep == std::string::npos ? std::string() : input.substr(sep + 2);
    if (isPak(file)) {
      if (std::find(paks.begin(), paks.end(), file) == paks.end()) paks.push_back(file);
      if (sep != std::string::npos) pakPatterns.emplace_back(file, inner);
      continue;
    }
    if (sep != std::string::npos) {  // FILE.brf::RECORD or FILE.brf::PATTERN
      if (!hasGlob(inner)) {
        jobs.push_back({input, {input}, plainRelative(fs::path(file).stem() / inner)});
        continue;
      }
      auto bytes = formats::readFile(file);
      formats::ReadContext ctx;
      ctx.name = file;
      auto doc = bytes ? formats::brf::parse(*bytes, ctx)
                       : formats::Result<formats::brf::Document>(bytes.error());
      if (!doc) {
        failedInputs.emplace_back(input, doc.error().describe());
        continue;
      }
      std::size_t matched = 0;
      for (const auto& m : doc->meshes)
        if (matchGlob(inner, m.name)) {
          jobs.push_back({file + "::" + m.name, {file + "::" + m.name},
                          plainRelative(fs::path(file).stem() / m.name)});
          ++matched;
        }
      if (!matched) failedInputs.emplace_back(input, "no mesh of " + file + " matches '" + inner + "'");
      continue;
    }
    if (input == ":demo") {
      jobs.push_back({input, {input}, "demo"});
      continue;
    }
    if (fs::is_directory(input, ec)) {
      for (const auto& [dir, files] : walk(input, notes)) folderJobs(files, input, jobs);
      continue;
    }
    if (!fs::exists(input, ec) && hasGlob(input)) {
      // A pattern the shell left alone: the folders before its first wildcard are searched.
      fs::path base;
      fs::path rest;
      bool wild = false;
      for (const auto& part : fs::path(input)) {
        wild |= hasGlob(part.string());
        (wild ? rest : base) /= part;
      }
      if (base.empty()) base = ".";
      const std::string pattern = rest.generic_string();
      std::vector<fs::path> found;
      if (fs::is_directory(base, ec))
        for (const auto& [dir, files] : walk(base, notes))
          for (const auto& f : files)
            if (matchGlob(pattern, fs::relative(f, base).generic_string())) found.push_back(f);
      if (found.empty()) {
        failedInputs.emplace_back(input, "no file matches");
        continue;
      }
      for (const auto& f : found)
        jobs.push_back({f.string(), {f.string()}, withoutExtension(plainRelative(fs::relative(f, base)))});
      continue;
    }
    jobs.push_back({input, {input}, withoutExtension(plainRelative(fs::path(input).filename()))});
  }

  // Archive entries: patterns over the archives' one file system; archives given bare bring
  // their skins (and meshes without a skin).
  if (!paks.empty()) {
    auto set = formats::dragonnest::PakSet::open(paks);
    if (!set) {
      failedInputs.emplace_back(paks.front(), set.error().describe());
    } else {
      namespace dn = formats::dragonnest;
      const auto entries = set->resolvedEntries();
      std::vector<std::pair<std::string, std::string>> patterns = pakPatterns;
      if (patterns.empty()) patterns.emplace_back(paks.front(), "");
      std::set<std::string> skins;
      for (const auto& ref : entries) {
        const std::string_view p = ref.pak->path(*ref.entry);
        if (p.size() > 4 && p.substr(p.size() - 4) == ".skn") skins.insert(std::string(p.substr(0, p.size() - 4)));
      }
      std::set<std::string> taken;
      for (const auto& [archive, pattern] : patterns) {
        const std::string norm = dn::normalizePakPath(pattern);
        std::size_t matched = 0;
        for (const auto& ref : entries) {
          const std::string path(ref.pak->path(*ref.entry));
          bool wanted;
          if (pattern.empty()) {  // a bare archive: its models
            const std::string ext = lower(fs::path(path).extension().string());
            wanted = ext == ".skn" ||
                     (ext == ".msh" && !skins.count(path.substr(0, path.size() - 4)));
          } else {
            wanted = hasGlob(norm) ? matchGlob(norm, path) : path == norm;
          }
          if (!wanted || !taken.insert(path).second) {
            matched += wanted;
            continue;
          }
          ++matched;
          Job job;
          job.label = archive + "::" + path;
          job.inputs.push_back(archive + "::" + path);
          for (const auto& other : paks)
            if (other != archive) job.inputs.push_back(other);
          const auto safe = dn::safeRelativePath(ref.pak->storedPath(*ref.entry));
          job.output = withoutExtension(plainRelative(safe.relative.empty() ? fs::path(path) : safe.relative));
          jobs.push_back(std::move(job));
        }
        if (!matched)
          failedInputs.emplace_back(archive + "::" + pattern,
                                    pattern.empty() ? "the archives hold no .skn or .msh entry"
                                                    : "no entry matches");
      }
    }
  }

  // Outputs: the target extension, and a suffix where two models would be written to one name.
  std::set<std::string> used;
  for (auto& job : jobs) {
    fs::path base = job.output.empty() ? fs::path("model") : job.output;
    fs::path candidate = base;
    candidate += "." + to;
    for (int k = 2; !used.insert(lower(candidate.generic_string())).second; ++k) {
      candidate = base;
      candidate += "~" + std::to_string(k) + "." + to;
    }
    job.output = candidate;
  }

  for (const auto& note : notes) std::fprintf(stderr, "note: %s\n", note.c_str());
  if (jobs.empty() && failedInputs.empty()) {
    std::fprintf(stderr, "marrow-cli: no model file found in the inputs\n");
    return kLoadError;
  }
  fs::create_directories(outDir, ec);
  if (ec) {
    std::fprintf(stderr, "marrow-cli: %s: cannot create the folder (%s)\n", outDir.string().c_str(),
                 ec.message().c_str());
    return kLoadError;
  }

  // Options every child gets.
  std::vector<std::string> passOn;
  for (const char* o : {"--version", "--clip", "--material"})
    if (const std::string* v = args.option(o)) passOn.insert(passOn.end(), {o, *v});
  if (args.has("--xml")) passOn.push_back("--xml");

  const std::string exe = selfExe();
  const bool tty = isatty(STDERR_FILENO) && !args.has("--json");
  const bool quiet = args.has("--quiet");
  const auto started = Clock::now();
  std::vector<Outcome> outcomes(jobs.size());
  std::vector<Running> running;
  std::size_t next = 0, done = 0, failed = 0, skipped = 0;
  const std::size_t total = jobs.size();

  std::string shown;  // the progress line on the terminal now
  auto progress = [&]() {
    if (!tty || quiet) return;
    std::string line = "[" + std::to_string(done) + "/" + std::to_string(total) + "]";
    if (failed) line += " " + std::to_string(failed) + " failed";
    if (!running.empty()) line += " · " + jobs[running.front().job].label;
    if (line.size() > 100) line = line.substr(0, 97) + "...";
    if (line == shown) return;
    shown = line;
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
  };
  auto report = [&](std::size_t j) {
    const Outcome& o = outcomes[j];
    if (quiet && (o.ok || o.skipped)) return;
    if (tty) std::fprintf(stderr, "\r\033[K"), shown.clear();
    if (o.skipped) {
      if (!tty) std::fprintf(stderr, "[%zu/%zu] skipped %s: %s\n", done, total, jobs[j].label.c_str(), o.message.c_str());
    } else if (o.ok) {
      if (!tty)
        std::fprintf(stderr, "[%zu/%zu] ok %s -> %s%s\n", done, total, jobs[j].label.c_str(),
                     (outDir / jobs[j].output).string().c_str(),
                     o.warnings ? (" (" + std::to_string(o.warnings) + " warnings)").c_str() : "");
    } else {
      std::fprintf(stderr, "[%zu/%zu] FAILED %s: %s\n", done, total, jobs[j].label.c_str(), o.message.c_str());
    }
  };

  auto start = [&](std::size_t j) -> bool {
    fs::create_directories((outDir / jobs[j].output).parent_path(), ec);
    std::vector<std::string> argv = {exe, "convert"};
    argv.insert(argv.end(), jobs[j].inputs.begin(), jobs[j].inputs.end());
    argv.insert(argv.end(), {"-o", (outDir / jobs[j].output).string()});
    argv.insert(argv.end(), passOn.begin(), passOn.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
      close(fds[0]);
      outcomes[j].message = "could not start " + exe + ": " + std::strerror(rc);
      return false;
    }
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    running.push_back({j, pid, fds[0], Clock::now(), {}, false});
    return true;
  };

  auto finish = [&](Running& r) {
    close(r.fd);
    int status = 0;
    while (waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
    }
    Outcome& o = outcomes[r.job];
    o.log = std::move(r.log);
    o.warnings = countWarnings(o.log);
    if (r.killed) {
      char text[64];
      std::snprintf(text, sizeof text, "took longer than %g s: stopped", timeout);
      o.message = text;
    } else if (WIFSIGNALED(status)) {
      o.message = "the converter crashed (" + describeSignal(WTERMSIG(status)) + ")" +
                  (errorLine(o.log).empty() ? "" : ": " + errorLine(o.log));
    } else if (WEXITSTATUS(status) == kNothing) {
      o.skipped = true;
      o.message = errorLine(o.log);
      if (const auto at = o.message.find("nothing to"); at != std::string::npos) o.message.erase(0, at);
    } else if (WEXITSTATUS(status) != 0) {
      o.message = errorLine(o.log);
      // "FILE: …" said of the model's own file: the label already names it.
      const std::string& label = jobs[r.job].label;
      if (o.message.rfind(label + ": ", 0) == 0) o.message.erase(0, label.size() + 2);
      if (o.message.empty()) o.message = "failed with exit status " + std::to_string(WEXITSTATUS(status));
    } else {
      o.ok = true;
    }
    ++done;
    failed += !o.ok && !o.skipped;
    skipped += o.skipped;
    report(r.job);
  };

  progress();
  while (next < total || !running.empty()) {
    while (next < total && running.size() < jobsWanted) {
      const std::size_t j = next++;
      if (!start(j)) {
        if (outcomes[j].message.empty()) outcomes[j].message = "could not start a converter process";
        ++done;
        ++failed;
        report(j);
      }
    }
    if (running.empty()) continue;
    std::vector<pollfd> pfds;
    for (const auto& r : running) pfds.push_back({r.fd, POLLIN, 0});
    poll(pfds.data(), pfds.size(), 200);
    for (std::size_t i = running.size(); i-- > 0;) {
      Running& r = running[i];
      bool eof = false;
      char buf[4096];
      for (;;) {
        const ssize_t got = read(r.fd, buf, sizeof buf);
        if (got > 0) {
          if (r.log.size() < (1u << 20)) r.log.append(buf, static_cast<std::size_t>(got));
          continue;
        }
        if (got == 0 || (errno != EAGAIN && errno != EINTR)) eof = true;
        break;
      }
      if (!eof && !r.killed &&
          std::chrono::duration<double>(Clock::now() - r.start).count() > timeout) {
        kill(r.pid, SIGKILL);
        r.killed = true;
      }
      if (eof) {
        finish(r);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    progress();
  }
  if (tty && !quiet) std::fprintf(stderr, "\r\033[K");

  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  std::size_t warned = 0;
  for (const auto& o : outcomes) warned += o.ok && o.warnings > 0;
  const std::size_t allFailed = failed + failedInputs.size();
  std::fprintf(stderr, "converted %zu of %zu models into %s in %.1f s", total - failed - skipped,
               total + failedInputs.size(), outDir.string().c_str(), seconds);
  if (warned) std::fprintf(stderr, " (%zu with warnings)", warned);
  if (skipped) std::fprintf(stderr, "; %zu skipped: nothing to convert", skipped);
  std::fprintf(stderr, "\n");
  if (allFailed) {
    std::fprintf(stderr, "%zu failed:\n", allFailed);
    for (const auto& [input, why] : failedInputs) std::fprintf(stderr, "  %s: %s\n", input.c_str(), why.c_str());
    for (std::size_t j = 0; j < total; ++j)
      if (!outcomes[j].ok && !outcomes[j].skipped)
        std::fprintf(stderr, "  %s: %s\n", jobs[j].label.c_str(), outcomes[j].message.c_str());
  }

  if (args.has("--json")) {
    JsonWriter json;
    json.beginObject();
    json.key("output").value(outDir.string());
    json.key("seconds").value(seconds);
    json.key("converted").beginArray();
    for (std::size_t j = 0; j < total; ++j) {
      if (!outcomes[j].ok) continue;
      json.beginObject();
      json.key("input").value(jobs[j].label);
      json.key("output").value((outDir / jobs[j].output).string());
      json.key("warnings").value(outcomes[j].warnings);
      json.endObject();
    }
    json.endArray();
    json.key("skipped").beginArray();
    for (std::size_t j = 0; j < total; ++j) {
      if (!outcomes[j].skipped) continue;
      json.beginObject();
      json.key("input").value(jobs[j].label);
      json.key("reason").value(outcomes[j].message);
      json.endObject();
    }
    json.endArray();
    json.key("failed").beginArray();
    for (const auto& [input, why] : failedInputs) {
      json.beginObject();
      json.key("input").value(input);
      json.key("error").value(why);
      json.endObject();
    }
    for (std::size_t j = 0; j < total; ++j) {
      if (outcomes[j].ok || outcomes[j].skipped) continue;
      json.beginObject();
      json.key("input").value(jobs[j].label);
      json.key("error").value(outcomes[j].message);
      json.endObject();
    }
    json.endArray();
    json.endObject();
    std::printf("%s\n", json.str().c_str());
  }
  return allFailed ? kLoadError : kOk;
}

}  // namespace marrow::app::cli
