// marrow-cli convert in batch: `convert INPUT... -o FOLDER/ [--to glb] [-j N]`.
//
// Each model the inputs name (a file, every model file under a folder, the entries of Dragon
// Nest archives a pattern matches, the meshes of a BRF file a pattern matches) is converted on
// its own, by a child `marrow-cli convert` process: a file that crashes a reader (assimp has
// known memory bugs) or hangs is one failed model, not a failed batch. N children run at once;
// a terminal sees one progress line, a pipe one line per model; a summary follows, and the exit
// status is 1 when any model failed.
#include "app/cli/batch.h"
#include "app/cli/common.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "formats/io/json_writer.h"
#include "formats/folder_models.h"
#include "formats/format_table.h"
#include "formats/io/address.h"
#include "formats/io/extract.h"
#include "formats/io/glob.h"

extern char** environ;

namespace marrow::app::cli {

using formats::JsonWriter;
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

using formats::hasGlob;
using formats::matchGlob;

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

// The models in one folder's listing (files only), as jobs relative to `base`: each format
// says which of its files are models of their own and which make one model together
// (formats/folder_models.h: cal3d parts per skeleton, a Dragon Nest mesh without a skin); the
// files that fit no model go to `unfit` with why, and those that could not be read to `failed`.
void folderJobs(const std::vector<fs::path>& files, const fs::path& base, std::vector<Job>& jobs,
                std::vector<std::pair<std::string, std::string>>& unfit,
                std::vector<std::pair<std::string, std::string>>& failed) {
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.string());
  formats::FolderContents found = formats::modelsInFolder(paths);
  for (auto& model : found.models) {
    const fs::path first(model.files.front());
    if (model.files.size() == 1) {
      jobs.push_back({model.files.front(), model.files, withoutExtension(plainRelative(fs::relative(first, base)))});
      continue;
    }
    // One model of several files, named after the one that names it (a cal3d skeleton).
    const std::string label = first.string() + " (+ " + std::to_string(model.files.size() - 1) + " " +
                              std::string(model.format->name) + " parts)";
    jobs.push_back({label, model.files, plainRelative(fs::relative(first.parent_path(), base) / first.stem())});
  }
  for (auto& u : found.unfit) (u.unreadable ? failed : unfit).emplace_back(std::move(u.file), std::move(u.why));
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
  if (!jobsOption(args, 256, "processes", jobsWanted)) return kUsage;
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
  std::vector<std::pair<std::string, std::string>> unfit;  // a file of a folder that fits no model, why
  std::vector<std::string> notes;
  // Archives (paks, given bare or ARCHIVE::PATTERN, one file system) and files of records
  // (FILE.brf::PATTERN): their models, by the archive's own rule (Archive::models).
  std::vector<std::pair<const formats::FormatDescriptor*, std::vector<std::string>>> mounts;
  std::vector<std::pair<std::string, std::string>> patterns;  // file, pattern ("": its models)
  const auto mountOf = [&](const formats::FormatDescriptor* f, const std::string& file) {
    auto at = std::find_if(mounts.begin(), mounts.end(), [f](const auto& m) { return m.first == f; });
    if (at == mounts.end()) at = mounts.insert(mounts.end(), {f, {}});
    if (std::find(at->second.begin(), at->second.end(), file) == at->second.end()) at->second.push_back(file);
  };
  for (const auto& input : args.inputs) {
    const formats::Address address = formats::Address::parse(input);
    const std::string& file = address.file;
    const std::string& inner = address.inner;
    if (const formats::FormatDescriptor* archive = formats::archiveFormatFor(file)) {
      mountOf(archive, file);
      if (!address.whole()) patterns.emplace_back(file, inner);
      continue;
    }
    if (!address.whole()) {  // FILE.brf::RECORD or FILE.brf::PATTERN
      if (!hasGlob(inner)) {
        jobs.push_back({input, {input}, plainRelative(fs::path(file).stem() / inner)});
        continue;
      }
      const formats::FormatDescriptor* format = formats::detect({}, file);
      if (!format || !format->mount || !format->hasRecords) {
        failedInputs.emplace_back(input, file + " holds no records to match '" + inner + "'");
        continue;
      }
      mountOf(format, file);
      patterns.emplace_back(file, inner);
      continue;
    }
    if (input == ":demo") {
      jobs.push_back({input, {input}, "demo"});
      continue;
    }
    if (fs::is_directory(input, ec)) {
      for (const auto& [dir, files] : walk(input, notes)) folderJobs(files, input, jobs, unfit, failedInputs);
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

  const auto encoding = encodingOption(args);
  if (!encoding) return 2;
  for (const auto& [format, files] : mounts) {
    auto archive = format->mount(files, formats::MountOptions{*encoding});
    if (!archive) {
      failedInputs.emplace_back(files.front(), archive.error().describe());
      continue;
    }
    // An archive of files (paks) is one file system: each job reads its entry with all of them.
    const bool fileSystem = !format->archiveExtensions.empty();
    std::vector<std::pair<std::string, std::string>> wanted;
    for (const auto& p : patterns)
      if (std::find(files.begin(), files.end(), p.first) != files.end()) wanted.push_back(p);
    if (wanted.empty()) wanted.emplace_back(files.front(), "");  // archives given bare: their models
    std::set<std::string> taken;
    for (const auto& [file, pattern] : wanted) {
      std::size_t matched = 0;
      for (const formats::vfs::Node& node : (*archive)->models(pattern)) {
        ++matched;
        const formats::Address a = (*archive)->addressOf(node.path);
        if (!taken.insert(a.str()).second) continue;
        Job job;
        job.label = (fileSystem ? file : a.file) + std::string(formats::kAddressSeparator) + a.inner;
        job.inputs.push_back(job.label);
        if (fileSystem)
          for (const auto& other : files)
            if (other != file) job.inputs.push_back(other);
        const auto safe = formats::safeRelativePath((*archive)->storedName(node));
        job.output = fileSystem
                         ? withoutExtension(plainRelative(safe.relative.empty() ? fs::path(a.inner) : safe.relative))
                         : plainRelative(fs::path(a.file).stem() / a.inner);
        jobs.push_back(std::move(job));
      }
      if (!matched)
        failedInputs.emplace_back(
            pattern.empty() ? file : file + std::string(formats::kAddressSeparator) + pattern,
            pattern.empty()        ? "the archives hold no model entry (no .skn or .msh)"
            : fileSystem           ? "no entry matches"
                                   : "no record of " + file + " matches '" + pattern + "'");
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
  if (jobs.empty() && failedInputs.empty() && unfit.empty()) {
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
  for (const char* o : {"--version", "--clip", "--material", "--encoding"})
    for (const std::string& v : args.values(o)) passOn.insert(passOn.end(), {o, v});
  if (args.has("--xml")) passOn.push_back("--xml");
  if (args.has("--partial")) passOn.push_back("--partial");

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
  if (!unfit.empty()) {
    std::fprintf(stderr, "%zu %s no model and %s not converted:\n", unfit.size(),
                 unfit.size() == 1 ? "file fits" : "files fit", unfit.size() == 1 ? "was" : "were");
    for (const auto& [file, why] : unfit) std::fprintf(stderr, "  %s: %s\n", file.c_str(), why.c_str());
  }
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
    json.key("unfit").beginArray();
    for (const auto& [file, why] : unfit) {
      json.beginObject();
      json.key("input").value(file);
      json.key("reason").value(why);
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
