#!/usr/bin/env python3
"""Tables and plots of tools/bench/run_topology.sh (seed 001, Figures 10-12)
and, with --set=trees, of run_topology.sh --set=trees (seed 003, Figures
3.8-3.10): per collective and size, µs per call and GB/s for each algorithm
on one node and on the emulated nodes with the network model, and the bytes
one call sends between nodes (from the traffic reports).

usage: topology_tables.py OUT_DIR [--set=seed001|trees]   (markdown to stdout, plots to docs/img/)
"""
import json
import os
import sys

SETS = {
    "seed001": (["pull", "push", "multicore", "auto"],
                [("gather", "upc_all_gather", "Figure 10"), ("gather_all", "upc_all_gather_all", "Figure 11"),
                 ("bcast_in_place", "upc_all_broadcast_in_place", "Figure 12")], "seed 001", "topology"),
    "trees": (["pull", "multicore", "binomial", "binomial_flat", "auto"],
              [("scatter_priv", "upc_all_scatter_v_priv", "Figures 3.8-3.10"),
               ("bcast_priv", "upc_all_broadcast_in_place_priv", "Figure 3.12, priv")], "seed 003", "ext_trees"),
}
ALGOS, COLLS, SEED, PLOT_PREFIX = SETS["seed001"]


def size_text(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def inter_bytes(out, coll, fn, algo, n):
    path = os.path.join(out, f"traffic-{coll}-{algo}-{n}.jsonl")
    if not os.path.exists(path):
        return None
    for line in open(path):
        r = json.loads(line)
        if r["function"] == fn and r["calls"]:
            return (r["bytes_inter"] / r["calls"], r["copies_inter"] / r["calls"], r["algorithm"])
    return None


def main(out):
    rows = [json.loads(l) for l in open(os.path.join(out, "topology.jsonl"))]
    data = {}
    for r in rows:
        data[(r["topology"], r["collective"], r["algorithm"], r["nbytes"])] = r
    sizes = sorted({r["nbytes"] for r in rows})
    has_mpi = any(r["algorithm"] == "mpi" for r in rows)
    for coll, fn, fig in COLLS:
        print(f"### `{fn}` ({fig})\n")
        one = ALGOS + (["mpi"] if has_mpi else [])
        print("| size | " + " | ".join(f"{'Open MPI' if a == 'mpi' else a}, 1 node (µs)" for a in one) + " | " +
              " | ".join(f"{a}, nodes (µs)" for a in ALGOS) + " | " +
              " | ".join(f"{a}: between nodes per call" for a in ALGOS) + " |")
        print("|---|" + "---|" * (3 * len(ALGOS) + len(one) - len(ALGOS)))
        for n in sizes:
            cells = [size_text(n)]
            for topo in ["one", "nodes"]:
                for a in (one if topo == "one" else ALGOS):
                    r = data.get((topo, coll, a, n))
                    cells.append(f"{r['median_us']:.1f}" if r else "—")
            for a in ALGOS:
                t = inter_bytes(out, coll, fn, a, n)
                cells.append(f"{size_text(int(t[0])) if t[0] >= 1024 else str(int(t[0])) + ' B'} in {t[1]:.0f}"
                             + (f" ({t[2]})" if a == "auto" else "") if t else "—")
            print("| " + " | ".join(cells) + " |")
        print()
    try:
        import plot_common as pc
    except ImportError:  # no matplotlib: the tables alone
        return
    for coll, fn, fig in COLLS:
        f, axes = pc.plt.subplots(1, 2, figsize=(10, 4), sharey=False)
        for ax, topo, title in [(axes[0], "one", "16 threads, 1 node"), (axes[1], "nodes", "4 nodes x 4 threads, --net 3,2")]:
            for a in ALGOS + (["mpi"] if topo == "one" else []):
                xs = [n for n in sizes if (topo, coll, a, n) in data]
                ys = [data[(topo, coll, a, n)]["gbps"] for n in xs]
                if xs:
                    ax.plot(xs, ys, marker="o", label="Open MPI" if a == "mpi" else a)
            ax.set_xscale("log", base=2)
            ax.set_xlabel("bytes per block")
            ax.set_ylabel("GB/s (collbench/extbench)")
            ax.set_title(title)
            ax.legend()
        f.suptitle(f"{fn} ({fig} of {SEED}), this 2-vCPU VM")
        pc.save(f, pc.DOCS_IMG, f"{PLOT_PREFIX}_{coll}.png", 80)


if __name__ == "__main__":
    chosen = "seed001"
    for arg in sys.argv[2:]:
        if not arg.startswith("--set=") or arg[len("--set="):] not in SETS:
            sys.exit(f"topology_tables.py: unknown argument '{arg}' (--set=seed001|trees)")
        chosen = arg[len("--set="):]
    ALGOS, COLLS, SEED, PLOT_PREFIX = SETS[chosen]
    main(sys.argv[1])
