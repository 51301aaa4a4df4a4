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

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=common.sh
source tools/bench/common.sh

all_colls="broadcast,scatter,gather,gather_all,exchange,permute,reduce,prefix_reduce"
quick=0 docs=1 mpi=1 out="" colls=$all_colls
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1 ;;
    --no-docs) docs=0 ;;
    --no-mpi) mpi=0 ;;
    --out) out="$2"; shift ;;
    --out=*) out="${1#--out=}" ;;
    --colls) colls="$2"; shift ;;
    --colls=*) colls="${1#--colls=}" ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_coll.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

bench_tools
bench_sweep "$quick"
# Reductions on double: auto, every eighth size.
if [[ $quick == 1 ]]; then double_args=(--min-bytes=16 --max-bytes=1M --step=16); else double_args=(--min-bytes=8 --max-bytes=8M --step=8); fi
# The sync-flag sweep: 8 B and 1 KiB, auto, every flag set in one process.
flag_args=(--min-bytes=8 --max-bytes=1K --step=128 --algo=auto "--flags=allsync,mysync,nosync")
out=${out:-bench/results/collectives}
mkdir -p "$out"

bench_build "$build" "$mpi" bench/peers/mpi/coll_mpi bench/collbench/collbench
collbench="$build/bench/collbench/collbench"
coll_mpi="$build/bench/peers/mpi/coll_mpi"

{
  bench_machine "$quick"
  echo "load_at_start: $(bench_load)"
  echo "threads: $counts"
  echo "sizes: ${size_args[*]}"
  echo "timing: ${time_args[*]}"
  echo "max_moved: $max_moved"
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
  for n in $counts; do
    for backend in threads processes; do
      UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend run "$file" "$c $backend THREADS=$n (auto + every algorithm)" \
        "$collbench" --coll="$c" --algo=auto,all "${size_args[@]}" --max-moved="$max_moved" "${time_args[@]}"
    done
    if [[ $have_mpi == 1 ]]; then
      run "$file" "$c Open MPI ranks=$n" \
        mpirun "${mpirun_args[@]}" -np "$n" "$coll_mpi" --coll="$c" "${size_args[@]}" --max-moved="$max_moved" "${time_args[@]}"
    fi
  done
done

echo "== reduce and prefix_reduce on double (auto)"
file="$out/reduce_double.jsonl"
: >"$file"
for c in reduce prefix_reduce; do
  [[ ",$colls," == *",$c,"* ]] || continue
  for n in $counts; do
    for backend in threads processes; do
      UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend run "$file" "$c double $backend THREADS=$n" \
        "$collbench" --coll="$c" --type=double --algo=auto "${double_args[@]}" "${time_args[@]}"
    done
    if [[ $have_mpi == 1 ]]; then
      run "$file" "$c double Open MPI ranks=$n" \
        mpirun "${mpirun_args[@]}" -np "$n" "$coll_mpi" --coll="$c" --type=double "${double_args[@]}" "${time_args[@]}"
    fi
  done
done

echo "== sync flags (ALLSYNC, MYSYNC, NOSYNC at 8 B and 1 KiB)"
file="$out/sync_flags.jsonl"
: >"$file"
for c in ${colls//,/ }; do
  for n in $counts; do
    for backend in threads processes; do
      UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend run "$file" "$c $backend THREADS=$n flags" \
        "$collbench" --coll="$c" "${flag_args[@]}" "${time_args[@]}"
    done
  done
done
echo "collective runs took $((SECONDS - begin)) s"
echo "load_at_end: $(bench_load)" >>"$out/machine.txt"
echo "duration_s: $((SECONDS - begin))" >>"$out/machine.txt"

bench_finish plot_coll.py --only coll
