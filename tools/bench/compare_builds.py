#!/usr/bin/env python3
"""Two builds of collbench (or of upccoll_bench), alternated run by run on the
same machine: what a change costs the collectives.

usage: compare_builds.py BEFORE_COLLBENCH AFTER_COLLBENCH [RUNS] [--jsonl OUT]
                         [--colls broadcast,exchange,reduce] [--threads 2,4,8,16]
                         [--min-bytes 8] [--max-bytes 1024] [--step 128]
                         [--flags allsync,mysync]

Each of RUNS rounds (default 11) runs every collective at every THREADS with
both binaries, one after the other, so slow drifts of the machine hit both
alike. A row gives, per binary, the median over the rounds of collbench's
per-round minimum and median (µs per call), the ratio of those medians, and
the median of the per-round ratios (after / before of the same round). Build
the "before" binary from the older commit in a separate build directory
(git worktree add /tmp/before OLD && meson setup /tmp/before/build-bench
--buildtype=release && ninja -C /tmp/before/build-bench).

The defaults are the small-message check (8 B and 1 KiB); for large
reductions: --colls reduce,prefix_reduce --max-bytes 8M --step 8 --flags allsync.
Given two upccoll_bench binaries, --colls names upccoll collectives (bcast,
alltoallv, ...) and --flags is ignored (upccoll_bench runs flags 0, MYSYNC).
"""
import collections
import json
import os
import statistics
import subprocess
import sys


def arg(argv, name, default):
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 2
    before, after = argv[1], argv[2]
    runs = int(argv[3]) if len(argv) > 3 and not argv[3].startswith("--") else 11
    out = arg(argv, "--jsonl", None)
    colls = arg(argv, "--colls", "broadcast,exchange,reduce").split(",")
    threads = [int(t) for t in arg(argv, "--threads", "2,4,8,16").split(",")]
    sizes = [f"--min-bytes={arg(argv, '--min-bytes', '8')}", f"--max-bytes={arg(argv, '--max-bytes', '1024')}",
             f"--step={arg(argv, '--step', '128')}", "--max-moved=1G"]
    upccoll = os.path.basename(before) == "upccoll_bench"
    flag_args = ["--no-bound"] if upccoll else [f"--flags={arg(argv, '--flags', 'allsync,mysync')}"]
    res = collections.defaultdict(lambda: collections.defaultdict(list))
    raw = []
    for r in range(runs):
        for coll in colls:
            for t in threads:
                for tag, binary in (("before", before), ("after", after)):
                    env = dict(os.environ, UPCEMU_THREADS=str(t))
                    text = subprocess.run([binary, f"--coll={coll}", *sizes, *flag_args, "--reps=3",
                                           "--min-time=0.005", "--format=jsonl"],
                                          env=env, capture_output=True, text=True, check=True).stdout
                    for line in text.splitlines():
                        if not line.strip() or line.startswith("#"):
                            continue
                        row = json.loads(line)
                        row["build"], row["round"] = tag, r
                        raw.append(row)
                        key = (coll, t, row.get("flags", "mysync"), row["nbytes"] or row.get("nelems", 0))
                        res[key][tag + "_min"].append(row["min_us"])
                        res[key][tag + "_median"].append(row["median_us"])
        print(f"round {r + 1}/{runs} done", file=sys.stderr)
    if out:
        with open(out, "w") as f:
            for row in raw:
                f.write(json.dumps(row) + "\n")
    print("| collective | THREADS | flags | size (B) | before: min / median (µs) | after: min / median (µs) "
          "| after / before (medians) | after / before (per round) |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(res):
        d = res[key]
        bmin, amin = statistics.median(d["before_min"]), statistics.median(d["after_min"])
        bmed, amed = statistics.median(d["before_median"]), statistics.median(d["after_median"])
        paired = statistics.median(a / b for a, b in zip(d["after_median"], d["before_median"]))
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {bmin:.2f} / {bmed:.2f} | {amin:.2f} / {amed:.2f} "
              f"| {amed / bmed:.2f} | {paired:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
