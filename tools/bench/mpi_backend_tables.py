#!/usr/bin/env python3
"""Tables (markdown, on stdout) and a plot from tools/bench/run_mpi_backend.sh's
jsonl rows (docs/benchmarks.md, "The mpi backend").

  mpi_backend_tables.py DIR [--plot PNG]

Table 0: the microbenchmarks (barrier latency with MPI_Barrier beside it, lock
throughput, upc_mem* bandwidth) on the three backends.
Table 1: the mpi backend (the engine's own algorithms, ALLSYNC) against the
processes and threads backends: median µs per call and the ratio mpi /
processes (the target: at most 2 for collectives of 64 KiB and more).
Table 2: the mpi family (the call handed to MPI, NOSYNC) against plain Open
MPI's collective: median µs and the ratio family / MPI (the target: within
1.10). Every row read must be verified; an unverified one is an error.
"""
import argparse
import glob
import json
import os
import sys

COLLS = ["broadcast", "scatter", "gather", "gather_all", "exchange", "reduce"]


def rows(path):
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        r = json.loads(line)
        if not r.get("verified", True) or r.get("wrong", 0):
            sys.exit(f"{path}: an unverified row: {line.strip()}")
        out[(r.get("flags", "mpi"), r["nbytes"])] = r["median_us"]
    return out


def size_text(b):
    if b >= 1 << 20:
        return f"{b >> 20} MiB"
    return f"{b >> 10} KiB" if b >= 1 << 10 else f"{b} B"


def micro_rows(path):
    out = []
    if not os.path.exists(path):
        return out
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            r = json.loads(line)
            if r.get("wrong", 0) or r.get("verified", True) is False:
                sys.exit(f"{path}: an unverified row: {line.strip()}")
            out.append(r)
    return out


def backend_of(r):
    # "mpi" in the peers' rows is plain Open MPI; upcemu's backend is "mpi_backend"
    return {"mpi": "Open MPI", "mpi_backend": "mpi"}.get(r.get("backend"), r.get("backend"))


