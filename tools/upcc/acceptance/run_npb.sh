#!/bin/sh
# Build NPB-UPC's benchmarks (IS, CG, EP, FT, MG of the GWU/HPCL NPB2.4 UPC
# tree; fetched separately, never part of upcemu) from their own unchanged
# sources with upcc -T N, as their Makefiles would, run each with upcrun on
# both backends, plain and under --check, and print a pass/fail table.
#
# usage: run_npb.sh [--bench LIST] [--class LIST] DIR [THREADS...]
#   DIR      the NPB2.4 folder of NPB-UPC (berkeley_upc/upc-tests/NPB2.4):
#            common/npb-C.h, common/c_print_results.c and each benchmark's
#            folder (IS/is.c, CG/cg.c, ...) are needed; common/c_timers.c +
#            common/wtime.c and common/c_randdp.c are used when present (else
#            stand-ins of our own, see below); sys/setparams.c and
#            config/make.def are needed for every benchmark but IS
#   --bench  comma-separated benchmarks (default is,cg,ep,ft,mg)
#   --class  comma-separated classes (default S,W; both run in minutes)
#   THREADS  the static THREADS to build and run (default: 1 2 4)
# environment: UPCC (default: <repo>/tools/upcc/upcc; a command with
#   arguments, as a Makefile's, such as "upcc -x upc" for an upcc that
#   compiled .c files as C), UPCRUN (default:
#   <repo>/build/tools/upcrun), WORK (build folder, default: a temp folder;
#   DIR is copied there and never written), TIMEOUT (seconds per run, 300),
#   RUNS (the run columns, default "threads processes threads--check
#   processes--check")
#
# What it does, following sys/make.common, each benchmark's Makefile and
# harness.conf (Berkeley UPC's test harness for this tree):
# - npbparams.h from `sys/setparams BENCH CLASS N` (setparams.c compiled with
#   gcc, as the Makefiles' HOST_CC). Without setparams.c or make.def, IS only:
#   npbparams.h is then written here with what setparams writes for IS.
# - BENCH.c compiled with `upcc -c -I../common -TN -I../common -o
#   BENCH.CLASS.N.o BENCH.c` (the Makefiles' CCOMPILE; upcc, as Berkeley's,
#   compiles a .c file as UPC); the benchmark's own extra objects from its
#   Makefile's OBJS (MG's file_output.o) by `upcc -TN -c -I../common X.c`
#   (harness.conf's CC); linked with `upcc BENCH.CLASS.N.o -TN -o
#   BENCH.CLASS.N OBJS`.
# - The common objects (c_randdp, c_print_results, c_timers, c_wtime) compiled
#   by `upcc -O -c`, as harness.conf's UCC is the UPC compiler (so the
#   timers' globals are per UPC thread on the threads backend). Stand-ins of
#   our own only for what DIR lacks: the timers (timer_clear/start/stop/read on
#   clock_gettime) and randdp (randlc/vranlc: NPB's x = 5^13 x mod 2^46
#   generator, exact in 128-bit integers, vranlc filling y[1..n] as NPB's).
# - A run passes when it exits 0 and prints "Verification = SUCCESSFUL"
#   (harness.conf's PassExpr); MG's norm must also be within NPB 3's relative
#   tolerance (1e-8; NPB 2.4's test is absolute, which any class-W norm passes).
#   Cells: pass; WRONG (exit 0, not verified);
#   FAIL(rc); TIMEOUT; - (not compiled).
# The script exits 0 when every run of every row passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
usage="usage: run_npb.sh [--bench is,cg,ep,ft,mg] [--class S,W] DIR [THREADS...]"
benches="is cg ep ft mg"
classes="S W"
while [ $# -gt 0 ]; do
  case $1 in
    --bench) benches=$(echo "${2:?$usage}" | tr ',' ' '); shift 2 ;;
    --bench=*) benches=$(echo "${1#--bench=}" | tr ',' ' '); shift ;;
    --class) classes=$(echo "${2:?$usage}" | tr ',' ' '); shift 2 ;;
    --class=*) classes=$(echo "${1#--class=}" | tr ',' ' '); shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    -*) echo "run_npb.sh: unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
    *) break ;;
  esac
