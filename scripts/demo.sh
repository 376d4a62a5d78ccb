#!/usr/bin/env bash
# Installs missing Debian packages, builds glide in build/ and runs its main job: the case
# files, then the demo level's scripted tour (`glide demo`), which prints its figures and
# draws a top-down map of the walk.
set -euo pipefail
source "$(dirname "$0")/setup.sh"

glide_install_packages "${GLIDE_PACKAGES[@]}"
glide_build "$GLIDE_ROOT/build"

glide="$GLIDE_ROOT/build/demo/glide"
echo "glide: running $glide cases $GLIDE_ROOT/tests/cases"
status=0
"$glide" cases "$GLIDE_ROOT/tests/cases" || status=$? # a failing case is reported; the tour still runs

map="$GLIDE_ROOT/build/glide_demo.png"
echo
echo "glide: running $glide demo --output $map"
"$glide" demo --output "$map" || status=$?
echo
echo "glide: the map of the tour is $map"
echo "glide: tune it with options (glide demo --help), or walk the level yourself: glide demo --view"
exit "$status"
