#!/usr/bin/env bash
# Times the start of a whole run, launch to exit, of a hello program (bench/micro/
# startup_hello, driven by bench/micro/startup_time) at 1 to 4096 THREADS on both
# backends, writes bench/results/startup/ (startup_time.jsonl and machine.txt: the
# set the docs show; a rerun replaces it) and refreshes the start-up table of
# docs/benchmarks.md:
#
#   tools/bench/run_startup.sh            # THREADS 1 64 512 1024 2048 4096, 5 runs each (a few minutes)
#   tools/bench/run_startup.sh --quick    # THREADS 1 64 512, 3 runs each
#
# Options:
#   --quick          fewer THREADS counts and runs
#   --out DIR        results directory (default bench/results/startup)
#   --no-docs        do not touch docs/benchmarks.md
# Environment: THREAD_COUNTS (comma-separated), REPS, BUILD_DIR (default
# build-bench), PYTHON.
#
# A run fails only when the program's output or status is wrong, never on a time.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 docs=1 out=""
bench_options 2,18 --quick=quick=1 --no-docs=docs=0 --out=out -- "$@"

bench_start startup
if [[ $quick == 1 ]]; then
  counts=${THREAD_COUNTS:-1,64,512}
  reps=${REPS:-3}
else
  counts=${THREAD_COUNTS:-1,64,512,1024,2048,4096}
  reps=${REPS:-5}
fi

bench_build "$build" 0 none bench/micro/startup_hello bench/micro/startup_time
have_mpi=0
{
  bench_machine "$quick"
  echo "load: $(bench_load)"
} >"$out/machine.txt"
cat "$out/machine.txt"

bench_runs 52 3600 400
echo "== start-up time (THREADS $counts, $reps runs each)"
: >"$out/startup_time.jsonl"
for backend in threads processes; do
  run "$out/startup_time.jsonl" "start-up $backend" "$build/bench/micro/startup_time" \
    --backends="$backend" --threads="$counts" --reps="$reps"
done

if [[ $docs == 1 ]]; then
  echo "== table"
  "$python" tools/bench/update_tables.py "$out" --only startup --doc docs/benchmarks.md
fi
echo "results in $out ($failures failed runs)"
[[ $failures == 0 ]]
