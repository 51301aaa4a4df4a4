#!/usr/bin/env bash
# Brownian dynamics against OpenMP and MPI (issue 31; seed 003 §5.5, Figures 5.6
# and 5.8): the UPC app (apps/brownian: Cholesky, Fixman bal-comms and min-comms,
# on the threads and processes backends) against its OpenMP peer (Cholesky,
# Fixman) and its MPI peer (the same three versions), bench/peers/brownian, on
# the same problem at THREADS = OpenMP threads = ranks 1, 2, 4, 8 and 16. The
# runs are alternated (every round runs each side at each count in turn) and the
# tables take each point's median; the speedups are over the sequential code,
# as the thesis's are (its operations: the OpenMP peer on one thread;
# brownian_peers_tables.py says why not the UPC app's own sequential run).
# Every run must verify. Writes bench/results/brownian-peers/ (runs.jsonl, machine.txt,
# tables.md; a rerun replaces it).
#
#   tools/bench/run_brownian_peers.sh           # the thesis's problem: 256 beads, 100 steps; 5 rounds
#   tools/bench/run_brownian_peers.sh --quick   # 128 beads, 20 steps; 3 rounds
#
# Options: --quick, --out DIR, --threads "1 2 4 8 16", --backends "threads processes",
# --rounds R, --particles N, --steps S, --no-build (use the binaries already in
# the build directory, e.g. BUILD_DIR=build when it is a release build).
# Environment: BUILD_DIR (default build-bench), PYTHON.
#
# A run counts as failed when its exit status is not 0 (a check failed or it
# crashed); the script goes on and its status is 1 at the end.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 out="" counts="1 2 4 8 16" backends="threads processes" rounds="" particles="" steps="" build_it=1
bench_options 2,23 --quick=quick=1 --no-build=build_it=0 --out=out --threads=counts --backends=backends \
  --rounds=rounds --particles=particles --steps=steps -- "$@"
if [[ -z $rounds ]]; then rounds=5; [[ $quick == 1 ]] && rounds=3; fi
if [[ -z $particles ]]; then particles=256; [[ $quick == 1 ]] && particles=128; fi
if [[ -z $steps ]]; then steps=100; [[ $quick == 1 ]] && steps=20; fi
problem=(--particles="$particles" --steps="$steps" --variant=all)

bench_start brownian-peers
upc=apps/brownian/brownian omp=bench/peers/brownian/brownian_omp mpi=bench/peers/brownian/brownian_mpi
if [[ $build_it == 1 ]]; then
  bench_build "$build" 1 "$mpi" "$upc" "$omp"
else
  peer_mpirun_args
  have_mpi=1  # (bench_machine's mpi line)
fi
for p in "$upc" "$omp" "$mpi"; do
  [[ -x $build/$p ]] || { echo "run_brownian_peers.sh: $build/$p is not built" >&2; exit 2; }
done
{
  bench_machine "$quick"
  echo "build: $(build_description "$build")"
  echo "problem: ${problem[*]}"
  echo "threads: $counts"
  echo "backends: $backends"
  echo "rounds: $rounds"
  echo "load_at_start: $(bench_load)"
} >"$out/machine.txt"
cat "$out/machine.txt"

peer_runs_begin "$out"
# run_one ROUND SIDE N CMD...: one timed run (peer_run), labelled.
run_one() {
  peer_run "$1" "$2" "$3" "" "$(printf '%s %-14s %3s' "$1" "$2" "$3")" "${@:4}"
}

for ((round = 1; round <= rounds; round++)); do
  for n in $counts; do
    for backend in $backends; do
      UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend UPCEMU_TIMEOUT=850 run_one "$round" "upc $backend" "$n" "$build/$upc" "${problem[@]}"
    done
    OMP_NUM_THREADS=$n run_one "$round" openmp "$n" "$build/$omp" "${problem[@]}"
    run_one "$round" mpi "$n" mpirun "${mpirun_args[@]}" -q -np "$n" "$build/$mpi" "${problem[@]}"
  done
done
peer_runs_end "$out" brownian_peers_tables.py