done
dir=${1:?$usage}
shift
[ $# -gt 0 ] || set -- 1 2 4
for n in "$@"; do
  case $n in ''|*[!0-9]*|0) echo "run_npb.sh: THREADS must be a positive integer, not '$n'" >&2; exit 2 ;; esac
done
UPCC=${UPCC:-$repo/tools/upcc/upcc}
UPCRUN=${UPCRUN:-$repo/build/tools/upcrun}
TIMEOUT=${TIMEOUT:-300}
RUNS=${RUNS:-threads processes threads--check processes--check}
WORK=${WORK:-$(mktemp -d /tmp/npb_accept.XXXXXX)}
for f in common/npb-C.h common/c_print_results.c; do
  [ -f "$dir/$f" ] || { echo "run_npb.sh: $dir/$f is missing" >&2; exit 2; }
done
for b in $benches; do
  B=$(echo "$b" | tr 'a-z' 'A-Z')
  [ -f "$dir/$B/$b.c" ] || { echo "run_npb.sh: $dir/$B/$b.c is missing" >&2; exit 2; }
done
mkdir -p "$WORK"
src=$WORK/NPB2.4
rm -rf "$src"
cp -R "$dir" "$src"
chmod -R u+w "$src"

# The common objects (sys/make.common's rules, compiled by upcc as UCC).
(
  cd "$src/common" || exit 1
  $UPCC -O -c c_print_results.c -o c_print_results.o || exit 1
  if [ -f c_timers.c ] && [ -f wtime.c ]; then
    $UPCC -O -c c_timers.c -o c_timers.o && $UPCC -O -c -o c_wtime.o wtime.c || exit 1
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
    $UPCC -O -c upcemu_timers.c -o c_timers.o || exit 1
  fi
  if [ -f c_randdp.c ]; then
    $UPCC -O -c c_randdp.c -o c_randdp.o || exit 1
  else
    cat > upcemu_randdp.c <<'RANDDP'
/* upcemu's stand-in for NPB's c_randdp.c (not in the copy used): the NPB
   generator x_{k+1} = a x_k mod 2^46, result x_{k+1} / 2^46. The seeds are
   integers below 2^46 held in doubles; 128-bit products keep it exact. */
static double step(double *x, double a) {
  unsigned __int128 p = (unsigned __int128)(unsigned long long)*x * (unsigned long long)a;
  unsigned long long r = (unsigned long long)(p & ((((unsigned __int128)1) << 46) - 1));
  *x = (double)r;
  return (double)r / 70368744177664.0;  /* 2^46 */
}
double randlc(double *x, double a) { return step(x, a); }
void vranlc(int n, double *x, double a, double y[]) {
  for (int i = 1; i <= n; i++) y[i] = step(x, a);  /* NPB fills y[1..n] */
}
RANDDP
    $UPCC -O -c upcemu_randdp.c -o c_randdp.o || exit 1
  fi
) >"$WORK/common.compile.log" 2>&1 || { echo "common files do not compile: see $WORK/common.compile.log"; exit 1; }
common_objs=""
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

# The objects a benchmark's Makefile lists in OBJS besides the common ones
# (MG: file_output.o).
own_objs() {
  sed -n '/^OBJS[[:space:]]*=/,/[^\\]$/p' "$src/$1/Makefile" 2>/dev/null |
    tr -d '\\' | sed 's/^OBJS[[:space:]]*=//' | tr ' \t' '\n\n' |
    grep '\.o$' | grep -v 'COMMON\|common'
}

