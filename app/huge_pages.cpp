#include "app/huge_pages.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace marrow::app {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

// Transparent huge pages are "always" or "madvise" (the kernel honours the advice).
bool transparentHugePagesOn() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return false;
  return line.find("[always]") != std::string::npos || line.find("[madvise]") != std::string::npos;
}

}  // namespace

bool hugePagesAsked() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables && std::strstr(tunables, kTunable) != nullptr;
}

void restartWithHugePages(char** argv) {
#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
  if (!argv || !argv[0] || hugePagesAsked()) return;  // set already (by us before the restart, or by the user)
  if (const char* opt = std::getenv("MARROW_HUGE_PAGES"); opt && std::strcmp(opt, "0") == 0) return;
  if (!transparentHugePagesOn()) return;
  const char* before = std::getenv("GLIBC_TUNABLES");
  const std::string old = before ? before : "";
  const std::string tunables = (old.empty() ? "" : old + ":") + kTunable + "=1";
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Still here: the restart failed; go on as we are, with the environment as it was.
  if (before) setenv("GLIBC_TUNABLES", old.c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

}  // namespace marrow::app
