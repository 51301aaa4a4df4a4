"""The collective tables of docs/benchmarks.md (issue 3), rendered by
tools/bench/update_tables.py between '<!-- BEGIN AUTO:coll_* -->' markers.

Every section takes a results directory (bench/results/collectives for the
docs) and returns markdown, or None when that directory has no collective
results, so that refreshing the other tables from another set leaves these
sections alone. "Ours" is auto (what a user gets), ALLSYNC, unless a
column says otherwise; ratios against Open MPI are throughput ratios, that is
MPI's median time / ours at the same block size and process count.
"""
import os

import coll_results as cr
from markdown_tables import machine_lines, num, pct, section, short, table, targets_table, verdict


def rel(path):
    return os.path.relpath(path, ROOT) if ROOT else path


def large_sizes(res, coll, minimum):
    return [s for s in res.sizes(coll) if s >= minimum]


def worst_vs_mpi(res, coll, backend, n, sizes, *which):
    """(lowest ratio, its size) over sizes, or (None, None); which goes to res.ours()."""
    pts = [(res.vs_mpi(coll, backend, n, s, *which), s) for s in sizes]
    pts = [p for p in pts if p[0] is not None]
    return min(pts) if pts else (None, None)


def worst_over_threads(res, coll, sizes):
    """(lowest ratio, its size, its THREADS) on the threads backend over every
    THREADS count and sizes(n), or None where nothing was measured."""
    worst = None
    for n in res.thread_counts():
        r, s = worst_vs_mpi(res, coll, "threads", n, sizes)
        if r is not None and (worst is None or r < worst[0]):
            worst = (r, s, n)
    return worst


def run_lines(res, rows):
    """The start of a *_run section: where and when the run was made, and its
    machine.txt as a table, with rows (label, value) between the machine and the
    load average."""
    m = res.machine
    lines = machine_lines(m.get("date", "?")[:10], rel(res.dir), m,
                          ("nproc", "cpu_model", "memory", "compiler", "commit", "mpi"))
    lines += ["| %s | %s |" % row for row in rows]
    lines += [
        "| load average (1/5/15 min) at start → end | %s → %s |" % (m.get("load_at_start", "?"), m.get("load_at_end", "?")),
        "| duration | %s s |" % m.get("duration_s", "?"),
    ]
    return lines


def sweep_rows(m):
    """The run_lines rows of the size sweep and its timing (machine.txt m)."""
    return [("sizes", "`%s`, `--max-moved=%s`" % (m.get("sizes", "?"), m.get("max_moved", "?"))),
            ("timing", "`%s`" % m.get("timing", "?"))]


def wrong_lines(res, describe):
    """The note on the rows verified wrong (the first ten, describe(row) each), or []."""
    if not res.wrong:
        return []
    return ["", "**%d rows verified wrong** (left out of every table): %s" % (
        len(res.wrong), ", ".join(describe(r) for r in res.wrong[:10]))]


@section(cr.load)
def section_coll_run(res):
    m = res.machine
    lines = run_lines(res, [("THREADS (ranks)", m.get("threads", "?"))] + sweep_rows(m))
    algos = ["`%s`: %s" % (c, m["algorithms_" + c]) for c in cr.COLLECTIVES if "algorithms_" + c in m]
    if algos:
        lines.append("| algorithms measured | %s |" % "; ".join(algos))
    lines += wrong_lines(res, lambda r: "%s %s %s THREADS=%d %s" % (r["coll"], r["backend"], r.get("algo"), r["threads"],
                                                                   short(r["nbytes"])))
    return "\n".join(lines)


