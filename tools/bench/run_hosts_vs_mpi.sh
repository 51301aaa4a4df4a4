#!/usr/bin/env bash
# The mpi backend across hosts against MPI itself (docs/benchmarks.md, "The mpi
# backend across hosts"), on 2 and 3 network-namespace hosts:
#   - upc_memget/upc_memput of the neighbour's partition, one rank per host
#     (memops_bandwidth's remote rows: the neighbour is on the next host),
#     beside MPI_Get/MPI_Put (flushed per transfer) and a two-sided ping-pong
#     of the same bytes (bench/peers/mpi/memops_mpi);
#   - NAS IS and FT, classes S and W, as upcemu programs on the mpi backend
#     (apps/nas, every variant) and as the MPI peers (bench/peers/mpi/nas), on
#     4 ranks (2 hosts: 2 + 2) and on 3 hosts IS on 3 ranks (1 + 1 + 1); FT
#     needs a power of two that divides its grid, so it runs on 2 hosts only;
#   - upc_barrier (bench/micro/barrier_latency) beside MPI_Barrier
#     (bench/peers/mpi/barrier_mpi), 4 ranks on 2 hosts and 3 on 3;
# in alternated rounds (upcemu first, then MPI first, ...), the same machine for
# both sides of each ratio. With --before DIR, the upcemu programs of another
# build (the runtime before a change) run in the same rounds too.
#
#   sudo tools/bench/run_hosts_vs_mpi.sh [--build DIR] [--before DIR] [--out DIR]
#                                        [--rounds N] [--hosts "2 3"] [--classes "S W"]
#                                        [--parts "memops coll nas barrier"]
#
# The hosts share this machine's cores and reach each other over a veth bridge
# through Open MPI's TCP transport; MPI_Get/MPI_Put use Open MPI's pt2pt
# one-sided component (its default one needs RDMA hardware; UCX's would take
# shared memory and skip the network). Every job runs with Open MPI's
# mpi_yield_when_idle=1 (unless OMPI_MCA_mpi_yield_when_idle is set), its
# setting for oversubscribed nodes: the cores are
# shared (with other work too), and a rank that spins without yielding while
# the rank it waits for has no core slowed MPI_Get 100-fold in a trial run
# under load. Also, on 2 hosts, run_hosts.sh's
# collectives (4 ranks) for the upcemu builds alone. Results: DIR/memops.jsonl,
# DIR/nas.jsonl, DIR/coll.jsonl, DIR/barrier.jsonl (the files of the parts run)
# (every row tagged with hosts, round and impl: upcemu, before or mpi),
# DIR/machine.txt and DIR/summary.md (tools/bench/hosts_vs_mpi_tables.py);
# DIR defaults to bench/results/mpi-backend-vs-mpi.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # sets root
build=$root/build before="" out=$root/bench/results/mpi-backend-vs-mpi rounds=3 host_counts="2 3" classes="S W"
parts="memops coll nas barrier"
bench_options 2,31 --build=build --before=before --out=out --rounds=rounds --hosts=host_counts --classes=classes \
  --parts=parts -- "$@"
want() { [[ " $parts " == *" $1 "* ]]; }
[[ $(id -u) == 0 ]] || { echo "run_hosts_vs_mpi.sh: needs root (network namespaces)" >&2; exit 2; }
build=$(cd "$build" && pwd)
[[ -z $before ]] || before=$(cd "$before" && pwd)
for f in tools/upcrun bench/micro/memops_bandwidth bench/collbench/collbench bench/peers/mpi/memops_mpi apps/nas/is/is_upc apps/nas/ft/ft_upc \
  bench/peers/mpi/nas/is_mpi bench/peers/mpi/nas/ft_mpi; do
  [[ -x $build/$f ]] || { echo "run_hosts_vs_mpi.sh: $build/$f is not built" >&2; exit 2; }
done
if want barrier; then
  for f in bench/micro/barrier_latency bench/peers/mpi/barrier_mpi; do
    [[ -x $build/$f ]] || { echo "run_hosts_vs_mpi.sh: $build/$f is not built" >&2; exit 2; }
  done
fi
netns=$root/tools/netns_hosts.sh
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_osc=pt2pt
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
trap '"$netns" down >/dev/null 2>&1 || true' EXIT
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc)"
  echo "cpu_model: $(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: *//')"
  echo "mpirun: $(mpirun --version 2>/dev/null | head -1) (osc=pt2pt, mpi_yield_when_idle=$OMPI_MCA_mpi_yield_when_idle)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- lib || echo ' + uncommitted lib/')"
  echo "before: ${before:-none}"
  echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/machine.txt"

