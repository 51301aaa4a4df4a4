#!/usr/bin/env bash
# The mpi backend across hosts (docs/benchmarks.md, "Across hosts"): the same
# microbenchmarks and collectives on 4 ranks placed on one network-namespace
# host and on two (2 + 2), beside the processes backend on this machine, all
# in one session. Needs root (tools/netns_hosts.sh makes the hosts).
#
#   sudo tools/bench/run_hosts.sh [--build DIR] [--out DIR]
#
# The "hosts" share this machine's cores and reach each other over a veth
# bridge and Open MPI's TCP transport, so the figures show what crossing hosts
# costs the runtime (round trips per page, per flag, per barrier), not what a
# real network would add. Results: DIR/*.jsonl and DIR/summary.md (medians);
# DIR defaults to bench/results/mpi-backend-hosts, the set the docs show.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # sets root
build=$root/build
out=$root/bench/results/mpi-backend-hosts
bench_options 2,13 --build=build --out=out -- "$@"
[[ $(id -u) == 0 ]] || { echo "run_hosts.sh: needs root (network namespaces)" >&2; exit 2; }
netns=$root/tools/netns_hosts.sh
mkdir -p "$out"
"$netns" up 2 >/dev/null
trap '"$netns" down' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# place LABEL SLOTS FILE PROGRAM ARGS...: one configuration's rows, labelled
place() {
  local label=$1 slots=$2 file=$3
  shift 3
  local rows
  case $label in
    processes) rows=$(UPCEMU_BACKEND=processes UPCEMU_THREADS=$n "$@" --format=jsonl) ;;
    *) rows=$("$netns" run "$slots" -n "$n" "$@" --format=jsonl) ;;
  esac
  echo "$rows" | sed "s/^{/{\"placement\":\"$label\",/" >>"$file"
}
# every placement of N ranks: processes backend, mpi on one host, mpi on two
all() {
  local file=$1
  shift
  place processes 0 "$file" "$@"
  place one_host "$n" "$file" "$@"
  place two_hosts $((n / 2)) "$file" "$@"
}

: >"$out/barrier.jsonl" ; : >"$out/memops.jsonl"; : >"$out/coll.jsonl"; : >"$out/startup.jsonl"
n=4
echo "== barrier latency, 4 ranks"
all "$out/barrier.jsonl" "$build/bench/micro/barrier_latency" --reps=5
echo "== upc_memget/memput, 2 ranks (two hosts: the neighbour is on the other host)"
n=2
UPCEMU_HEAP=32M all "$out/memops.jsonl" "$build/bench/micro/memops_bandwidth" --min-bytes=4K --max-bytes=4M --step=16 --reps=3
n=4
for coll in broadcast exchange reduce; do
  echo "== $coll, 4 ranks"
  all "$out/coll.jsonl" "$build/bench/collbench/collbench" --coll="$coll" --min-bytes=64 --max-bytes=1M --step=16 --reps=3
done
echo "== start-up of hello, 4 ranks (5 runs each)"
for placement in one_host two_hosts; do
  slots=$([[ $placement == one_host ]] && echo 4 || echo 2)
  for _ in 1 2 3 4 5; do
    t0=$(date +%s.%N)
    "$netns" run "$slots" -n 4 "$build/examples/hello" >/dev/null
    t1=$(date +%s.%N)
    awk -v p="$placement" -v a="$t0" -v b="$t1" 'BEGIN { printf "{\"placement\":\"%s\",\"seconds\":%.3f}\n", p, b - a }' >>"$out/startup.jsonl"
  done
done
python3 "$root/tools/bench/hosts_tables.py" "$out" | tee "$out/summary.md"
