#!/usr/bin/env bash
# Installs the Debian 12 packages Marrow needs that are not installed yet (nothing when all are).
# Usage: scripts/deps.sh [build|test]   (test adds what the headless test run needs)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-image-formats-plugins
  libgl-dev libglm-dev libassimp-dev zlib1g-dev libdeflate-dev libsimdjson-dev libmeshoptimizer-dev libpugixml-dev libcal3d12-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth
)
if [[ "${1:-build}" == test ]]; then
  packages+=(assimp-testmodels)
  # The desktop files' validators and GLib's MIME lookup (tests/desktop), and ImageMagick as a
  # second reference for TGA decoding (tests/reference/tga_reference_test.cpp).
  packages+=(desktop-file-utils appstream libglib2.0-bin imagemagick)
  # Debian's Blender 3.4, headless: where users take Marrow's glTF next (tests/blender). Its
  # glTF add-on needs numpy, which the package only recommends.
  packages+=(blender python3-numpy)
  # The Khronos glTF validator (npm gltf-validator) runs on node; the tests install it with npm.
  command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing: ${missing[*]}"
sudo=()
[[ $(id -u) -ne 0 ]] && sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
