#!/usr/bin/env python3
"""tools/bench/mapreduce_mpi_tables.py on made-up rows: the medians and ratios
it prints, status 0 when every run verified with one answer per application,
1 when two answers differ or a run failed."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_script_runs import run_on_rows  # noqa: E402

script = sys.argv[1]


def rows(app, side, threads, times, answer="aa", verified=True, status=0):
    return [{"app": app, "side": side, "threads": threads, "size": 10, "time_s": t, "verified": verified,
             "status": status, "answer": answer, "round": i + 1} for i, t in enumerate(times)]


def tables(all_rows):
    return run_on_rows(script, all_rows)


good = rows("hist", "upc-mr threads", 2, [1.0, 3.0, 2.0]) + rows("hist", "upc-mr processes", 2, [4.0, 4.0, 5.0]) + \
    rows("hist", "mapreduce-mpi", 2, [6.0, 1.0, 8.0])
status, text = tables(good)
failures = []
if status != 0:
    failures.append(f"equal answers, all verified: status {status}, expected 0")
# medians 2.0, 4.0, 6.0: ratios 3.00 (vs threads) and 1.50 (vs processes)
if "| 2 | 2.0000 | 4.0000 | 6.0000 | 3.00 | 1.50 |" not in text:
    failures.append("the row of THREADS 2 is not medians 2, 4, 6 and ratios 3.00, 1.50:\n" + text)
status, text = tables(good + rows("hist", "mapreduce-mpi", 4, [1.0], answer="bb"))
if status != 1 or "DIFFERENT" not in text:
    failures.append(f"two answers: status {status}, expected 1 and DIFFERENT:\n{text}")
status, text = tables(good + rows("hist", "upc-mr threads", 4, [1.0], verified=False, status=1))
if status != 1 or "did not" not in text:
    failures.append(f"a failed run: status {status}, expected 1 and 'did not':\n{text}")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
