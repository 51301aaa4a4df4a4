#!/usr/bin/env python3
"""tools/bench/brownian_peers_tables.py on made-up rows: the medians, speedups
over the OpenMP peer on one thread and peer / UPC ratios it prints, status 0
when every run verified and 1 when one did not."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_script_runs import run_on_rows  # noqa: E402

script = sys.argv[1]


def rows(side, variant, threads, times, verified=True, status=0):
    return [{"side": side, "variant": variant, "threads": threads, "particles": 8, "steps": 2, "time_s": t,
             "verified": verified, "status": status, "round": i + 1} for i, t in enumerate(times)]


def tables(all_rows):
    return run_on_rows(script, all_rows)


good = (rows("openmp", "cholesky", 1, [4.0, 9.0, 2.0]) + rows("openmp", "fixman", 1, [3.0]) +
        rows("upc threads", "cholesky", 2, [1.0, 2.0, 3.0]) + rows("openmp", "cholesky", 2, [5.0, 4.0, 6.0]) +
        rows("upc processes", "fixman_minimum", 2, [2.0, 1.0, 1.5]) + rows("mpi", "fixman_minimum", 2, [3.0]))
status, text = tables(good)
failures = []
if status != 0:
    failures.append(f"all verified: status {status}, expected 0")
# Sequential Cholesky = median of OpenMP at 1 = 4.0, Fixman 3.0. At 2: UPC Cholesky
# median 2.0 (speedup 2.00), OpenMP 5.0 (0.80), ratio 2.50; UPC min-comms 1.5 (2.00),
# MPI 3.0 (1.00), ratio 2.00.
if "| 2 | 2.000 (2.00) | 5.000 (0.80) | – | – | – | 2.50 | – |" not in text:
    failures.append("shared-memory row of 2 is not Cholesky 2.0 (2.00), 5.0 (0.80), ratio 2.50:\n" + text)
if "| 2 | – | – | – | – | 1.500 (2.00) | 3.000 (1.00) | – | – | 2.00 |" not in text:
    failures.append("distributed row of 2 is not min-comms 1.5 (2.00), 3.0 (1.00), ratio 2.00:\n" + text)
status, text = tables(good + rows("mpi", "cholesky", 4, [1.0], verified=False, status=1))
if status != 1 or "did not" not in text:
    failures.append(f"a failed run: status {status}, expected 1 and 'did not':\n{text}")
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
