"""Reading a results set written by tools/bench/run_micro.sh (and the others).

bench/results/ holds one set per table or figure of the docs, named by what it
shows (bench/results/README.md lists them, with the script and command that
make each); a run script writes into its set and replaces it. Each <bench>.jsonl
holds, per run, a '#' header line (parameters and machine) and one JSON object
per measured row; rows carry bench, backend and threads. This module loads them
(its loaders serve coll_results.py and upccoll_results.py too), and holds the
reference figures and targets of issue 2 so the plot and the tables judge
against the same numbers.
"""
import json
import os
import re

# Issue 2, "Benchmarks": measured on this kind of machine for reference.
SPIN_YIELD_REFERENCE_US = {2: 0.18, 4: 1.06, 8: 2.69, 16: 5.77}   # sense-reversing spin-then-yield barrier
OPEN_MPI_REFERENCE_US = {2: 0.32, 4: 2.70, 8: 10.6}               # Open MPI 4.1 MPI_Barrier
MEMCPY_TARGET_RATIO = 0.90        # upc_memcpy >= 90% of memcpy ...
MEMCPY_TARGET_MIN_BYTES = 1 << 20  # ... at >= 1 MiB
PRIVATISED_TARGET_RATIO = 1.05    # privatised loop within 5% of the plain loop
BARRIER_TARGET_MAX_THREADS = 64


def results_set(root, name, script):
    """bench/results/NAME under the repository root: the set that script
    (tools/bench/SCRIPT) writes and the docs are made from."""
    d = os.path.join(root, "bench", "results", name)
    if not os.path.isdir(d):
        raise SystemExit("no results set %s: run tools/bench/%s first" % (d, script))
    return d


def results_holding(d, files):
    """d when it holds one of files (a run script's results), else None."""
    if os.path.isdir(d) and any(os.path.exists(os.path.join(d, f)) for f in files):
        return d
    return None


def load_jsonl(path):
    """The rows of a jsonl file, '#' lines (headers, notes) skipped; [] when it is missing."""
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                rows.append(json.loads(line))
    return rows


def load_rows(results_dir, bench):
    """All rows of <bench>.jsonl (an empty list when the file is missing)."""
    return load_jsonl(os.path.join(results_dir, bench + ".jsonl"))


def load_headers(results_dir, bench):
    """The parsed '#' header objects of <bench>.jsonl."""
    path = os.path.join(results_dir, bench + ".jsonl")
    headers = []
    if not os.path.exists(path):
        return headers
    with open(path) as f:
        for line in f:
            if line.startswith("# {"):
                headers.append(json.loads(line[2:]))
    return headers


def load_machine(results_dir, name="machine.txt"):
    """machine.txt (or another file of key: value lines) as a dict."""
    info = {}
    path = os.path.join(results_dir, name)
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep:
                    info[key.strip()] = value.strip()
    return info


def results_date(results_dir):
    """The day of the run: machine.txt's date line, else a date in the folder's name."""
    date = load_machine(results_dir).get("date", "")
    m = re.match(r"\d{4}-\d{2}-\d{2}", date) or re.search(r"\d{4}-\d{2}-\d{2}", os.path.basename(
        os.path.normpath(results_dir)))
    return m.group(0) if m else os.path.basename(os.path.normpath(results_dir))


def by_key(rows, *keys):
    """{(row[k1], row[k2], ...): row}; the last row wins for duplicates."""
    return {tuple(r.get(k) for k in keys): r for r in rows}


def size_label(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= (1 << shift) and n % (1 << shift) == 0:
            return "%d %siB" % (n >> shift, unit)
    return "%d B" % n
