#!/usr/bin/env bash
# One step from a fresh Debian 12 (or Ubuntu) machine to a built upcemu:
#
#   ./tools/setup.sh demo    install what is missing, build what the demo runs
#                            (the runtime, upcrun, three examples), run them
#   ./tools/setup.sh test    install what is missing, build, run the test suite
#                            (TEST_SETUP=all: also the full conformance matrix)
#   ./tools/setup.sh build   install what is missing and build (nothing else)
#   ./tools/setup.sh install [--prefix DIR]
#                            install what is missing, build what `meson install`
#                            installs and install it under DIR (default
#                            /usr/local): bin/upcrun, include/upcemu/, the
#                            libraries, lib.../pkgconfig/upcemu.pc and
#                            upcemu-nomain.pc, man1/upcrun.1 (README "Installing")
#
# Packages are installed with apt-get only when missing (through sudo unless run
# as root). The build lives in build/ (override with BUILD_DIR=...). Safe to run
# again at any time: an existing build directory is reused (install sets its
# prefix). `meson install` runs through sudo only when DIR is not writable; it
# honours DESTDIR for staged installs.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
# What configuring and the demo need (the apps' OpenBLAS and FFTW are looked
# for at configure time), and what the rest adds: libclang for upcc (the UPC
# test programs are built through it), Open MPI for the mpi backend (upcrun
# --backend mpi, docs/backends.md) and the benchmarks' MPI peers. The demo
# leaves the second list out: a third of the download, a minute on a new machine.
DEMO_PACKAGES=(meson ninja-build g++ gcc pkg-config libboost-thread-dev doctest-dev libopenblas-dev libfftw3-dev)
MORE_PACKAGES=(python3-clang-14 libclang1-14 openmpi-bin libopenmpi-dev)
PACKAGES=("${DEMO_PACKAGES[@]}" "${MORE_PACKAGES[@]}")

usage() {
  echo "usage: $0 demo|test|build|install [--prefix DIR]" >&2
  exit 2
}

say() { printf '\n==> %s\n' "$*"; }

