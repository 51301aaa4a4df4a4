#!/usr/bin/env bash
# Builds and runs every microbenchmark (bench/micro) and the Open MPI peer, writes
# jsonl into bench/results/microbenchmarks/ (the set the docs show; a rerun replaces
# it), draws the plots into docs/img/ and refreshes the tables of
# docs/benchmarks.md. One command reproduces docs/benchmarks.md:
#
#   tools/bench/run_micro.sh            # the full run (a few minutes)
#   tools/bench/run_micro.sh --quick    # a short smoke run (under a minute)
#
# Options:
#   --quick          short repetitions, fewer sizes and THREADS counts
#   --out DIR        results directory (default bench/results/microbenchmarks)
#   --no-docs        do not plot or touch docs/benchmarks.md
#   --no-mpi         skip the Open MPI peer even when it is built
# Environment: THREAD_COUNTS (default "1 2 4 8 16 32 64"), MPI_RANKS (default
# "2 4 8 16 32 64"), BUILD_DIR (default build-bench), PYTHON (default: the system
# python3, which has python3-matplotlib on Debian).
#
# Nothing here judges the numbers: a benchmark fails only when its verification
# fails (wrong bytes, wrong counts), and the script goes on with the next one.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 docs=1 mpi=1 out=""
bench_options 2,20 --quick=quick=1 --no-docs=docs=0 --no-mpi=mpi=0 --out=out -- "$@"

bench_start microbenchmarks
if [[ $quick == 1 ]]; then
  counts=${THREAD_COUNTS:-"1 2 4"}
  ranks=${MPI_RANKS:-"2 4"}
  time_args=(--min-time=0.02 --reps=3)
  memops_args=(--max-bytes=4M --step=4 --min-time=0.005 --reps=3)
  memops_heap=16M
else
  counts=${THREAD_COUNTS:-"1 2 4 8 16 32 64"}
  ranks=${MPI_RANKS:-"2 4 8 16 32 64"}
  time_args=(--min-time=0.2 --reps=7)
  memops_args=(--max-bytes=64M --step=2 --min-time=0.02 --reps=5)
  memops_heap=160M
fi

bench_build "$build" "$mpi" bench/peers/mpi/barrier_mpi bench/micro/barrier_latency bench/micro/memops_bandwidth bench/micro/lock_throughput bench/micro/privatised_sum
bin="$build/bench/micro"

bench_machine "$quick" >"$out/machine.txt"
cat "$out/machine.txt"

bench_runs 52 900 400

# micro_runs NAME PROGRAM COUNTS: PROGRAM timed on both backends at each THREADS
# count of COUNTS, into $out/PROGRAM.jsonl (replaced).
micro_runs() {
  local name=$1 program=$2 backend n
  : >"$out/$program.jsonl"
  for backend in threads processes; do
    for n in $3; do
      UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend run "$out/$program.jsonl" "$name $backend THREADS=$n" \
        "$bin/$program" "${time_args[@]}"
    done
  done
}

echo "== barrier latency"
micro_runs barrier barrier_latency "$counts"
if [[ $have_mpi == 1 ]]; then
  for n in $ranks; do
    run "$out/barrier_latency.jsonl" "barrier Open MPI ranks=$n" \
      mpirun "${mpirun_args[@]}" -np "$n" "$build/bench/peers/mpi/barrier_mpi" "${time_args[@]}"
  done
else
  echo "(Open MPI peer not built or mpirun missing: skipped)"
fi

echo "== lock throughput"
micro_runs lock lock_throughput "$counts"

echo "== memops bandwidth"
: >"$out/memops_bandwidth.jsonl"
for backend in threads processes; do
  UPCEMU_THREADS=2 UPCEMU_HEAP=$memops_heap UPCEMU_BACKEND=$backend run "$out/memops_bandwidth.jsonl" \
    "memops $backend THREADS=2" "$bin/memops_bandwidth" "${memops_args[@]}"
done

echo "== privatised sum"
micro_runs "privatised sum" privatised_sum "1 2 4"

bench_finish plot_micro.py
