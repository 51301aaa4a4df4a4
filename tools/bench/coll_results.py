"""Reading the collective results written by tools/bench/run_coll.sh.

A results directory, bench/results/collectives/ for the docs, holds machine.txt, one
<collective>.jsonl per collective (collbench rows of every algorithm with
flags "allsync", and the Open MPI peer's rows with backend "mpi") and
sync_flags.jsonl (auto at 8 B and 1 KiB with ALLSYNC, MYSYNC, NOSYNC) and
reduce_double.jsonl (reduce and prefix_reduce on double, auto and MPI). This
module loads them, picks "ours" (auto: what a user gets) and "best" (the
fastest registered algorithm at that point), and holds issue 3's targets and
reference figures, so that plot_coll.py and update_tables.py judge alike.
"""
import os

import bench_results as br

COLLECTIVES = ["broadcast", "scatter", "gather", "gather_all", "exchange", "permute", "reduce", "prefix_reduce"]
MPI_CALL = {"broadcast": "MPI_Bcast", "scatter": "MPI_Scatter", "gather": "MPI_Gather", "gather_all": "MPI_Allgather",
            "exchange": "MPI_Alltoall", "permute": "MPI_Sendrecv", "reduce": "MPI_Reduce", "prefix_reduce": "MPI_Exscan"}
THREAD_COUNTS = [2, 4, 8, 16]

# Issue 3, "Benchmarks": targets (for the benchmark, not tests).
MPI_TARGET_RATIO = 1.0              # >= 100% of Open MPI's throughput ...
MPI_TARGET_SMALL = 1 << 10          # ... at 1 KiB ...
MPI_TARGET_LARGE_MIN = 64 << 10     # ... and at every size >= 64 KiB, threads backend
BOUND_TARGET_RATIO = 0.7            # large broadcast/scatter/gather >= 70% of the memcpy bound
BOUND_TARGET_MIN = 1 << 20          # "large": from 1 MiB up
BOUND_COLLECTIVES = ["broadcast", "scatter", "gather"]
SYNC_VISIBLE_RATIO = 0.9            # MYSYNC "visibly cheaper": median MYSYNC/ALLSYNC time at most 0.9
SYNC_SIZES = [8, 1 << 10]

# Issue 3: Open MPI 4.1.4 measured on this kind of machine, µs (for orientation).
ISSUE_OPEN_MPI_US = {
    ("broadcast", 1 << 20): {2: 58, 4: 345, 8: 517},
    ("exchange", 1 << 20): {2: 168, 4: 810, 8: 5816},
    ("broadcast", 1 << 10): {4: 3.2},
    ("scatter", 1 << 10): {4: 5.6},
    ("exchange", 1 << 10): {4: 6.1},
}
# Seed 003's Table 2.1: broadcast, scatter, exchange at 1 KiB and 1 MiB, 2/4/8 threads.
TABLE21_COLLECTIVES = ["broadcast", "scatter", "exchange"]
TABLE21_SIZES = [1 << 10, 1 << 20]
TABLE21_THREADS = [2, 4, 8]


def coll_dir(d):
    """d when it holds collective results, else None."""
    return br.results_holding(d, [c + ".jsonl" for c in COLLECTIVES])


class CollRows:
    """What the indexed results of a collective run answer alike (this module's
    Results and upccoll_results.Results): self.rows, the measured rows with the
    Open MPI peer's under backend "mpi", and the subclass's ours() and
    mpi_row()."""

    COLLECTIVES = COLLECTIVES  # in the order of the tables

    def vs_mpi(self, coll, backend, threads, nbytes, *which):
        """Our throughput / Open MPI's at this point (MPI's median time / ours), or
        None; which goes to ours()."""
        o, m = self.ours(coll, backend, threads, nbytes, *which), self.mpi_row(coll, threads, nbytes)
        if not o or not m or not o["median_us"]:
            return None
        return m["median_us"] / o["median_us"]

    def sizes(self, coll=None, backend=None):
        return sorted({r["nbytes"] for r in self.rows
                       if (coll is None or r["coll"] == coll) and (backend is None or r["backend"] == backend)})

    def thread_counts(self):
        return sorted({r["threads"] for r in self.rows})

    def backends(self):
        return [b for b in ("threads", "processes") if any(r["backend"] == b for r in self.rows)]

    def collectives(self):
        return [c for c in self.COLLECTIVES if any(r["coll"] == c for r in self.rows)]


class Results(CollRows):
    """All rows of one coll/ directory, indexed."""

    def __init__(self, d):
        self.dir = d
        self.machine = br.load_machine(d)
        self.rows = []
        for c in COLLECTIVES:
            self.rows += br.load_jsonl(os.path.join(d, c + ".jsonl"))
        self.sync_rows = br.load_jsonl(os.path.join(d, "sync_flags.jsonl"))
        self.auto, self.best, self.mpi, self.algo = {}, {}, {}, {}
        for r in self.rows:
            if r.get("wrong"):
                continue  # a wrong result is no measurement
            if r["backend"] == "mpi":
                self.mpi[(r["coll"], r["threads"], r["nbytes"])] = r
                continue
            if r.get("flags", "allsync") != "allsync":
                continue
            key = (r["coll"], r["backend"], r["threads"], r["nbytes"])
            if r["algo"] == "auto":
                self.auto[key] = r
            else:
                self.algo[key + (r["algo"],)] = r
                if key not in self.best or r["median_us"] < self.best[key]["median_us"]:
                    self.best[key] = r
        self.sync = {(r["coll"], r["backend"], r["threads"], r["nbytes"], r["flags"]): r
                     for r in self.sync_rows if not r.get("wrong")}
        self.double_rows = br.load_jsonl(os.path.join(d, "reduce_double.jsonl"))
        # (coll, backend, threads, nbytes) -> row; backend "mpi" for the peer.
        self.double = {(r["coll"], r["backend"], r["threads"], r["nbytes"]): r
                       for r in self.double_rows if not r.get("wrong")}
        self.wrong = [r for r in self.rows + self.sync_rows + self.double_rows if r.get("wrong")]

    def ours(self, coll, backend, threads, nbytes, which="auto"):
        """Our row: auto (what a user gets) or best (fastest registered algorithm);
        best falls back to auto when no forced algorithm was measured."""
        key = (coll, backend, threads, nbytes)
        if which == "best":
            return self.best.get(key) or self.auto.get(key)
        return self.auto.get(key) or self.best.get(key)

    def mpi_row(self, coll, threads, nbytes):
        return self.mpi.get((coll, threads, nbytes))


def load(d):
    """Results for d (bench/results/collectives, say), or None when there are none."""
    cd = coll_dir(d)
    return Results(cd) if cd else None
