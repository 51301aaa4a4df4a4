"""The UPC Collectives 2.0 tables of docs/benchmarks.md, rendered by
tools/bench/update_tables.py between '<!-- BEGIN AUTO:upccoll_* -->' markers
(run_upccoll.sh calls it with --only upccoll).

Every section takes a results directory (bench/results/upccoll for the docs)
and returns markdown, or None when that directory has no UPC Collectives 2.0
results, so that refreshing other tables leaves these alone. "Ours" is the
upccoll_* call on UPC_TEAM_ALL, blocking, flags 0 (MYSYNC); ratios against Open
MPI are throughput ratios, MPI's median time / ours at the same block size and
process count.
"""
import upccoll_results as ur
from coll_tables import run_lines, sweep_rows, worst_over_threads, worst_vs_mpi, wrong_lines
from markdown_tables import num, pct, section, short, table, targets_table, verdict


def large_sizes(res, coll):
    return [s for s in res.sizes(coll) if s >= ur.MPI_TARGET_LARGE_MIN]


def target_sizes(res, coll, which):
    """The sizes a target looks at: the barrier has one (0)."""
    if coll == "barrier":
        return [0]
    return [ur.MPI_TARGET_SMALL] if which == "small" else large_sizes(res, coll)


@section(ur.load)
def section_upccoll_run(res):
    m = res.machine
    lines = run_lines(res, [("backends", m.get("backends", "?")), ("THREADS (ranks), blocking", m.get("threads", "?"))] +
                      sweep_rows(m) +
                      [("overlap", "THREADS %s, `%s`" % (m.get("overlap_threads", "?"), m.get("overlap_args", "?")))])
    lines += wrong_lines(res, lambda r: "%s %s THREADS=%d %s" % (r["coll"], r["backend"], r["threads"], short(r["nbytes"])))
    return "\n".join(lines)


@section(ur.load)
def section_upccoll_targets(res):
    out = []
    if res.has_mpi():
        for coll in res.collectives():
            labels = (("every THREADS", "small"),) if coll == "barrier" else (("1 KiB", "small"), ("≥ 64 KiB", "large"))
            for label, which in labels:
                worst = worst_over_threads(res, coll, target_sizes(res, coll, which))
                name = "%s ≥ 100%% of %s at %s, threads backend" % (coll, ur.MPI_CALL[coll], label)
                if worst is None:
                    out.append([name, "not measured", "—"])
                    continue
                where = "THREADS=%d" % worst[2] if coll == "barrier" else "%s, THREADS=%d" % (short(worst[1]), worst[2])
                out.append([name, "lowest %s (%s)" % (pct(worst[0]), where), verdict(worst[0] >= ur.MPI_TARGET_RATIO)])
    for impl in res.overlap_impls():
        for coll in ur.OVERLAP_COLLECTIVES:
            for test in (False, True):
                pts = [r for r in res.overlap_rows if (r["impl"], r["progress"]) == impl and r["coll"] == coll and
                       bool(r["test"]) == test and r["factor"] >= ur.OVERLAP_MIN_FACTOR]
                if not pts:
                    continue
                ok = sum(1 for r in pts if r["hidden_pct"] >= ur.OVERLAP_TARGET_PCT)
                worst = min(pts, key=lambda r: r["hidden_pct"])
                out.append(["%s hides ≥ 50%% when t_comp ≥ t_coll: %s%s" % (
                    coll, ur.OVERLAP_LABEL[impl], ", testing every %g µs" % worst["test_us"] if test else ""),
                    "%d / %d points; lowest %.0f%% (%s, %s, THREADS=%d, t_comp %.2g × t_coll)" % (
                        ok, len(pts), worst["hidden_pct"], worst["compute"], short(worst["nbytes"]), worst["threads"],
                        worst["comp_ratio"]),
                    verdict(ok == len(pts))])
    return targets_table("target", out)


@section(ur.load)
def section_upccoll_vs_mpi(res):
    if not res.has_mpi():
        return "(the Open MPI peer was not run)"
    counts = res.thread_counts()
    header = ["collective", "backend"] + ["1 KiB, %d" % n for n in counts] + ["≥ 64 KiB lowest, %d" % n for n in counts]
    rows = []
    for coll in res.collectives():
        for backend in res.backends():
            row = [coll, backend]
            if coll == "barrier":
                row += [pct(res.vs_mpi(coll, backend, n, 0)) for n in counts] + ["(no size)" for _ in counts]
            else:
                row += [pct(res.vs_mpi(coll, backend, n, ur.MPI_TARGET_SMALL)) for n in counts]
                for n in counts:
                    r, s = worst_vs_mpi(res, coll, backend, n, large_sizes(res, coll))
                    row.append("—" if r is None else "%s (%s)" % (pct(r), short(s)))
            rows.append(row)
    note = ("Our throughput as a percentage of Open MPI's at the same block size and process count "
            "(MPI's median µs / ours); columns are THREADS. \"≥ 64 KiB lowest\" is the worst size from 64 KiB up "
            "(in parentheses); the barrier has no size, its 1 KiB columns hold its only point.\n\n")
    return note + table(header, rows)


