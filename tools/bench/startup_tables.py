"""The start-up tables of docs/benchmarks.md (issue 8, item 13), rendered by
tools/bench/update_tables.py between '<!-- BEGIN AUTO:startup* -->' markers from
RESULTS_DIR/startup_time.jsonl and machine.txt (tools/bench/run_startup.sh; the
docs' set is bench/results/startup). Each section returns None when that file is
missing, so refreshing other tables leaves these alone.
"""
import os

import bench_results as br
from markdown_tables import QUICK_NOTE, num, section, table

# Wall time of hello in seconds before the start gate, as measured in issue 8
# (item 13) on this kind of machine; None: did not finish in 120 s.
BEFORE_ISSUE_8 = {("processes", 512): 1.8, ("processes", 1024): 6.4, ("processes", 2048): 39.5,
                  ("processes", 4096): None, ("threads", 4096): 5.3}


def section_startup_run(d):
    if not br.load_rows(d, "startup_time"):
        return None
    m = br.load_machine(d)
    return "\n".join([
        "Measured on **%s** (`%s`)%s: %s CPUs (%s), %s, %s, commit %s; load average before the run %s." % (
            br.results_date(d), os.path.relpath(d, ROOT),
            QUICK_NOTE if m.get("quick") == "1" else "",
            m.get("nproc", "?"), m.get("cpu_model", "?"), m.get("kernel", "?"), m.get("compiler", "?"),
            m.get("commit", "?"), m.get("load", "?")),
    ])


@section(lambda d: br.load_rows(d, "startup_time"))
def section_startup(rows):
    t = br.by_key(rows, "backend", "threads")
    out = []
    for n in sorted({r["threads"] for r in rows}):
        th, pr = t.get(("threads", n)), t.get(("processes", n))
        med = lambda r: num(r["median_s"]) if r else "—"  # noqa: E731
        rng = lambda r: "%s–%s" % (num(r["min_s"]), num(r["max_s"])) if r else "—"  # noqa: E731

        def before(backend):
            key = (backend, n)
            if key not in BEFORE_ISSUE_8:
                return "—"
            return "> 120" if BEFORE_ISSUE_8[key] is None else num(BEFORE_ISSUE_8[key])
        out.append([n, med(th), rng(th), before("threads"), med(pr), rng(pr), before("processes"),
                    num(pr["median_s"] / th["median_s"]) if th and pr else "—"])
    return table(["THREADS", "threads s", "(min–max)", "threads s before", "processes s", "(min–max)",
                  "processes s before", "processes / threads"], out)


SECTIONS = {
    "startup_run": section_startup_run,
    "startup": section_startup,
}

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
