#!/usr/bin/env python3
"""Two full benchmark sweeps of the same kind (tools/bench/run_coll.sh or
run_upccoll.sh results directories), before and after a change: per collective,
backend and THREADS, the ratio after/before of the median µs per call, summed
up over the sizes as the median ratio and the range, with the share of sizes
where after is slower by more than 10 %.

usage: before_after.py BEFORE_DIR AFTER_DIR [--algo auto] [--markdown]

Rows are matched on (bench, backend, threads, coll, algo, flags, type, nbytes,
count/nelems); the Open MPI rows and rows present in one sweep only are left
out. Both sweeps should come from the same machine, run back to back: the
ratio then measures the change, within the machine's run-to-run spread (about
±10 % on a shared 2-core VM; more for the oversubscribed small sizes).
"""
import collections
import glob
import json
import os
import statistics
import sys


def load(directory, algo):
    rows = {}
    for path in glob.glob(os.path.join(directory, "*.jsonl")):
        if os.path.basename(path) == "overlap.jsonl":
            continue
        with open(path) as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                r = json.loads(line)
                if r.get("backend") == "mpi" or r.get("algo") == "mpi":
                    continue
                if algo and r.get("algo") not in (algo, "upccoll"):
                    continue
                key = (r["bench"], r["backend"], r["threads"], r["coll"], r["algo"], r["flags"], r.get("type"),
                       r["nbytes"], r.get("count", r.get("nelems")), os.path.basename(path))
                rows[key] = r["median_us"]
    return rows


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 2
    algo = argv[argv.index("--algo") + 1] if "--algo" in argv else "auto"
    before, after = load(argv[1], algo), load(argv[2], algo)
    cells = collections.defaultdict(list)
    for key, b in before.items():
        a = after.get(key)
        if a is None or not b:
            continue
        _, backend, threads, coll, _, flags, _, _, _, source = key
        label = coll if source in ("blocking.jsonl", f"{coll}.jsonl") else f"{coll} ({source[:-6]})"
        cells[(label, backend, threads)].append(a / b)
    print("| collective | backend | THREADS | sizes | after / before: median | min | max | slower by > 10 % |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(cells):
        r = cells[key]
        slower = sum(1 for x in r if x > 1.10)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(r)} | {statistics.median(r):.2f} | {min(r):.2f} | {max(r):.2f} | "
              f"{slower} |")
    allr = [x for r in cells.values() for x in r]
    if allr:
        print(f"\nAll {len(allr)} points: median after/before {statistics.median(allr):.2f}; "
              f"{sum(1 for x in allr if x > 1.10)} slower by more than 10 %, "
              f"{sum(1 for x in allr if x < 0.90)} faster by more than 10 %.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
