#!/bin/sh
# Build NPB-UPC's IS benchmark, class S, from its own source (fetched
# separately; it is not part of upcemu) with upcc -T N, run it with upcrun on
# both backends, plain and under --check, and print a pass/fail table.
#
# usage: run_npb_is.sh DIR [THREADS...]
#   DIR      the NPB2.4 folder of NPB-UPC (berkeley_upc/upc-tests/NPB2.4):
#            IS/is.c, common/npb-C.h and common/c_print_results.c are needed;
#            common/c_timers.c + common/wtime.c, common/c_randdp.c,
#            sys/setparams.c and config/make.def are used when present
#   THREADS  the static THREADS to build and run (default: 1 2 4)
# environment: UPCC (default: <repo>/tools/upcc/upcc), UPCRUN (default:
#   <repo>/build/tools/upcrun), WORK (build folder, default: a temp folder;
#   DIR is copied there and never written), TIMEOUT (seconds per run, 120)
#
# It follows IS/Makefile and sys/make.common: npbparams.h comes from
# `setparams is S N` (sys/setparams.c, reading config/make.def), or, without
# them, is written here with what setparams writes for IS (CLASS, THREADS, the
# compile-info strings of NPB2.4's make.def); is.c is compiled with
# `upcc -c -I../common -T N` plus `-x upc` (upcc compiles .c files as plain C
# unless told otherwise; Berkeley upcc takes .c files as UPC) and linked with
# `upcc -TN` and the common objects. As in harness.conf (UCC is the UPC
# compiler) the common files are compiled by upcc as UPC too, so that their
# globals (the timers) are per UPC thread on the threads backend. Without
# common/c_timers.c, a stand-in of our own (timer_clear/start/stop/read on
# clock_gettime) is used: IS calls nothing else from those files.
# A run passes when it exits 0 and prints "Verification = SUCCESSFUL"
# (harness.conf's PassExpr).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
dir=${1:?usage: run_npb_is.sh DIR [THREADS...]}
shift
[ $# -gt 0 ] || set -- 1 2 4
UPCC=${UPCC:-$repo/tools/upcc/upcc}
UPCRUN=${UPCRUN:-$repo/build/tools/upcrun}
TIMEOUT=${TIMEOUT:-120}
WORK=${WORK:-$(mktemp -d /tmp/npb_is_accept.XXXXXX)}
for f in IS/is.c common/npb-C.h common/c_print_results.c; do
  [ -f "$dir/$f" ] || { echo "run_npb_is.sh: $dir/$f is missing" >&2; exit 2; }
done
mkdir -p "$WORK"
src=$WORK/NPB2.4
rm -rf "$src"
cp -R "$dir" "$src"
chmod -R u+w "$src"

# The common objects (sys/make.common's OBJS, but compiled by upcc -x upc).
common_objs=""
(
  cd "$src/common" || exit 1
  "$UPCC" -x upc -O -c c_print_results.c -o c_print_results.o || exit 1
  if [ -f c_timers.c ] && [ -f wtime.c ]; then
    "$UPCC" -x upc -O -c c_timers.c -o c_timers.o && "$UPCC" -x upc -O -c wtime.c -o c_wtime.o || exit 1
  else
    cat > upcemu_timers.c <<'TIMERS'
/* upcemu's stand-in for NPB's c_timers.c + wtime.c (not in the copy used). */
#include <time.h>
static double t_start[64], t_elapsed[64];
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
void timer_clear(int n) { t_elapsed[n] = 0.0; }
void timer_start(int n) { t_start[n] = now(); }
void timer_stop(int n) { t_elapsed[n] += now() - t_start[n]; }
double timer_read(int n) { return t_elapsed[n]; }
TIMERS
    "$UPCC" -x upc -O -c upcemu_timers.c -o c_timers.o || exit 1
  fi
  if [ -f c_randdp.c ]; then "$UPCC" -x upc -O -c c_randdp.c -o c_randdp.o || exit 1; fi
) >"$WORK/common.compile.log" 2>&1 || { echo "common files do not compile: see $WORK/common.compile.log"; exit 1; }
for o in c_randdp.o c_print_results.o c_timers.o c_wtime.o; do
  [ -f "$src/common/$o" ] && common_objs="$common_objs ../common/$o"
done
if [ -f "$src/sys/setparams.c" ] && [ -f "$src/config/make.def" ]; then
  gcc -O -o "$src/sys/setparams" "$src/sys/setparams.c" -lm >"$WORK/setparams.log" 2>&1 ||
    { echo "setparams does not compile: see $WORK/setparams.log"; exit 1; }
  setparams=yes
else
  setparams=no
fi

row() {  # THREADS compiles threads processes threads--check processes--check; true when all pass
  printf '%-8s %-9s %-9s %-9s %-17s %-17s\n' "$@"
  [ "$2" = yes ] && [ "$3 $4 $5 $6" = "pass pass pass pass" ]
}
printf '%-8s %-9s %-9s %-9s %-17s %-17s\n' THREADS compiles threads processes "threads --check" "processes --check"
total=0; good=0
for n in "$@"; do
  total=$((total + 1))
  exe=is.S.$n
  log=$WORK/$exe
  if (
    cd "$src/IS" || exit 1
    rm -f npbparams.h
    if [ $setparams = yes ]; then
      ../sys/setparams is S "$n" || exit 1
    else
      # What setparams writes for IS class S (write_info, write_is_info,
      # write_compiler_info with NPB2.4's config/make.def).
      cat > npbparams.h <<PARAMS
#define CLASS 'S'
/* THREADS = $n */
/*
   This file is generated automatically by the setparams utility.
   It sets the number of processors and the class of the NPB
   in this directory. Do not modify it by hand.   */
   
#define COMPILETIME "$(date '+%d %b %Y')"
#define NPBVERSION "2.4"
#define CC "\$(UPCC)"
#define CFLAGS "(none)"
#define CLINK "\$(UPCC)"
#define CLINKFLAGS "\$(UPCC_STAT_THREADS)\${NP}"
#define C_LIB "(none)"
#define C_INC "-I../common"
PARAMS
    fi
    "$UPCC" -c -I../common -T "$n" -x upc -I../common -o is.S.$n.o is.c || exit 1
    "$UPCC" is.S.$n.o -T"$n" -o "$log" $common_objs || exit 1
  ) >"$log.compile.log" 2>&1; then
    c=yes
  else
    c=no
  fi
  res=""
  for opt in "" --check; do
    for b in threads processes; do
      if [ $c = no ]; then res="$res -"; continue; fi
      timeout "$TIMEOUT" "$UPCRUN" $opt -n "$n" --backend $b "$log" >"$log.$b$opt.log" 2>&1
      rc=$?
      if [ $rc -eq 0 ] && grep -Eq 'Verification[[:space:]]*=[[:space:]]*SUCCESSFUL' "$log.$b$opt.log"; then
        res="$res pass"
      else
        res="$res FAIL($rc)"
      fi
    done
  done
  if row "$n" "$c" $res; then good=$((good + 1)); fi
done
echo "IS class S verified on every run: $good of $total THREADS values (npbparams.h from setparams: $setparams; logs in $WORK)"
[ $good -eq $total ]
