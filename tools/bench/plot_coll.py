#!/usr/bin/env python3
"""Draws the collective plots of docs/benchmarks.md from a results directory.

    tools/bench/plot_coll.py [RESULTS_DIR] [--img docs/img]

RESULTS_DIR defaults to bench/results/collectives, the set the docs show.
Writes, per collective, coll_<name>.png (µs per call against the block size,
one panel per THREADS: our fastest algorithm per backend, auto on the threads
backend, Open MPI), and coll_vs_mpi.png (our throughput / Open MPI's, auto, every collective) and
coll_bound.png (ratio to the memcpy bound, broadcast/scatter/gather). Needs
matplotlib (Debian: python3-matplotlib).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coll_results as cr  # noqa: E402
import plot_common as pc  # noqa: E402
from plot_common import plt, size_axis, subtitle  # noqa: E402

BACKEND_COLOR = {"threads": "tab:blue", "processes": "tab:orange", "mpi": "tab:green"}


def series(res, coll, backend, threads, which):
    pts = []
    for s in res.sizes(coll):
        r = res.ours(coll, backend, threads, s, which) if backend != "mpi" else res.mpi.get((coll, threads, s))
        if r:
            pts.append((s, r["median_us"]))
    return pts


def plot_collective(res, coll, img):
    counts = [n for n in res.thread_counts() if any(r["coll"] == coll and r["threads"] == n for r in res.rows)]
    if not counts:
        return None
    fig, axes = plt.subplots(1, len(counts), figsize=(4.2 * len(counts), 4.2), squeeze=False, sharey=True)
    sizes = res.sizes(coll)
    for ax, n in zip(axes[0], counts):
        for backend in res.backends():
            pts = series(res, coll, backend, n, "best")
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color=BACKEND_COLOR[backend], marker=".",
                        label="upcemu %s, fastest algorithm" % backend)
        pts = series(res, coll, "threads", n, "auto")
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], ":", color=BACKEND_COLOR["threads"],
                    label="upcemu threads, auto")
        pts = series(res, coll, "mpi", n, None)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color=BACKEND_COLOR["mpi"], marker="^", ms=3,
                    label="Open MPI %s" % cr.MPI_CALL[coll])
        size_axis(ax, sizes)
        ax.set_yscale("log")
        ax.set_xlabel("block per thread (nbytes)")
        ax.set_title("THREADS = %d" % n, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("µs per call (median, slowest thread)")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("upc_all_%s vs %s (ALLSYNC)\n%s" % (coll, cr.MPI_CALL[coll], subtitle(res)), fontsize=10)
    return pc.save(fig, img, "coll_%s.png" % coll, 100)


def plot_vs_mpi(res, img):
    colls = [c for c in res.collectives() if any(k[0] == c for k in res.mpi)]
    if not colls:
        return None
    fig, axes, cols = pc.grid(len(colls), w=4.0, h=3.4, sharey=True)
    for i, coll in enumerate(colls):
        ax = axes[i // cols][i % cols]
        pc.vs_mpi_panel(ax, res, coll, cr)
        ax.set_title("%s vs %s" % (coll, cr.MPI_CALL[coll]), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        if i % cols == 0:
            ax.set_ylabel("our throughput / Open MPI's (auto)")
    axes[0][0].legend(fontsize=6)
    fig.suptitle("upcemu (auto, ALLSYNC) as a multiple of Open MPI; target ≥ 1 at 1 KiB (dotted) and from 64 KiB "
                 "(shaded), threads backend\n" + subtitle(res), fontsize=10)
    return pc.save(fig, img, "coll_vs_mpi.png", 100)


def plot_bound(res, img):
    colls = [c for c in cr.BOUND_COLLECTIVES if c in res.collectives()]
    if not colls:
        return None
    fig, axes = plt.subplots(1, len(colls), figsize=(4.6 * len(colls), 4.2), squeeze=False, sharey=True)
    for ax, coll in zip(axes[0], colls):
        pc.thread_backend_lines(ax, res, coll,
                                lambda backend, n, s: (res.ours(coll, backend, n, s) or {}).get("ratio_vs_bound"))
        ax.axhline(cr.BOUND_TARGET_RATIO, color="gray", ls=":", label="target 0.7 (from 1 MiB)")
        ax.axvspan(cr.BOUND_TARGET_MIN, max(res.sizes(coll) or [cr.BOUND_TARGET_MIN]) * 1.5, color="gray", alpha=0.08)
        size_axis(ax, res.sizes(coll))
        ax.set_yscale("log")
        ax.set_xlabel("block per thread (nbytes)")
        ax.set_title(coll, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("memcpy bound / median time (auto)")
    axes[0][0].legend(fontsize=6)
    fig.suptitle("Ratio to the memcpy bound (1 = as fast as the copies it must make)\n" + subtitle(res), fontsize=10)
    return pc.save(fig, img, "coll_bound.png", 100)


def main():
    res, img = pc.start(__doc__, "collectives", "run_coll.sh", cr.load, "plot_coll.py: no collective results in %s")
    written = [plot_collective(res, c, img) for c in res.collectives()]
    written += [plot_vs_mpi(res, img), plot_bound(res, img)]
    pc.report(written)


if __name__ == "__main__":
    main()
