#!/usr/bin/env bash
# Seed 001's Figures 10-12 on this machine (issue 11): gather, gather_all and
# broadcast in place with the PULL, PUSH and MULTICORE algorithms and auto, for
# 16 threads on one node and on 4 emulated nodes x 4 threads with the network
# model set to the seed's InfiniBand (4x DDR, 20 Gb/s: --net 3,2 here, 3 µs and
# 2 GB/s), time and inter-node bytes side by side. bench/collbench/collbench
# times gather and gather_all, extbench the in-place broadcast
# (upc_all_broadcast_in_place = xupc_all_broadcast_in_place); a traffic report
# of one call per size gives the bytes between nodes.
#
#   tools/bench/run_topology.sh            # the run (a few minutes on 2 cores)
#   tools/bench/run_topology.sh --quick    # two sizes
#
# Options: --out DIR, --net LAT_US,GBPS (default 3,2). Environment: THREADS
# (default 16), NODES (default 4), BUILD_DIR, PYTHON.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=common.sh
source tools/bench/common.sh

quick=0 out="" net="3,2"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1 ;;
    --out) out="$2"; shift ;;
    --out=*) out="${1#--out=}" ;;
    --net) net="$2"; shift ;;
    --net=*) net="${1#--net=}" ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_topology.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

bench_tools
threads=${THREADS:-16}
nodes=${NODES:-4}
out=${out:-bench/results/$(date +%F)/topology}
mkdir -p "$out"
bench_build "$build" 0 none bench/collbench/collbench bench/collbench/extbench
if [[ $quick == 1 ]]; then list=(16384 262144); else list=(4096 16384 65536 262144 1048576); fi
sizes=(--min-bytes="${list[0]}" --max-bytes="${list[-1]}" --step=4)
[[ $quick == 1 ]] && sizes=(--min-bytes=16384 --max-bytes=262144 --step=16)
rows="$out/topology.jsonl"
: >"$rows"

run_one() {  # TOPOLOGY COLL ALGO: one timed run and one traffic run, tagged
  local topo=$1 coll=$2 algo=$3 env=(UPCEMU_THREADS="$threads")
  if [[ $topo == nodes ]]; then env+=(UPCEMU_NODES="$nodes" UPCEMU_NET="$net"); fi
  local forced=()
  if [[ $algo != auto ]]; then forced=(UPCEMU_COLL="broadcast:$algo;gather:$algo;gather_all:$algo"); fi
  local cmd
  if [[ $coll == bcast_in_place ]]; then
    cmd=("$build/bench/collbench/extbench" --bench=bcast --variant=extended)
  else
    cmd=("$build/bench/collbench/collbench" --coll="$coll" --algo="$algo")  # collbench forces its --algo itself
  fi
  env "${env[@]}" "${forced[@]}" "${cmd[@]}" "${sizes[@]}" --reps=3 --min-time=0.005 --format=jsonl |
    grep '^{' | TOPO=$topo COLL=$coll ALGO=$algo "$python" -c '
import json, os, sys
for line in sys.stdin:
    r = json.loads(line)
    r.update(topology=os.environ["TOPO"], collective=os.environ["COLL"], algorithm=os.environ["ALGO"])
    print(json.dumps(r))' >>"$rows"
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

for topo in one nodes; do
  for coll in gather gather_all bcast_in_place; do
    for algo in pull push multicore auto; do
      echo "== $topo $coll $algo"
      run_one "$topo" "$coll" "$algo"
    done
  done
done
"$python" tools/bench/topology_tables.py "$out" >"$out/tables.md"
echo "tables: $out/tables.md"
