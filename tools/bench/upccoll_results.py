"""Reading the UPC Collectives 2.0 results written by tools/bench/run_upccoll.sh.

A results directory, bench/results/upccoll/ for the docs, holds machine.txt,
blocking.jsonl (bench/collbench/upccoll_bench rows, backend "threads" or
"processes", and the Open MPI peer bench/peers/mpi/coll2_mpi's rows, backend
"mpi") and overlap.jsonl (bench/collbench/upccoll_overlap rows with impl
"upccoll" and progress "inline" or "thread", and bench/peers/mpi/overlap_mpi's
rows with impl and progress "mpi"). This module loads and indexes them and
holds the targets, so that plot_upccoll.py and upccoll_tables.py judge alike.
"""
import os

import bench_results as br
import coll_results as cr

COLLECTIVES = ["barrier", "bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "allgatherv", "alltoall",
               "alltoallv", "reduce", "allreduce", "reduce_scatter", "scan"]
MPI_CALL = {"barrier": "MPI_Barrier", "bcast": "MPI_Bcast", "scatter": "MPI_Scatter", "scatterv": "MPI_Scatterv",
            "gather": "MPI_Gather", "gatherv": "MPI_Gatherv", "allgather": "MPI_Allgather",
            "allgatherv": "MPI_Allgatherv", "alltoall": "MPI_Alltoall", "alltoallv": "MPI_Alltoallv",
            "reduce": "MPI_Reduce", "allreduce": "MPI_Allreduce", "reduce_scatter": "MPI_Reduce_scatter",
            "scan": "MPI_Exscan"}
OVERLAP_COLLECTIVES = ["allreduce", "alltoall"]
OVERLAP_MPI_CALL = {"allreduce": "MPI_Iallreduce", "alltoall": "MPI_Ialltoall"}
# The implementations of the overlap benchmark: (impl, progress) -> label.
OVERLAP_IMPLS = [("upccoll", "inline"), ("upccoll", "thread"), ("mpi", "mpi")]
OVERLAP_LABEL = {("upccoll", "inline"): "upccoll, inline progress", ("upccoll", "thread"): "upccoll, progress thread",
                 ("mpi", "mpi"): "Open MPI"}

# The targets (for the benchmark, not tests).
MPI_TARGET_RATIO = 1.0              # >= 100% of Open MPI's throughput ...
MPI_TARGET_SMALL = 1 << 10          # ... at 1 KiB ...
MPI_TARGET_LARGE_MIN = 64 << 10     # ... and at every size >= 64 KiB, threads backend
OVERLAP_TARGET_PCT = 50.0           # non-blocking: >= 50% of the collective hidden ...
OVERLAP_MIN_FACTOR = 1.0            # ... when the computation is at least as long (t_comp >= t_coll)


def upccoll_dir(d):
    """d when it holds UPC Collectives 2.0 results, else None."""
    return br.results_holding(d, ("blocking.jsonl", "overlap.jsonl"))


class Results(cr.CollRows):
    """All rows of one upccoll/ directory, indexed."""

    COLLECTIVES = COLLECTIVES

    def __init__(self, d):
        self.dir = d
        self.machine = br.load_machine(d)
        self.rows = br.load_jsonl(os.path.join(d, "blocking.jsonl"))
        self.overlap_rows = br.load_jsonl(os.path.join(d, "overlap.jsonl"))
        # (backend, coll, threads, nbytes) -> row; backend "mpi" for the peer.
        self.point = {}
        for r in self.rows:
            if not r.get("wrong"):
                self.point[(r["backend"], r["coll"], r["threads"], r["nbytes"])] = r
        # (impl, progress, coll, threads, nbytes, compute, factor, test) -> row
        self.overlap = {}
        for r in self.overlap_rows:
            self.overlap[(r["impl"], r["progress"], r["coll"], r["threads"], r["nbytes"], r["compute"], r["factor"],
                          bool(r["test"]))] = r
        self.wrong = [r for r in self.rows if r.get("wrong")]

    def ours(self, coll, backend, threads, nbytes):
        return self.point.get((backend, coll, threads, nbytes))

    def mpi(self, coll, threads, nbytes):
        return self.point.get(("mpi", coll, threads, nbytes))

    mpi_row = mpi

    def has_mpi(self):
        return any(r["backend"] == "mpi" for r in self.rows)

    # Overlap.
    def overlap_impls(self):
        return [i for i in OVERLAP_IMPLS if any((r["impl"], r["progress"]) == i for r in self.overlap_rows)]

    def overlap_points(self):
        """Sorted distinct (coll, threads, nbytes, compute, factor)."""
        pts = {(r["coll"], r["threads"], r["nbytes"], r["compute"], r["factor"]) for r in self.overlap_rows}
        order = {c: i for i, c in enumerate(OVERLAP_COLLECTIVES)}
        return sorted(pts, key=lambda p: (order.get(p[0], 9), p[1], p[2], p[3], p[4]))

    def overlap_row(self, impl, coll, threads, nbytes, compute, factor, test):
        return self.overlap.get(impl + (coll, threads, nbytes, compute, factor, test))


def load(d):
    """Results for d (bench/results/upccoll, say), or None when there are none."""
    ud = upccoll_dir(d)
    return Results(ud) if ud else None
