#!/usr/bin/env python3
"""Tables (markdown) and plots of a tools/bench/run_ext.sh run (ext.jsonl):
per benchmark, backend and THREADS, the median µs per call of every form
(original, base, extended, priv, Open MPI) at each size, and the ratios the
targets of issue 10 name: original / extended and base / extended (> 1: the
extended collective is faster), MPI / extended (> 1: faster than Open MPI),
priv / extended (the cost of private buffers).

usage: ext_tables.py EXT.jsonl [--plot IMG_DIR]
"""
import collections
import json
import sys

FORMS = ["original", "base", "extended", "priv", "mpi"]
NAMES = {"bcast": "upc_all_broadcast_in_place (Figure 3.12)", "scatter_v": "upc_all_scatter_v (Figure 3.13)",
         "exchange": "upc_all_exchange_in_place (Figure 3.14)"}


def load(path, field="median_us"):
    rows = collections.defaultdict(dict)  # (coll, backend, threads) -> {(form, nbytes): field}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        r = json.loads(line)
        key = (r["coll"], r["backend"], r["threads"])
        rows[key][(r["variant"], r["nbytes"])] = r[field]
    return rows


def size(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def tables(rows):
    out = []
    for coll in ["bcast", "scatter_v", "exchange"]:
        for backend in ["threads", "processes"]:
            for T in sorted({k[2] for k in rows if k[0] == coll}):
                ours = rows.get((coll, backend, T))
                if not ours:
                    continue
                mpi = rows.get((coll, "mpi", T), {})
                out.append(f"**{NAMES[coll]}, {backend}, THREADS={T}** (µs per call; ratios > 1: extended faster)\n")
                out.append("| size | original | base | extended | priv | Open MPI | orig/ext | base/ext | MPI/ext | priv/ext |")
                out.append("|---|---|---|---|---|---|---|---|---|---|")
                for n in sorted({k[1] for k in ours}):
                    v = {f: (mpi if f == "mpi" else ours).get((f, n)) for f in FORMS}
                    e = v["extended"]
                    def ratio(f):
                        return f"{v[f] / e:.2f}" if v[f] and e else "–"
                    cells = [f"{v[f]:.1f}" if v[f] else "–" for f in FORMS]
                    out.append(f"| {size(n)} | " + " | ".join(cells) + f" | {ratio('original')} | {ratio('base')} | "
                               f"{ratio('mpi')} | {ratio('priv')} |")
                out.append("")
    return "\n".join(out)


def plot(rows, img):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for coll in ["bcast", "scatter_v", "exchange"]:
        Ts = sorted({k[2] for k in rows if k[0] == coll and k[1] == "threads"})
        if not Ts:
            continue
        fig, axes = plt.subplots(1, len(Ts), figsize=(4 * len(Ts), 3.6), squeeze=False)
        for ax, T in zip(axes[0], Ts):
            ours, mpi = rows.get((coll, "threads", T), {}), rows.get((coll, "mpi", T), {})
            for f in FORMS:
                src = mpi if f == "mpi" else ours
                pts = sorted((n, us) for (g, n), us in src.items() if g == f)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                            label="Open MPI" if f == "mpi" else f)
            ax.set_xscale("log", base=2)
            ax.set_title(f"THREADS={T}")
            ax.set_xlabel("nbytes")
            ax.set_ylabel("GB/s (bytes moved / time)")
            ax.grid(alpha=0.3)
        axes[0][0].legend(fontsize=7)
        fig.suptitle(NAMES[coll] + ", threads backend")
        fig.tight_layout()
        path = f"{img}/ext_{coll}.png"
        fig.savefig(path, dpi=90)
        print(path)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    rows = load(argv[1])
    if "--plot" in argv:
        plot(load(argv[1], "gbps"), argv[argv.index("--plot") + 1])
    else:
        print(tables(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
