#!/usr/bin/env bash
# Installs missing Debian packages, builds glide in build/ and runs the soak of the controller
# on the demo level (`glide soak`): random episodes, every frame checked (docs/soak.md).
# Usage: scripts/soak.sh [frames] [more glide soak options]; 1,000,000 frames by default.
# Exits with the soak's status: 0 only when every check held on every frame.
set -euo pipefail
source "$(dirname "$0")/setup.sh"

frames=${1:-1000000}
shift $(($# > 0 ? 1 : 0))

glide_install_packages "${GLIDE_PACKAGES[@]}"
glide_build "$GLIDE_ROOT/build"

glide="$GLIDE_ROOT/build/demo/glide"
echo "glide: running $glide soak --frames $frames $*"
"$glide" soak --frames "$frames" "$@"
