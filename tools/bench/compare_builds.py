#!/usr/bin/env python3
"""Two builds of collbench, alternated run by run on the same machine: what a
change costs the standard collectives at small sizes.

usage: compare_builds.py BEFORE_COLLBENCH AFTER_COLLBENCH [RUNS] [--jsonl OUT]

Each of RUNS rounds runs broadcast, exchange and reduce (8 B and 1 KiB, ALLSYNC
and MYSYNC) at THREADS 2, 4, 8, 16 with both binaries, one after the other, so
slow drifts of the machine hit both alike. A row gives, per binary, the median
over the rounds of collbench's per-round minimum and median (µs per call), and
the ratio of the minima. Build the "before" binary from the older commit in a
separate build directory (meson setup /tmp/before && ninja -C /tmp/before).
"""
import collections
import json
import os
import statistics
import subprocess
import sys


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 2
    before, after = argv[1], argv[2]
    runs = int(argv[3]) if len(argv) > 3 and not argv[3].startswith("--") else 11
    out = argv[argv.index("--jsonl") + 1] if "--jsonl" in argv else None
    cases = [(c, t) for c in ("broadcast", "exchange", "reduce") for t in (2, 4, 8, 16)]
    res = collections.defaultdict(lambda: collections.defaultdict(list))
    raw = []
    for r in range(runs):
        for coll, threads in cases:
            for tag, binary in (("before", before), ("after", after)):
                env = dict(os.environ, UPCEMU_THREADS=str(threads))
                text = subprocess.run([binary, f"--coll={coll}", "--min-bytes=8", "--max-bytes=1024", "--step=128",
                                       "--flags=allsync,mysync", "--reps=3", "--min-time=0.005", "--format=jsonl"],
                                      env=env, capture_output=True, text=True, check=True).stdout
                for line in text.splitlines():
                    if not line.strip() or line.startswith("#"):
                        continue
                    row = json.loads(line)
                    row["build"], row["round"] = tag, r
                    raw.append(row)
                    key = (coll, threads, row["flags"], row["nbytes"] or row["nelems"])
                    res[key][tag + "_min"].append(row["min_us"])
                    res[key][tag + "_median"].append(row["median_us"])
        print(f"round {r + 1}/{runs} done", file=sys.stderr)
    if out:
        with open(out, "w") as f:
            for row in raw:
                f.write(json.dumps(row) + "\n")
    print("| collective | THREADS | flags | size (B) | before: min / median (µs) | after: min / median (µs) | after / before (min) |")
    print("|---|---|---|---|---|---|---|")
    for key in sorted(res):
        d = res[key]
        bmin, amin = statistics.median(d["before_min"]), statistics.median(d["after_min"])
        bmed, amed = statistics.median(d["before_median"]), statistics.median(d["after_median"])
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {bmin:.2f} / {bmed:.2f} | {amin:.2f} / {amed:.2f} | {amin / bmin:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
