// The viewer's memory in huge pages: software GL (llvmpipe) allocates and zero-fills its buffer
// stores and per-draw vertex memory with malloc, and on a machine where page faults are dear
// the first frame of a million-triangle model is mostly faults in that memory, which the
// program does not own. glibc's malloc can advise huge pages for everything it hands out
// (the tunable glibc.malloc.hugetlb=1, glibc 2.35 and later), but reads the setting only when
// a process starts. docs/benchmarks.md ("Big models") has the figures.
#pragma once

namespace marrow::app {

// Starts the program again, with the same arguments, with glibc.malloc.hugetlb=1 added to
// GLIBC_TUNABLES, where that can help: Linux, glibc 2.35 or later, transparent huge pages on
// advice ("madvise"), the tunable not set by the user, MARROW_HUGE_PAGES not "0", and not where
// a restart goes wrong (valgrind, a sanitizer build, started through the dynamic loader,
// set-user-ID). The restarted program gives GLIBC_TUNABLES back as it was to the programs it
// starts. Call it first thing in main(), before any thread or window exists. Returns (and the
// program goes on as it is) when it does not apply, in the restarted program, or when the
// restart fails.
void restartWithHugePages(char** argv);

// Whether this program is the restarted one (restartWithHugePages was called in it).
bool restartedWithHugePages();

// Whether GLIBC_TUNABLES asks for huge pages now (glibc.malloc.hugetlb=1).
bool hugePagesAsked();

}  // namespace marrow::app
