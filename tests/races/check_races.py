#!/usr/bin/env python3
"""Runs one race-kind program of tests/races/ under the race check
(UPCEMU_CHECK=races, what `upcrun --check=races` sets) and asserts what it says.

  check_races.py PROGRAM SOURCE BACKEND

`PROGRAM wrong` must stop with status 1 and a report naming both sides of the
race at the lines SOURCE marks with `// race: write`, `// race: read` or
`// race: both sides` (one line for both: an update racing with itself); it
runs at 3 threads. `PROGRAM right` (the fix) must run clean at 2 and 4
threads. Exit status 0 when every run says what it should, 1 otherwise.
"""
import collections
import os
import re
import subprocess
import sys

MARK = re.compile(r"//\s*race:\s*(write|read|both sides)\b")
# "thread 1's write at f.cpp:12", or for a non-blocking transfer
# "thread 0's read by the non-blocking upc_memget_nb at f.cpp:10".
SIDE = re.compile(r"thread \d+'s (write|read) (?:by the non-blocking \w+ )?at (\S+?):(\d+)\b")


def expected_sides(source):
    """[(kind or None, line)], one entry per side of the race."""
    sides = []
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            m = MARK.search(text)
            if m and m.group(1) == "both sides":
                sides += [(None, number), (None, number)]
            elif m:
                sides.append((m.group(1), number))
    return sides


def run(program, mode, backend, threads):
    env = dict(os.environ, UPCEMU_CHECK="races", UPCEMU_BACKEND=backend, UPCEMU_THREADS=str(threads),
               UPCEMU_TIMEOUT="60")
    env.pop("UPCEMU_QUIET", None)
    p = subprocess.run([program, mode], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=120)
    return p.returncode, p.stdout


def check_wrong(program, source, backend):
    """The problems with the racing run's report ([] when it is right)."""
    want = expected_sides(source)
    if len(want) != 2:
        return [f"{source} marks {len(want)} sides of a race, not 2"]
    status, out = run(program, "wrong", backend, 3)
    problems = [] if status == 1 else [f"exit status {status}, expected 1"]
    report = next((line for line in out.splitlines() if "data race on " in line), "")
    if not report:
        return problems + ["no 'data race on' report"]
    if "are not ordered by any barrier, lock or strict access" not in report:
        problems.append("the report does not say what would have ordered the accesses")
    base = os.path.basename(source)
    got = [(kind, int(line)) for kind, path, line in SIDE.findall(report) if os.path.basename(path) == base]
    lines_got = collections.Counter(line for _, line in got)
    lines_want = collections.Counter(line for _, line in want)
    if lines_got != lines_want:
        problems.append(f"the report names {base} lines {sorted(lines_got.elements())}, "
                        f"expected {sorted(lines_want.elements())}")
    for kind, line in want:
        if kind and (kind, line) not in got:
            problems.append(f"the report does not name a {kind} at {base}:{line}")
    return problems + ([f"report: {report}"] if problems else [])


def check_right(program, backend):
    problems = []
    for threads in (2, 4):
        status, out = run(program, "right", backend, threads)
        if status != 0 or "data race" in out:
            problems.append(f"the fixed program at {threads} threads: exit status {status}; output:\n{out}")
    return problems


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    program, source, backend = sys.argv[1:]
    problems = check_wrong(program, source, backend) + check_right(program, backend)
    for p in problems:
        print(f"{os.path.basename(program)} ({backend}): {p}")
    if not problems:
        print(f"{os.path.basename(program)} ({backend}): the race reported at both lines; the fix runs clean")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
