#!/usr/bin/env bash
# Installs missing Debian packages, builds glide with its tests in build/, and runs every
# suite with ctest. Exits with ctest's status.
set -euo pipefail
source "$(dirname "$0")/setup.sh"

glide_install_packages "${GLIDE_PACKAGES[@]}"
glide_build "$GLIDE_ROOT/build" -DGLIDE_BUILD_TESTS=ON
cd "$GLIDE_ROOT/build"
ctest --output-on-failure -j2