def ours_and_mpi(res, colls, sizes, field):
    """field of our row (threads backend) and of Open MPI's, a pair of columns per
    size, a row per collective and THREADS; the barrier's only point (size 0) in
    the first pair."""
    header = ["collective", "THREADS"]
    for s in sizes:
        header += ["%s ours" % short(s), "%s MPI" % short(s)]
    rows = []
    for coll in colls:
        for n in res.thread_counts():
            row = [coll, n]
            for s in ([0] if coll == "barrier" else sizes):
                o, m = res.ours(coll, "threads", n, s), res.mpi(coll, n, s)
                row += [num(o.get(field)) if o else "—", num(m.get(field)) if m else "—"]
            if coll == "barrier":
                row += ["" for _ in range(2 * (len(sizes) - 1))]
            rows.append(row)
    return table(header, rows)


LATENCY_SIZES = [8, 1 << 10, 64 << 10, 1 << 20]


@section(ur.load)
def section_upccoll_latency(res):
    sizes = LATENCY_SIZES + ([max(res.sizes())] if res.sizes() and max(res.sizes()) > LATENCY_SIZES[-1] else [])
    note = ("µs per call (median over rounds; latest end − earliest start across threads, divided by the calls), "
            "threads backend and Open MPI; columns are block sizes per thread (the barrier's only point is in the "
            "first pair; `—`: not measured, e.g. above `--max-moved`).\n\n")
    return note + ours_and_mpi(res, res.collectives(), sizes, "median_us")


@section(ur.load)
def section_upccoll_bound(res):
    colls = [c for c in res.collectives() if c != "barrier"]
    sizes = [s for s in (1 << 20, max(res.sizes() or [0])) if s >= 1 << 20]
    sizes = sorted(set(sizes))
    if not colls or not sizes:
        return "(no block of 1 MiB or more in this run)"
    note = ("memcpy bound / median time (1 = as fast as min(THREADS, CPUs) threads making the collective's block "
            "copies with memcpy, see `bench/collbench/upccoll_model.h`), threads backend and Open MPI.\n\n")
    return note + ours_and_mpi(res, colls, sizes, "ratio_vs_bound")


@section(ur.load)
def section_upccoll_overlap(res):
    impls = res.overlap_impls()
    if not impls:
        return "(the overlap benchmark was not run)"
    names = {("upccoll", "inline"): "inline", ("upccoll", "thread"): "thread", ("mpi", "mpi"): "MPI"}
    header = ["collective", "THREADS", "size", "compute", "t_comp / t_coll"] + \
             ["t_coll µs, %s" % names[i] for i in impls] + \
             ["hidden, %s" % names[i] for i in impls] + ["hidden with tests, %s" % names[i] for i in impls]
    rows = []
    for (coll, n, s, kind, f) in res.overlap_points():
        row = [coll, n, short(s), kind, "%g" % f]
        cells = {i: (res.overlap_row(i, coll, n, s, kind, f, False), res.overlap_row(i, coll, n, s, kind, f, True))
                 for i in impls}
        row += [num(cells[i][0]["t_coll_us"]) if cells[i][0] else "—" for i in impls]
        for t in (0, 1):
            for i in impls:
                r = cells[i][t]
                row.append("%.0f%% (%.2g×)" % (r["hidden_pct"], r["comp_ratio"]) if r else "—")
        rows.append(row)
    note = ("hidden = (t_coll + t_comp − t_overlap) / t_coll from the medians over rounds, in percent (100: the "
            "whole collective disappears behind the computation; 0: none; below 0: overlapping costs more than doing "
            "one after the other); in parentheses the measured t_comp / t_coll, the target being the "
            "t_comp / t_coll column. inline: the library's default progress; thread: "
            "`UPCEMU_UPCCOLL_PROGRESS=thread`; MPI: `MPI_Iallreduce` / `MPI_Ialltoall` + `MPI_Wait`. "
            "\"with tests\": `upccoll_test` / `MPI_Test` every ~10 µs of the computation.\n\n")
    return note + table(header, rows)


SECTIONS = {
    "upccoll_run": section_upccoll_run,
    "upccoll_targets": section_upccoll_targets,
    "upccoll_vs_mpi": section_upccoll_vs_mpi,
    "upccoll_latency": section_upccoll_latency,
    "upccoll_bound": section_upccoll_bound,
    "upccoll_overlap": section_upccoll_overlap,
}
