# Shared by run_micro.sh and run_coll.sh (sourced, not run).

# bench_build BUILD WANT_MPI MPI_TARGET TARGET...
# Configures BUILD as a release build (once), builds the targets, and the MPI
# peer too when WANT_MPI is 1, Open MPI is installed and the build has the peer.
# Sets have_mpi to 1 or 0.
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
}

# The machine lines every results directory's machine.txt starts with.
bench_machine() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc)"
  echo "cpu_model: $(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: *//')"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -sr)"
  echo "compiler: $(c++ --version | head -1)"
}
