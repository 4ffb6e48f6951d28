#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test headless (GL and GUI tests
# under xvfb-run when there is no display). Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh test
scripts/build.sh
jobs=$(nproc 2>/dev/null || echo 2)
ctest_cmd=(ctest --test-dir build --output-on-failure --parallel "$jobs" "$@")
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  "${ctest_cmd[@]}"
else
  # -noreset: Xvfb otherwise resets whenever its last client leaves, and a GL test starting
  # during that reset fails to connect ("could not connect to display"), about one run in three.
  xvfb-run -a -s "-screen 0 1400x900x24 -noreset" "${ctest_cmd[@]}"
fi
