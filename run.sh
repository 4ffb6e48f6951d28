#!/usr/bin/env bash
# Installs what is missing, builds Marrow and opens the viewer on the bundled demo character
# (or on the files given). Without a display it saves a screenshot of the viewer instead.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh build
scripts/build.sh marrow marrow-cli
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec ./build/app/marrow "$@"
fi
echo "No display here: rendering the viewer under Xvfb to build/marrow-screenshot.png"
xvfb-run -a -s "-screen 0 1400x900x24" ./build/app/marrow "$@" \
  --screenshot build/marrow-screenshot.png --after 1.5
echo "Saved build/marrow-screenshot.png"
