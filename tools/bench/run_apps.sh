#!/usr/bin/env bash
# The applications of issue 13 (apps/, docs/applications.md) measured on this
# machine: every app and every version at THREADS 1, 2, 4, 8 and 16 on both
# backends, the NAS MPI peers (IS with MPI_Alltoallv, FT with MPI_Alltoall and
# MPI_IN_PLACE) at the same rank counts, same run; then the tables (time, Mop/s
# or GFLOPS, speedup, verification), the speedup plot and the programmability
# table (tools/bench/app_sloc.py; not with --only).
#
#   tools/bench/run_apps.sh             # NAS class A, the other apps at their default sizes
#   tools/bench/run_apps.sh --quick     # NAS class S, small sizes, THREADS 1 2 4: a smoke run
#
# Options: --out DIR (default bench/results/applications, the set the docs show),
# --threads "1 2 4 8 16",
# --backends "threads processes" (add mpi for the mpi backend), --only "is ft ..." (labels of the list below),
# --no-docs (do not draw docs/img/apps_*.png). Environment: BUILD_DIR (default
# build-bench), PYTHON.
#
# A run counts as failed when the program's exit status is not 0 (its answer did
# not verify, or it crashed); the script goes on and its status is 1 at the end.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 out="" counts="1 2 4 8 16" backends="threads processes" only="" docs=1
bench_options 2,19 --quick=quick=1 --no-docs=docs=0 --out=out --threads=counts --backends=backends --only=only -- "$@"
if [[ $quick == 1 && $counts == "1 2 4 8 16" ]]; then counts="1 2 4"; fi

# label | program under the build directory | quick arguments | full arguments [| THREADS counts]
apps=(
  "is|apps/nas/is/is_upc|--class=S --variant=all|--class=A --variant=all"
  "ft|apps/nas/ft/ft_upc|--class=S --variant=all|--class=A --variant=all"
  "cg|apps/nas/cg/cg_upc|--class=S --variant=all|--class=A --variant=all"
  "dense_matmul|apps/dense_matmul/dense_matmul|--n=256 --variant=all|--n=2048 --variant=all"
  "sparse_matmul|apps/sparse_matmul/sparse_matmul|--m=2000 --variant=all|--variant=all"
  "image_filter|apps/image_filter/image_filter|--n=512 --variant=all|--n=4096 --variant=all"
  # UPC-MR as the thesis measures it (§4.3): Hist and LinReg with the array-based map
  # (its best), Hist also element by element; WordC and SpamC element by element;
  # the result gathered to thread 0; ApplyReduce with the extended collectives
  # (collFlag on) and without (pairs one by one).
  "hist|apps/mapreduce/hist|--size=65536 --map=array --gather=0|--size=16777216 --map=array --gather=0"
  "hist-nocoll|apps/mapreduce/hist|--size=65536 --map=array --gather=0 --collectives=off|--size=16777216 --map=array --gather=0 --collectives=off"
  "hist-element|apps/mapreduce/hist|--size=65536 --gather=0|--size=1048576 --gather=0"
  "hist-element-nocoll|apps/mapreduce/hist|--size=65536 --gather=0 --collectives=off|--size=1048576 --gather=0 --collectives=off"
  "linreg|apps/mapreduce/linreg|--size=100000 --map=array --gather=0|--size=16777216 --map=array --gather=0"
  "linreg-nocoll|apps/mapreduce/linreg|--size=100000 --map=array --gather=0 --collectives=off|--size=16777216 --map=array --gather=0 --collectives=off"
  "wordc|apps/mapreduce/wordc|--size=1000 --gather=0|--size=20000 --gather=0"
  "wordc-nocoll|apps/mapreduce/wordc|--size=1000 --gather=0 --collectives=off|--size=20000 --gather=0 --collectives=off"
  "spamc|apps/mapreduce/spamc|--size=2000 --gather=0|--size=50000 --gather=0"
  "spamc-nocoll|apps/mapreduce/spamc|--size=2000 --gather=0 --collectives=off|--size=50000 --gather=0 --collectives=off"
  "brownian|apps/brownian/brownian|--particles=64 --steps=10 --variant=all|--particles=256 --steps=50 --variant=all"
  # The classroom kit at the study's sizes (the defaults); the sequential stage on 1 thread.
  "stencil/sequential|apps/classroom/stencil/sequential|--n=100000 --iterations=10||1"
  "stencil/naive|apps/classroom/stencil/naive|--n=100000 --iterations=10|"
  "stencil/optimised|apps/classroom/stencil/optimised|--n=100000 --iterations=10|"
  "stencil/collectives|apps/classroom/stencil/collectives|--n=100000 --iterations=10|"
  "stencil/extended|apps/classroom/stencil/extended|--n=100000 --iterations=10|"
  "buffon_laplace/sequential|apps/classroom/buffon_laplace/sequential|--trials=1000000||1"
  "buffon_laplace/naive|apps/classroom/buffon_laplace/naive|--trials=1000000|"
  "buffon_laplace/optimised|apps/classroom/buffon_laplace/optimised|--trials=1000000|"
  "buffon_laplace/collectives|apps/classroom/buffon_laplace/collectives|--trials=1000000|"
  "buffon_laplace/extended|apps/classroom/buffon_laplace/extended|--trials=1000000|"
  "min_distance/sequential|apps/classroom/min_distance/sequential|--nodes=200||1"
  "min_distance/naive|apps/classroom/min_distance/naive|--nodes=200|"
  "min_distance/optimised|apps/classroom/min_distance/optimised|--nodes=200|"
  "min_distance/collectives|apps/classroom/min_distance/collectives|--nodes=200|"
  "min_distance/extended|apps/classroom/min_distance/extended|--nodes=200|"
  "pi/sequential|apps/classroom/pi/sequential|--trials=1000000||1"
  "pi/naive|apps/classroom/pi/naive|--trials=1000000|"
  "pi/optimised|apps/classroom/pi/optimised|--trials=1000000|"
  "pi/collectives|apps/classroom/pi/collectives|--trials=1000000|"
  "pi/extended|apps/classroom/pi/extended|--trials=1000000|"
  "matvec/sequential|apps/classroom/matvec/sequential|--n=500||1"
  "matvec/naive|apps/classroom/matvec/naive|--n=500|"
  "matvec/optimised|apps/classroom/matvec/optimised|--n=500|"
  "matvec/collectives|apps/classroom/matvec/collectives|--n=500|"
  "matvec/extended|apps/classroom/matvec/extended|--n=500|"
  "stencil2d/sequential|apps/classroom/stencil2d/sequential|--rows=300 --cols=300 --iterations=10||1"
  "stencil2d/naive|apps/classroom/stencil2d/naive|--rows=300 --cols=300 --iterations=10|"
  "stencil2d/optimised|apps/classroom/stencil2d/optimised|--rows=300 --cols=300 --iterations=10|"
  "stencil2d/collectives|apps/classroom/stencil2d/collectives|--rows=300 --cols=300 --iterations=10|"
  "stencil2d/extended|apps/classroom/stencil2d/extended|--rows=300 --cols=300 --iterations=10|"
)
# The MPI peers: label | program | quick arguments | full arguments
peers=(
  "is|bench/peers/mpi/nas/is_mpi|--class=S|--class=A"
  "ft|bench/peers/mpi/nas/ft_mpi|--class=S --variant=all|--class=A --variant=all"
)

