#!/usr/bin/env python3
"""Tables and plots of tools/bench/run_remap.sh (seed 004): per class and
THREADS, µs per FT transpose for the remap operator (all optimizations, and
NM, NR, ND, NB, NO), upc_memget by hand and Open MPI, the ratios the issue
sets targets on, the inspector's time, and the schedule's bytes per thread
(processor map, indices, data buckets: Figure 5).

usage: remap_tables.py remap.jsonl   (markdown to stdout; docs/img/remap_*.png with matplotlib)
"""
import json
import sys

VARIANTS = ["remap", "NM", "NR", "ND", "NB", "NO", "memget", "mpi"]


def kib(b):
    return f"{b / 1024:.1f}" if b < 1 << 20 else f"{b / (1 << 20):.1f} Mi"


def time_cells(data, point, variants, digits, remap, memget, mpi):
    """A time table's cells at point (class, THREADS): the point, µs of each
    variant, remap / memget and remap / MPI (remap, memget, mpi: their variants)."""
    cells = [point[0], str(point[1])]
    for v in variants:
        r = data.get(point + (v,))
        cells.append(f"{r['median_us']:.{digits}f}" if r else "—")
    r, m, p = (data.get(point + (v,)) for v in (remap, memget, mpi))
    cells.append(f"{r['median_us'] / m['median_us']:.2f}" if r and m else "—")
    cells.append(f"{r['median_us'] / p['median_us']:.2f}" if r and p else "—")
    return cells


def main(path):
    rows = [json.loads(l) for l in open(path)]
    data = {(r["class"], r["threads"], r["variant"]): r for r in rows}
    have = {(r["class"], r["threads"], r["variant"].startswith("cg-")) for r in rows}  # rows measured
    classes = [c for c in ["S", "W", "A", "B"] if any(r["class"] == c for r in rows)]
    counts = sorted({r["threads"] for r in rows})

    def points(cg):
        """(class, THREADS) where the FT (cg False) or the CG kernel was measured."""
        return [(c, t) for c in classes for t in counts if (c, t, cg) in have]

    print("### Time per transpose (µs, median; Figure 7)\n")
    print("| class | THREADS | " + " | ".join(VARIANTS) + " | remap / memget | remap / MPI | inspector (µs) |")
    print("|---|---|" + "---|" * (len(VARIANTS) + 3))
    for point in points(False):
        r = data.get(point + ("remap",))
        cells = time_cells(data, point, VARIANTS, 0, "remap", "memget", "mpi")
        cells.append(f"{r['inspector_us']:.0f}" if r else "—")
        print("| " + " | ".join(cells) + " |")
    cg = ["cg-remap", "cg-standard", "cg-memget", "cg-mpi"]
    if any(r["variant"].startswith("cg-") for r in rows):
        print("\n### The CG replicated-vector transpose (µs, median)\n")
        print("| class | THREADS | remap (src_ind) | remap (standard) | upc_memget | Open MPI | remap / memget | remap / MPI |")
        print("|---|---|---|---|---|---|---|---|")
        for point in points(True):
            print("| " + " | ".join(time_cells(data, point, cg, 1, "cg-remap", "cg-memget", "cg-mpi")) + " |")
    print("\n### Schedule memory per thread (KiB: processor map / indices / data buckets; Figure 5)\n")
    print("| class | THREADS | " + " | ".join(VARIANTS[:6]) + " | runs (remap) |")
    print("|---|---|" + "---|" * 7)
    for c, t in points(False):
        cells = [c, str(t)]
        for v in VARIANTS[:6]:
            r = data.get((c, t, v))
            cells.append(f"{kib(r['map_bytes'])} / {kib(r['index_bytes'])} / {kib(r['bucket_bytes'])}" if r else "—")
        r = data.get((c, t, "remap"))
        cells.append(f"{r['runs']:.0f}" if r else "—")
        print("| " + " | ".join(cells) + " |")
    try:
        import plot_common as pc
    except ImportError:  # no matplotlib: the tables alone
        return
    f, axes = pc.plt.subplots(1, len(classes), figsize=(5 * len(classes), 4), squeeze=False)
    for ax, c in zip(axes[0], classes):
        for v in ["remap", "NB", "NR", "memget", "mpi"]:
            xs = [t for t in counts if (c, t, v) in data]
            ax.plot(xs, [data[(c, t, v)]["median_us"] / 1000 for t in xs], marker="o", label=v)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("THREADS")
        ax.set_ylabel("ms per transpose")
        ax.set_title(f"NAS FT class {c}")
        ax.legend(fontsize=7)
    f.suptitle("seed 004's FT transpose: remap, upc_memget by hand, Open MPI (this 2-vCPU VM)")
    pc.save(f, pc.DOCS_IMG, "remap_ft.png", 80)


if __name__ == "__main__":
    main(sys.argv[1])
