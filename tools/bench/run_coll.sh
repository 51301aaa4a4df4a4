#!/usr/bin/env bash
# Builds and runs the collective benchmarks: bench/collbench for every collective ×
# every registered algorithm (and auto) × sizes 8 B … 8 MiB × THREADS 2, 4, 8, 16 ×
# both backends, the Open MPI peer (bench/peers/mpi/coll_mpi) with the same sizes
# and process counts in the same run; then reduce/prefix_reduce on double (long
# above) and a small-message sweep of the sync flags (ALLSYNC, MYSYNC, NOSYNC).
# Writes jsonl into bench/results/collectives/ (the set the docs show; a rerun
# replaces it), draws the plots into docs/img/
# (tools/bench/plot_coll.py) and refreshes the collective tables of
# docs/benchmarks.md (tools/bench/update_tables.py --only coll).
#
#   tools/bench/run_coll.sh            # the full run (about 10-15 minutes on 2 cores)
#   tools/bench/run_coll.sh --quick    # a smoke run of the same pipeline (about a minute)
#
# Options:
#   --quick          THREADS 2 and 4, sizes 16 B … 1 MiB in steps of 4, short rounds
#   --out DIR        results directory (default bench/results/collectives)
#   --colls LIST     comma-separated collectives (default: all eight)
#   --no-docs        do not plot or touch docs/benchmarks.md
#   --no-mpi         skip the Open MPI peer even when it is built
# Environment: THREAD_COUNTS (default "2 4 8 16"), BUILD_DIR (default build-bench),
# MAX_MOVED (default 1G: sizes where one call must move more bytes in all, e.g.
# exchange at THREADS=16 above 4 MiB per block, are skipped, for ours and MPI alike),
# MIN_TIME (seconds per timed round, default 0.005), REPS (default 5), PYTHON.
#
# Nothing here judges the numbers: a run fails only when verification fails or a
# program crashes, and the script goes on with the next one.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

all_colls="broadcast,scatter,gather,gather_all,exchange,permute,reduce,prefix_reduce"
quick=0 docs=1 mpi=1 out="" colls=$all_colls backends="threads processes"
bench_options 2,27 --quick=quick=1 --no-docs=docs=0 --no-mpi=mpi=0 --out=out --colls=colls -- "$@"

bench_start collectives
bench_sweep "$quick"
# Reductions on double: auto, every eighth size.
if [[ $quick == 1 ]]; then double_args=(--min-bytes=16 --max-bytes=1M --step=16); else double_args=(--min-bytes=8 --max-bytes=8M --step=8); fi
# The sync-flag sweep: 8 B and 1 KiB, auto, every flag set in one process.
flag_args=(--min-bytes=8 --max-bytes=1K --step=128 --algo=auto "--flags=allsync,mysync,nosync")

bench_build "$build" "$mpi" bench/peers/mpi/coll_mpi bench/collbench/collbench
collbench="$build/bench/collbench/collbench"
coll_mpi="$build/bench/peers/mpi/coll_mpi"

{
  sweep_machine "$quick"
  for c in ${colls//,/ }; do
    echo "algorithms_$c: $("$collbench" --coll="$c" --list-algorithms | paste -sd, -)"
  done
} >"$out/machine.txt"
cat "$out/machine.txt"

bench_runs 58 600 600

begin=$SECONDS
for c in ${colls//,/ }; do
  echo "== $c"
  file="$out/$c.jsonl"
  : >"$file"
  run_sweep "$file" "$c %s THREADS=%s (auto + every algorithm)" "$c Open MPI ranks=%s" \
    "$collbench" --coll="$c" --algo=auto,all "${size_args[@]}" --max-moved="$max_moved" "${time_args[@]}" -- \
    "$coll_mpi" --coll="$c" "${size_args[@]}" --max-moved="$max_moved" "${time_args[@]}"
done

echo "== reduce and prefix_reduce on double (auto)"
file="$out/reduce_double.jsonl"
: >"$file"
for c in reduce prefix_reduce; do
  [[ ",$colls," == *",$c,"* ]] || continue
  run_sweep "$file" "$c double %s THREADS=%s" "$c double Open MPI ranks=%s" \
    "$collbench" --coll="$c" --type=double --algo=auto "${double_args[@]}" "${time_args[@]}" -- \
    "$coll_mpi" --coll="$c" --type=double "${double_args[@]}" "${time_args[@]}"
done

echo "== sync flags (ALLSYNC, MYSYNC, NOSYNC at 8 B and 1 KiB)"
file="$out/sync_flags.jsonl"
: >"$file"
for c in ${colls//,/ }; do
  run_sweep "$file" "$c %s THREADS=%s flags" "" "$collbench" --coll="$c" "${flag_args[@]}" "${time_args[@]}"
done
sweep_done "$begin"

bench_finish plot_coll.py --only coll
