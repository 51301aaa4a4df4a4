#!/bin/sh
# Compile and run GCC UPC's runtime tests (libgupc/testsuite/libgupc.upc/
# intrepid/testNN.upc, fetched separately; they are not part of upcemu) with
# upcc and upcrun, on both backends, and print a pass/fail table.
#
# usage: run_gupc_tests.sh DIR [THREADS]
#   DIR      folder holding test00.upc ... test31.upc (any subset)
#   THREADS  number of UPC threads to run with (default 4)
# environment: UPCC (default: <repo>/tools/upcc/upcc), UPCRUN (default:
#   <repo>/build/tools/upcrun), WORK (build folder, default: a temp folder),
#   TIMEOUT (seconds per run, default 120)
# A test is compiled as it is (dynamic THREADS); when that fails it is
# compiled again with -T THREADS (a static THREADS, for tests that use THREADS
# in '#if' or in an array-of-shared parameter's row); the table says "-T".
# A run passes when it exits 0 and prints "passed" (test30 may print
# "non-applicable" instead: it checks GUPC's own pointer-to-shared layout).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
dir=${1:?usage: run_gupc_tests.sh DIR [THREADS]}
n=${2:-4}
UPCC=${UPCC:-$repo/tools/upcc/upcc}
UPCRUN=${UPCRUN:-$repo/build/tools/upcrun}
TIMEOUT=${TIMEOUT:-120}
WORK=${WORK:-$(mktemp -d /tmp/gupc_accept.XXXXXX)}
mkdir -p "$WORK"
printf '%-8s %-9s %-9s %-9s\n' test compiles threads processes
total=0; good=0
for src in "$dir"/test[0-9][0-9].upc; do
  [ -f "$src" ] || continue
  t=$(basename "$src" .upc)
  total=$((total + 1))
  if (cd "$WORK" && "$UPCC" "$src" -o "$t") >"$WORK/$t.compile.log" 2>&1; then
    c=yes
  elif (cd "$WORK" && "$UPCC" -T "$n" "$src" -o "$t") >>"$WORK/$t.compile.log" 2>&1; then
    c="yes(-T)"
  else
    c=no
  fi
  res=""
  for b in threads processes; do
    if [ $c = no ]; then res="$res -"; continue; fi
    timeout "$TIMEOUT" "$UPCRUN" -n "$n" --backend $b "$WORK/$t" \
      >"$WORK/$t.$b.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -Eqi 'passed|non-applicable' "$WORK/$t.$b.log"; then
      res="$res pass"
    else
      res="$res FAIL($rc)"
    fi
  done
  set -- $res
  printf '%-8s %-9s %-9s %-9s\n' "$t" "$c" "$1" "$2"
  [ "$c" != no ] && [ "$1 $2" = "pass pass" ] && good=$((good + 1))
done
echo "passed on both backends: $good of $total (logs in $WORK)"
[ $good -eq $total ]
