#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan) in build-fuzz/ and runs
# each for SECONDS (default 60) from its seed corpus in fuzz/corpus/<target>/. New inputs go
# to build-fuzz/corpus/<target>/, crashes to build-fuzz/artifacts/: a crash, once fixed, is
# copied into fuzz/corpus/<target>/ as a regression input. GLIDE_FUZZ_BUILD_DIR names another
# build tree configured with GLIDE_BUILD_FUZZ=ON (CI builds the suites and fuzzers in one tree).
# Usage: scripts/fuzz.sh [SECONDS per target] [TARGET...]
set -euo pipefail
source "$(dirname "$0")/setup.sh"

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(obj_level gltf_level heightmap case_file settings_file demo_level world_controller crowd)

glide_install_packages "${GLIDE_PACKAGES[@]}"
build=${GLIDE_FUZZ_BUILD_DIR:-$GLIDE_ROOT/build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$GLIDE_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DGLIDE_BUILD_FUZZ=ON -DGLIDE_BUILD_TESTS=OFF -DGLIDE_BUILD_BENCH=OFF -DGLIDE_WARNINGS_AS_ERRORS=ON
fi
cmake --build "$build" -j2 --target fuzz_all

status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/artifacts"
  echo "== fuzz_$t: $seconds s"
  if ! "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "$build/corpus/$t" "$GLIDE_ROOT/fuzz/corpus/$t" 2>"$build/fuzz_$t.log"; then
    echo "fuzz_$t: FAILED (see $build/fuzz_$t.log and $build/artifacts/)"
    tail -30 "$build/fuzz_$t.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$t.log" | tail -2
  fi
done
exit $status
