# What the run scripts share (sourced, not run): their option parsing, the
# release build, the machine.txt lines, the run of one program into a jsonl file
# and the sweeps over THREADS counts and backends. The scripts use the variables
# it sets (build, python, have_mpi, mpirun_args, failures, ...) and set those it
# reads (quick, docs, out, counts, backends).
# shellcheck shell=bash disable=SC2034,SC2154

# bench_options HELP_LINES SPEC... -- ARGS...: parses a run script's ARGS by its
# SPECs, setting the script's variables (their defaults set before the call):
#   --NAME=VAR=VALUE   a switch: --NAME sets VAR to VALUE
#   --NAME=VAR         an option with a value: --NAME V or --NAME=V sets VAR to V
# -h/--help prints lines HELP_LINES of the script (sed's form, e.g. 2,20) without
# their '# '; an unknown option or a missing value stops it with status 2.
bench_options() {
  local help=$1 script
  shift
  script=$(basename "$0")
  local -A spec_switch=() spec_value=()
  while [[ $1 != -- ]]; do
    if [[ ${1#*=} == *=* ]]; then spec_switch[${1%%=*}]=${1#*=}; else spec_value[${1%%=*}]=${1#*=}; fi
    shift
  done
  shift
  while [[ $# -gt 0 ]]; do
    local name=${1%%=*}
    if [[ $1 == -h || $1 == --help ]]; then
      sed -n "${help}p" "$0" | sed 's/^# \{0,1\}//'
      exit 0
    elif [[ -n $1 && -n ${spec_switch[$1]+set} ]]; then
      printf -v "${spec_switch[$1]%%=*}" '%s' "${spec_switch[$1]#*=}"
    elif [[ -n $name && -n ${spec_value[$name]+set} && $1 == *=* ]]; then
      printf -v "${spec_value[$name]}" '%s' "${1#*=}"
    elif [[ -n $name && -n ${spec_value[$name]+set} ]]; then
      [[ $# -ge 2 ]] || { echo "$script: $1 needs a value (see --help)" >&2; exit 2; }
      printf -v "${spec_value[$name]}" '%s' "$2"
      shift
    else
      echo "$script: unknown option '$1' (see --help)" >&2
      exit 2
    fi
    shift
  done
}

# The repository (the run scripts give paths from it).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# bench_start SET (after bench_options): the repository as the working directory,
# the results directory out (default bench/results/SET) made, the build directory
# (BUILD_DIR, default build-bench) and the Python that plots (PYTHON, default the
# system python3, which has python3-matplotlib on Debian).
bench_start() {
  cd "$root" || exit 1
  out=${out:-bench/results/$1}
  mkdir -p "$out"
  build=${BUILD_DIR:-build-bench}
  python=${PYTHON:-/usr/bin/python3}
  if [[ ! -x "$python" ]]; then python=python3; fi
}

# bench_build BUILD WANT_MPI MPI_TARGET TARGET...
# Configures BUILD as a release build (once), builds the targets, and the MPI
# peer too when WANT_MPI is 1, Open MPI is installed and the build has the peer.
# Sets have_mpi to 1 or 0, and mpirun_args to the options every peer runs with.
bench_build() {
  local build=$1 want_mpi=$2 mpi_target=$3
  shift 3
  local targets=("$@")
  echo "== building ($build, release)"
  if [[ ! -f "$build/build.ninja" ]]; then
    meson setup "$build" --buildtype=release -Dtests=false >/dev/null
  else
    meson configure "$build" -Dbuildtype=release >/dev/null
  fi
  # Regenerate build.ninja first: a target added since the last build (a new
  # peer) is only listed in it afterwards.
  ninja -C "$build" build.ninja >/dev/null
  have_mpi=0
  if [[ $want_mpi == 1 ]] && grep -q "$mpi_target:" "$build/build.ninja" && command -v mpirun >/dev/null; then
    targets+=("$mpi_target")
    have_mpi=1
  fi
  ninja -C "$build" "${targets[@]}" >/dev/null
  # More ranks than CPUs, unpinned, as the UPC threads run.
  mpirun_args=(--oversubscribe --bind-to none)
  if [[ $(id -u) == 0 ]]; then mpirun_args+=(--allow-run-as-root); fi
}

# bench_machine QUICK: the lines every results directory's machine.txt starts
# with (after bench_build: the MPI peer's line needs have_mpi).
bench_machine() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc)"
  echo "cpu_model: $(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: *//')"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -sr)"
  echo "compiler: $(c++ --version | head -1)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
  if [[ $have_mpi == 1 ]]; then echo "mpi: $(mpirun --version 2>/dev/null | head -1)"; else echo "mpi: not built"; fi
  echo "quick: $1"
}

# The load average (1, 5, 15 minutes) for machine.txt.
bench_load() {
  cut -d' ' -f1-3 /proc/loadavg
}

# bench_sweep QUICK: the size sweep of run_coll.sh and run_upccoll.sh: counts (the
# THREADS and rank counts), size_args, time_args and max_moved, from
# THREAD_COUNTS, MIN_TIME, REPS and MAX_MOVED where they are set.
bench_sweep() {
  max_moved=${MAX_MOVED:-1G}
  if [[ $1 == 1 ]]; then
    counts=${THREAD_COUNTS:-"2 4"}
    size_args=(--min-bytes=16 --max-bytes=1M --step=4)
    time_args=(--min-time="${MIN_TIME:-0.003}" --reps="${REPS:-3}")
  else
    counts=${THREAD_COUNTS:-"2 4 8 16"}
    size_args=(--min-bytes=8 --max-bytes=8M --step=2)
    time_args=(--min-time="${MIN_TIME:-0.005}" --reps="${REPS:-5}")
  fi
}

# bench_runs WIDTH TIMEOUT SHOWN: sets up run (below): labels padded to WIDTH
# columns, TIMEOUT seconds for a program, the first SHOWN bytes of a failed run's
# stderr shown. Counts the failed runs in failures.
bench_runs() {
  run_width=$1 run_timeout=$2 run_shown=$3
  failures=0
  stderr_file=$(mktemp)
  trap 'rm -f "$stderr_file"' EXIT
}

# run FILE LABEL CMD...: appends the jsonl rows of one run to FILE.
run() {
  local file=$1 label=$2
  shift 2
  printf "%-${run_width}s" "$label"
  local start=$SECONDS
  if timeout "$run_timeout" "$@" --format=jsonl >>"$file" 2>"$stderr_file"; then
    echo " ok ($((SECONDS - start)) s)"
  else
    echo " FAILED (exit $?, $((SECONDS - start)) s): $(head -c "$run_shown" "$stderr_file")"
    failures=$((failures + 1))
  fi
}

# run_sweep FILE OURS_FORMAT MPI_FORMAT CMD... [-- MPI_CMD...]: for each THREADS
# count N of $counts, CMD on every backend of $backends, then, where the MPI peer
# was built, MPI_CMD on N ranks; their rows appended to FILE. The labels are
# printf formats: OURS_FORMAT of the backend and N, MPI_FORMAT of N.
run_sweep() {
  local file=$1 ours=$2 theirs=$3 n backend
  shift 3
  local cmd=() peer_cmd=()
  while [[ $# -gt 0 && $1 != -- ]]; do cmd+=("$1"); shift; done
  if [[ $# -gt 0 ]]; then shift; fi
  peer_cmd=("$@")
  for n in $counts; do
    for backend in $backends; do
      # shellcheck disable=SC2059
      UPCEMU_THREADS=$n UPCEMU_BACKEND=$backend run "$file" "$(printf "$ours" "$backend" "$n")" "${cmd[@]}"
    done
    if [[ $have_mpi == 1 && ${#peer_cmd[@]} -gt 0 ]]; then
      # shellcheck disable=SC2059
      run "$file" "$(printf "$theirs" "$n")" mpirun "${mpirun_args[@]}" -np "$n" "${peer_cmd[@]}"
    fi
  done
}

# sweep_machine QUICK [BACKENDS]: machine.txt of a size sweep (run_coll.sh,
# run_upccoll.sh, run_ext.sh): bench_machine's lines, the load, the backends
# (when given), THREADS counts, sizes, timing and the bound on bytes moved.
sweep_machine() {
  bench_machine "$1"
  echo "load_at_start: $(bench_load)"
  if [[ $# -gt 1 ]]; then echo "backends: $2"; fi
  echo "threads: $counts"
  echo "sizes: ${size_args[*]}"
  echo "timing: ${time_args[*]}"
  echo "max_moved: $max_moved"
}

# sweep_done BEGIN: how long the runs since SECONDS was BEGIN took, on stdout
# and, with the load at the end, in $out/machine.txt.
sweep_done() {
  echo "runs took $((SECONDS - $1)) s"
  echo "load_at_end: $(bench_load)" >>"$out/machine.txt"
  echo "duration_s: $((SECONDS - $1))" >>"$out/machine.txt"
}

# bench_finish PLOT [UPDATE_TABLES_OPTION...]: unless --no-docs, draws the plots
# of $out into docs/img with tools/bench/PLOT and refreshes docs/benchmarks.md;
# then the verdict: the status is 0 when no run failed.
bench_finish() {
  local plot=$1
  shift
  if [[ $docs == 1 ]]; then
    echo "== plots and tables"
    "$python" "tools/bench/$plot" "$out" --img docs/img
    "$python" tools/bench/update_tables.py "$out" "$@" --doc docs/benchmarks.md
  fi
  echo "results in $out ($failures failed runs)"
  [[ $failures == 0 ]]
}

# tag_rows KEY=VALUE...: jsonl rows on stdin, each given those fields (numbers
# stay numbers), on stdout.
tag_rows() {
  grep '^{' | "$python" -c '
import json, sys
tags = dict(a.split("=", 1) for a in sys.argv[1:])
for k, v in tags.items():
    if v.isdigit(): tags[k] = int(v)
for line in sys.stdin:
    r = json.loads(line)
    r.update(tags)
    print(json.dumps(r))' "$@"
}

# ---- the peer comparisons (run_brownian_peers.sh, run_mapreduce_mpi.sh) ----

# peer_mpirun_args: mpirun's options for a peer on this machine (more ranks than
# cores; as root too), in the array mpirun_args.
peer_mpirun_args() {
  mpirun_args=(--oversubscribe --bind-to none)
  if [[ $(id -u) == 0 ]]; then mpirun_args+=(--allow-run-as-root); fi
}

# build_description BUILD: "BUILD (its buildtype)", for machine.txt.
build_description() {
  echo "$1 ($(meson introspect "$1" --buildoptions 2>/dev/null | "$python" -c \
    'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))' 2>/dev/null ||
    echo unknown))"
}

# peer_runs_begin OUT: $rows (OUT/runs.jsonl, emptied), a scratch $log removed
# at exit, failures=0, the start time; Open MPI's shared-memory files in /tmp
# (a small /dev/shm), as upcrun puts them.
peer_runs_begin() {
  rows="$1/runs.jsonl"
  : >"$rows"
  failures=0
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  export OMPI_MCA_btl_vader_backing_directory=/tmp
  peer_begin=$SECONDS
}

# logged_run LIMIT FAILED_ROW TAG... -- CMD...: runs CMD (LIMIT seconds at most)
# into $log and appends its upcemu-result rows, tagged with the TAGs (key=value)
# and its exit status, to $rows; prints "ok (N s)" or "FAILED ..."; a failed run
# appends FAILED_ROW instead (@STATUS@ in it becomes the exit status) and is
# counted in $failures. The one runner of peer_run and run_apps.sh's run_one.
logged_run() {
  local limit=$1 failed_row=$2 tags=()
  shift 2
  while [[ $1 != -- ]]; do tags+=("$1"); shift; done
  shift
  local start=$SECONDS status=0
  timeout "$limit" "$@" >"$log" 2>&1 || status=$?
  grep '^upcemu-result ' "$log" | sed 's/^upcemu-result //' | tag_rows "${tags[@]}" status="$status" >>"$rows" || true
  if [[ $status == 0 ]]; then
    echo "ok ($((SECONDS - start)) s)"
  else
    echo "FAILED (exit $status, $((SECONDS - start)) s): $(tail -c 300 "$log" | tr '\n' ' ')"
    echo "${failed_row//@STATUS@/$status}" >>"$rows"
    failures=$((failures + 1))
  fi
}

# peer_run ROUND SIDE N FIELDS LABEL CMD...: prints LABEL, runs CMD (900 s at
# most) and appends its upcemu-result rows tagged with round, side and exit
# status to $rows; a failed run adds a row {FIELDS"side", "threads", "round",
# "status", "verified": false} instead and is counted in $failures.
peer_run() {
  local round=$1 side=$2 n=$3 fields=$4 label=$5
  shift 5
  printf '%s  ' "$label"
  logged_run 900 "{$fields\"side\": \"$side\", \"threads\": $n, \"round\": $round, \"status\": @STATUS@, \"verified\": false}" \
    round="$round" side="$side" -- "$@"
}

# peer_runs_end OUT TABLES: the load and duration lines of OUT/machine.txt, the
# tables (tools/bench/TABLES on the rows) in OUT/tables.md; succeeds when every
# run and the tables did.
peer_runs_end() {
  echo "load_at_end: $(bench_load)" >>"$1/machine.txt"
  echo "duration_s: $((SECONDS - peer_begin))" >>"$1/machine.txt"
  local status=0
  "$python" "tools/bench/$2" "$rows" >"$1/tables.md" || status=$?
  echo "results in $1 ($failures failed runs); tables in $1/tables.md"
  [[ $failures == 0 && $status == 0 ]]
}
