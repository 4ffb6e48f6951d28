#include "app/huge_pages.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <algorithm>

#if defined(__linux__)
#include <sys/auxv.h>
#include <unistd.h>
#endif

namespace marrow::app {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";
// Set for the restarted program only: that it was restarted, and GLIBC_TUNABLES as it was
// before ("" when unset), given back to the environment of the programs it starts.
constexpr const char* kRestarted = "MARROW_HUGE_PAGES_RESTARTED";

// Transparent huge pages in "madvise" mode: the kernel gives huge pages where asked, and glibc's
// advice is what asks (in "always" mode every mapping has them already; in "never" none).
bool hugePagesOnAdvice() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(in, line) && line.find("[madvise]") != std::string::npos;
}

// Where restarting would not help or would go wrong: a build whose malloc is a sanitizer's, a
// run under valgrind (/proc/self/exe is valgrind's tool), a program started through the dynamic
// loader (/proc/self/exe is the loader), a secure-execution program (set-user-ID, capabilities:
// glibc drops GLIBC_TUNABLES there).
bool restartUnsafe() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_MEMORY__)
  return true;
#else
  if (getauxval(AT_SECURE) != 0 || getauxval(AT_BASE) == 0) return true;
  const char* preload = std::getenv("LD_PRELOAD");
  return preload && std::strstr(preload, "vgpreload") != nullptr;
#endif
}

}  // namespace

bool hugePagesAsked() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (!tunables) return false;
  const std::string wanted = std::string(kTunable) + "=1";
  for (std::string_view rest = tunables; !rest.empty();) {  // NAME=VALUE:NAME=VALUE...
    const auto colon = std::min(rest.find(':'), rest.size());
    if (rest.substr(0, colon) == wanted) return true;
    rest.remove_prefix(std::min(colon + 1, rest.size()));
  }
  return false;
}

bool restartedWithHugePages() {
  static const bool restarted = [] {
    const char* v = std::getenv(kRestarted);
    return v != nullptr;
  }();
  return restarted;
}

void restartWithHugePages(char** argv) {
#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
  if (const char* before = std::getenv(kRestarted)) {
    // The restarted program: glibc has read the setting; the programs it starts get the
    // environment as it was.
    (void)restartedWithHugePages();  // remembers that it was restarted
    const std::string old = before;
    if (old.empty()) unsetenv("GLIBC_TUNABLES");
    else setenv("GLIBC_TUNABLES", old.c_str(), 1);
    unsetenv(kRestarted);
    return;
  }
  if (!argv || !argv[0] || restartUnsafe()) return;
  if (const char* opt = std::getenv("MARROW_HUGE_PAGES"); opt && std::strcmp(opt, "0") == 0) return;
  const char* before = std::getenv("GLIBC_TUNABLES");
  if (before && std::strstr(before, kTunable)) return;  // the user's own setting
  if (!hugePagesOnAdvice()) return;
  const std::string old = before ? before : "";
  const std::string tunables = (old.empty() ? "" : old + ":") + kTunable + "=1";
  if (setenv(kRestarted, old.c_str(), 1) != 0 || setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) {
    unsetenv(kRestarted);
    return;
  }
  execv("/proc/self/exe", argv);
  // Still here: the restart failed; go on as we are, with the environment as it was.
  unsetenv(kRestarted);
  if (before) setenv("GLIBC_TUNABLES", old.c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

}  // namespace marrow::app
