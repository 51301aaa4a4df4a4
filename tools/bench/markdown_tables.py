"""How the generated tables of docs/benchmarks.md are written, one way for all
(update_tables.py and the *_tables.py modules it renders): numbers, percentages,
verdicts, the table itself, the "Measured on" lines of a run, and a section made
from what a results set holds.
"""
import functools

import bench_results as br

QUICK_NOTE = " — a `--quick` smoke run, not for quoting"


def num(x, digits=3):
    if x is None:
        return "—"
    if x == 0:
        return "0"
    if abs(x) >= 10 ** digits:
        return "%.0f" % x
    return "%.*g" % (digits, x)


def pct(x):
    return "—" if x is None else "%.0f%%" % (100 * x)


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def verdict(ok):
    if ok is None:
        return "—"
    return "met" if ok else "**missed**"


def short(n):
    return br.size_label(n).replace(" ", "")


def targets_table(first, out):
    """The targets (rows of target, measured, verdict) under a first column named first."""
    if not out:
        return "(nothing measured in this run)"
    return table([first, "measured (median)", "verdict"], out)


MACHINE_LABELS = {"nproc": "CPUs (`nproc`)", "cpu_model": "CPU model", "memory": "memory", "kernel": "kernel",
                  "compiler": "compiler", "commit": "upcemu commit", "mpi": "MPI peer"}


def machine_lines(date, where, m, keys, **labels):
    """'Measured on DATE (WHERE)' and the keys of machine.txt m, in that order,
    as a two-column table (labelled by MACHINE_LABELS unless labels names them;
    a missing key shown as '?')."""
    return ["Measured on **%s** (`%s`)%s." % (date, where, QUICK_NOTE if m.get("quick") == "1" else ""),
            "",
            "| | |", "|---|---|"] + ["| %s | %s |" % (labels.get(k, MACHINE_LABELS[k]), m.get(k, "?")) for k in keys]


def section(load, absent=None):
    """A section of the docs made from what load(results_dir) gives: the
    decorated function gets that instead of the folder; where it gives nothing
    (None or no rows) the section is absent (None: left as it is)."""
    def wrap(make):
        @functools.wraps(make)
        def made(d):
            data = load(d)
            if data is None or data == []:
                return absent
            return make(data)
        return made
    return wrap
