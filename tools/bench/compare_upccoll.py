#!/usr/bin/env python3
"""Small UPC Collectives 2.0 calls, two builds and the Open MPI peer alternated
run by run on the same machine: what a change does to the fixed cost of a
small collective, and where it stands against MPI.

usage: compare_upccoll.py BEFORE_BENCH AFTER_BENCH MPI_PEER [RUNS] [--threads 2,4,8,16]
                          [--colls bcast,allreduce,alltoall,barrier] [--jsonl OUT]

BEFORE_BENCH and AFTER_BENCH are two upccoll_bench binaries (build the older
commit in its own build directory, as tools/bench/run_upccoll.sh builds
build-bench); MPI_PEER is bench/peers/mpi/coll2_mpi, run under mpirun with the
options every peer runs with. Each of RUNS rounds (default 7) runs every
collective at 8 B, 64 B, 512 B and 4 KiB per block for every THREADS with the
three, one after the other, so that the slow drifts of a shared machine hit
all three alike. A row gives the median over the rounds of each one's median
µs per call, and the ratios after/before and after/MPI.
"""
import collections
import json
import os
import statistics
import subprocess
import sys


def arg(argv, name, default):
    return argv[argv.index(name) + 1] if name in argv else default


def rows(text, tag):
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            row = json.loads(line)
            row["build"] = tag
            yield row


def main(argv):
    if len(argv) < 4 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 2
    before, after, mpi = argv[1], argv[2], argv[3]
    runs = int(argv[4]) if len(argv) > 4 and not argv[4].startswith("--") else 7
    threads = [int(t) for t in arg(argv, "--threads", "2,4,8,16").split(",")]
    colls = arg(argv, "--colls", "bcast,allreduce,alltoall,barrier")
    out = arg(argv, "--jsonl", None)
    sizes = ["--min-bytes=8", "--max-bytes=4K", "--step=8", "--reps=3", "--min-time=0.005", "--format=jsonl"]
    mpirun = ["mpirun", "--oversubscribe", "--bind-to", "none"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
    res = collections.defaultdict(lambda: collections.defaultdict(list))
    raw = []
    for r in range(runs):
        for t in threads:
            env = dict(os.environ, UPCEMU_THREADS=str(t))
            for tag, cmd, e in (("before", [before, f"--coll={colls}", "--no-bound", "--no-verify"] + sizes, env),
                                ("after", [after, f"--coll={colls}", "--no-bound", "--no-verify"] + sizes, env),
                                ("mpi", mpirun + ["-np", str(t), mpi, f"--coll={colls}", "--no-verify"] + sizes, os.environ)):
                text = subprocess.run(cmd, env=e, capture_output=True, text=True, check=True).stdout
                for row in rows(text, tag):
                    row["round"], row["threads"] = r, t
                    raw.append(row)
                    name = row["ran"].replace("MPI_", "upccoll_").lower()
                    res[(name, t, row["nbytes"])][tag].append(row["median_us"])
        print(f"round {r + 1}/{runs} done", file=sys.stderr)
    if out:
        with open(out, "w") as f:
            for row in raw:
                f.write(json.dumps(row) + "\n")
    print("| collective | THREADS | bytes | before (µs) | after (µs) | Open MPI (µs) | after / before | after / MPI |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(res):
        d = res[key]
        if not all(d[k] for k in ("before", "after", "mpi")):
            continue
        b, a, m = (statistics.median(d[k]) for k in ("before", "after", "mpi"))
        print(f"| {key[0]} | {key[1]} | {key[2]} | {b:.2f} | {a:.2f} | {m:.2f} | {a / b:.2f} | {a / m:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
