#!/bin/sh
# tools/upcc/acceptance/run_npb.sh refuses bad arguments with a message and
# exit status 2, before it builds anything (the benchmarks' sources are fetched
# separately, so only this part can run in the suite).
# usage: test_run_npb_usage.sh PATH/TO/run_npb.sh
script=${1:?usage: test_run_npb_usage.sh run_npb.sh}
tmp=$(mktemp -d /tmp/run_npb_usage.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() {  # expected-text args...
  want=$1; shift
  out=$(WORK="$tmp/work" sh "$script" "$@" 2>&1)
  rc=$?
  if [ $rc -ne 2 ] || ! printf '%s' "$out" | grep -qF -- "$want"; then
    echo "FAIL: run_npb.sh $*: exit $rc, output: $out (wanted exit 2 and: $want)"
    fails=$((fails + 1))
  fi
}
expect "usage: run_npb.sh"
expect "unknown option --classes" --classes S "$tmp"
expect "common/npb-C.h is missing" "$tmp"
mkdir -p "$tmp/common" && : > "$tmp/common/npb-C.h" && : > "$tmp/common/c_print_results.c"
expect "CG/cg.c is missing" --bench cg "$tmp"
mkdir -p "$tmp/IS" && : > "$tmp/IS/is.c"
expect "THREADS must be a positive integer, not 'x'" --bench is "$tmp" 1 x
expect "THREADS must be a positive integer, not '0'" --bench is "$tmp" 0
[ ! -e "$tmp/work" ] || { echo "FAIL: run_npb.sh created its WORK folder before checking its arguments"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "run_npb.sh usage errors: ok"
[ $fails -eq 0 ]