# What setparams writes for IS (write_info, write_is_info and
# write_compiler_info with NPB2.4's config/make.def), for a copy without it.
is_params() {
  cat <<PARAMS
#define CLASS '$1'
/* THREADS = $2 */
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
}

# One benchmark, class and THREADS: compile (true when built).
build() {  # bench BENCH class n exe
  (
    cd "$src/$2" || exit 1
    rm -f npbparams.h ./*.o
    if [ $setparams = yes ]; then
      ../sys/setparams "$1" "$3" "$4" || exit 1
    elif [ "$1" = is ]; then
      is_params "$3" "$4" > npbparams.h
    else
      echo "no sys/setparams.c or config/make.def: only IS can be built without them"; exit 1
    fi
    objs=""
    for o in $(own_objs "$2"); do
      $UPCC -T"$4" -c -I../common -o "$o" "${o%.o}.c" || exit 1
      objs="$objs $o"
    done
    $UPCC -c -I../common -T"$4" -I../common -o "$1.$3.$4.o" "$1.c" || exit 1
    # shellcheck disable=SC2086
    $UPCC "$1.$3.$4.o" -T"$4" -o "$5" $objs $common_objs || exit 1
  )
}

# NPB 2.4 MG verifies with an absolute tolerance (|L2 - reference| <= 1e-8),
# which every class-W norm (reference 2.5e-18) meets; NPB 3 made it relative.
# MG must meet the relative test too: |Error| <= 1e-8 * |L2 - Error|.
within_npb3_tolerance() {  # bench log
  [ "$1" = mg ] || return 0
  awk '/L2 Norm is/ { l2 = $NF } /Error is/ { e = $NF; have = 1 }
       END { if (!have) exit 1; r = l2 - e; if (e < 0) e = -e; if (r < 0) r = -r; exit !(e <= 1e-8 * r) }' "$2"
}

columns="benchmark class THREADS compiles"
for r in $RUNS; do columns="$columns $r"; done
fmt() { printf '%-10s %-6s %-8s %-9s' "$1" "$2" "$3" "$4"; shift 4; for c in "$@"; do printf ' %-17s' "$c"; done; printf '\n'; }
# shellcheck disable=SC2086
fmt $columns
total=0; good=0
for b in $benches; do
  B=$(echo "$b" | tr 'a-z' 'A-Z')
  for cl in $classes; do
    for n in "$@"; do
      total=$((total + 1))
      exe=$WORK/$b.$cl.$n
      if build "$b" "$B" "$cl" "$n" "$exe" >"$exe.compile.log" 2>&1; then c=yes; else c=no; fi
      res=""; ok=yes
      for r in $RUNS; do
        if [ $c = no ]; then res="$res -"; ok=no; continue; fi
        backend=${r%--check}
        opt=""; [ "$backend" != "$r" ] && opt=--check
        log=$exe.$r.log
        t0=$(date +%s)
        (cd "$WORK" && timeout "$TIMEOUT" "$UPCRUN" $opt -n "$n" --backend "$backend" "$exe") >"$log" 2>&1
        rc=$?
        echo "upcemu run_npb.sh: exit status $rc after $(( $(date +%s) - t0 )) s" >>"$log"
        if [ $rc -eq 0 ] && grep -Eq 'Verification[[:space:]]*=[[:space:]]*SUCCESSFUL' "$log" && within_npb3_tolerance "$b" "$log"; then
          res="$res pass"
        else
          ok=no
          if [ $rc -eq 124 ]; then res="$res TIMEOUT"
          elif [ $rc -eq 0 ]; then res="$res WRONG"
          else res="$res FAIL($rc)"; fi
        fi
      done
      # shellcheck disable=SC2086
      fmt "$b" "$cl" "$n" "$c" $res
      [ $ok = yes ] && good=$((good + 1))
    done
  done
done
echo "verified on every run: $good of $total rows (npbparams.h from setparams: $setparams; logs in $WORK)"
[ $good -eq $total ]
