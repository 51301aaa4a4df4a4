#!/usr/bin/env python3
"""Draws the microbenchmark plots of docs/benchmarks.md from a results directory.

    tools/bench/plot_micro.py [RESULTS_DIR] [--img docs/img]

RESULTS_DIR defaults to bench/results/microbenchmarks, the set the docs show. Writes
barrier_latency.png, memops_ratio.png, memops_bandwidth.png,
lock_throughput.png and privatised_sum.png. Needs matplotlib (Debian:
python3-matplotlib).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_results as br  # noqa: E402
import plot_common as pc  # noqa: E402
from plot_common import plt  # noqa: E402

BACKEND_STYLE = {
    "threads": dict(color="tab:blue", marker="o"),
    "processes": dict(color="tab:orange", marker="s"),
    "mpi": dict(color="tab:green", marker="^"),
}
BACKEND_LABEL = {"threads": "upcemu threads", "processes": "upcemu processes", "mpi": "Open MPI MPI_Barrier"}


def subtitle(results_dir):
    m = br.load_machine(results_dir)
    return "%s, %s CPUs, %s" % (m.get("cpu_model", "?"), m.get("nproc", "?"), br.results_date(results_dir))


def threads_figure(results_dir, img, bench, draw, xlabel, ylabel, title, legend_size):
    """The one-panel figure of BENCH.jsonl's rows against THREADS (log2, labelled
    where draw(ax, rows) says; log y) as img/BENCH.png; None without rows."""
    rows = br.load_rows(results_dir, bench)
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7.5, 5))
    counts = draw(ax, rows)
    ax.set_xscale("log", base=2)
    ax.set_xticks(counts)
    ax.set_xticklabels([str(c) for c in counts])
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title + "\n" + subtitle(results_dir), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=legend_size)
    return pc.save(fig, img, bench + ".png", 110)


def draw_barrier(ax, rows):
    """Each backend's median with its min–max, the issue's references; the THREADS ticks."""
    for backend in ("threads", "processes", "mpi"):
        pts = sorted((r["threads"], r["median_us"], r["min_us"], r["max_us"]) for r in rows if r["backend"] == backend)
        if not pts:
            continue
        x = [p[0] for p in pts]
        y = [p[1] for p in pts]
        lo = [p[1] - p[2] for p in pts]
        hi = [p[3] - p[1] for p in pts]
        ax.errorbar(x, y, yerr=[lo, hi], capsize=3, label=BACKEND_LABEL[backend], **BACKEND_STYLE[backend])
    ref = sorted(br.SPIN_YIELD_REFERENCE_US.items())
    ax.plot([k for k, _ in ref], [v for _, v in ref], "k--", marker="x", label="issue reference: spin-then-yield (target)")
    ref = sorted(br.OPEN_MPI_REFERENCE_US.items())
    ax.plot([k for k, _ in ref], [v for _, v in ref], ":", color="gray", marker="+", label="issue reference: Open MPI 4.1")
    return sorted({r["threads"] for r in rows} | set(br.SPIN_YIELD_REFERENCE_US))


def plot_barrier(results_dir, img):
    return threads_figure(results_dir, img, "barrier_latency", draw_barrier, "THREADS (ranks for MPI)",
                          "µs per barrier (median; bars: min–max)", "Barrier latency", 8)


def memops_series(rows, backend):
    series = {}
    for r in rows:
        if r["backend"] != backend:
            continue
        series.setdefault((r["op"], r["where"]), []).append(r)
    for v in series.values():
        v.sort(key=lambda r: r["bytes"])
    return series


OP_COLOR = {"upc_memcpy": "tab:blue", "upc_memget": "tab:green", "upc_memput": "tab:red", "memcpy": "black"}


def plot_memops(results_dir, img):
    rows = br.load_rows(results_dir, "memops_bandwidth")
    if not rows:
        return []
    backends = [b for b in ("threads", "processes") if any(r["backend"] == b for r in rows)]
    paths = []
    for what in ("ratio", "bandwidth"):
        fig, axes = plt.subplots(1, len(backends), figsize=(6.5 * len(backends), 4.8), squeeze=False, sharey=True)
        for ax, backend in zip(axes[0], backends):
            threads = next(r["threads"] for r in rows if r["backend"] == backend)
            for (op, where), pts in sorted(memops_series(rows, backend).items()):
                if what == "ratio" and op == "memcpy":
                    continue
                x = [p["bytes"] for p in pts]
                y = [p["ratio_vs_memcpy"] if what == "ratio" else p["median_gbps"] for p in pts]
                style = "-" if where in ("local", "private") else "--"
                ax.plot(x, y, style, color=OP_COLOR[op], marker=".", label="%s %s" % (op, where))
            ax.set_xscale("log", base=2)
            ticks = [8, 1 << 10, 1 << 15, 1 << 20, 1 << 26]
            ax.set_xticks(ticks)
            ax.set_xticklabels([br.size_label(t) for t in ticks])
            ax.set_xlabel("transfer size")
            if what == "ratio":
                ax.axhline(br.MEMCPY_TARGET_RATIO, color="gray", ls=":", label="target 0.9 (at ≥ 1 MiB)")
                ax.axvspan(br.MEMCPY_TARGET_MIN_BYTES, 1 << 26, color="gray", alpha=0.08)
                ax.set_ylabel("median bandwidth / std::memcpy (same run)")
            else:
                ax.set_yscale("log")
                ax.set_ylabel("GB/s per thread (median)")
            ax.set_title("%s backend, THREADS=%d" % (backend, threads), fontsize=10)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        fig.suptitle(("upc_memcpy/memget/memput as a ratio of memcpy" if what == "ratio" else
                      "upc_memcpy/memget/memput bandwidth") + "\n" + subtitle(results_dir), fontsize=10)
        paths.append(pc.save(fig, img, "memops_%s.png" % what, 110))
    return paths


def draw_locks(ax, rows):
    """Pairs per second of each backend and lock mode; the THREADS ticks."""
    mode_style = {"contended": "-", "uncontended": "--", "pthread_contended": ":"}
    for backend in ("threads", "processes"):
        for mode, ls in mode_style.items():
            pts = sorted((r["threads"], r["median_pairs_per_s"]) for r in rows if r["backend"] == backend and r["mode"] == mode)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], ls, color=BACKEND_STYLE[backend]["color"],
                        marker=BACKEND_STYLE[backend]["marker"], label="%s %s" % (backend, mode.replace("_", " ")))
    return sorted({r["threads"] for r in rows})


def plot_locks(results_dir, img):
    return threads_figure(results_dir, img, "lock_throughput", draw_locks, "THREADS",
                          "million lock/unlock pairs per second (all threads)", "Lock throughput", 7)


def plot_privatised(results_dir, img):
    rows = br.load_rows(results_dir, "privatised_sum")
    if not rows:
        return None
    groups = sorted({(r["backend"], r["threads"]) for r in rows}, key=lambda g: (g[0] != "threads", g[1]))
    table = br.by_key(rows, "backend", "threads", "method")
    fig, ax = plt.subplots(figsize=(8, 4.8))
    width = 0.38
    for i, (method, color) in enumerate((("shared", "tab:red"), ("privatised", "tab:blue"))):
        xs = [g + (i - 0.5) * width for g in range(len(groups))]
        ys = [table.get((b, t, method), {}).get("ratio_vs_plain", float("nan")) for b, t in groups]
        bars = ax.bar(xs, ys, width, color=color, label="%s / plain loop" % method)
        for bar, y in zip(bars, ys):
            ax.annotate("%.2f" % y, (bar.get_x() + bar.get_width() / 2, y), ha="center", va="bottom", fontsize=7)
    ax.axhline(1.0, color="black", lw=0.8)
    ax.axhline(br.PRIVATISED_TARGET_RATIO, color="gray", ls=":", label="target: privatised ≤ 1.05")
    ax.set_yscale("log")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["%s\nTHREADS=%d" % g for g in groups], fontsize=8)
    ax.set_ylabel("time / plain std::vector loop (median)")
    ax.set_title("Sum of a 1 M-element shared array\n" + subtitle(results_dir), fontsize=10)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    top = max([r.get("ratio_vs_plain", 1) for r in rows] + [1.1])
    ax.set_ylim(0.5, top * 4)
    ax.legend(fontsize=8, loc="upper center", ncol=3)
    return pc.save(fig, img, "privatised_sum.png", 110)


def main():
    results_dir, img = pc.start(__doc__, "microbenchmarks", "run_micro.sh")
    pc.report([plot_barrier(results_dir, img)] + plot_memops(results_dir, img) +
              [plot_locks(results_dir, img), plot_privatised(results_dir, img)])


if __name__ == "__main__":
    main()
