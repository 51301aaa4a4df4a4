#!/usr/bin/env python3
"""Tables of tools/bench/run_hosts.sh's results (docs/benchmarks.md, "Across hosts").

    hosts_tables.py DIR    # DIR holds barrier/memops/coll/startup .jsonl

Each table puts the three placements side by side: the processes backend, the
mpi backend with all ranks on one namespace host, and with them on two.
"""
import json
import statistics
import sys
from pathlib import Path

import bench_results as br
import markdown_tables as mt

PLACEMENTS = ["processes", "one_host", "two_hosts"]
TITLES = {"processes": "processes", "one_host": "mpi, one host", "two_hosts": "mpi, two hosts"}


def rows(path):
    out = []
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if line.startswith("{"):
            out.append(json.loads(line))
    return out


size = br.size_label


def table(head, lines):
    print(mt.table(head, lines))
    print()


def cell(v, fmt):
    return fmt.format(v) if v is not None else "—"


def main(d):
    d = Path(d)
    b = rows(d / "barrier.jsonl")
    print("**upc_barrier, 4 ranks** (µs, median of the repetitions)\n")
    table(["placement", "µs"], [[TITLES[p], cell(next((r["median_us"] for r in b if r["placement"] == p), None), "{:.1f}")]
                               for p in PLACEMENTS])

    m = rows(d / "memops.jsonl")
    print("**upc_memget / upc_memput to the neighbour, 2 ranks** (GB/s per thread, median; on two hosts the neighbour "
          "is on the other host)\n")
    sizes = sorted({r["bytes"] for r in m if r.get("where") == "remote"})
    lines = []
    for op in ("upc_memget", "upc_memput"):
        for s in sizes:
            vals = []
            for p in PLACEMENTS:
                v = next((r["median_gbps"] for r in m if r["placement"] == p and r.get("op") == op
                          and r.get("where") == "remote" and r["bytes"] == s), None)
                vals.append(cell(v, "{:.3f}"))
            lines.append([op, size(s)] + vals)
    table(["op", "bytes"] + [TITLES[p] for p in PLACEMENTS], lines)

    c = rows(d / "coll.jsonl")
    print("**Collectives, 4 ranks, IN/OUT_ALLSYNC** (µs per call, median)\n")
    lines = []
    for coll in ("broadcast", "exchange", "reduce"):
        for s in sorted({r["nbytes"] for r in c if r["coll"] == coll}):
            vals = []
            for p in PLACEMENTS:
                v = next((r["median_us"] for r in c if r["placement"] == p and r["coll"] == coll and r["nbytes"] == s),
                         None)
                vals.append(cell(v, "{:.1f}"))
            two = next((r["median_us"] for r in c if r["placement"] == "two_hosts" and r["coll"] == coll
                        and r["nbytes"] == s), None)
            one = next((r["median_us"] for r in c if r["placement"] == "one_host" and r["coll"] == coll
                        and r["nbytes"] == s), None)
            lines.append([coll, size(s)] + vals + [cell(two / one if two and one else None, "{:.1f}×")])
    table(["collective", "bytes per thread"] + [TITLES[p] for p in PLACEMENTS] + ["two hosts / one"], lines)

    st = rows(d / "startup.jsonl")
    print("**Start-up of hello, 4 ranks** (seconds, median of 5, through tools/netns_hosts.sh)\n")
    table(["placement", "s"], [[TITLES[p], cell(statistics.median([r["seconds"] for r in st if r["placement"] == p])
                                                if any(r["placement"] == p for r in st) else None, "{:.2f}")]
                               for p in ("one_host", "two_hosts")])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