# tag HOSTS ROUND IMPL: JSON rows of stdin with those fields first; other lines dropped
tag() {
  sed -n -e 's/^upcemu-result //' -e "s/^{/{\"hosts\": $1, \"round\": $2, \"impl\": \"$3\", /p"
}
# on SLOTS IMPL ARGS...: a job of the build IMPL names, SLOTS ranks per host
on() {
  local slots=$1 impl=$2
  shift 2
  local dir=$build
  [[ $impl == before ]] && dir=$before
  UPCRUN=$dir/tools/upcrun timeout 1200 "$netns" run "$slots" --timeout 1100 "$@"
}
# memops HOSTS ROUND IMPL
memops() {
  local h=$1 r=$2 impl=$3 dir=$build
  [[ $impl == before ]] && dir=$before
  if [[ $impl == mpi ]]; then
    on 1 mpi -n "$h" "$build/bench/peers/mpi/memops_mpi" --min-bytes=4K --max-bytes=4M --step=4 --reps=3 \
      --min-time=0.05 --format=jsonl
  else
    UPCEMU_HEAP=32M on 1 "$impl" -n "$h" "$dir/bench/micro/memops_bandwidth" --min-bytes=4K --max-bytes=4M --step=4 \
      --reps=3 --min-time=0.05 --ops=upc_memget,upc_memput --where=remote --format=jsonl
  fi | tag "$h" "$r" "$impl" >>"$out/memops.jsonl"
}
# coll HOSTS ROUND IMPL: the collectives of run_hosts.sh (4 ranks, 2 + 2), upcemu
# builds only: what the server's new waits do to flags and small copies
coll() {
  local h=$1 r=$2 impl=$3 dir=$build c
  [[ $impl == before ]] && dir=$before
  for c in broadcast exchange reduce; do
    on 2 "$impl" -n 4 "$dir/bench/collbench/collbench" --coll="$c" --min-bytes=64 --max-bytes=256K --step=16 --reps=3 \
      --format=jsonl | tag "$h" "$r" "$impl" >>"$out/coll.jsonl"
  done
}
# nas HOSTS ROUND IMPL CLASS
nas() {
  local h=$1 r=$2 impl=$3 cls=$4 dir=$build slots=2 n=4
  [[ $impl == before ]] && dir=$before
  [[ $h == 3 ]] && slots=1 n=3
  if [[ $impl == mpi ]]; then
    on "$slots" mpi -n "$n" "$build/bench/peers/mpi/nas/is_mpi" --class="$cls"
    [[ $h == 3 ]] || on "$slots" mpi -n "$n" "$build/bench/peers/mpi/nas/ft_mpi" --class="$cls" --variant=all
  else
    on "$slots" "$impl" -n "$n" "$dir/apps/nas/is/is_upc" --class="$cls" --variant=all
    [[ $h == 3 ]] || on "$slots" "$impl" -n "$n" "$dir/apps/nas/ft/ft_upc" --class="$cls" --variant=all
  fi 2>&1 | tag "$h" "$r" "$impl" >>"$out/nas.jsonl"
}
# barrier HOSTS ROUND IMPL: microseconds per barrier, 4 ranks on 2 hosts, 3 on 3
barrier() {
  local h=$1 r=$2 impl=$3 dir=$build slots=2 n=4
  [[ $impl == before ]] && dir=$before
  [[ $h == 3 ]] && slots=1 n=3
  if [[ $impl == mpi ]]; then
    on "$slots" mpi -n "$n" "$build/bench/peers/mpi/barrier_mpi" --reps=5 --min-time=0.1 --format=jsonl
  else
    on "$slots" "$impl" -n "$n" "$dir/bench/micro/barrier_latency" --reps=5 --min-time=0.1 --format=jsonl
  fi | tag "$h" "$r" "$impl" >>"$out/barrier.jsonl"
}

# the files of the parts that run start empty (others' stay)
for p in memops coll nas barrier; do
  want "$p" && : >"$out/$p.jsonl"
done
impls=(upcemu mpi)
[[ -z $before ]] || impls=(upcemu before mpi)
for h in $host_counts; do
  "$netns" down >/dev/null 2>&1 || true
  "$netns" up "$h" >/dev/null
  for r in $(seq 1 "$rounds"); do
    # alternated: each round starts with another side
    order=("${impls[@]}")
    if ((r % 2 == 0)); then order=(); for ((k = ${#impls[@]} - 1; k >= 0; --k)); do order+=("${impls[k]}"); done; fi
    for impl in "${order[@]}"; do
      if want memops; then
        echo "== $h hosts, round $r, $impl: memops"
        memops "$h" "$r" "$impl"
      fi
      if want coll && [[ $h == 2 && $impl != mpi ]]; then
        echo "== $h hosts, round $r, $impl: collectives"
        coll "$h" "$r" "$impl"
      fi
      if want barrier; then
        echo "== $h hosts, round $r, $impl: barriers"
        barrier "$h" "$r" "$impl"
      fi
      want nas || continue
      for cls in $classes; do
        echo "== $h hosts, round $r, $impl: NAS class $cls"
        nas "$h" "$r" "$impl" "$cls"
      done
    done
  done
done
echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.txt"
python3 "$root/tools/bench/hosts_vs_mpi_tables.py" "$out" | tee "$out/summary.md"
