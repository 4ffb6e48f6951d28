#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UBSan (build-asan/, Debug) and runs the tests.
# Leak checking is off for the GL and GUI tests: Mesa and libX11 keep a few hundred bytes of
# driver state alive at exit that no code of ours allocates.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
if [[ ! -f build-asan/build.ninja ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMARROW_SANITIZE=ON
fi
cmake --build build-asan --parallel "$(nproc 2>/dev/null || echo 2)"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() { if [[ -n "${DISPLAY:-}" ]]; then "$@"; else xvfb-run -a -s "-screen 0 1400x900x24 -noreset" "$@"; fi; }
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -L "unit|reference" "$@"
ASAN_OPTIONS=detect_leaks=0 run ctest --test-dir build-asan --output-on-failure -L "gl|gui" "$@"
