#!/usr/bin/env bash
# shellcheck disable=SC2034  # the variables set here are what run_sweep reads
# tools/bench/common.sh, what the benchmark run scripts share, does what they
# rely on: bench_options parses switches and options (both --NAME V and
# --NAME=V), prints the help lines and refuses an unknown option or a missing
# value with status 2; run_sweep runs a command per THREADS count and backend
# and the MPI peer after each count, only where the peer was built; bench_start
# makes the results folder. Nothing is built or timed (run is replaced).
# usage: test_bench_common.sh PATH/TO/tools/bench/common.sh
common=${1:?usage: test_bench_common.sh tools/bench/common.sh}
common=$(cd "$(dirname "$common")" && pwd)/$(basename "$common")
tmp=$(mktemp -d /tmp/bench_common.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # what got wanted
  if [[ "$2" != "$3" ]]; then
    printf 'FAIL: %s\n  got:    %s\n  wanted: %s\n' "$1" "$2" "$3"
    fails=$((fails + 1))
  fi
}

# A script as the run scripts are: its help in lines 2-3, options parsed by
# bench_options; it prints the variables it ends with.
cat >"$tmp/demo.sh" <<EOF
#!/usr/bin/env bash
# Demo: the help text,
#   second line.
set -euo pipefail
source "$common"
quick=0 docs=1 out="" colls=all backends="threads processes"
bench_options 2,3 --quick=quick=1 --no-docs=docs=0 --threads-only=backends=threads --out=out --colls=colls -- "\$@"
echo "quick=\$quick docs=\$docs out=\$out colls=\$colls backends=\$backends"
EOF
demo() { out=$(bash "$tmp/demo.sh" "$@" 2>&1); rc=$?; }

demo
check "defaults" "$rc $out" "0 quick=0 docs=1 out= colls=all backends=threads processes"
demo --quick --no-docs --threads-only --out dir/a --colls=x,y
check "switches and both value forms" "$rc $out" "0 quick=1 docs=0 out=dir/a colls=x,y backends=threads"
demo --out=a=b --out c
check "the last value wins, '=' inside a value kept" "$rc $out" "0 quick=0 docs=1 out=c colls=all backends=threads processes"
demo --help
check "--help prints the help lines" "$rc $out" "0 Demo: the help text,
  second line."
demo --quick --bogus
check "an unknown option" "$rc $out" "2 demo.sh: unknown option '--bogus' (see --help)"
demo --out
check "an option without its value" "$rc $out" "2 demo.sh: --out needs a value (see --help)"
demo --quick=1
check "a switch given a value is unknown" "$rc $out" "2 demo.sh: unknown option '--quick=1' (see --help)"

# run_sweep: the order of the runs, their labels and environment, the MPI peer
# only where it was built and given.
sweep=$(
  set -euo pipefail
  # shellcheck source=/dev/null
  source "$common"
  # shellcheck disable=SC2317  # called by run_sweep
  run() { echo "${UPCEMU_THREADS:-}/${UPCEMU_BACKEND:-none} [$2] ${*:3} > $1"; }
  counts="2 4" backends="threads processes" have_mpi=1 mpirun_args=(--oversubscribe)
  run_sweep f.jsonl "c %s THREADS=%s" "c Open MPI ranks=%s" ours --x=1 -- peer --y
  have_mpi=0
  run_sweep g.jsonl "c %s THREADS=%s" "c Open MPI ranks=%s" ours -- peer
  have_mpi=1 counts=8 backends=threads
  run_sweep h.jsonl "c %s THREADS=%s flags" "" ours --flags
)
check "run_sweep" "$sweep" "2/threads [c threads THREADS=2] ours --x=1 > f.jsonl
2/processes [c processes THREADS=2] ours --x=1 > f.jsonl
/none [c Open MPI ranks=2] mpirun --oversubscribe -np 2 peer --y > f.jsonl
4/threads [c threads THREADS=4] ours --x=1 > f.jsonl
4/processes [c processes THREADS=4] ours --x=1 > f.jsonl
/none [c Open MPI ranks=4] mpirun --oversubscribe -np 4 peer --y > f.jsonl
2/threads [c threads THREADS=2] ours > g.jsonl
2/processes [c processes THREADS=2] ours > g.jsonl
4/threads [c threads THREADS=4] ours > g.jsonl
4/processes [c processes THREADS=4] ours > g.jsonl
8/threads [c threads THREADS=8 flags] ours --flags > h.jsonl"

# bench_start: the repository as the working directory, out defaulting to
# bench/results/SET (made), an --out given kept.
started=$(
  set -euo pipefail
  cd "$tmp"
  # shellcheck source=/dev/null
  source "$common"
  out="$tmp/given"
  bench_start some-set
  echo "$(pwd) $out $([[ -d $out ]] && echo made)"
)
root=$(cd "$(dirname "$common")/../.." && pwd)
check "bench_start" "$started" "$root $tmp/given made"

# peer_run: a run's upcemu-result rows tagged with round, side and status; a
# failed run one row of its own (FIELDS first), counted; peer_runs_end fails then.
peer=$(
  set -uo pipefail
  # shellcheck source=/dev/null
  source "$common"
  python=python3
  mkdir -p "$tmp/peer"
  peer_runs_begin "$tmp/peer"
  peer_run 1 ours 2 "" "one" sh -c 'echo "upcemu-result {\"time_s\": 1.5}"; echo noise' >/dev/null
  peer_run 2 theirs 4 '"app": "hist", ' "two" sh -c 'echo broken; exit 3' >/dev/null
  echo "$failures"
  cat "$rows"
)
check "peer_run rows" "$peer" '1
{"time_s": 1.5, "round": 1, "side": "ours", "status": 0}
{"app": "hist", "side": "theirs", "threads": 4, "round": 2, "status": 3, "verified": false}'

# logged_run (run_apps.sh's run_one): its own tags, a time limit that stops the
# command, @STATUS@ in the failed row replaced; the printed verdicts.
logged=$(
  set -uo pipefail
  # shellcheck source=/dev/null
  source "$common"
  python=python3
  rows="$tmp/logged.jsonl" log="$tmp/logged.log" failures=0
  : >"$rows"
  logged_run 10 '{"label": "x", "status": @STATUS@}' label=a -- sh -c 'echo "upcemu-result {\"n\": 2}"' >"$tmp/said"
  logged_run 1 '{"label": "slow", "status": @STATUS@}' label=slow -- sleep 5 >>"$tmp/said"
  sed 's/(.*//' "$tmp/said"
  echo "$failures"
  cat "$rows"
)
check "logged_run rows" "$logged" 'ok 
FAILED 
1
{"n": 2, "label": "a", "status": 0}
{"label": "slow", "status": 124}'

[[ $fails == 0 ]] && echo "tools/bench/common.sh: ok"
[[ $fails == 0 ]]
