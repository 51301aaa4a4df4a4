#!/usr/bin/env bash
# One step from a fresh Debian 12 (or Ubuntu) machine to a built upcemu:
#
#   ./tools/setup.sh demo    install what is missing, build, run the examples
#   ./tools/setup.sh test    install what is missing, build, run the test suite
#                            (TEST_SETUP=all: also the full conformance matrix)
#   ./tools/setup.sh build   install what is missing and build (nothing else)
#
# Packages are installed with apt-get only when missing (through sudo unless run
# as root). The build lives in build/ (override with BUILD_DIR=...). Safe to run
# again at any time: an existing build directory is reused.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
PACKAGES=(meson ninja-build g++ pkg-config libboost-thread-dev doctest-dev libopenblas-dev libfftw3-dev)

usage() {
  echo "usage: $0 demo|test|build" >&2
  exit 2
}

say() { printf '\n==> %s\n' "$*"; }

install_missing_packages() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "packages: all present (${PACKAGES[*]})"
    return
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  say "installing: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    say "configuring $BUILD_DIR/"
    meson setup "$BUILD_DIR"
  fi
  say "building in $BUILD_DIR/"
  ninja -C "$BUILD_DIR"
}

# Runs one example as `upcrun -n 4 PROGRAM`.
run_example() {
  local program=$BUILD_DIR/examples/$1
  shift
  say "upcrun -n 4 $program${*:+ $*}"
  "$BUILD_DIR/tools/upcrun" -n 4 "$program" "$@"
}

demo() {
  run_example hello
  run_example pi_montecarlo
  run_example stencil
  say "the same on the processes backend: upcrun -n 4 --backend processes $BUILD_DIR/examples/pi_montecarlo"
  "$BUILD_DIR/tools/upcrun" -n 4 --backend processes "$BUILD_DIR/examples/pi_montecarlo"
  say "done; see README.md and docs/user-guide.md for what to try next"
}

run_tests() {
  # TEST_SETUP=all adds the opt-in suites (the full conformance matrix); CI sets it.
  local setup=${TEST_SETUP:-default}
  say "meson test -C $BUILD_DIR --setup $setup --print-errorlogs"
  local status=0
  meson test -C "$BUILD_DIR" --setup "$setup" --print-errorlogs || status=$?
  # One plain summary line, counted from meson's log.
  # meson names the log after the setup (testlog-all.json) or not (testlog.json).
  local log
  log=$(ls -t "$BUILD_DIR"/meson-logs/testlog*.json 2>/dev/null | head -n 1)
  [ -n "$log" ] && python3 - "$log" <<'PY' || true
import json, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    r = json.loads(line).get("result", "")
    if r in ("OK", "EXPECTEDFAIL"): passed += 1
    elif r == "SKIP": skipped += 1
    else: failed += 1
print(f"tests: {passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
PY
  return $status
}

[ $# -eq 1 ] || usage
case "$1" in
  demo)  install_missing_packages; build; demo ;;
  test)  install_missing_packages; build; run_tests ;;
  build) install_missing_packages; build ;;
  *) usage ;;
esac