@section(cr.load)
def section_coll_targets(res):
    out = []
    have_mpi = bool(res.mpi)
    for coll in res.collectives():
        if not have_mpi:
            break
        for label, sizes in (("1 KiB", [cr.MPI_TARGET_SMALL]), ("≥ 64 KiB", large_sizes(res, coll, cr.MPI_TARGET_LARGE_MIN))):
            worst = worst_over_threads(res, coll, sizes)
            if worst is None:
                out.append(["%s ≥ 100%% of %s at %s, threads backend" % (coll, cr.MPI_CALL[coll], label), "not measured", "—"])
                continue
            out.append(["%s ≥ 100%% of %s at %s, threads backend" % (coll, cr.MPI_CALL[coll], label),
                        "lowest %s (%s, THREADS=%d)" % (pct(worst[0]), short(worst[1]), worst[2]),
                        verdict(worst[0] >= cr.MPI_TARGET_RATIO)])
    for coll in cr.BOUND_COLLECTIVES:
        if coll not in res.collectives():
            continue
        pts = [(res.ours(coll, "threads", n, s), s, n) for n in res.thread_counts() for s in large_sizes(res, coll, cr.BOUND_TARGET_MIN)]
        pts = [(r["ratio_vs_bound"], s, n) for r, s, n in pts if r and r.get("ratio_vs_bound") is not None]
        if not pts:
            continue
        worst = min(pts)
        out.append(["%s ≥ 0.7 × memcpy bound from 1 MiB, threads backend" % coll,
                    "lowest %s (%s, THREADS=%d)" % (num(worst[0]), short(worst[1]), worst[2]),
                    verdict(worst[0] >= cr.BOUND_TARGET_RATIO)])
    for coll in res.collectives():
        ratios = []
        for backend in res.backends():
            for n in res.thread_counts():
                for s in cr.SYNC_SIZES:
                    a, m = res.sync.get((coll, backend, n, s, "allsync")), res.sync.get((coll, backend, n, s, "mysync"))
                    if a and m:
                        ratios.append((m["median_us"] / a["median_us"], backend, n, s))
        if not ratios:
            continue
        worst = max(ratios)
        values = sorted(r[0] for r in ratios)
        k = len(values)
        median = values[k // 2] if k % 2 else (values[k // 2 - 1] + values[k // 2]) / 2
        out.append(["%s MYSYNC ≤ %.1f × ALLSYNC at 8 B and 1 KiB (median over THREADS, backends, sizes)"
                    % (coll, cr.SYNC_VISIBLE_RATIO),
                    "median %s; highest %s (%s, THREADS=%d, %s)" % (num(median), num(worst[0]), worst[1], worst[2],
                                                                   short(worst[3])),
                    verdict(median <= cr.SYNC_VISIBLE_RATIO)])
    return targets_table("target (issue 3)", out)


@section(cr.load)
def section_coll_vs_mpi(res):
    if not res.mpi:
        return "(the Open MPI peer was not run)"
    counts = res.thread_counts()
    header = ["collective", "backend"] + ["1 KiB, %d" % n for n in counts] + ["≥ 64 KiB lowest, %d" % n for n in counts] + \
             ["≥ 64 KiB fastest algorithm lowest, %d" % n for n in counts]
    rows = []
    for coll in res.collectives():
        large = large_sizes(res, coll, cr.MPI_TARGET_LARGE_MIN)
        for backend in res.backends():
            row = [coll, backend]
            row += [pct(res.vs_mpi(coll, backend, n, cr.MPI_TARGET_SMALL)) for n in counts]
            for which in ("auto", "best"):
                for n in counts:
                    r, s = worst_vs_mpi(res, coll, backend, n, large, which)
                    row.append("—" if r is None else "%s (%s)" % (pct(r), short(s)))
            rows.append(row)
    note = ("Our throughput as a percentage of Open MPI's at the same block size and process count "
            "(MPI's median µs / ours); columns are THREADS. \"≥ 64 KiB lowest\" is the worst size from 64 KiB up "
            "(in parentheses). ALLSYNC, auto unless the column says fastest algorithm.\n\n")
    return note + table(header, rows)


@section(cr.load)
def section_coll_table21(res):
    if not res.mpi:
        return "(the Open MPI peer was not run)"
    header = ["collective", "size"] + ["threads, %d" % n for n in cr.TABLE21_THREADS] + \
             ["processes, %d" % n for n in cr.TABLE21_THREADS] + ["Open MPI µs here (%s)" % "/".join(map(str, cr.TABLE21_THREADS)),
                                                               "issue's Open MPI 4.1.4 µs"]
    rows = []
    for coll in cr.TABLE21_COLLECTIVES:
        for s in cr.TABLE21_SIZES:
            row = [coll, short(s)]
            for backend in ("threads", "processes"):
                row += [pct(res.vs_mpi(coll, backend, n, s)) for n in cr.TABLE21_THREADS]
            row.append(" / ".join(num(res.mpi[(coll, n, s)]["median_us"]) if (coll, n, s) in res.mpi else "—"
                                  for n in cr.TABLE21_THREADS))
            ref = cr.ISSUE_OPEN_MPI_US.get((coll, s), {})
            row.append(" / ".join(num(ref[n]) if n in ref else "—" for n in cr.TABLE21_THREADS) if ref else "—")
            rows.append(row)
    return table(header, rows)


@section(cr.load)
def section_coll_sync(res):
    if not res.sync:
        return "(the sync-flag sweep was not run)"
    counts = sorted({k[2] for k in res.sync})
    header = ["collective", "backend", "size"] + ["ALLSYNC µs, %d" % n for n in counts] + \
             ["MYSYNC / ALLSYNC, %d" % n for n in counts] + ["NOSYNC / ALLSYNC, %d" % n for n in counts]
    rows = []
    for coll in res.collectives():
        for backend in res.backends():
            for s in cr.SYNC_SIZES:
                a = [res.sync.get((coll, backend, n, s, "allsync")) for n in counts]
                if not any(a):
                    continue
                row = [coll, backend, short(s)] + [num(x["median_us"]) if x else "—" for x in a]
                for flags in ("mysync", "nosync"):
                    for n, x in zip(counts, a):
                        y = res.sync.get((coll, backend, n, s, flags))
                        row.append(num(y["median_us"] / x["median_us"]) if x and y else "—")
                rows.append(row)
    note = ("auto, µs per call (median) with IN/OUT_ALLSYNC, and the MYSYNC and NOSYNC times as a fraction of it, "
            "measured in the same process; columns are THREADS. Below 1 is cheaper.\n\n")
    return note + table(header, rows)


@section(cr.load)
def section_coll_double(res):
    if not res.double:
        return "(reductions on double were not run)"
    counts = sorted({k[2] for k in res.double})
    header = ["collective", "backend", "size"] + ["%% of Open MPI, %d" % n for n in counts] + \
             ["double / long time, %d" % n for n in counts]
    rows = []
    for coll in ("reduce", "prefix_reduce"):
        for backend in res.backends():
            for s in sorted({k[3] for k in res.double if k[0] == coll and k[1] == backend}):
                row = [coll, backend, short(s)]
                for n in counts:
                    o, m = res.double.get((coll, backend, n, s)), res.double.get((coll, "mpi", n, s))
                    row.append(pct(m["median_us"] / o["median_us"]) if o and m else "—")
                for n in counts:
                    o, lng = res.double.get((coll, backend, n, s)), res.auto.get((coll, backend, n, s))
                    row.append(num(o["median_us"] / lng["median_us"]) if o and lng else "—")
                rows.append(row)
    note = ("UPC_ADD on double, auto, ALLSYNC: our throughput as a percentage of the MPI peer's on MPI_DOUBLE, and our "
            "time on double over our time on long at the same size (the combination order is fixed, so a double sum "
            "cannot be reassociated or vectorised the way a long one can); columns are THREADS.\n\n")
    return note + table(header, rows)


@section(cr.load)
def section_coll_bound(res):
    colls = [c for c in cr.BOUND_COLLECTIVES if c in res.collectives()]
    sizes = sorted({s for c in colls for s in large_sizes(res, c, cr.BOUND_TARGET_MIN)})
    if not colls or not sizes:
        return "(no block of 1 MiB or more in this run)"
    header = ["collective", "backend", "THREADS"] + [short(s) for s in sizes] + ["fastest algorithm at %s" % short(sizes[-1])]
    rows = []
    for coll in colls:
        for backend in res.backends():
            for n in res.thread_counts():
                cells = [res.ours(coll, backend, n, s) for s in sizes]
                if not any(cells):
                    continue
                b = res.ours(coll, backend, n, sizes[-1], "best")
                rows.append([coll, backend, n] + [num(r["ratio_vs_bound"]) if r else "—" for r in cells] +
                            ["%s %s" % (b["algo"], num(b["ratio_vs_bound"])) if b else "—"])
    note = ("memcpy bound / the collective's median time (auto, ALLSYNC; 1 = as fast as the copies the collective "
            "must make, see `bench/collbench/coll_model.h`); columns are block sizes.\n\n")
    return note + table(header, rows)


@section(cr.load)
def section_coll_auto(res):
    rows = []
    for coll in res.collectives():
        for backend in res.backends():
            pts = []
            for (c, b, n, s), a in res.auto.items():
                best = res.best.get((c, b, n, s))
                if c == coll and b == backend and best:
                    pts.append((a["median_us"] / best["median_us"], n, s, a.get("ran", "?"), best["algo"]))
            if not pts:
                continue
            within = sum(1 for p in pts if p[0] <= 1.1)
            worst = max(pts)
            algos = sorted({r["algo"] for r in res.rows if r["coll"] == coll and r["backend"] == backend and r["algo"] != "auto"})
            rows.append([coll, backend, ", ".join(algos), "%d / %d" % (within, len(pts)),
                         "%s (THREADS=%d, %s: ran %s, fastest %s)" % (num(worst[0]), worst[1], short(worst[2]), worst[3], worst[4])])
    if not rows:
        return "(no forced algorithms measured)"
    note = ("How close auto comes to the fastest registered algorithm at each measured (THREADS, size) point: "
            "auto time / fastest time, ALLSYNC. Noise alone makes a few points exceed 1.1 on a busy machine.\n\n")
    return note + table(["collective", "backend", "algorithms", "points within 1.1×", "worst auto / fastest"], rows)


SECTIONS = {
    "coll_run": section_coll_run,
    "coll_targets": section_coll_targets,
    "coll_vs_mpi": section_coll_vs_mpi,
    "coll_table21": section_coll_table21,
    "coll_sync": section_coll_sync,
    "coll_double": section_coll_double,
    "coll_bound": section_coll_bound,
    "coll_auto": section_coll_auto,
}

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
