#!/usr/bin/env python3
"""Draws the UPC Collectives 2.0 plots of docs/benchmarks.md from a results directory.

    tools/bench/plot_upccoll.py [RESULTS_DIR] [--img docs/img]

RESULTS_DIR defaults to bench/results/upccoll, the set the docs show. Writes upccoll_vs_mpi.png (our
throughput / Open MPI's against the block size, one panel per collective),
upccoll_latency.png (µs per call, ours and Open MPI's, one panel per
collective) and upccoll_overlap.png (the share of the non-blocking collective
hidden behind computation). Needs matplotlib (Debian: python3-matplotlib).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_results as br  # noqa: E402
import plot_common as pc  # noqa: E402
import upccoll_results as ur  # noqa: E402
from plot_common import THREAD_COLOR, grid, plt, size_axis, subtitle  # noqa: E402


def plot_vs_mpi(res, img):
    colls = [c for c in res.collectives() if any(k[0] == "mpi" and k[1] == c for k in res.point)]
    if not colls:
        return None
    fig, axes, cols = grid(len(colls))
    for i, coll in enumerate(colls):
        ax = axes[i // cols][i % cols]
        if coll == "barrier":
            counts = res.thread_counts()
            for j, backend in enumerate(res.backends()):
                vals = [res.vs_mpi(coll, backend, n, 0) or 0 for n in counts]
                ax.bar([k + 0.4 * j for k in range(len(counts))], vals, width=0.4, label=backend)
            ax.set_xticks([k + 0.2 for k in range(len(counts))])
            ax.set_xticklabels(["THREADS=%d" % n for n in counts], fontsize=7)
            ax.axhline(ur.MPI_TARGET_RATIO, color="black", lw=0.8)
            ax.set_yscale("log")
            ax.legend(fontsize=6)
        else:
            pc.vs_mpi_panel(ax, res, coll, ur)
        ax.set_title("upccoll_%s vs %s" % (coll, ur.MPI_CALL[coll]), fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        if i % cols == 0:
            ax.set_ylabel("our throughput / Open MPI's", fontsize=8)
    first = next((k for k, c in enumerate(colls) if c != "barrier"), 0)
    axes[first // cols][first % cols].legend(fontsize=5)
    fig.suptitle("UPC Collectives 2.0 (blocking, MYSYNC) as a multiple of Open MPI; target ≥ 1 at 1 KiB (dotted) and "
                 "from 64 KiB (shaded), threads backend\n" + subtitle(res), fontsize=10)
    return pc.save(fig, img, "upccoll_vs_mpi.png", 90)


def plot_latency(res, img):
    colls = [c for c in res.collectives() if c != "barrier"]
    if not colls:
        return None
    fig, axes, cols = grid(len(colls))
    for i, coll in enumerate(colls):
        ax = axes[i // cols][i % cols]
        for n in res.thread_counts():
            for backend, ls, mk in (("threads", "-", "."), ("mpi", "--", None)):
                pts = [(s, res.point.get((backend, coll, n, s))) for s in res.sizes(coll)]
                pts = [(s, r["median_us"]) for s, r in pts if r]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, marker=mk, ms=3,
                            color=THREAD_COLOR.get(n, "black"),
                            label="%s, THREADS=%d" % ("upccoll" if backend == "threads" else "Open MPI", n))
        size_axis(ax, res.sizes(coll))
        ax.set_yscale("log")
        ax.set_title("upccoll_%s / %s" % (coll, ur.MPI_CALL[coll]), fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        if i % cols == 0:
            ax.set_ylabel("µs per call (median)", fontsize=8)
    axes[0][0].legend(fontsize=5)
    fig.suptitle("UPC Collectives 2.0 (threads backend, solid) and Open MPI (dashed): µs per call against the block "
                 "per thread\n" + subtitle(res), fontsize=10)
    return pc.save(fig, img, "upccoll_latency.png", 90)


def plot_overlap(res, img):
    impls = res.overlap_impls()
    if not impls:
        return None
    pts = res.overlap_points()
    colls = [c for c in ur.OVERLAP_COLLECTIVES if any(p[0] == c for p in pts)]
    kinds = [k for k in ("cpu", "offload") if any(p[3] == k for p in pts)]
    factors = sorted({p[4] for p in pts})
    panels = [(c, f) for c in colls for f in factors]
    fig, axes = plt.subplots(len(panels), len(kinds), figsize=(6.5 * len(kinds), 2.8 * len(panels)), squeeze=False,
                             sharey=True)
    variants = [(i, t) for i in impls for t in (False, True)]
    colors = {("upccoll", "inline"): "tab:blue", ("upccoll", "thread"): "tab:orange", ("mpi", "mpi"): "tab:green"}
    width = 0.8 / len(variants)
    for r, (coll, f) in enumerate(panels):
        for k, kind in enumerate(kinds):
            ax = axes[r][k]
            groups = sorted({(p[1], p[2]) for p in pts if p[0] == coll and p[3] == kind and p[4] == f})
            for v, (impl, test) in enumerate(variants):
                vals = []
                for (n, s) in groups:
                    row = res.overlap_row(impl, coll, n, s, kind, f, test)
                    vals.append(row["hidden_pct"] if row else float("nan"))
                ax.bar([g + v * width for g in range(len(groups))], vals, width=width, color=colors[impl],
                       hatch="//" if test else None, edgecolor="white" if test else None,
                       label="%s%s" % (ur.OVERLAP_LABEL[impl], ", testing" if test else ""))
            ax.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))])
            ax.set_xticklabels(["T=%d, %s" % (n, br.size_label(s).replace(" ", "")) for n, s in groups], fontsize=7)
            ax.axhline(ur.OVERLAP_TARGET_PCT, color="black", ls=":", lw=0.8)
            ax.axhline(0, color="black", lw=0.6)
            ax.axhline(100, color="gray", lw=0.6)
            ax.set_ylim(-100, 150)
            ax.set_title("%s, %s compute, t_comp ≈ %g × t_coll" % (coll, kind, f), fontsize=8)
            ax.grid(True, axis="y", alpha=0.3)
            if k == 0:
                ax.set_ylabel("hidden % of t_coll", fontsize=8)
    axes[0][0].legend(fontsize=6, ncol=3)
    fig.suptitle("Non-blocking collectives: (t_coll + t_comp − t_overlap) / t_coll (target ≥ 50%, dotted; clipped to "
                 "−100…150)\n" + subtitle(res), fontsize=10)
    return pc.save(fig, img, "upccoll_overlap.png", 90)


def main():
    res, img = pc.start(__doc__, "upccoll", "run_upccoll.sh", ur.load,
                        "plot_upccoll.py: no UPC Collectives 2.0 results in %s")
    pc.report((plot_vs_mpi(res, img), plot_latency(res, img), plot_overlap(res, img)))


if __name__ == "__main__":
    main()
