// The viewer's memory in huge pages: software GL (llvmpipe) allocates and zero-fills its buffer
// stores and per-draw vertex memory with malloc, and on a machine where page faults are dear
// the first frame of a million-triangle model is mostly faults in that memory, which the
// program does not own. glibc's malloc can advise huge pages for everything it hands out
// (the tunable glibc.malloc.hugetlb=1, glibc 2.35 and later), but reads the setting only when
// a process starts. docs/benchmarks.md ("Big models") has the figures.
#pragma once

namespace marrow::app {

// Starts the program again, with the same arguments, with glibc.malloc.hugetlb=1 added to
// GLIBC_TUNABLES, where that can help: Linux, glibc 2.35 or later, transparent huge pages not
// off, the tunable not set already, and MARROW_HUGE_PAGES not "0". Call it first thing in
// main(), before any thread or window exists. Returns (and the program goes on as it is) when
// it does not apply or the restart fails.
void restartWithHugePages(char** argv);

// Whether glibc was asked for huge pages in this process (the tunable is set).
bool hugePagesAsked();

}  // namespace marrow::app
