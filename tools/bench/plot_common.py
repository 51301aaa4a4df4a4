"""What the plot scripts (plot_micro.py, plot_coll.py, plot_upccoll.py) share:
their command line, the look of a collective run's panels, and how a figure is
written (also for the figures of remap_tables.py, node_policy_table.py and
topology_tables.py). Needs matplotlib (Debian: python3-matplotlib); bench_results.py does
not, so update_tables.py runs without it.
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import bench_results as br  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DOCS_IMG = os.path.join(ROOT, "docs", "img")  # where the docs' figures are
THREAD_COLOR = {2: "tab:blue", 4: "tab:orange", 8: "tab:green", 16: "tab:red", 32: "tab:purple", 64: "tab:brown"}


def parse_args(doc, results_help):
    """[RESULTS_DIR] [--img DIR] (default docs/img), with doc as the help text."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results_dir", nargs="?", help=results_help)
    ap.add_argument("--img", default=DOCS_IMG, help="output directory for the PNGs")
    return ap.parse_args()


def start(doc, name, script, load=None, missing=None):
    """A plot script's start: its command line (parse_args, RESULTS_DIR defaulting
    to bench/results/NAME, the set tools/bench/SCRIPT writes), and the image folder
    made. Returns (load(RESULTS_DIR), or the folder without load; the image
    folder); where load finds nothing the script stops with missing % RESULTS_DIR."""
    args = parse_args(doc, "default: bench/results/" + name)
    d = args.results_dir or br.results_set(ROOT, name, script)
    res = load(d) if load else d
    if res is None:
        raise SystemExit(missing % args.results_dir)
    os.makedirs(args.img, exist_ok=True)
    return res, args.img


def report(paths):
    """Names the figures written (None: a figure with nothing to show, skipped)."""
    for p in paths:
        if p:
            print("wrote", os.path.relpath(p))


def save(fig, img, name, dpi):
    """Writes fig as img/name and closes it; returns the path."""
    path = os.path.join(img, name)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def subtitle(res):
    """The machine and date of a collective run (coll_results / upccoll_results)."""
    m = res.machine
    quick = " (--quick smoke run)" if m.get("quick") == "1" else ""
    return "%s, %s CPUs, %s%s" % (m.get("cpu_model", "?"), m.get("nproc", "?"), m.get("date", "?")[:10], quick)


def size_axis(ax, sizes):
    """A log2 axis of block sizes, a few of them labelled."""
    ax.set_xscale("log", base=2)
    if not sizes:
        return
    ticks = [s for s in sizes if s in (8, 64, 1 << 10, 1 << 13, 1 << 16, 1 << 20, 1 << 23)] or sizes[::4]
    ax.set_xticks(ticks)
    ax.set_xticklabels([br.size_label(t).replace(" ", "") for t in ticks], fontsize=7)


def thread_backend_lines(ax, res, coll, value):
    """A line per THREADS (colour) and backend (threads solid, processes dashed) of
    value(backend, threads, nbytes) against the block size, where it is set."""
    for n in res.thread_counts():
        for backend, ls in (("threads", "-"), ("processes", "--")):
            pts = [(s, value(backend, n, s)) for s in res.sizes(coll)]
            pts = [p for p in pts if p[1]]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, color=THREAD_COLOR.get(n, "black"),
                        label="%s, THREADS=%d" % (backend, n))


def vs_mpi_panel(ax, res, coll, targets):
    """One collective's throughput as a multiple of Open MPI's against the block
    size, with the targets (coll_results or upccoll_results: the ratio, 1 KiB
    dotted, the large sizes shaded); log scales."""
    thread_backend_lines(ax, res, coll, lambda backend, n, s: res.vs_mpi(coll, backend, n, s))
    ax.axhline(targets.MPI_TARGET_RATIO, color="black", lw=0.8)
    ax.axvspan(targets.MPI_TARGET_LARGE_MIN, max(res.sizes(coll) or [targets.MPI_TARGET_LARGE_MIN]) * 1.5, color="gray",
               alpha=0.08)
    ax.axvline(targets.MPI_TARGET_SMALL, color="gray", ls=":", lw=0.8)
    size_axis(ax, res.sizes(coll))
    ax.set_yscale("log")


def grid(n, cols=4, w=3.6, h=3.0, **kw):
    """A figure of n panels, cols to a row, w × h inches each; the spare panels off."""
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(w * cols, h * rows), squeeze=False, **kw)
    for j in range(n, rows * cols):
        axes[j // cols][j % cols].axis("off")
    return fig, axes, cols
