#!/usr/bin/env bash
# Seed 004's measurements on this machine (issue 12): the NAS FT 3-D transpose
# by the remap operator with all optimizations and each one off (NM, NR, ND,
# NB, NO: Figure 7's time, Figure 5's memory per thread), by hand with
# upc_memget, and by Open MPI (pack, MPI_Alltoallv, unpack), same data, same
# run; classes S, W and A; THREADS 2, 4 and 8 (16 with --threads). And the CG
# replicated-vector transpose (§4.3): remap (src_ind and standard), upc_memget
# by hand, Open MPI's one MPI_Sendrecv. Tables and plots: tools/bench/remap_tables.py.
# Results in bench/results/remap/ (the set the docs show; a rerun replaces it).
#
#   tools/bench/run_remap.sh            # several minutes on 2 cores
#   tools/bench/run_remap.sh --quick    # class S and W, 2 and 4 threads
#
# Options: --out DIR, --threads "2 4 8 16". Environment: BUILD_DIR, PYTHON.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0 out="" counts="2 4 8"
bench_options 2,14 --quick=quick=1 --out=out --threads=counts -- "$@"

bench_start remap
bench_build "$build" 1 bench/peers/mpi/remap_mpi bench/remap/remapbench
classes="S,W,A"
if [[ $quick == 1 ]]; then classes="S,W"; counts="2 4"; fi
rows="$out/remap.jsonl"
: >"$rows"
for n in $counts; do
  echo "== remapbench THREADS=$n classes $classes"
  UPCEMU_THREADS=$n "$build/bench/remap/remapbench" --class="$classes" --variant=all --reps=3 --min-time=0.05 --format=jsonl |
    grep '^{' >>"$rows"
  echo "== remapbench --kernel=cg THREADS=$n classes $classes"
  UPCEMU_THREADS=$n "$build/bench/remap/remapbench" --kernel=cg --class="$classes" --variant=all --reps=3 --min-time=0.05 \
    --format=jsonl | grep '^{' >>"$rows"
  if [[ $have_mpi == 1 ]]; then
    for c in ${classes//,/ }; do
      for kernel in ft cg; do
        echo "== remap_mpi --kernel=$kernel ranks=$n class $c"
        mpirun "${mpirun_args[@]}" -np "$n" "$build/bench/peers/mpi/remap_mpi" --kernel="$kernel" --class="$c" --reps=3 \
          --min-time=0.05 --format=jsonl | grep '^{' >>"$rows"
      done
    done
  fi
done
"$python" tools/bench/remap_tables.py "$rows" >"$out/tables.md"
echo "tables: $out/tables.md"
