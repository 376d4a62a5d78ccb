#!/usr/bin/env bash
# Builds the GJK stress program (Release, in build/) and runs the adversarial distance,
# intersect and time-of-impact cases of tests/gjk/gjk_adversarial.hpp against the
# double-precision oracle: 1,000,000 cases by default, or `scripts/gjk_stress.sh COUNT [SEED]`.
# Prints the worst error per family as a fraction of the documented tolerances; exits 1 if
# any case is outside them.
set -euo pipefail
source "$(dirname "$0")/setup.sh"

glide_install_packages "${GLIDE_PACKAGES[@]}"
cmake -S "$GLIDE_ROOT" -B "$GLIDE_ROOT/build" -DCMAKE_BUILD_TYPE=Release -DGLIDE_BUILD_TESTS=ON >/dev/null
cmake --build "$GLIDE_ROOT/build" -j2 --target gjk_stress
"$GLIDE_ROOT/build/tests/gjk/gjk_stress" "${1:-1000000}" "${2:-1}"
