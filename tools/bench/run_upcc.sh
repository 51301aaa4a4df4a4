#!/usr/bin/env bash
# upcc against the C++ API (issue 14, "Measurements"): builds bench/upcc's kernels
# in build-bench (release), each twice: KERNEL.upc translated by tools/upcc/upcc and
# KERNEL.cpp on the C++ API (privatised loop, upc_forall with &a[i] affinity,
# fine-grained neighbour reads, upc_memget of rows). Runs every kernel in both
# languages at THREADS 1, 2, 4 on both backends, the two languages back to back
# (which one goes first alternates from round to round, so the CPUs' drift hits
# both alike), and times the translation and build of the tests/upc corpus
# (upcc -E and upcc -c, with -I BUILD/include as tests/meson.build gives
# lib_collective_ext_all.upc, on each tests/upc/*.upc). Writes into
# bench/results/upcc/ (the set the docs show; a rerun replaces what it measures):
#   kernels.jsonl   one row per run (the programs' upcemu-result lines + round)
#   corpus.jsonl    one row per file and step (-E: translation, -c: translation
#                   and compilation), seconds of each repetition and their median
#   machine.txt     the machine
#   corpus_machine.txt  the machine of the run that timed the corpus (with
#                   --no-corpus, corpus.jsonl and this file are left as they are)
#   table.md        UPC time / C++ time per kernel (medians over the rounds) and
#                   the corpus's per-file median and total (tools/bench/upcc_tables.py)
# docs/benchmarks.md's section "upcc: translated UPC against the C++ API" quotes
# table.md (by hand: the reasons next to it are written, not generated).
#
#   tools/bench/run_upcc.sh            # 5 rounds (about 4 minutes on 2 cores)
#   tools/bench/run_upcc.sh --quick    # 1 round, THREADS 1 and 2, 1 corpus repetition
#
# Options: --quick, --out DIR (default bench/results/upcc), --no-corpus.
# Environment: ROUNDS (default 5), THREAD_COUNTS (default "1 2 4"), KERNELS (default
# "privatised forall neighbours memget"), CORPUS_REPS
# (default 3), BUILD_DIR (default build-bench), PYTHON.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 out="" corpus=1
bench_options 2,29 --quick=quick=1 --out=out --no-corpus=corpus=0 -- "$@"
bench_start upcc
if [[ $quick == 1 ]]; then
  rounds=${ROUNDS:-1} counts=${THREAD_COUNTS:-"1 2"} corpus_reps=${CORPUS_REPS:-1}
else
  rounds=${ROUNDS:-5} counts=${THREAD_COUNTS:-"1 2 4"} corpus_reps=${CORPUS_REPS:-3}
fi

read -r -a kernels <<<"${KERNELS:-privatised forall neighbours memget}"
targets=(tools/upcrun)
for k in "${kernels[@]}"; do targets+=("bench/upcc/upcc_$k" "bench/upcc/cpp_$k"); done
# Builds share the checkout with other work: hold the build lock where there is one.
exec 9>/tmp/upcemu-ninja.lock
flock 9
bench_build "$build" 0 none "${targets[@]}"
flock -u 9
{ bench_machine "$quick"; echo "load: $(bench_load)"; echo "rounds: $rounds"; echo "threads: $counts"; } >"$out/machine.txt"

upcrun=$build/tools/upcrun
kernels_file=$out/kernels.jsonl
: >"$kernels_file"
failures=0
echo "== kernels ($rounds rounds, THREADS $counts, both backends)"
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order=(upcc cpp); else order=(cpp upcc); fi
  for n in $counts; do
    for backend in threads processes; do
      for k in "${kernels[@]}"; do
        for lang in "${order[@]}"; do
          if line=$(timeout 120 "$upcrun" --backend "$backend" -n "$n" "$build/bench/upcc/${lang}_$k" 2>&1 |
                    grep '^upcemu-result '); then
            echo "${line#upcemu-result }" | tag_rows "round=$r" >>"$kernels_file"
          else
            echo "FAILED: round $r $lang $k -n $n --backend $backend"
            failures=$((failures + 1))
          fi
        done
      done
    done
  done
  echo "round $r done"
done

corpus_file=$out/corpus.jsonl
if [[ $corpus == 1 ]]; then
  : >"$corpus_file"
  cp "$out/machine.txt" "$out/corpus_machine.txt"
  echo "== tests/upc corpus: upcc -E and upcc -c, $corpus_reps repetitions"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for f in tests/upc/*.upc; do
    for step in -E -c; do
      times=()
      for ((i = 0; i < corpus_reps; i++)); do
        start=$(date +%s.%N)
        if [[ $step == -E ]]; then
          ok=0; UPCEMU_BUILD_DIR=$build tools/upcc/upcc -E -I "$build/include" "$f" >"$tmp/out.c" 2>"$tmp/err" || ok=$?
        else
          ok=0; UPCEMU_BUILD_DIR=$build tools/upcc/upcc -c -O2 -I "$build/include" "$f" -o "$tmp/out.o" 2>"$tmp/err" || ok=$?
        fi
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc -l)")
      done
      "$python" -c '
import json, statistics, sys
f, step, ok = sys.argv[1:4]
t = [float(x) for x in sys.argv[4:]]
print(json.dumps({"file": f, "step": step, "ok": ok == "0", "times_s": t, "median_s": statistics.median(t)}))' \
        "$f" "$step" "$ok" "${times[@]}" >>"$corpus_file"
      if [[ $ok != 0 ]]; then echo "upcc $step $f failed: $(head -c 300 "$tmp/err")"; fi
    done
  done
fi

"$python" tools/bench/upcc_tables.py "$out" >"$out/table.md"
cat "$out/table.md"
echo "results in $out ($failures failed runs)"
[[ $failures == 0 ]]
