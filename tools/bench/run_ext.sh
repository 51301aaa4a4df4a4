#!/usr/bin/env bash
# The extended collectives of seed 003 against the standard ones, plain UPC and
# Open MPI: the thesis's Figures 3.12-3.14 on this machine. bench/collbench/extbench
# times upc_all_broadcast_in_place, upc_all_scatter_v and upc_all_exchange_in_place
# as original / base / extended / priv, and bench/peers/mpi/ext_mpi MPI_Bcast,
# MPI_Scatterv and MPI_Alltoall(MPI_IN_PLACE), sizes 4 KiB … 8 MiB, THREADS 2, 4,
# 8, 16, both backends. Writes bench/results/extended-collectives-sweep/ext.jsonl
# (the set the docs' figures show; a rerun replaces it), the tables
# (tools/bench/ext_tables.py, pasted into docs/benchmarks.md by hand) and the
# plots docs/img/ext_*.png.
#
#   tools/bench/run_ext.sh            # the full run
#   tools/bench/run_ext.sh --quick    # THREADS 2 and 4, 4 KiB … 1 MiB in steps of 4
#
# Options: --threads-only, --no-mpi, --no-docs, --out DIR. Environment:
# THREAD_COUNTS, MAX_MOVED (default 1G: an exchange at THREADS=16 above 4 MiB a
# piece is skipped, for ours and MPI alike), MIN_TIME, REPS, BUILD_DIR, PYTHON.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 docs=1 mpi=1 out="" backends="threads processes"
bench_options 2,17 --quick=quick=1 --threads-only=backends=threads --no-docs=docs=0 --no-mpi=mpi=0 --out=out -- "$@"

bench_start extended-collectives-sweep
max_moved=${MAX_MOVED:-1G}
if [[ $quick == 1 ]]; then
  counts=${THREAD_COUNTS:-"2 4"}
  size_args=(--min-bytes=4096 --max-bytes=1048576 --step=4)
  time_args=(--min-time="${MIN_TIME:-0.003}" --reps="${REPS:-3}")
else
  counts=${THREAD_COUNTS:-"2 4 8 16"}
  size_args=(--min-bytes=4096 --max-bytes=8388608 --step=2)
  time_args=(--min-time="${MIN_TIME:-0.005}" --reps="${REPS:-5}")
fi

bench_build "$build" "$mpi" bench/peers/mpi/ext_mpi bench/collbench/extbench
extbench="$build/bench/collbench/extbench"
ext_mpi="$build/bench/peers/mpi/ext_mpi"
moved_bytes=$(numfmt --from=iec "$max_moved")

sweep_machine "$quick" "$backends" >"$out/machine.txt"
cat "$out/machine.txt"

bench_runs 48 900 600
begin=$SECONDS
file="$out/ext.jsonl"
: >"$file"
for b in bcast scatter_v exchange; do
  echo "== $b"
  run_sweep "$file" "$b %s THREADS=%s" "$b Open MPI ranks=%s" \
    "$extbench" --bench="$b" "${size_args[@]}" --max-moved="$max_moved" "${time_args[@]}" -- \
    "$ext_mpi" --bench="$b" "${size_args[@]}" --max-moved="$moved_bytes" "${time_args[@]}"
done
sweep_done "$begin"

"$python" tools/bench/ext_tables.py "$file" >"$out/tables.md"
echo "tables: $out/tables.md"
if [[ $docs == 1 ]]; then
  "$python" tools/bench/ext_tables.py "$file" --plot docs/img || echo "plots skipped (no matplotlib?)"
fi
[[ $failures == 0 ]] || { echo "$failures runs failed"; exit 1; }
