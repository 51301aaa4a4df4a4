#!/usr/bin/env bash
# The thesis's Figures 3.8-3.10 on this machine (seed 003 §3.3, issue 11):
# upc_all_scatter_priv's data movement (extbench's scatter_v, priv form: equal
# counts, a private source on thread 0) and the private in-place broadcast
# (Figure 3.12's priv form) with the chunk-list algorithms: flat pull, the
# flat tree over nodes (multicore, Figure 3.8), the binomial tree over ranks
# (Figure 3.9), the binomial-flat tree (Figure 3.10) and auto; 16 threads on
# one node and on 4 emulated nodes x 4 threads with the network model at the
# seed's InfiniBand figures (--net 3,2), time and bytes between nodes side by
# side (a traffic report of one call per size).
#
#   tools/bench/run_ext_trees.sh            # the run (several minutes on 2 cores)
#   tools/bench/run_ext_trees.sh --quick    # two sizes
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
    *) echo "run_ext_trees.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

bench_tools
threads=${THREADS:-16}
nodes=${NODES:-4}
out=${out:-bench/results/$(date +%F)/ext-trees}
mkdir -p "$out"
bench_build "$build" 0 none bench/collbench/extbench
if [[ $quick == 1 ]]; then list=(16384 262144); else list=(4096 16384 65536 262144 1048576); fi
sizes=(--min-bytes="${list[0]}" --max-bytes="${list[-1]}" --step=4)
[[ $quick == 1 ]] && sizes=(--min-bytes=16384 --max-bytes=262144 --step=16)
rows="$out/topology.jsonl"
: >"$rows"

run_one() {  # TOPOLOGY COLL ALGO: one timed run and one traffic run per size, tagged
  local topo=$1 coll=$2 algo=$3 env=(UPCEMU_THREADS="$threads")
  if [[ $topo == nodes ]]; then env+=(UPCEMU_NODES="$nodes" UPCEMU_NET="$net"); fi
  local forced=()
  if [[ $algo != auto ]]; then forced=(UPCEMU_COLL="vector_copy:$algo"); fi
  local bench=scatter_v
  [[ $coll == bcast_priv ]] && bench=bcast
  local cmd=("$build/bench/collbench/extbench" --bench="$bench" --variant=priv)
  env "${env[@]}" "${forced[@]}" "${cmd[@]}" "${sizes[@]}" --reps=3 --min-time=0.005 --format=jsonl |
    grep '^{' | TOPO=$topo COLL=$coll ALGO=$algo "$python" -c '
import json, os, sys
for line in sys.stdin:
    r = json.loads(line)
    r.update(topology=os.environ["TOPO"], collective=os.environ["COLL"], algorithm=os.environ["ALGO"])
    print(json.dumps(r))' >>"$rows"
  if [[ $topo == nodes ]]; then
    local n
    for n in "${list[@]}"; do
      env "${env[@]}" "${forced[@]}" UPCEMU_NET= UPCEMU_REPORT_FILE="$out/traffic-$coll-$algo-$n.jsonl" "${cmd[@]}" \
        --min-bytes="$n" --max-bytes="$n" --reps=1 --min-time=0.000001 --no-verify --format=jsonl >/dev/null
    done
  fi
}

for topo in one nodes; do
  for coll in scatter_priv bcast_priv; do
    for algo in pull multicore binomial binomial_flat auto; do
      echo "== $topo $coll $algo"
      run_one "$topo" "$coll" "$algo"
    done
  done
done
"$python" tools/bench/topology_tables.py "$out" --set=trees >"$out/tables.md"
echo "tables: $out/tables.md"
