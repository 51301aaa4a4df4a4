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
import os
import statistics
import subprocess
import sys
import time

import overhead_runs

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


def run_once(exe, pargs, threads, mode):
    env = dict(os.environ, UPCEMU_THREADS=str(threads), UPCEMU_BACKEND="threads", UPCEMU_CHECK=dict(MODES)[mode],
               UPCEMU_TIMEOUT="600")
    start = time.perf_counter()
    p = subprocess.run([exe] + pargs, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return {"seconds": time.perf_counter() - start}, p.returncode, p.stderr


def table(rows):
    """The Markdown table of the runs' rows: the median wall time per program and mode, the ratios."""
    lines = ["| program | unchecked (s) | `--check` (s) | `--check=races` (s) | `--check` / unchecked | races / unchecked |",
             "|---|---|---|---|---|---|"]
    for name, _, _ in PROGRAMS:
        med = {m: statistics.median(r["seconds"] for r in rows if r["program"] == name and r["mode"] == m)
               for m, _ in MODES}
        base = med["unchecked"]
        lines.append(f"| {name} | {base:.3f} | {med['--check']:.3f} | {med['--check=races']:.3f} | "
                     f"{med['--check'] / base:.1f} | {med['--check=races'] / base:.1f} |")
    return "\n".join(lines) + "\n"


def main():
    args = overhead_runs.parse_args(__doc__, "bench/results/race-overhead")
    os.makedirs(args.out, exist_ok=True)
    rows = overhead_runs.alternate("run_race_overhead.py", args, PROGRAMS, [m for m, _ in MODES],
                                   lambda exe, pargs, mode: run_once(exe, pargs, args.threads, mode))
    overhead_runs.write(args, rows, [f"rounds: {args.rounds}, the three modes alternated"], table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
