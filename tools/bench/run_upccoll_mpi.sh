#!/usr/bin/env bash
# <upccoll.h> on the mpi backend (docs/benchmarks.md, "upccoll on MPI's
# non-blocking collectives"): bench/collbench/upccoll_bench for bcast and
# scatter, gather, allgather, alltoall and their v-variants, blocking, flags 0,
# in one session:
#   processes        the processes backend, the task rows (auto)
#   mpi tasks        the mpi backend, the task rows (forced: across hosts auto picks the mpi rows)
#   mpi rows         the mpi backend, the mpi rows (UPCEMU_COLL): MPI_Ibcast ... MPI_Ialltoallv
#   open mpi         bench/peers/mpi/coll2_mpi, plain Open MPI, started as upcrun starts it
# at THREADS 2, 4, 8 on this machine, and the two mpi placements again on two
# pretend hosts (UPCEMU_MPI_HOSTS=2: each half of the ranks with a segment of
# its own, talking through MPI) at 4 ranks. Writes jsonl into
# bench/results/upccoll-mpi/ (the set the docs show; a rerun replaces it) with
# the tables (tools/bench/upccoll_mpi_tables.py: summary.md, which
# docs/benchmarks.md quotes, and cells.md, every cell) and draws
# docs/img/upccoll_mpi_hosts.png.
# As root, also on two network-namespace hosts (tools/netns_hosts.sh: 2 + 2
# ranks over a veth bridge and Open MPI's TCP transport).
#
#   tools/bench/run_upccoll_mpi.sh [--quick] [--build DIR] [--out DIR]
#
# --quick: THREADS 2 and 4, three sizes. Environment: MIN_TIME (0.005), REPS (5).
# A failed run is reported and counted, not fatal; nothing here judges the numbers.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # sets root
build=$root/build
out=$root/bench/results/upccoll-mpi
quick=0
bench_options 2,23 --quick=quick=1 --build=build --out=out -- "$@"
upcrun=$build/tools/upcrun
bench=$build/bench/collbench/upccoll_bench
peer=$build/bench/peers/mpi/coll2_mpi
for f in "$upcrun" "$bench" "$peer" "$build/lib/libupcemu_mpi.so"; do
  [[ -e $f ]] || { echo "run_upccoll_mpi.sh: $f is not built (needs Open MPI; ninja -C $build)" >&2; exit 1; }
done
if [[ $(id -u) == 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
mkdir -p "$out"
colls=bcast,scatter,scatterv,gather,gatherv,allgather,allgatherv,alltoall,alltoallv
rows='upccoll_bcast:mpi;upccoll_scatter:mpi;upccoll_gather:mpi;upccoll_allgather:mpi;upccoll_alltoall:mpi'
rows+=';upccoll_scatterv:mpi;upccoll_gatherv:mpi;upccoll_allgatherv:mpi;upccoll_alltoallv:mpi'
tasks='upccoll_bcast:pull;upccoll_scatter:pull;upccoll_gather:push;upccoll_allgather:by_destination'
tasks+=';upccoll_alltoall:by_destination;upccoll_scatterv:pull;upccoll_gatherv:push'
tasks+=';upccoll_allgatherv:by_destination;upccoll_alltoallv:by_destination'
if [[ $quick == 1 ]]; then
  counts="2 4"
  sizes=(--min-bytes=64 --max-bytes=1M --step=128)
else
  counts="2 4 8"
  sizes=(--min-bytes=8 --max-bytes=4M --step=8)
fi
timing=(--min-time="${MIN_TIME:-0.005}" --reps="${REPS:-5}" --max-moved=256M)
failures=0
# run LABEL HOSTS N COMMAND...: rows labelled with the placement
run() {
  local label=$1 hosts=$2 n=$3
  shift 3
  local rows
  if rows=$("$@" --coll=$colls "${sizes[@]}" "${timing[@]}" --format=jsonl 2>"$out/last.err"); then
    echo "$rows" | grep '^{' | sed "s/^{/{\"placement\":\"$label\",\"hosts\":$hosts,\"ranks\":$n,/" >>"$out/upccoll_mpi.jsonl"
  else
    echo "   FAILED: $label n=$n (see $out/last.err)" >&2
    failures=$((failures + 1))
  fi
}
: >"$out/upccoll_mpi.jsonl"
for n in $counts; do
  echo "== THREADS $n"
  run processes 1 "$n" env UPCEMU_BACKEND=processes UPCEMU_THREADS="$n" "$bench"
  run "mpi tasks" 1 "$n" env UPCEMU_COLL="$tasks" "$upcrun" --backend mpi -n "$n" "$bench"
  run "mpi rows" 1 "$n" env UPCEMU_COLL="$rows" "$upcrun" --backend mpi -n "$n" "$bench"
  run "open mpi" 1 "$n" mpirun -q --oversubscribe --bind-to none -np "$n" "$peer"
done
echo "== 2 pretend hosts, 4 ranks"
run "mpi tasks" 2 4 env UPCEMU_MPI_HOSTS=2 UPCEMU_COLL="$tasks" "$upcrun" --backend mpi -n 4 "$bench"
run "mpi rows" 2 4 env UPCEMU_MPI_HOSTS=2 UPCEMU_COLL="$rows" "$upcrun" --backend mpi -n 4 "$bench"
if [[ $(id -u) == 0 ]]; then
  echo "== 2 network-namespace hosts, 4 ranks"
  netns=$root/tools/netns_hosts.sh
  "$netns" up 2 >/dev/null
  trap '"$netns" down' EXIT
  # hosts field 20: namespace hosts (the tables say so)
  run "mpi tasks" 20 4 env UPCEMU_COLL="$tasks" "$netns" run 2 -n 4 "$bench"
  run "mpi rows" 20 4 env UPCEMU_COLL="$rows" "$netns" run 2 -n 4 "$bench"
fi
rm -f "$out/last.err"
tables=$root/tools/bench/upccoll_mpi_tables.py
python3 "$tables" "$out/upccoll_mpi.jsonl" >"$out/cells.md"
python3 "$tables" "$out/upccoll_mpi.jsonl" --summary | tee "$out/summary.md"
# The figure needs matplotlib (Debian's python3-matplotlib, for /usr/bin/python3).
/usr/bin/python3 "$tables" "$out/upccoll_mpi.jsonl" --plot "$root/docs/img/upccoll_mpi_hosts.png" ||
  echo "run_upccoll_mpi.sh: no plot (matplotlib missing)" >&2
exit $((failures > 0))
