#!/usr/bin/env python3
"""What the race check costs (docs/races.md, docs/benchmarks.md "The race
check's cost"): each program runs unchecked, under --check and under
--check=races, the three alternated round after round (so a busy moment of the
machine falls on all three alike), on the threads backend at 4 threads; the
table gives the median wall time of each and the ratios to the unchecked run.

  tools/bench/run_race_overhead.py [--build build] [--rounds 5] [--out DIR]

Writes DIR/overhead.jsonl (one row per run), DIR/machine.txt and prints the
Markdown table (DIR/table.md). DIR defaults to bench/results/race-overhead.
A run fails only when a program fails, never on a time.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

# name, program (relative to the build folder), arguments
PROGRAMS = [
    ("NAS IS class S", "apps/nas/is/is_upc", ["--class=S"]),
    ("NAS CG class S", "apps/nas/cg/cg_upc", ["--class=S"]),
    ("NAS FT class S", "apps/nas/ft/ft_upc", ["--class=S"]),
    ("classroom pi, naive", "apps/classroom/pi/naive", ["--trials=200000"]),
    ("classroom stencil, naive", "apps/classroom/stencil/naive", ["--n=20000", "--iterations=20"]),
    ("classroom stencil, optimised", "apps/classroom/stencil/optimised", ["--n=20000", "--iterations=20"]),
    ("classroom min_distance, naive", "apps/classroom/min_distance/naive", ["--nodes=200"]),
    ("classroom stencil2d, naive", "apps/classroom/stencil2d/naive", ["--rows=200", "--cols=200", "--iterations=10"]),
]
MODES = [("unchecked", "0"), ("--check", "1"), ("--check=races", "races")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--out", default="bench/results/race-overhead")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name, program, pargs in PROGRAMS:
        exe = os.path.join(args.build, program)
        if not os.access(exe, os.X_OK):
            print(f"run_race_overhead.py: {exe} is not built", file=sys.stderr)
            return 2
        for r in range(args.rounds):
            for mode, value in MODES:
                env = dict(os.environ, UPCEMU_THREADS=str(args.threads), UPCEMU_BACKEND="threads",
                           UPCEMU_CHECK=value, UPCEMU_TIMEOUT="600")
                start = time.perf_counter()
                p = subprocess.run([exe] + pargs, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                seconds = time.perf_counter() - start
                if p.returncode != 0:
                    print(f"run_race_overhead.py: {name} ({mode}) failed with status {p.returncode}:\n{p.stderr}",
                          file=sys.stderr)
                    return 1
                rows.append({"program": name, "mode": mode, "round": r, "seconds": seconds})
        print(f"{name}: done", file=sys.stderr)
    with open(os.path.join(args.out, "overhead.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    with open(os.path.join(args.out, "machine.txt"), "w") as f:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        f.write(f"date: {time.strftime('%Y-%m-%d')}\ncommit: {commit}\ncpus: {os.cpu_count()}\n"
                f"machine: {platform.processor() or platform.machine()}\nthreads: {args.threads} (threads backend)\n"
                f"rounds: {args.rounds}, the three modes alternated\n")
    lines = ["| program | unchecked (s) | `--check` (s) | `--check=races` (s) | `--check` / unchecked | races / unchecked |",
             "|---|---|---|---|---|---|"]
    for name, _, _ in PROGRAMS:
        med = {m: statistics.median(r["seconds"] for r in rows if r["program"] == name and r["mode"] == m)
               for m, _ in MODES}
        base = med["unchecked"]
        lines.append(f"| {name} | {base:.3f} | {med['--check']:.3f} | {med['--check=races']:.3f} | "
                     f"{med['--check'] / base:.1f} | {med['--check=races'] / base:.1f} |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
