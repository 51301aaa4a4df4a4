#!/usr/bin/env python3
"""extbench and its Open MPI peer ext_mpi alternated round by round on the same
machine (this VM's speed changes every few minutes, so runs minutes apart do not
compare): per benchmark, THREADS and size, the median over the rounds of every
form's median µs per call, and the ratios of issue 10's targets computed round
by round (then their median): original/extended, base/extended, MPI/extended
(> 1: the extended collective is faster), priv/extended.

usage: compare_ext.py BUILD_DIR [ROUNDS] [--threads 2,4,8,16] [--sizes 4K,64K,1M,8M]
                      [--backend threads] [--jsonl OUT]
"""
import json
import os
import statistics
import subprocess
import sys


def arg(argv, name, default):
    return argv[argv.index(name) + 1] if name in argv else default


def parse_size(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * mult[s[-1]] if s[-1] in mult else int(s)


def rows_of(text):
    out = []
    for line in text.splitlines():
        if line.startswith("{"):
            out.append(json.loads(line))
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    build = argv[1]
    rounds = int(argv[2]) if len(argv) > 2 and argv[2].isdigit() else 5
    threads = [int(t) for t in arg(argv, "--threads", "2,4,8,16").split(",")]
    sizes = [parse_size(s) for s in arg(argv, "--sizes", "4K,64K,1M,8M").split(",")]
    backend = arg(argv, "--backend", "threads")
    jsonl = arg(argv, "--jsonl", None)
    ext = os.path.join(build, "bench/collbench/extbench")
    mpi = os.path.join(build, "bench/peers/mpi/ext_mpi")
    mpirun = ["mpirun", "--oversubscribe", "--bind-to", "none"] + (["--allow-run-as-root"] if os.getuid() == 0 else [])
    data = {}  # (bench, T, n, form) -> [median per round]
    raw = []
    for r in range(rounds):
        for T in threads:
            for b in ["bcast", "scatter_v", "exchange"]:
                for n in sizes:
                    if b == "exchange" and n * T * T > (1 << 30):
                        continue
                    common = [f"--min-bytes={n}", f"--max-bytes={n}", "--reps=5", "--min-time=0.005", "--format=jsonl"]
                    env = dict(os.environ, UPCEMU_THREADS=str(T), UPCEMU_BACKEND=backend)
                    ours = subprocess.run([ext, f"--bench={b}"] + common, env=env, capture_output=True, text=True)
                    theirs = subprocess.run(mpirun + ["-np", str(T), mpi, f"--bench={b}"] + common, capture_output=True, text=True)
                    for row in rows_of(ours.stdout) + rows_of(theirs.stdout):
                        row["round"] = r
                        raw.append(row)
                        data.setdefault((b, T, n, row["variant"]), []).append(row["median_us"])
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    if jsonl:
        with open(jsonl, "w") as f:
            for row in raw:
                f.write(json.dumps(row) + "\n")
    forms = ["original", "base", "extended", "priv", "mpi"]
    print("| benchmark | THREADS | size | " + " | ".join(forms) + " (µs) | orig/ext | base/ext | MPI/ext | priv/ext |")
    print("|---|---|---|" + "---|" * len(forms) + "---|---|---|---|")
    for b in ["bcast", "scatter_v", "exchange"]:
        for T in threads:
            for n in sizes:
                med = {f: statistics.median(data[(b, T, n, f)]) for f in forms if (b, T, n, f) in data}
                if "extended" not in med:
                    continue
                def paired(f):
                    a, e = data.get((b, T, n, f)), data[(b, T, n, "extended")]
                    if not a or len(a) != len(e):
                        return "–"
                    return f"{statistics.median([x / y for x, y in zip(a, e)]):.2f}"
                size = f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"
                cells = " | ".join(f"{med[f]:.1f}" if f in med else "–" for f in forms)
                print(f"| {b} | {T} | {size} | {cells} | {paired('original')} | {paired('base')} | {paired('mpi')} | {paired('priv')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
