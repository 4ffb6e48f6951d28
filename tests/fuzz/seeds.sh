#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target: files our writers make (marrow_fuzz_seeds: the demo
# character and the small test character in every format and version we write, single-record
# BRF files cut from the fixtures, spec-built compressed CAF / EXT / DDS) and the fixture files,
# by extension. Seeds go to BUILD/fuzz/seeds/<target>/ (replaced on each run); nothing is committed.
# Usage: tests/fuzz/seeds.sh [BUILD_DIR]   (default build-fuzz; MARROW_FIXTURES_DIR overrides
#        the fixtures folder, ../shared/fixtures beside the repository by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
fixtures=${MARROW_FIXTURES_DIR:-$(pwd)/../shared/fixtures}
cmake --build "$build" --target marrow_fuzz_seeds -- -j"${JOBS:-2}" >/dev/null
out="$build/fuzz/seeds"
rm -rf "$out"
mkdir -p "$out"
if [[ -d "$fixtures" ]]; then
  "$build/tests/fuzz/marrow_fuzz_seeds" "$out" "$fixtures"
else
  echo "no fixtures at $fixtures: seeds from our writers only"
  "$build/tests/fuzz/marrow_fuzz_seeds" "$out"
fi