selected() { [[ -z $only ]] || [[ " $only " == *" $1 "* ]]; }

bench_start applications
targets=(tools/upcrun)
if [[ " $backends " == *" mpi "* ]]; then targets+=(lib/libupcemu_mpi.so); fi
for entry in "${apps[@]}"; do IFS='|' read -r label program _ <<<"$entry"; selected "$label" && targets+=("$program"); done
peer_targets=()
for entry in "${peers[@]}"; do IFS='|' read -r label program _ <<<"$entry"; selected "$label" && peer_targets+=("$program"); done
bench_build "$build" 1 "${peer_targets[0]:-bench/peers/mpi/nas/is_mpi}" "${targets[@]}"
# (no peer selected: no ninja call, which would build the whole tree)
if [[ $have_mpi == 1 && ${#peer_targets[@]} -gt 0 ]]; then ninja -C "$build" "${peer_targets[@]}" >/dev/null; fi
{
  bench_machine "$quick"
  echo "load_before: $(bench_load)"
} >"$out/machine.txt"

rows="$out/apps.jsonl"
: >"$rows"
failures=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run_one LABEL BACKEND N CMD...: appends the run's upcemu-result rows (tagged with
# the label and the exit status) to $rows.
run_one() {
  local label=$1 backend=$2 n=$3
  shift 3
  printf '%-10s %-10s %3s  ' "$label" "$backend" "$n"
  logged_run 1800 "{\"label\": \"$label\", \"backend\": \"$backend\", \"threads\": $n, \"status\": @STATUS@, \"verified\": false, \"failed_run\": true}" \
    label="$label" -- "$@"
}

for entry in "${apps[@]}"; do
  IFS='|' read -r label program quick_args full_args only_counts <<<"$entry"
  selected "$label" || continue
  args=$full_args
  [[ $quick == 1 ]] && args=$quick_args
  for backend in $backends; do
    for n in ${only_counts:-$counts}; do
      # shellcheck disable=SC2086
      # through upcrun, which starts mpirun for the mpi backend (docs/backends.md)
      UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend UPCEMU_TIMEOUT=1700 run_one "$label" "$backend" "$n" \
        "$build/tools/upcrun" "$build/$program" $args
    done
  done
done
if [[ $have_mpi == 1 ]]; then
  for entry in "${peers[@]}"; do
    IFS='|' read -r label program quick_args full_args <<<"$entry"
    selected "$label" || continue
    args=$full_args
    [[ $quick == 1 ]] && args=$quick_args
    for n in $counts; do
      # shellcheck disable=SC2086
      run_one "$label" mpi "$n" mpirun "${mpirun_args[@]}" -np "$n" "$build/$program" $args
    done
  done
fi
echo "load_after: $(bench_load)" >>"$out/machine.txt"

# The programmability table counts every app's code: a run of some apps (--only) leaves it out.
written="tables.md"
if [[ -z $only ]]; then
  "$python" tools/bench/app_sloc.py >"$out/sloc.md"
  written+=", sloc.md"
fi
img=()
[[ $docs == 1 ]] && img=(--img docs/img)
"$python" tools/bench/apps_tables.py "$rows" "${img[@]}" >"$out/tables.md"
echo "results in $out ($failures failed runs): $written"
[[ $failures == 0 ]]
