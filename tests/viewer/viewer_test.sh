#!/usr/bin/env bash
# The viewer as a person would use it, under a virtual X display with Mesa's software OpenGL:
#   viewer_test.sh screenshot GLIDE CHECKER OUT_DIR   scripted run of 240 frames, then check the picture
#                                                    and replay the case the run recorded (F9)
#   viewer_test.sh walkers GLIDE CHECKER OUT_DIR      the same with 30 crowd walkers around the character
#                                                    (respawned by the reload at frame 90): checks they show
#   viewer_test.sh no-display GLIDE                   without a display --view says so and fails
# Exits 77 (ctest SKIP_RETURN_CODE) when xvfb-run is missing.
set -uo pipefail
mode=$1
glide=$2

case "$mode" in
screenshot | walkers)
  checker=$3
  out=$4
  if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "SKIPPED: xvfb-run not found; install it with: apt-get install -y xvfb xauth libgl1-mesa-dri"
    exit 77
  fi
  mkdir -p "$out"
  extra=()
  check_extra=()
  if [ "$mode" = walkers ]; then
    extra=(--walkers 30)
    check_extra=(--walkers)
  fi
  rm -f "$out/viewer.png" "$out/recorded.json"
  # Settings and recordings go to the test's folder, never the user's.
  # Under GLIDE_SANITIZE, LeakSanitizer would report what Mesa, X11 and fontconfig keep until
  # exit; glide's own leaks are checked by the suites that open no window.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x720x24" \
    "$glide" demo --view --autopilot --frames 240 --screenshot "$out/viewer.png" \
    --settings "$out/settings.json" --record-file "$out/recorded.json" "${extra[@]}"
  status=$?
  if [ $status -ne 0 ]; then
    echo "FAIL: glide demo --view exited with $status"
    exit 1
  fi
  [ -s "$out/viewer.png" ] || { echo "FAIL: no screenshot written"; exit 1; }
  "$checker" "$out/viewer.png" "${check_extra[@]}" || exit 1
  # The autopilot pressed F9 once: the recorded case replays and passes.
  cases=$("$glide" cases "$out/recorded.json")
  status=$?
  echo "$cases"
  if [ $status -ne 0 ] || ! grep -q "^1 passed, 0 failed" <<<"$cases"; then
    echo "FAIL: the case recorded by F9 does not replay"
    exit 1
  fi
  ;;
no-display)
  err=$(env -u DISPLAY -u WAYLAND_DISPLAY "$glide" demo --view --frames 1 2>&1 >/dev/null)
  status=$?
  echo "$err"
  if [ $status -eq 0 ]; then
    echo "FAIL: --view without a display exited 0"
    exit 1
  fi
  if ! grep -q "no display" <<<"$err"; then
    echo "FAIL: the message does not say that there is no display"
    exit 1
  fi
  echo "ok: exit status $status with the message above"
  ;;
*)
  echo "usage: viewer_test.sh screenshot|walkers|no-display ..." >&2
  exit 2
  ;;
esac
