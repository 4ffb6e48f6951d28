#!/usr/bin/env bash
# Configures (once) and builds Marrow in build/ with Ninja, Release. Extra arguments are targets.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f build/build.ninja ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
jobs=$(nproc 2>/dev/null || echo 2)
targets=()
[[ $# -gt 0 ]] && targets=(--target "$@")
cmake --build build --parallel "$jobs" "${targets[@]}"
