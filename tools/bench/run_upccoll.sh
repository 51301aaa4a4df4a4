#!/usr/bin/env bash
# Builds and runs the UPC Collectives 2.0 benchmarks against Open MPI: every
# upccoll_* collective blocking (bench/collbench/upccoll_bench) × sizes 8 B … 8 MiB
# × THREADS 2, 4, 8, 16 × both backends, and the Open MPI peer
# (bench/peers/mpi/coll2_mpi) with the same sizes and process counts in the same
# run; then the overlap of non-blocking allreduce and alltoall with computation
# (bench/collbench/upccoll_overlap with the library's default progress and with
# UPCEMU_UPCCOLL_PROGRESS=thread, and bench/peers/mpi/overlap_mpi) at THREADS 2
# and 4. Writes jsonl into bench/results/upccoll/ (the set the docs show; a rerun
# replaces it), draws the plots into
# docs/img/upccoll_*.png (tools/bench/plot_upccoll.py) and refreshes the
# upccoll_* tables of docs/benchmarks.md (tools/bench/update_tables.py --only upccoll).
#
#   tools/bench/run_upccoll.sh            # the full run (about 8 minutes on 2 cores)
#   tools/bench/run_upccoll.sh --quick    # a smoke run of the same pipeline (about a minute)
#
# Options:
#   --quick          THREADS 2 and 4, sizes 16 B … 1 MiB in steps of 4, short rounds;
#                    overlap at 1 KiB and 64 KiB, THREADS 2, fewer rounds
#   --threads-only   the blocking sweep on the threads backend only (the targets'
#                    backend; skips the processes backend)
#   --out DIR        results directory (default bench/results/upccoll)
#   --colls LIST     comma-separated collectives of the blocking sweep (default: all 14)
#   --no-blocking    skip the blocking sweep
#   --no-overlap     skip the overlap benchmark
#   --no-docs        do not plot or touch docs/benchmarks.md
#   --no-mpi         skip the Open MPI peers even when they are built
# Environment: THREAD_COUNTS (default "2 4 8 16"), OVERLAP_THREADS (default "2 4"),
# OVERLAP_SIZES (default 1K,64K,1M), BUILD_DIR (default build-bench), MAX_MOVED
# (default 1G: sizes where one call must move more bytes in all, e.g. alltoall at
# THREADS=16 above 4 MiB per block, are skipped for ours and MPI alike), MIN_TIME
# (seconds per timed round, default 0.005), REPS (default 5), OVERLAP_REPS
# (default 7), PYTHON.
#
# Nothing here judges the numbers: a run fails only when verification fails or a
# program crashes, and the script goes on with the next one.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

all_colls="barrier,bcast,scatter,scatterv,gather,gatherv,allgather,allgatherv,alltoall,alltoallv,reduce,allreduce,reduce_scatter,scan"
quick=0 docs=1 mpi=1 out="" colls=$all_colls backends="threads processes" blocking=1 overlap=1
bench_options 2,36 --quick=quick=1 --threads-only=backends=threads --no-docs=docs=0 --no-mpi=mpi=0 \
  --no-blocking=blocking=0 --no-overlap=overlap=0 --out=out --colls=colls -- "$@"

bench_start upccoll
bench_sweep "$quick"
if [[ $quick == 1 ]]; then
  overlap_counts=${OVERLAP_THREADS:-"2"}
  overlap_args=(--sizes="${OVERLAP_SIZES:-1K,64K}" --reps="${OVERLAP_REPS:-3}" --min-time=0.005)
else
  overlap_counts=${OVERLAP_THREADS:-"2 4"}
  overlap_args=(--sizes="${OVERLAP_SIZES:-1K,64K,1M}" --reps="${OVERLAP_REPS:-7}" --min-time=0.01)
fi

bench_build "$build" "$mpi" bench/peers/mpi/coll2_mpi bench/collbench/upccoll_bench bench/collbench/upccoll_overlap
if [[ $have_mpi == 1 ]]; then
  if grep -q "bench/peers/mpi/overlap_mpi:" "$build/build.ninja"; then
    ninja -C "$build" bench/peers/mpi/overlap_mpi >/dev/null
  fi
fi
upccoll_bench="$build/bench/collbench/upccoll_bench"
upccoll_overlap="$build/bench/collbench/upccoll_overlap"
coll2_mpi="$build/bench/peers/mpi/coll2_mpi"
overlap_mpi="$build/bench/peers/mpi/overlap_mpi"

{
  sweep_machine "$quick" "$backends"
  echo "colls: $colls"
  echo "overlap_threads: $overlap_counts"
  echo "overlap_args: ${overlap_args[*]}"
} >"$out/machine.txt"
cat "$out/machine.txt"

bench_runs 62 600 600

begin=$SECONDS
if [[ $blocking == 1 ]]; then
  file="$out/blocking.jsonl"
  : >"$file"
  for c in ${colls//,/ }; do
    echo "== $c"
    run_sweep "$file" "upccoll_$c %s THREADS=%s" "$c Open MPI ranks=%s" \
      "$upccoll_bench" --coll="$c" "${size_args[@]}" --max-moved="$max_moved" "${time_args[@]}" -- \
      "$coll2_mpi" --coll="$c" "${size_args[@]}" --max-moved="$max_moved" "${time_args[@]}"
  done
fi

if [[ $overlap == 1 ]]; then
  echo "== overlap (non-blocking allreduce and alltoall against computation)"
  file="$out/overlap.jsonl"
  : >"$file"
  for n in $overlap_counts; do
    UPCEMU_THREADS=$n run "$file" "overlap upccoll inline progress THREADS=$n" "$upccoll_overlap" "${overlap_args[@]}"
    UPCEMU_THREADS=$n UPCEMU_UPCCOLL_PROGRESS=thread run "$file" "overlap upccoll progress thread THREADS=$n" \
      "$upccoll_overlap" "${overlap_args[@]}"
    if [[ $have_mpi == 1 && -x "$overlap_mpi" ]]; then
      run "$file" "overlap Open MPI ranks=$n" mpirun "${mpirun_args[@]}" -np "$n" "$overlap_mpi" "${overlap_args[@]}"
    fi
  done
fi
sweep_done "$begin"

bench_finish plot_upccoll.py --only upccoll
