#!/usr/bin/env bash
# The measurements behind auto's choice between the node-aware algorithms
# (issue 11; lib/coll/registry.cpp, policy rows with min_nodes): for 16
# threads on 2, 4, 8 and 16 emulated nodes, with the network model off and at
# the seed's InfiniBand figures (--net 3,2), broadcast, scatter, gather and
# reduce (collbench) and the extended library's private broadcast and scatter
# (extbench, vector_copy rows) with multicore (flat between nodes) and
# binomial_flat (a binomial tree between nodes); medians per size. The table
# (policy.md) names the faster algorithm per cell. Results in
# bench/results/node-policy/ (the set the docs show; a rerun replaces it).
#
#   tools/bench/run_node_policy.sh            # the run (10-20 minutes on 2 cores)
#   tools/bench/run_node_policy.sh --quick    # 2 and 16 nodes, two sizes
#
# Options: --out DIR, --net LAT_US,GBPS (default 3,2). Environment: THREADS
# (default 16), BUILD_DIR, PYTHON.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 out="" net="3,2"
bench_options 2,16 --quick=quick=1 --out=out --net=net -- "$@"

bench_start node-policy
threads=${THREADS:-16}
bench_build "$build" 0 none bench/collbench/collbench bench/collbench/extbench
node_counts=(2 4 8 16)
sizes=(--min-bytes=4096 --max-bytes=1048576 --step=16)
if [[ $quick == 1 ]]; then node_counts=(2 16); sizes=(--min-bytes=4096 --max-bytes=65536 --step=16); fi
rows="$out/policy.jsonl"
: >"$rows"

for nodes in "${node_counts[@]}"; do
  for model in off on; do
    env=(UPCEMU_THREADS="$threads" UPCEMU_NODES="$nodes")
    [[ $model == on ]] && env+=(UPCEMU_NET="$net")
    for coll in broadcast scatter gather reduce; do
      for algo in multicore binomial_flat; do
        echo "== $nodes nodes, model $model, $coll $algo"
        env "${env[@]}" "$build/bench/collbench/collbench" --coll="$coll" --algo="$algo" "${sizes[@]}" --reps=3 \
          --min-time=0.005 --format=jsonl |
          tag_rows nodes="$nodes" net="$model" collective="$coll" algorithm="$algo" >>"$rows"
      done
    done
    for coll in bcast_priv scatter_priv; do
      bench=bcast
      [[ $coll == scatter_priv ]] && bench=scatter_v
      for algo in multicore binomial_flat; do
        echo "== $nodes nodes, model $model, $coll $algo"
        env "${env[@]}" UPCEMU_COLL="vector_copy:$algo" "$build/bench/collbench/extbench" --bench="$bench" --variant=priv \
          "${sizes[@]}" --reps=3 --min-time=0.005 --format=jsonl |
          tag_rows nodes="$nodes" net="$model" collective="$coll" algorithm="$algo" >>"$rows"
      done
    done
  done
done
"$python" tools/bench/node_policy_table.py "$rows" >"$out/policy.md"
echo "table: $out/policy.md"
