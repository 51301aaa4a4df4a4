#!/usr/bin/env python3
"""The tables of tools/bench/run_upcc.sh: upcc-translated UPC against the C++ API.

  upcc_tables.py DIR      (DIR holds kernels.jsonl and corpus.jsonl)

Prints markdown: per kernel, THREADS and backend the median time of the UPC and of
the C++ program over the rounds, and the median over the rounds of the ratio UPC /
C++ (both languages ran back to back in each round); a ratio within 1.05 meets
issue 14's target. Then the corpus: per step (upcc -E, upcc -c) the median over
the files of each file's median time, and the total of the files' medians.
"""
import json
import os
import statistics
import sys
from collections import defaultdict

KERNELS = ["privatised", "forall", "neighbours", "memget"]


def load(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def kernel_table(rows):
    times = defaultdict(list)  # (kernel, threads, backend, language) -> [time]
    by_round = defaultdict(dict)  # (kernel, threads, backend, round) -> {language: time}
    for r in rows:
        key = (r["kernel"], r["threads"], r["backend"])
        times[key + (r["language"],)].append(r["time_s"])
        by_round[key + (r["round"],)][r["language"]] = r["time_s"]
    ratios = defaultdict(list)
    for (k, n, b, _), pair in by_round.items():
        if "upc" in pair and "cpp" in pair:
            ratios[(k, n, b)].append(pair["upc"] / pair["cpp"])
    out = ["| kernel | THREADS | backend | UPC (upcc) ms | C++ API ms | UPC / C++ | within 5% |",
           "|---|---:|---|---:|---:|---:|---|"]
    keys = sorted(ratios, key=lambda x: (KERNELS.index(x[0]) if x[0] in KERNELS else 99, x[2] != "threads", x[1]))
    for k, n, b in keys:
        upc = statistics.median(times[(k, n, b, "upc")])
        cpp = statistics.median(times[(k, n, b, "cpp")])
        ratio = statistics.median(ratios[(k, n, b)])
        out.append(f"| {k} | {n} | {b} | {upc * 1e3:.2f} | {cpp * 1e3:.2f} | {ratio:.2f} | "
                   f"{'yes' if ratio <= 1.05 else 'no'} |")
    return out


def corpus_table(rows):
    if not rows:
        return []
    out = ["| step | files | failed | median per file s | total s |", "|---|---:|---:|---:|---:|"]
    for step, name in (("-E", "upcc -E (translation)"), ("-c", "upcc -c -O2 (translation + gcc)")):
        rs = [r for r in rows if r["step"] == step]
        if not rs:
            continue
        med = [r["median_s"] for r in rs]
        out.append(f"| {name} | {len(rs)} | {sum(not r['ok'] for r in rs)} | {statistics.median(med):.2f} | "
                   f"{sum(med):.1f} |")
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    kernels = load(os.path.join(d, "kernels.jsonl"))
    rounds = len({r["round"] for r in kernels})
    print(f"Kernels: median of {rounds} rounds (each time_s itself the median of the program's repetitions); "
          "UPC / C++ is the median of the per-round ratios.\n")
    print("\n".join(kernel_table(kernels)))
    corpus = corpus_table(load(os.path.join(d, "corpus.jsonl")))
    if corpus:
        print("\nThe tests/upc corpus (each file's median over the repetitions):\n")
        print("\n".join(corpus))
    return 0


if __name__ == "__main__":
    sys.exit(main())
