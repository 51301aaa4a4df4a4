#!/usr/bin/env python3
"""The table of tools/bench/run_node_policy.sh: per collective, node count,
network model and size, the median µs of multicore and binomial_flat and
which one is faster (the ratio binomial_flat / multicore: below 1, the tree
wins).

usage: node_policy_table.py policy.jsonl   (markdown to stdout; the plot
docs/img/node_policy.png when matplotlib is there)
"""
import json
import sys


def size_text(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def main(path):
    rows = [json.loads(l) for l in open(path)]
    data = {(r["collective"], r["nodes"], r["net"], r["nbytes"], r["algorithm"]): r["median_us"] for r in rows}
    colls = list(dict.fromkeys(r["collective"] for r in rows))
    nodes = sorted({r["nodes"] for r in rows})
    sizes = sorted({r["nbytes"] for r in rows})
    for net in ["off", "on"]:
        print(f"### network model {net}\n")
        print("| collective | nodes | " + " | ".join(f"{size_text(n)}: multicore / binomial_flat µs (ratio)" for n in sizes) + " |")
        print("|---|---|" + "---|" * len(sizes))
        for c in colls:
            for k in nodes:
                cells = [f"`{c}`", str(k)]
                for n in sizes:
                    m = data.get((c, k, net, n, "multicore"))
                    b = data.get((c, k, net, n, "binomial_flat"))
                    if m is None or b is None:
                        cells.append("—")
                        continue
                    mark = "**" if b < m else ""
                    cells.append(f"{m:.0f} / {b:.0f} ({mark}{b / m:.2f}{mark})")
                print("| " + " | ".join(cells) + " |")
        print()
    plot(data, colls, nodes, sizes)


def plot(data, colls, nodes, sizes):
    """binomial_flat / multicore against the node count, one panel per model state, largest size."""
    try:
        import plot_common as pc
    except ImportError:  # no matplotlib: the tables alone
        return
    f, axes = pc.plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, net in zip(axes, ["off", "on"]):
        for c in colls:
            for n in [sizes[0], sizes[-1]]:
                xs, ys = [], []
                for k in nodes:
                    m = data.get((c, k, net, n, "multicore"))
                    b = data.get((c, k, net, n, "binomial_flat"))
                    if m and b:
                        xs.append(k)
                        ys.append(b / m)
                if xs:
                    ax.plot(xs, ys, marker="o", label=f"{c} {size_text(n)}")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("emulated nodes (16 threads)")
        ax.set_ylabel("binomial_flat / multicore time")
        ax.set_title(f"network model {net}")
    axes[1].legend(fontsize=7)
    f.suptitle("below 1: the binomial tree over node roots wins (this 2-vCPU VM)")
    pc.save(f, pc.DOCS_IMG, "node_policy.png", 80)


if __name__ == "__main__":
    main(sys.argv[1])
