#!/usr/bin/env python3
"""Tables of tools/bench/run_upccoll_mpi.sh: per collective, THREADS and block
size, the median µs per call of each placement, and the ratios of the mpi rows
to plain Open MPI and to the task rows on the mpi backend (markdown)."""
import json
import sys
from collections import defaultdict

PLACEMENTS = ["processes", "mpi tasks", "mpi rows", "open mpi"]


def size_text(n):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def main(path):
    cells = defaultdict(dict)  # (hosts, ranks, coll, nbytes) -> placement -> median µs
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            if "median_us" not in r or not r.get("verified", True):
                continue
            key = (r["hosts"], r["ranks"], r["coll"], r["nbytes"])
            cells[key][r["placement"]] = r["median_us"]
    groups = sorted({(h, n, c) for (h, n, c, _) in cells})
    for hosts, ranks, coll in groups:
        where = {1: "one host", 20: "2 network-namespace hosts"}.get(hosts, f"{hosts} pretend hosts")
        print(f"\n**{coll}, {ranks} ranks, {where}** (median µs per call)\n")
        cols = [p for p in PLACEMENTS if any(p in v for (h, n, c, _), v in cells.items() if (h, n, c) == (hosts, ranks, coll))]
        head = ["block"] + cols
        if "open mpi" in cols:
            head.append("mpi rows / open mpi")
        head.append("mpi rows / mpi tasks")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for nbytes in sorted(b for (h, n, c, b) in cells if (h, n, c) == (hosts, ranks, coll)):
            v = cells[(hosts, ranks, coll, nbytes)]
            row = [size_text(nbytes)] + [f"{v[p]:.2f}" if p in v else "–" for p in cols]
            def ratio(a, b):
                return f"{v[a] / v[b]:.2f}" if a in v and b in v and v[b] > 0 else "–"
            if "open mpi" in cols:
                row.append(ratio("mpi rows", "open mpi"))
            row.append(ratio("mpi rows", "mpi tasks"))
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: upccoll_mpi_tables.py RESULTS.jsonl")
    main(sys.argv[1])
