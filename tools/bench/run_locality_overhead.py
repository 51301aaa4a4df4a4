#!/usr/bin/env python3
"""What the locality report costs (docs/benchmarks.md "The locality report's
cost"): each program runs without a report and under --report=locality (the
report written to a file, so that printing it is not timed against the
terminal), the two alternated round after round (so a busy moment of the
machine falls on both alike), on the threads backend at 4 threads; the table
gives the median CPU time (user + system, of the program and its threads) and
wall time of each, their ratios, and the shared accesses the report counted
(local + remote, all lines). CPU time is the steadier of the two on a machine
that others use too.

  tools/bench/run_locality_overhead.py [--build build] [--rounds 5] [--out DIR]

Writes DIR/overhead.jsonl (one row per run), DIR/machine.txt and prints the
Markdown table (DIR/table.md). DIR defaults to bench/results/locality-overhead.
A run fails only when a program fails, never on a time.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import overhead_runs

# name, program (relative to the build folder), arguments
PROGRAMS = [
    ("NAS CG class S", "apps/nas/cg/cg_upc", ["--class=S"]),
    ("NAS IS class S", "apps/nas/is/is_upc", ["--class=S"]),
    ("classroom stencil, naive", "apps/classroom/stencil/naive", ["--n=20000", "--iterations=20"]),
    ("classroom stencil, optimised", "apps/classroom/stencil/optimised", ["--n=20000", "--iterations=20"]),
    ("classroom min_distance, naive", "apps/classroom/min_distance/naive", ["--nodes=200"]),
]
MODES = ["no report", "--report=locality"]


def run_once(exe, pargs, threads, mode, report_path):
    env = dict(os.environ, UPCEMU_THREADS=str(threads), UPCEMU_BACKEND="threads", UPCEMU_TIMEOUT="600")
    for var in ("UPCEMU_REPORT", "UPCEMU_REPORT_FILE", "UPCEMU_CHECK"):
        env.pop(var, None)
    if mode != "no report":
        env.update(UPCEMU_REPORT="locality", UPCEMU_REPORT_FILE=report_path)
    start = time.perf_counter()
    p = subprocess.Popen([exe] + pargs, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stderr.close()
    return {"seconds": time.perf_counter() - start, "cpu_seconds": usage.ru_utime + usage.ru_stime}, p.returncode, err


def counted_accesses(report_path):
    total = 0
    with open(report_path) as f:
        for line in f:
            row = json.loads(line)
            if row.get("report") == "locality":
                total += row["local"] + row["remote_same_node"] + row["remote_other_node"]
    return total


def table(rows):
    """The Markdown table of the runs' rows (and the accesses_counted rows): the
    median CPU and wall time per program and mode, their ratios, the accesses."""
    accesses = {r["program"]: r["accesses_counted"] for r in rows if "accesses_counted" in r}
    lines = ["| program | CPU, no report (s) | CPU, `--report=locality` (s) | CPU ratio | wall, no report (s) | "
             "wall, `--report=locality` (s) | wall ratio | accesses counted |", "|---|---|---|---|---|---|---|---|"]
    for name, _, _ in PROGRAMS:
        def med(key, mode):
            return statistics.median(r[key] for r in rows if r["program"] == name and r.get("mode") == mode)
        cpu0, cpu1 = med("cpu_seconds", "no report"), med("cpu_seconds", "--report=locality")
        wall0, wall1 = med("seconds", "no report"), med("seconds", "--report=locality")
        lines.append(f"| {name} | {cpu0:.3f} | {cpu1:.3f} | {cpu1 / cpu0:.2f} | {wall0:.3f} | {wall1:.3f} | "
                     f"{wall1 / wall0:.2f} | {accesses[name]:,} |")
    return "\n".join(lines) + "\n"


def main():
    args = overhead_runs.parse_args(__doc__, "bench/results/locality-overhead")
    os.makedirs(args.out, exist_ok=True)
    accesses = {}
    load_before = open("/proc/loadavg").read().split()[0]
    with tempfile.TemporaryDirectory() as tmp:
        report_path = os.path.join(tmp, "locality.jsonl")
        rows = overhead_runs.alternate(
            "run_locality_overhead.py", args, PROGRAMS, MODES,
            lambda exe, pargs, mode: run_once(exe, pargs, args.threads, mode, report_path),
            lambda name: accesses.update({name: counted_accesses(report_path)}))
    rows += [{"program": name, "accesses_counted": n} for name, n in accesses.items()]
    overhead_runs.write(args, rows, [f"rounds: {args.rounds}, the two modes alternated",
                                     f"load average (1 min) before and after: {load_before}, "
                                     f"{open('/proc/loadavg').read().split()[0]}"], table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
