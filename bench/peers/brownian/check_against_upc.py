#!/usr/bin/env python3
"""The peers of apps/brownian against the UPC app, on one problem.

Runs the UPC app (every version, --positions), brownian_omp (OMP_NUM_THREADS)
and brownian_mpi (under mpirun) with the same problem options, and checks that
every version of every peer ends with the final positions of every UPC version
of the same method (Cholesky or Fixman) within the app's own tolerance,
max |r - r_upc| / max |r_upc| <= 1e-10 (apps/brownian/README.md,
"Verification"). Exit 0 when all agree and every run succeeded, 1 otherwise.

usage: check_against_upc.py --upc BROWNIAN [--omp BROWNIAN_OMP] [--mpi BROWNIAN_MPI]
                            [--mpirun MPIRUN] [--workers N] [--peer-seed S] -- PROBLEM_OPTIONS...
--peer-seed gives the peers another seed (the test that the check can fail).
"""
import argparse
import os
import subprocess
import sys
import tempfile

TOLERANCE = 1e-10


def read_positions(path):
    """{variant: [floats]} from a --positions file."""
    lines = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if words:
                lines[words[0]] = [float(w) for w in words[1:]]
    return lines


def method(variant):
    return "cholesky" if "cholesky" in variant else "fixman"


def run(label, cmd, env):
    print(f"== {label}: {' '.join(cmd)}", flush=True)
    done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print(done.stdout, end="")
    if done.returncode != 0:
        print(f"FAILED: {label} exited with {done.returncode}")
    return done.returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--upc", required=True)
    ap.add_argument("--omp")
    ap.add_argument("--mpi")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--peer-seed", type=int)
    ap.add_argument("problem", nargs="*")
    a = ap.parse_args()
    n = str(a.workers)
    peer_problem = a.problem + ([f"--seed={a.peer_seed}"] if a.peer_seed is not None else [])
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        env = dict(os.environ, UPCEMU_THREADS=n, UPCEMU_TIMEOUT="300")
        files["upc"] = os.path.join(tmp, "upc.txt")
        ok &= run("UPC", [a.upc, "--variant=all", "--positions=" + files["upc"]] + a.problem, env)
        if a.omp:
            files["openmp"] = os.path.join(tmp, "omp.txt")
            ok &= run("OpenMP", [a.omp, "--variant=all", "--positions=" + files["openmp"]] + peer_problem,
                      dict(os.environ, OMP_NUM_THREADS=n))
        if a.mpi:
            files["mpi"] = os.path.join(tmp, "mpi.txt")
            # Root allowed and Open MPI's shared-memory files out of a small /dev/shm, as upcrun does.
            mpi_env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                           OMPI_MCA_btl_vader_backing_directory="/tmp")
            ok &= run("MPI", [a.mpirun, "-q", "--oversubscribe", "--bind-to", "none", "-n", n, a.mpi,
                              "--variant=all", "--positions=" + files["mpi"]] + peer_problem, mpi_env)
        found = {who: read_positions(path) if os.path.exists(path) else {} for who, path in files.items()}
    upc = found.pop("upc")
    if not upc or len(found) == 0:
        print("FAILED: nothing to compare (UPC positions: %d versions; peers: %d)" % (len(upc), len(found)))
        return 1
    print("== final positions against the UPC versions (max |r - r_upc| / max |r_upc|, at most %g)" % TOLERANCE)
    for who, versions in found.items():
        if not versions:
            print(f"FAILED: {who} wrote no positions")
            ok = False
        for variant, r in versions.items():
            for upc_variant, ref in upc.items():
                if method(upc_variant) != method(variant):
                    continue
                if len(r) != len(ref):
                    print(f"FAILED: {who} {variant}: {len(r)} coordinates, UPC {upc_variant} has {len(ref)}")
                    ok = False
                    continue
                scale = max(abs(x) for x in ref)
                diff = max(abs(x - y) for x, y in zip(r, ref)) / scale
                agree = diff <= TOLERANCE  # false for NaN too
                print(f"  {who:7} {variant:16} vs UPC {upc_variant:20} {diff:.3g}  {'ok' if agree else 'DIFFERS'}")
                ok &= agree
    print("all agree" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
