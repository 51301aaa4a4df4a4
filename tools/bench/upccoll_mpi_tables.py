#!/usr/bin/env python3
"""Tables of tools/bench/run_upccoll_mpi.sh (markdown).

  upccoll_mpi_tables.py RESULTS.jsonl             every cell: per collective, THREADS and block,
                                                  each placement's median µs and the ratios
  upccoll_mpi_tables.py RESULTS.jsonl --summary   what docs/benchmarks.md quotes: the mpi rows
                                                  against Open MPI on one host, and against the
                                                  task rows across hosts, at four block sizes
  upccoll_mpi_tables.py RESULTS.jsonl --plot PNG  the across-hosts comparison as a figure
                                                  (needs matplotlib: Debian's /usr/bin/python3)
"""
import sys
from collections import defaultdict

import bench_results as br

PLACEMENTS = ["processes", "mpi tasks", "mpi rows", "open mpi"]
COLLS = ["bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "allgatherv", "alltoall", "alltoallv"]
SUMMARY_SIZES = [8, 4096, 262144, 2097152]
WHERE = {1: "one host", 2: "2 pretend hosts", 20: "2 network-namespace hosts"}


def size_text(n):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def us_text(us):
    return f"{us / 1000:.2f} ms" if us >= 1000 else f"{us:.1f}"


def load(path):
    cells = defaultdict(dict)  # (hosts, ranks, coll, nbytes) -> placement -> median µs
    for r in br.load_jsonl(path):
        if "median_us" in r and r.get("verified", True):
            cells[(r["hosts"], r["ranks"], r["coll"], r["nbytes"])][r["placement"]] = r["median_us"]
    return cells


def every_cell(cells):
    groups = sorted({(h, n, c) for (h, n, c, _) in cells})
    for hosts, ranks, coll in groups:
        print(f"\n**{coll}, {ranks} ranks, {WHERE.get(hosts, hosts)}** (median µs per call)\n")
        cols = [p for p in PLACEMENTS if any(p in v for (h, n, c, _), v in cells.items() if (h, n, c) == (hosts, ranks, coll))]
        head = ["block"] + cols + (["mpi rows / open mpi"] if "open mpi" in cols else []) + ["mpi rows / mpi tasks"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for nbytes in sorted(b for (h, n, c, b) in cells if (h, n, c) == (hosts, ranks, coll)):
            v = cells[(hosts, ranks, coll, nbytes)]

            def ratio(a, b):
                return f"{v[a] / v[b]:.2f}" if a in v and b in v and v[b] > 0 else "–"

            row = [size_text(nbytes)] + [f"{v[p]:.2f}" if p in v else "–" for p in cols]
            if "open mpi" in cols:
                row.append(ratio("mpi rows", "open mpi"))
            row.append(ratio("mpi rows", "mpi tasks"))
            print("| " + " | ".join(row) + " |")


def summary_table(title, cell):
    """A table under a bold title: a row per collective, a column per summary size, cell(coll, size) each."""
    print(title)
    print("| collective | " + " | ".join(size_text(s) for s in SUMMARY_SIZES) + " |")
    print("|---|" + "---|" * len(SUMMARY_SIZES))
    for coll in COLLS:
        print("| " + " | ".join([coll] + [cell(coll, s) for s in SUMMARY_SIZES]) + " |")


def summary(cells):
    def one_host(ranks):
        def cell(coll, s):
            v = cells.get((1, ranks, coll, s), {})
            if "mpi rows" not in v:
                return "–"
            ompi = f"{v['mpi rows'] / v['open mpi']:.1f}×" if v.get("open mpi") else "–"
            tasks = f"{v['mpi rows'] / v['mpi tasks']:.1f}×" if v.get("mpi tasks") else "–"
            return f"{us_text(v['mpi rows'])} ({ompi} / {tasks})"
        return cell

    def across(hosts, ranks):
        def cell(coll, s):
            v = cells.get((hosts, ranks, coll, s), {})
            if "mpi rows" in v and "mpi tasks" in v:
                return f"{us_text(v['mpi tasks'])} → {us_text(v['mpi rows'])} ({v['mpi tasks'] / v['mpi rows']:.0f}×)"
            return "–"
        return cell

    for ranks in sorted({n for (h, n, _, _) in cells if h == 1}):
        summary_table(f"\n**One host, {ranks} ranks: the mpi rows, µs per call, and (in brackets) their time over "
                      f"plain Open MPI's / over the task rows'**\n", one_host(ranks))
    for hosts in sorted({h for (h, _, _, _) in cells if h != 1}):
        ranks = max(n for (h, n, _, _) in cells if h == hosts)
        summary_table(f"\n**{WHERE.get(hosts, hosts)}, {ranks} ranks: task rows → mpi rows, µs per call "
                      f"(the task rows' time over the mpi rows')**\n", across(hosts, ranks))


def plot(cells, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hosts_list = sorted({h for (h, _, _, _) in cells if h != 1})
    fig, axes = plt.subplots(1, len(hosts_list), figsize=(6 * len(hosts_list), 4.5), squeeze=False)
    for ax, hosts in zip(axes[0], hosts_list):
        ranks = max(n for (h, n, _, _) in cells if h == hosts)
        for coll, color in zip(["bcast", "gather", "allgather", "alltoall"], ["tab:blue", "tab:orange", "tab:green", "tab:red"]):
            sizes = sorted(b for (h, n, c, b) in cells if (h, n, c) == (hosts, ranks, coll))
            for placement, style in (("mpi tasks", "--"), ("mpi rows", "-")):
                pts = [(s, cells[(hosts, ranks, coll, s)][placement]) for s in sizes if placement in cells[(hosts, ranks, coll, s)]]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color, marker="o", markersize=3,
                            label=f"{coll}, {'task rows' if placement == 'mpi tasks' else 'mpi rows'}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("bytes per block")
        ax.set_ylabel("µs per call (median)")
        ax.set_title(f"upccoll on {WHERE.get(hosts, hosts)}, {ranks} ranks")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print("wrote", png)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cells = load(argv[1])
    if "--summary" in argv:
        summary(cells)
    elif "--plot" in argv:
        plot(cells, argv[argv.index("--plot") + 1])
    else:
        every_cell(cells)


if __name__ == "__main__":
    main(sys.argv)