def print_table(title, header, rows):
    """A bold title, a table (header: column names; rows: lists of cell texts) and a blank line."""
    print(title + "\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def cells(values, columns, fmt):
    """The cells of one row: values[c] formatted for each column c, '—' where it is missing."""
    return [fmt % values[c] if c in values else "—" for c in columns]


def print_micro(d):
    bar = micro_rows(os.path.join(d, "micro_barrier_latency.jsonl"))
    if bar:
        columns = ("threads", "processes", "mpi", "Open MPI")
        print_table("**Table 0a. Barrier latency** (median µs per barrier; Open MPI: `MPI_Barrier`, "
                    "bench/peers/mpi/barrier_mpi)", ("THREADS",) + columns,
                    [[str(n)] + cells({backend_of(r): r["median_us"] for r in bar if r["threads"] == n}, columns, "%.2f")
                     for n in sorted({r["threads"] for r in bar})])
    lock = micro_rows(os.path.join(d, "micro_lock_throughput.jsonl"))
    columns = ("threads", "processes", "mpi")
    if lock:
        print_table("**Table 0b. Lock throughput** (ns per lock/unlock pair; contended: every thread on one upc_lock_t)",
                    ("THREADS", "mode") + columns,
                    [[str(n), mode] + cells({backend_of(r): r["ns_per_pair"] for r in lock
                                             if r["threads"] == n and r["mode"] == mode}, columns, "%.1f")
                     for n in sorted({r["threads"] for r in lock}) for mode in ("uncontended", "contended")])
    mem = micro_rows(os.path.join(d, "micro_memops_bandwidth.jsonl"))
    if mem:
        print_table("**Table 0c. upc_mem* bandwidth at THREADS 2** (median GB/s per thread; remote = the neighbour's "
                    "partition)", ("call", "where", "bytes") + columns,
                    [[op, where, size_text(b)] + cells({backend_of(r): r["median_gbps"] for r in mem
                                                        if (r["op"], r["where"], r["bytes"]) == (op, where, b)},
                                                       columns, "%.1f")
                     for op, where, b in sorted({(r["op"], r["where"], r["bytes"]) for r in mem if r["bytes"] >= 4096})])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--plot")
    a = ap.parse_args()
    files = glob.glob(os.path.join(a.dir, "*_T*_*.jsonl"))
    counts = sorted({int(os.path.basename(f).split("_T")[1].split("_")[0]) for f in files})
    data = {}
    for coll in COLLS:
        for n in counts:
            for cfg in ["threads", "processes", "mpi", "mpi_family", "openmpi"]:
                data[(coll, n, cfg)] = rows(os.path.join(a.dir, f"{coll}_T{n}_{cfg}.jsonl"))
    sizes = sorted({s for d in data.values() for (_, s) in d})
    print_micro(a.dir)

    print("**Table 1. The mpi backend against the processes and threads backends** (the engine's own")
    print("algorithms, `UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC`; median µs per call; ratio = mpi / processes)\n")
    print("| collective | THREADS | " + " | ".join(size_text(s) for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    worst = {}
    for coll in COLLS:
        for n in counts:
            cells = []
            for s in sizes:
                t, p, m = (data[(coll, n, c)].get(("allsync", s)) for c in ("threads", "processes", "mpi"))
                if None in (t, p, m):
                    cells.append("—")
                    continue
                ratio = m / p
                if s >= 64 << 10:
                    worst[(coll, n)] = max(worst.get((coll, n), 0), ratio)
                cells.append(f"{t:.1f} / {p:.1f} / {m:.1f} (**{ratio:.2f}**)")
            print(f"| {coll} | {n} | " + " | ".join(cells) + " |")
    print("\nCells: threads / processes / mpi µs (ratio). Largest ratio at 64 KiB and above: " +
          (f"{max(worst.values()):.2f}" if worst else "—") + ".\n")

    print("**Table 2. The mpi family against calling Open MPI directly** (`--algo=mpi`,")
    print("`UPC_IN_NOSYNC | UPC_OUT_NOSYNC`; median µs per call; ratio = family / MPI)\n")
    print("| collective | THREADS | " + " | ".join(size_text(s) for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    ratios = []
    for coll in COLLS[:-1]:
        for n in counts:
            cells = []
            for s in sizes:
                f = data[(coll, n, "mpi_family")].get(("nosync", s))
                m = data[(coll, n, "openmpi")].get(("mpi", s))
                if f is None or m is None:
                    cells.append("—")
                    continue
                ratios.append((f / m, coll, n, s))
                cells.append(f"{f:.1f} / {m:.1f} (**{f / m:.2f}**)")
            print(f"| {coll} | {n} | " + " | ".join(cells) + " |")
    if ratios:
        ratios.sort()
        within = sum(1 for r in ratios if r[0] <= 1.10)
        print(f"\nCells: family / Open MPI µs (ratio). Within 10%: {within} of {len(ratios)} cells; "
              f"median ratio {ratios[len(ratios) // 2][0]:.2f}; largest {ratios[-1][0]:.2f} "
              f"({ratios[-1][1]}, THREADS {ratios[-1][2]}, {size_text(ratios[-1][3])}).")

    if a.plot:
        plot(data, counts, sizes, a.plot)


def ratio_points(data, coll, n, sizes, top, bottom):
    """(sizes, top's time / bottom's) where both were measured; top and bottom:
    (configuration, flags) of one collective at n THREADS."""
    xs, ys = [], []
    for s in sizes:
        t, b = (data[(coll, n, cfg)].get((flags, s)) for cfg, flags in (top, bottom))
        if t and b:
            xs.append(s), ys.append(t / b)
    return xs, ys


def plot(data, counts, sizes, png):
    """The two ratios against the block size at the largest THREADS count, as png."""
    import plot_common as pc
    fig, axes = pc.plt.subplots(1, 2, figsize=(11, 4))
    for coll in COLLS:
        for n in counts[-1:]:
            axes[0].plot(*ratio_points(data, coll, n, sizes, ("mpi", "allsync"), ("processes", "allsync")), marker="o",
                         label=f"{coll}")
            if coll != "reduce":
                axes[1].plot(*ratio_points(data, coll, n, sizes, ("mpi_family", "nosync"), ("openmpi", "mpi")),
                             marker="o", label=f"{coll}")
    axes[0].axhline(2.0, color="grey", linestyle="--", linewidth=1)
    axes[0].set_title(f"mpi backend / processes backend (THREADS {counts[-1]}, ALLSYNC)")
    axes[1].axhline(1.1, color="grey", linestyle="--", linewidth=1)
    axes[1].axhline(1.0, color="grey", linestyle=":", linewidth=1)
    axes[1].set_title(f"mpi family / plain Open MPI (THREADS {counts[-1]}, NOSYNC)")
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bytes per block")
        ax.set_ylabel("time ratio (lower is faster)")
        ax.legend(fontsize=7)
    pc.save(fig, os.path.dirname(png), os.path.basename(png), 110)


if __name__ == "__main__":
    main()
