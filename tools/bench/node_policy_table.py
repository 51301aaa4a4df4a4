#!/usr/bin/env python3
"""The table of tools/bench/run_node_policy.sh: per collective, node count,
network model and size, the median µs of multicore and binomial_flat and
which one is faster (the ratio binomial_flat / multicore: below 1, the tree
wins).

usage: node_policy_table.py policy.jsonl   (markdown to stdout)
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


if __name__ == "__main__":
    main(sys.argv[1])
