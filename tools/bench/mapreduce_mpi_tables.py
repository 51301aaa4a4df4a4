#!/usr/bin/env python3
"""The tables of tools/bench/run_mapreduce_mpi.sh (UPC-MR against MapReduce
over MPI) from its runs.jsonl: per application, the median time at each
THREADS = ranks count of UPC-MR on each backend and of the MPI peer, and the
ratio peer / UPC-MR (above 1: UPC-MR is faster); then the verification: every
run verified and one answer digest per application.

  tools/bench/mapreduce_mpi_tables.py bench/results/mapreduce-mpi/runs.jsonl > bench/results/mapreduce-mpi/tables.md

Exit status 1 when a run failed or did not verify, or two runs of an
application gave different answers (the tables are printed all the same).
"""
import json
import statistics
import sys
from collections import defaultdict

APPS = ["hist", "linreg", "wordc", "spamc"]
NAMES = {"hist": "Hist", "linreg": "LinReg", "wordc": "WordC", "spamc": "SpamC"}
PEER = "mapreduce-mpi"


def main(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    times = defaultdict(list)  # (app, side, threads) -> seconds
    answers = defaultdict(set)
    sizes = {}
    bad = []
    for r in rows:
        key = (r["app"], r["side"], r["threads"])
        if r.get("status", 0) != 0 or r.get("verified") is not True:
            bad.append(f"{r['app']} {r['side']} at {r['threads']} (round {r.get('round')}): "
                       f"exit {r.get('status')}, verified {r.get('verified')}")
            continue
        times[key].append(r["time_s"])
        answers[r["app"]].add(r.get("answer"))
        sizes[r["app"]] = r["size"]
    order = {"upc-mr threads": 0, "upc-mr processes": 1}  # then any other backend
    sides = sorted({s for (_, s, _) in times if s != PEER}, key=lambda s: (order.get(s, 2), s))
    out = []
    for app in [a for a in APPS if a in sizes]:
        counts = sorted({t for (a, _, t) in times if a == app})
        out.append(f"**{NAMES[app]}**, size {sizes[app]} (median seconds of "
                   f"{max(len(v) for (a, _, _), v in times.items() if a == app)} runs; ratio = MPI peer / UPC-MR)\n")
        head = ["THREADS = ranks"] + [f"UPC-MR {s.split()[-1]}" for s in sides] + ["MPI peer"] + \
               [f"ratio vs {s.split()[-1]}" for s in sides]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---:|" * len(head))
        for t in counts:
            med = {s: statistics.median(times[(app, s, t)]) if times[(app, s, t)] else None for s in sides + [PEER]}
            cells = [str(t)] + [f"{med[s]:.4f}" if med[s] is not None else "–" for s in sides + [PEER]]
            for s in sides:
                cells.append(f"{med[PEER] / med[s]:.2f}" if med[PEER] and med[s] else "–")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    differ = {a: sorted(str(x) for x in v) for a, v in answers.items() if len(v) != 1}
    verified = sum(len(v) for v in times.values())
    out.append(f"Verification: {verified} runs verified their answers" +
               (f", {len(bad)} did not: " + "; ".join(bad) if bad else "") + ".")
    out.append("Answers (digest of the whole answer, the same for every run, side and count): " +
               ", ".join(f"{NAMES[a]} `{next(iter(answers[a]))}`" for a in APPS if a in answers and a not in differ) +
               ("" if not differ else "; DIFFERENT: " + "; ".join(f"{NAMES[a]} {v}" for a, v in differ.items())) + ".")
    print("\n".join(out))
    return 1 if bad or differ else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mapreduce_mpi_tables.py RUNS.jsonl")
    sys.exit(main(sys.argv[1]))
