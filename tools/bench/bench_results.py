"""Reading a results directory written by tools/bench/run_micro.sh.

Each <bench>.jsonl holds, per run, a '#' header line (parameters and machine) and
one JSON object per measured row; rows carry bench, backend and threads. This
module loads them (its loaders serve coll_results.py and upccoll_results.py
too), and holds the reference figures and targets of issue 2 so the plot and the
tables judge against the same numbers.
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


def latest_results_dir(root, find=None, what="results", script="run_micro.sh"):
    """The newest bench/results/<date> directory under the repository root, or with
    find, the newest find(<date directory>) that is not None (the collective
    results under it, say); what and script name them in the error otherwise."""
    base = os.path.join(root, "bench", "results")
    for name in sorted(os.listdir(base), reverse=True) if os.path.isdir(base) else []:
        d = os.path.join(base, name)
        found = find(d) if find else (d if os.path.isdir(d) else None)
        if found:
            return found
    raise SystemExit("no %s in %s: run tools/bench/%s first" % (what, base, script))


def results_subdir(d, sub, files):
    """The results of one run script under d: d/sub, or d itself, whichever holds
    one of files; None when neither does."""
    for cand in (os.path.join(d, sub), d):
        if os.path.isdir(cand) and any(os.path.exists(os.path.join(cand, f)) for f in files):
            return cand
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
    m = re.search(r"(\d{4}-\d{2}-\d{2})", os.path.basename(os.path.normpath(results_dir)))
    return m.group(1) if m else os.path.basename(os.path.normpath(results_dir))


def by_key(rows, *keys):
    """{(row[k1], row[k2], ...): row}; the last row wins for duplicates."""
    return {tuple(r.get(k) for k in keys): r for r in rows}


def size_label(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= (1 << shift) and n % (1 << shift) == 0:
            return "%d %siB" % (n >> shift, unit)
    return "%d B" % n
