"""What run_race_overhead.py and run_locality_overhead.py share: the command line
(--build, --rounds, --threads, --out), the programs run round after round with
every mode in each round (so a busy moment of the machine falls on all modes
alike), and the files written into --out: overhead.jsonl (a row per run, then
any extra rows), machine.txt and table.md (also printed).
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time


def parse_args(doc, out):
    """The command line; out: the default results folder."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--out", default=out)
    return ap.parse_args()


def alternate(script, args, programs, modes, run_once, after_program=None):
    """Runs each of programs ((name, program under --build, arguments)) --rounds
    times, every mode of modes in each round; run_once(exe, arguments, mode)
    gives (the row's measured fields, exit status, stderr). Returns the rows
    (program, mode, round and those fields); stops the script, saying why on
    stderr, with status 2 when a program is not built and 1 when one fails.
    after_program(name) runs once a program's rounds are done."""
    rows = []
    for name, program, pargs in programs:
        exe = os.path.join(args.build, program)
        if not os.access(exe, os.X_OK):
            print(f"{script}: {exe} is not built", file=sys.stderr)
            raise SystemExit(2)
        for r in range(args.rounds):
            for mode in modes:
                fields, status, err = run_once(exe, pargs, mode)
                if status != 0:
                    print(f"{script}: {name} ({mode}) failed with status {status}:\n{err}", file=sys.stderr)
                    raise SystemExit(1)
                rows.append(dict({"program": name, "mode": mode, "round": r}, **fields))
        if after_program:
            after_program(name)
        print(f"{name}: done", file=sys.stderr)
    return rows


def write(args, rows, machine_lines, table):
    """overhead.jsonl (rows), machine.txt (the run's date, commit, CPUs, machine
    and THREADS, then machine_lines) and table.md (table, also printed)."""
    with open(os.path.join(args.out, "overhead.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    with open(os.path.join(args.out, "machine.txt"), "w") as f:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        f.write(f"date: {time.strftime('%Y-%m-%d')}\ncommit: {commit}\ncpus: {os.cpu_count()}\n"
                f"machine: {platform.processor() or platform.machine()}\nthreads: {args.threads} (threads backend)\n")
        f.writelines(line + "\n" for line in machine_lines)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table)
    print(table)

