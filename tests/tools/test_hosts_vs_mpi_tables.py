#!/usr/bin/env python3
"""tools/bench/hosts_vs_mpi_tables.py on made-up rows: figures are medians over
rounds, ratios the medians of each round's ratio (both sides of a ratio from
the same round), MPI's side of a NAS row its fastest variant in each round,
runs that did not verify are counted, and the barrier rows (upcemu, before,
MPI_Barrier) give medians and per-round ratios too."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

script = sys.argv[1]


def memops(impl, op, gbps, bytes_=1 << 20):
    return [{"hosts": 2, "round": r + 1, "impl": impl, "op": op, "where": "remote", "bytes": bytes_, "median_gbps": g}
            for r, g in enumerate(gbps)]


def nas(impl, variant, times, verified=True):
    return [{"hosts": 2, "round": r + 1, "impl": impl, "app": "is", "class": "S", "variant": variant, "threads": 4,
             "time_s": t, "verified": verified} for r, t in enumerate(times)]


with tempfile.TemporaryDirectory() as d:
    # rounds' ratios MPI / upcemu: 2 and 3 (median 2.5); ping-pong / upcemu: 8 and 4 (median 6)
    rows = memops("upcemu", "upc_memget", [0.5, 1.0]) + memops("mpi", "MPI_Get", [1.0, 3.0]) + \
        memops("mpi", "pingpong", [4.0, 4.0])
    Path(d, "memops.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    # MPI's fastest per round: 1.0 (a) then 0.5 (b); upcemu / MPI: 2 and 8 (median 5)
    rows = nas("upcemu", "standard", [2.0, 4.0]) + nas("mpi", "a", [1.0, 9.0]) + nas("mpi", "b", [3.0, 0.5]) + \
        nas("upcemu", "extended", [1.0], verified=False)
    Path(d, "nas.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    # barriers: upcemu 100, 300 µs; before 200, 900; MPI 50, 100 -> upcemu / MPI 2 and 3 (2.5),
    # before / MPI 4 and 9 (6.5), before / upcemu 2 and 3 (2.5)
    rows = [{"hosts": 2, "round": r + 1, "impl": impl, "threads": 4, "median_us": us}
            for impl, values in (("upcemu", [100, 300]), ("before", [200, 900]), ("mpi", [50, 100]))
            for r, us in enumerate(values)]
    Path(d, "barrier.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    p = subprocess.run([sys.executable, script, d], capture_output=True, text=True)

text = p.stdout
failures = []
if p.returncode != 0:
    failures.append(f"status {p.returncode}: {p.stderr}")
if "| upc_memget | 1 MiB | 0.75 | MPI_Get | 2 | 4 | 2.5× | 6× |" not in text:
    failures.append("the memget row is not medians 0.75, 2, 4 and ratios 2.5×, 6×:\n" + text)
if "| IS | S | standard | 3 | 0.75 (a, b) | 5× |" not in text:
    failures.append("the IS row is not median 3 against MPI's fastest (0.75, variants a and b), ratio 5×:\n" + text)
if "did not verify: 1" not in text:
    failures.append("the run that did not verify is not counted:\n" + text)
if "| 2 | 4 | 200 | 550 | 75 | 2.5× | 6.5× | 2.5× |" not in text:
    failures.append("the barrier row is not medians 200, 550, 75 and ratios 2.5×, 6.5×, 2.5×:\n" + text)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
