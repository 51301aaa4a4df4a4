#!/usr/bin/env bash
# UPC-MR against MapReduce over MPI (issue 31; seed 003 §4.3, Fig. 4.2: UPC-MR
# vs MapReduce-MPI): the four applications of apps/mapreduce (element-by-element
# map, block distribution, result gathered to thread 0, extended collectives: the
# thesis's settings) against their peers on our MR-MPI-style library
# (bench/peers/mapreduce_mpi), on the same generated inputs, at THREADS = ranks
# 1, 2, 4, 8 and 16, the UPC side on the threads and processes backends. The
# runs are alternated (every round runs each app at each count on each side in
# turn) and the tables take each point's median; every run must verify, and all
# answers of an app must be equal (the digest). Writes bench/results/mapreduce-mpi/
# (runs.jsonl, machine.txt, tables.md; a rerun replaces it).
#
#   tools/bench/run_mapreduce_mpi.sh            # Hist/LinReg 1 M, WordC 20000, SpamC 50000; 5 rounds
#   tools/bench/run_mapreduce_mpi.sh --quick    # Hist 65536, LinReg 100000, WordC 1000, SpamC 2000; 3 rounds
#
# Options: --quick, --out DIR, --threads "1 2 4 8 16", --backends "threads processes",
# --rounds R, --only "hist wordc ...", --no-build (use the binaries already in the
# build directory, e.g. BUILD_DIR=build when it is a release build).
# Environment: BUILD_DIR (default build-bench), PYTHON.
#
# A run counts as failed when its exit status is not 0 (its answer did not
# verify, or it crashed); the script goes on and its status is 1 at the end, as
# it is when the tables find answers that differ.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 out="" counts="1 2 4 8 16" backends="threads processes" rounds="" only="" build_it=1
bench_options 2,24 --quick=quick=1 --no-build=build_it=0 --out=out --threads=counts --backends=backends \
  --rounds=rounds --only=only -- "$@"

# app | quick size | full size
apps=("hist|65536|1048576" "linreg|100000|1048576" "wordc|1000|20000" "spamc|2000|50000")
if [[ -z $rounds ]]; then rounds=5; [[ $quick == 1 ]] && rounds=3; fi
selected() { [[ -z $only ]] || [[ " $only " == *" $1 "* ]]; }

bench_start mapreduce-mpi
targets=() peers=()
for entry in "${apps[@]}"; do
  IFS='|' read -r app _ <<<"$entry"
  selected "$app" && targets+=("apps/mapreduce/$app") && peers+=("bench/peers/mapreduce_mpi/${app}_mrmpi")
done
if [[ $build_it == 1 ]]; then
  bench_build "$build" 1 "${peers[0]}" "${targets[@]}"
  ninja -C "$build" "${peers[@]}" >/dev/null
else
  peer_mpirun_args
  have_mpi=1
fi
for p in "${targets[@]}" "${peers[@]}"; do
  [[ -x $build/$p ]] || { echo "run_mapreduce_mpi.sh: $build/$p is not built" >&2; exit 2; }
done
{
  bench_machine "$quick"
  echo "build: $(build_description "$build")"
  echo "threads: $counts"
  echo "backends: $backends"
  echo "rounds: $rounds"
  echo "load_at_start: $(bench_load)"
} >"$out/machine.txt"
cat "$out/machine.txt"

peer_runs_begin "$out"
# run_one ROUND SIDE APP N CMD...: one timed run of APP (peer_run), labelled.
run_one() {
  peer_run "$1" "$2" "$4" "\"app\": \"$3\", " "$(printf '%s %-7s %-18s %3s' "$1" "$3" "$2" "$4")" "${@:5}"
}

for ((round = 1; round <= rounds; round++)); do
  for entry in "${apps[@]}"; do
    IFS='|' read -r app quick_size full_size <<<"$entry"
    selected "$app" || continue
    size=$full_size
    [[ $quick == 1 ]] && size=$quick_size
    for n in $counts; do
      for backend in $backends; do
        UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend UPCEMU_TIMEOUT=850 run_one "$round" "upc-mr $backend" "$app" "$n" \
          "$build/apps/mapreduce/$app" --size="$size" --distribution=block --gather=0
      done
      run_one "$round" "mapreduce-mpi" "$app" "$n" mpirun "${mpirun_args[@]}" -q -np "$n" \
        "$build/bench/peers/mapreduce_mpi/${app}_mrmpi" --size="$size"
    done
  done
done
peer_runs_end "$out" mapreduce_mpi_tables.py