# Installs those of the packages named (default: all of PACKAGES) that are
# missing. A build directory configured before Open MPI was installed (by
# `demo`) is configured again, so that it finds it.
install_missing_packages() {
  [ $# -gt 0 ] || set -- "${PACKAGES[@]}"
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "packages: all present ($*)"
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
  if [ -f "$BUILD_DIR/build.ninja" ] && [[ " ${missing[*]} " == *" libopenmpi-dev "* ]]; then
    say "configuring $BUILD_DIR/ again: Open MPI is installed now"
    meson setup --reconfigure "$BUILD_DIR"
  fi
}

# Builds the targets named (their paths in $BUILD_DIR), or everything.
build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    say "configuring $BUILD_DIR/"
    meson setup "$BUILD_DIR"
  fi
  if [ $# -gt 0 ]; then
    # a target this configuration does not make (the backtrace module without
    # GCC's libbacktrace) is left out rather than failing the build
    local known=() t
    for t in "$@"; do
      ninja -C "$BUILD_DIR" -t query "$t" >/dev/null 2>&1 && known+=("$t")
    done
    set -- "${known[@]}"
    say "building in $BUILD_DIR/: $*"
  else
    say "building in $BUILD_DIR/ (everything: the tests, benchmarks and applications too)"
  fi
  ninja -C "$BUILD_DIR" "$@"
}

# What the demo runs, and nothing else: the whole tree (every test, benchmark
# and application, about 500 targets) takes a quarter of an hour on two cores;
# this takes about two minutes. `test` and `build` build the rest.
# (libupcemu_backtrace.so: file:line in failure reports, opened when one is made)
DEMO_TARGETS=(tools/upcrun lib/libupcemu_backtrace.so examples/hello examples/pi_montecarlo examples/stencil)

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
  say "done; see README.md and docs/user-guide.md for what to try next (\`./tools/setup.sh build\` builds the rest: upcc's libraries, the tests, benchmarks and applications)"
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

# The build options a configured build directory has, one "name=value" a line.
build_option() {
  meson introspect "$BUILD_DIR" --buildoptions | python3 -c '
import json, sys
for o in json.load(sys.stdin):
    if o["name"] == sys.argv[1]: print(o["value"])' "$1"
}

# Where meson installs directory option $2 (bindir, libdir, ...) under prefix $1.
install_dir() {
  local dir
  dir=$(build_option "$2")
  case "$dir" in /*) echo "$dir" ;; *) echo "$1/$dir" ;; esac
}

# Configures $BUILD_DIR with prefix $1, builds only what `meson install` installs
# (not the tests, examples and applications: a fresh install needs minutes, not
# the whole tree) and installs it.
install_toolchain() {
  local prefix=$1
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    say "configuring $BUILD_DIR/ with prefix $prefix"
    meson setup "$BUILD_DIR" --prefix "$prefix"
  elif [ "$(build_option prefix)" != "$prefix" ]; then
    say "setting the prefix of $BUILD_DIR/ to $prefix"
    meson configure "$BUILD_DIR" -Dprefix="$prefix"
  fi
  ninja -C "$BUILD_DIR" build.ninja >/dev/null  # regenerate, so the target list is current
  local targets=()
  mapfile -t targets < <(meson introspect "$BUILD_DIR" --targets | python3 -c '
import json, os, sys
build = os.path.realpath(sys.argv[1])
for t in json.load(sys.stdin):
    if t.get("installed"):
        for f in t["filename"]:
            print(os.path.relpath(f, build))' "$BUILD_DIR")
  say "building what is installed in $BUILD_DIR/ (${#targets[@]} targets)"
  ninja -C "$BUILD_DIR" "${targets[@]}"

  # Install through sudo only when the prefix (its nearest existing folder) is
  # not writable by us.
  local sudo=() probe=${DESTDIR:-}$prefix
  while [ ! -e "$probe" ]; do probe=$(dirname "$probe"); done
  if [ ! -w "$probe" ] && [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root or sudo to install into $prefix (or choose --prefix DIR)" >&2; exit 1; }
    sudo=(sudo)
  fi
  local destdir=()  # sudo drops the environment: pass DESTDIR on explicitly
  [ -z "${DESTDIR:-}" ] || destdir=(--destdir "$DESTDIR")
  say "${sudo[*]:+${sudo[*]} }meson install -C $BUILD_DIR${DESTDIR:+ --destdir $DESTDIR}"
  "${sudo[@]}" meson install -C "$BUILD_DIR" --no-rebuild --quiet "${destdir[@]}"

  local bindir includedir libdir pcdir
  bindir=$(install_dir "$prefix" bindir)
  includedir=$(install_dir "$prefix" includedir)
  libdir=$(install_dir "$prefix" libdir)
  pcdir=$libdir/pkgconfig
  say "installed upcemu into ${DESTDIR:-}$prefix"
  echo "    programs: $bindir/upcrun"
  echo "    headers:  $includedir/upcemu/"
  echo "    link:     $libdir/libupcemu.a, libupcemu_main.a; $pcdir/upcemu.pc, upcemu-nomain.pc"
  echo "    manual:   man upcrun"
  [ -n "${DESTDIR:-}" ] && return
  local hints=()
  case ":$PATH:" in *":$bindir:"*) ;; *) hints+=("export PATH=$bindir:\$PATH") ;; esac
  if [ "$(pkg-config --variable=pcfiledir upcemu 2>/dev/null)" != "$pcdir" ]; then
    hints+=("export PKG_CONFIG_PATH=$pcdir\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}")
  fi
  if [ ${#hints[@]} -gt 0 ]; then
    echo "    to use it, add to your shell's start-up file:"
    printf '      %s\n' "${hints[@]}"
  fi
  echo "    then: c++ -std=c++20 prog.cpp \$(pkg-config --cflags --libs upcemu) -o prog && upcrun -n 4 ./prog"
}

[ $# -ge 1 ] || usage
mode=$1
shift
prefix=/usr/local
if [ "$mode" = install ]; then
  while [ $# -gt 0 ]; do
    case "$1" in
      --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
      --prefix=*) prefix=${1#--prefix=}; shift ;;
      *) usage ;;
    esac
  done
  [ -n "$prefix" ] || usage
  prefix=$(realpath -m -- "$prefix")  # meson wants an absolute prefix
fi
[ $# -eq 0 ] || usage
case "$mode" in
  demo)    install_missing_packages "${DEMO_PACKAGES[@]}"; build "${DEMO_TARGETS[@]}"; demo ;;
  test)    install_missing_packages; build; run_tests ;;
  build)   install_missing_packages; build ;;
  install) install_missing_packages; install_toolchain "$prefix" ;;
  *) usage ;;
esac
