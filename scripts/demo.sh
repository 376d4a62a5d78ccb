#!/usr/bin/env bash
# Installs missing Debian packages, builds glide in build/ and runs its main job.
set -euo pipefail
source "$(dirname "$0")/setup.sh"

glide_install_packages "${GLIDE_PACKAGES[@]}"
glide_build "$GLIDE_ROOT/build"

glide="$GLIDE_ROOT/build/demo/glide"
# The main job grows with the project: the case runner once it exists, the demo level later.
if "$glide" --help | grep -q '^ *cases'; then
  job=("$glide" cases "$GLIDE_ROOT/tests/cases")
else
  job=("$glide" --help)
fi
echo "glide: running ${job[*]}"
"${job[@]}"
