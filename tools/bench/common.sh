# Shared by run_micro.sh, run_coll.sh and run_upccoll.sh (sourced, not run); they
# use the variables it sets (build, python, have_mpi, mpirun_args, failures, ...)
# and set those it reads (quick, docs, out).
# shellcheck shell=bash disable=SC2034,SC2154

# bench_tools: the build directory (BUILD_DIR, default build-bench) and the Python
# that plots (PYTHON, default the system python3, which has python3-matplotlib on
# Debian).
bench_tools() {
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

# cluster_options SCRIPT HELP_LINES ARGS...: the options of the emulated-cluster
# scripts (run_topology.sh, run_node_policy.sh): --quick, --out DIR, --net
# LAT_US,GBPS (default 3,2), --set NAME (run_topology.sh's figure sets);
# sets quick, out, net, figures. --help prints lines HELP_LINES of SCRIPT.
cluster_options() {
  local script=$1 help=$2
  shift 2
  quick=0 out="" net="3,2" figures=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --quick) quick=1 ;;
      --out) out="$2"; shift ;;
      --out=*) out="${1#--out=}" ;;
      --net) net="$2"; shift ;;
      --net=*) net="${1#--net=}" ;;
      --set) figures="$2"; shift ;;
      --set=*) figures="${1#--set=}" ;;
      -h|--help) sed -n "${help}p" "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) echo "$(basename "$script"): unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
  done
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
