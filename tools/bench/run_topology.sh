#!/usr/bin/env bash
# The emulated-cluster figures of the seeds on this machine (issue 11), time
# and inter-node bytes side by side, for 16 threads on one node and on 4
# emulated nodes x 4 threads with the network model at the seeds' InfiniBand
# figures (4x DDR, 20 Gb/s: --net 3,2 here, 3 µs and 2 GB/s); a traffic report
# of one call per size gives the bytes between nodes.
# On one node Open MPI's counterparts run too (MPI_Gather, MPI_Allgather,
# MPI_Bcast, MPI_Scatterv; 16 ranks), as the algorithm "mpi".
#   --set=seed001 (default): seed 001's Figures 10-12, gather, gather_all and
#       the in-place broadcast with PULL, PUSH, MULTICORE and auto (collbench,
#       extbench); results in bench/results/emulated-clusters-seed001/
#   --set=trees: seed 003's Figures 3.8-3.10, scatter_priv's movement
#       (extbench's scatter_v, priv form) and the private in-place broadcast
#       with flat pull and the chunk trees multicore (flat over nodes),
#       binomial, binomial_flat, and auto; results in
#       bench/results/emulated-clusters-trees-seed003/ (a rerun replaces the set)
#
#   tools/bench/run_topology.sh [--set=trees]   # a few minutes on 2 cores
#   tools/bench/run_topology.sh --quick         # two sizes
#
# Options: --out DIR, --net LAT_US,GBPS (default 3,2). Environment: THREADS
# (default 16), NODES (default 4), BUILD_DIR, PYTHON.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 out="" net="3,2" figures=""
bench_options 2,22 --quick=quick=1 --out=out --net=net --set=figures -- "$@"
figures=${figures:-seed001}
case "$figures" in
  seed001) colls=(gather gather_all bcast_in_place); algos=(pull push multicore auto); dir=emulated-clusters-seed001 ;;
  trees) colls=(scatter_priv bcast_priv); algos=(pull multicore binomial binomial_flat auto); dir=emulated-clusters-trees-seed003 ;;
  *) echo "run_topology.sh: --set must be seed001 or trees, got '$figures'" >&2; exit 2 ;;
esac

bench_start "$dir"
threads=${THREADS:-16}
nodes=${NODES:-4}
bench_build "$build" 1 bench/peers/mpi/ext_mpi bench/collbench/collbench bench/collbench/extbench
if [[ $have_mpi == 1 ]]; then ninja -C "$build" bench/peers/mpi/coll_mpi >/dev/null; fi
if [[ $quick == 1 ]]; then list=(16384 262144); else list=(4096 16384 65536 262144 1048576); fi
sizes=(--min-bytes="${list[0]}" --max-bytes="${list[-1]}" --step=4)
[[ $quick == 1 ]] && sizes=(--min-bytes=16384 --max-bytes=262144 --step=16)
rows="$out/topology.jsonl"
: >"$rows"

run_one() {  # TOPOLOGY COLL ALGO: one timed run and one traffic run per size, tagged
  local topo=$1 coll=$2 algo=$3 env=(UPCEMU_THREADS="$threads")
  if [[ $topo == nodes ]]; then env+=(UPCEMU_NODES="$nodes" UPCEMU_NET="$net"); fi
  local forced=() cmd
  case "$coll" in
    bcast_in_place) cmd=("$build/bench/collbench/extbench" --bench=bcast --variant=extended) ;;
    scatter_priv) cmd=("$build/bench/collbench/extbench" --bench=scatter_v --variant=priv) ;;
    bcast_priv) cmd=("$build/bench/collbench/extbench" --bench=bcast --variant=priv) ;;
    *) cmd=("$build/bench/collbench/collbench" --coll="$coll" --algo="$algo") ;;  # it forces its --algo itself
  esac
  if [[ $algo != auto ]]; then
    if [[ $figures == trees ]]; then forced=(UPCEMU_COLL="vector_copy:$algo")
    else forced=(UPCEMU_COLL="broadcast:$algo;gather:$algo;gather_all:$algo"); fi
  fi
  env "${env[@]}" "${forced[@]}" "${cmd[@]}" "${sizes[@]}" --reps=3 --min-time=0.005 --format=jsonl |
    tag_rows topology="$topo" collective="$coll" algorithm="$algo" >>"$rows"
  # the bytes between nodes, size by size (the report sums a run's calls; the
  # rows say how many there were)
  if [[ $topo == nodes ]]; then
    local n
    for n in "${list[@]}"; do
      env "${env[@]}" "${forced[@]}" UPCEMU_NET= UPCEMU_REPORT_FILE="$out/traffic-$coll-$algo-$n.jsonl" "${cmd[@]}" \
        --min-bytes="$n" --max-bytes="$n" --reps=1 --min-time=0.000001 --no-verify --format=jsonl >/dev/null
    done
  fi
}

run_mpi() {  # COLL: Open MPI's counterpart on one node (16 ranks), tagged algorithm=mpi
  local coll=$1 cmd
  case "$coll" in
    gather | gather_all) cmd=("$build/bench/peers/mpi/coll_mpi" --coll="$coll") ;;
    bcast_in_place | bcast_priv) cmd=("$build/bench/peers/mpi/ext_mpi" --bench=bcast) ;;
    scatter_priv) cmd=("$build/bench/peers/mpi/ext_mpi" --bench=scatter_v) ;;
  esac
  mpirun "${mpirun_args[@]}" -np "$threads" "${cmd[@]}" "${sizes[@]}" --reps=3 --min-time=0.005 --format=jsonl |
    tag_rows topology=one collective="$coll" algorithm=mpi >>"$rows"
}

for topo in one nodes; do
  for coll in "${colls[@]}"; do
    for algo in "${algos[@]}"; do
      echo "== $topo $coll $algo"
      run_one "$topo" "$coll" "$algo"
    done
    if [[ $topo == one && $have_mpi == 1 ]]; then
      echo "== one $coll Open MPI"
      run_mpi "$coll"
    fi
  done
done
"$python" tools/bench/topology_tables.py "$out" --set="$figures" >"$out/tables.md"
echo "tables: $out/tables.md"
