#!/usr/bin/env bash
# Installs Google Benchmark and the comparison peers (FCL, libccd, Bullet), builds Release in
# build-bench/ and runs every benchmark program, or the ones named: scripts/bench.sh gjk terrain
set -euo pipefail
source "$(dirname "$0")/setup.sh"

glide_install_packages "${GLIDE_PACKAGES[@]}" libfcl-dev libccd-dev libbullet-dev
glide_build "$GLIDE_ROOT/build-bench" -DGLIDE_BUILD_BENCH=ON -DGLIDE_BUILD_TESTS=OFF
cd "$GLIDE_ROOT/build-bench/bench"
names=("$@")
[ ${#names[@]} -eq 0 ] && names=($(ls bench_* | sed 's/^bench_//'))
for n in "${names[@]}"; do
  echo "== bench_$n"
  "./bench_$n" --benchmark_min_time=0.2
done
