#!/usr/bin/env bash
# The mpi backend measured (docs/backends.md, docs/benchmarks.md "The mpi
# backend"). First the microbenchmarks (bench/micro: barrier latency, lock
# throughput at THREADS 1, 2, 4, 8; memops bandwidth at 2) on the threads,
# processes and mpi backends, and Open MPI's MPI_Barrier (barrier_mpi); then
# bench/collbench for broadcast, scatter, gather, gather_all,
# exchange and reduce at THREADS 2, 4, 8, block sizes 4 KiB … 4 MiB, in one
# session on one machine:
#   threads, processes, mpi   the engine's own choice (auto), ALLSYNC and NOSYNC
#   mpi --algo=mpi            the mpi family (the call handed to MPI), ALLSYNC and NOSYNC
#   coll_mpi                  plain Open MPI (bench/peers/mpi/coll_mpi), mpirun as upcrun starts it
#                             (-q --oversubscribe --bind-to none)
# Writes jsonl into bench/results/mpi-backend/ (the set the docs show; a rerun
# replaces it) and, unless --no-docs,
# the tables and plot (tools/bench/mpi_backend_tables.py).
#
#   tools/bench/run_mpi_backend.sh [--quick] [--out DIR] [--no-docs] [--micro-only]
#
# --micro-only: the microbenchmarks alone (the collective rows already in DIR stay).
# --quick: THREADS 2 and 4, sizes 4 KiB, 64 KiB, 1 MiB. Environment: BUILD_DIR
# (default build-bench), THREAD_COUNTS (default "2 4 8"), MIN_TIME (0.005), REPS (5).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 docs=1 out="" micro_only=0
bench_options 2,21 --quick=quick=1 --no-docs=docs=0 --micro-only=micro_only=1 --out=out -- "$@"

bench_start mpi-backend
bench_build "$build" 1 bench/peers/mpi/coll_mpi bench/collbench/collbench tools/upcrun lib/libupcemu_mpi.so \
  bench/micro/barrier_latency bench/micro/lock_throughput bench/micro/memops_bandwidth bench/peers/mpi/barrier_mpi
if [[ $have_mpi != 1 || ! -f "$build/lib/libupcemu_mpi.so" ]]; then
  echo "run_mpi_backend.sh: needs Open MPI (the mpi backend and the peer); tools/setup.sh installs it" >&2
  exit 1
fi
if [[ $quick == 1 ]]; then
  counts=${THREAD_COUNTS:-"2 4"}
  sizes=(--min-bytes=4K --max-bytes=1M --step=16)
else
  counts=${THREAD_COUNTS:-"2 4 8"}
  sizes=(--min-bytes=4K --max-bytes=4M --step=4)
fi
timing=(--min-time="${MIN_TIME:-0.005}" --reps="${REPS:-5}")
collbench=$build/bench/collbench/collbench
upcrun=$build/tools/upcrun
if [[ $(id -u) == 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

failures=0
run() {  # run FILE COMMAND...: jsonl rows into FILE, a failure counted, not fatal
  local file=$1
  shift
  if "$@" --format=jsonl >"$file" 2>"$file.err"; then
    rm -f "$file.err"  # only a failed run's messages stay beside the rows
  else
    echo "   FAILED: $* (see $file.err)" >&2
    failures=$((failures + 1))
  fi
}

micro=$build/bench/micro
for bench in barrier_latency lock_throughput; do
  : >"$out/micro_$bench.jsonl"
  for n in 1 2 4 8; do
    for backend in threads processes; do
      UPCEMU_BACKEND=$backend UPCEMU_THREADS=$n run "$out/micro.tmp" "$micro/$bench" "${timing[@]}"
      cat "$out/micro.tmp" >>"$out/micro_$bench.jsonl"
    done
    run "$out/micro.tmp" "$upcrun" --backend mpi -n "$n" "$micro/$bench" "${timing[@]}"
    cat "$out/micro.tmp" >>"$out/micro_$bench.jsonl"
    if [[ $bench == barrier_latency && $n -gt 1 ]]; then
      run "$out/micro.tmp" mpirun -q --oversubscribe --bind-to none -n "$n" "$build/bench/peers/mpi/barrier_mpi" "${timing[@]}"
      cat "$out/micro.tmp" >>"$out/micro_$bench.jsonl"
    fi
  done
done
: >"$out/micro_memops_bandwidth.jsonl"
for backend in threads processes mpi; do
  if [[ $backend == mpi ]]; then
    UPCEMU_HEAP=64M run "$out/micro.tmp" "$upcrun" --backend mpi -n 2 "$micro/memops_bandwidth" --max-bytes=16M --step=16 "${timing[@]}"
  else
    UPCEMU_HEAP=64M UPCEMU_BACKEND=$backend UPCEMU_THREADS=2 run "$out/micro.tmp" "$micro/memops_bandwidth" \
      --max-bytes=16M --step=16 "${timing[@]}"
  fi
  cat "$out/micro.tmp" >>"$out/micro_memops_bandwidth.jsonl"
done
rm -f "$out/micro.tmp" "$out/micro.tmp.err"

colls="broadcast scatter gather gather_all exchange reduce"
[[ $micro_only == 1 ]] && colls=""
for coll in $colls; do
  for n in $counts; do
    echo "== $coll, THREADS $n"
    common=(--coll="$coll" "${sizes[@]}" "${timing[@]}")
    for backend in threads processes; do
      UPCEMU_BACKEND=$backend UPCEMU_THREADS=$n run "$out/${coll}_T${n}_$backend.jsonl" \
        "$collbench" "${common[@]}" --algo=auto --flags=allsync,nosync
    done
    run "$out/${coll}_T${n}_mpi.jsonl" "$upcrun" --backend mpi -n "$n" "$collbench" "${common[@]}" --algo=auto \
      --flags=allsync,nosync
    if [[ $coll != reduce ]]; then
      run "$out/${coll}_T${n}_mpi_family.jsonl" "$upcrun" --backend mpi -n "$n" "$collbench" "${common[@]}" \
        --algo=mpi --flags=allsync,nosync
    fi
    run "$out/${coll}_T${n}_openmpi.jsonl" mpirun -q --oversubscribe --bind-to none -n "$n" "$build/bench/peers/mpi/coll_mpi" \
      "${common[@]}"
  done
done

if [[ $docs == 1 ]]; then
  "$python" tools/bench/mpi_backend_tables.py "$out" --plot docs/img/mpi_backend.png >"$out/tables.md"
  echo "== tables: $out/tables.md, plot: docs/img/mpi_backend.png"
fi
echo "== done: $out ($failures failed runs)"
exit $((failures > 0))
