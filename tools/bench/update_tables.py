#!/usr/bin/env python3
"""Rewrites the generated tables of docs/benchmarks.md from the results sets.

    tools/bench/update_tables.py [RESULTS_DIR] [--doc docs/benchmarks.md] [--only PREFIX] [--check]

Only the text between '<!-- BEGIN AUTO:name -->' and '<!-- END AUTO:name -->' is
replaced; everything else in the document (the prose) is left alone. Sections:
run, targets, barrier, memops_threads, memops_processes, locks, privatised (the
microbenchmarks, from bench/results/microbenchmarks), coll_run, coll_targets,
coll_vs_mpi, coll_table21, coll_sync, coll_double, coll_bound, coll_auto (the
collectives, from bench/results/collectives, see coll_tables.py), upccoll_run,
upccoll_targets, upccoll_vs_mpi, upccoll_latency, upccoll_bound, upccoll_overlap
(UPC Collectives 2.0, from bench/results/upccoll, see upccoll_tables.py), and
startup_run, startup (from bench/results/startup, see startup_tables.py). With
no RESULTS_DIR every section reads its own set, so that one call regenerates
every table from the results the docs are made from (bench/results/README.md).
Given RESULTS_DIR (a run script's output), every section reads it instead; the
collective, upccoll and start-up sections are left untouched when it has none
of their results. --only PREFIX refreshes only the sections whose name starts
with PREFIX (run_coll.sh: --only coll; run_upccoll.sh: --only upccoll;
run_startup.sh: --only startup). With --check, prints the document instead of
writing it; with --verify, writes nothing and exits 1 naming each section whose
text is not what the results give (the test that the docs match bench/results).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_results as br  # noqa: E402
import coll_tables  # noqa: E402
import startup_tables  # noqa: E402
import upccoll_tables  # noqa: E402
from markdown_tables import machine_lines, num, section, table, targets_table, verdict  # noqa: E402


def section_run(d):
    return "\n".join(machine_lines(br.results_date(d), os.path.relpath(d, ROOT), br.load_machine(d),
                                   ("nproc", "cpu_model", "memory", "kernel", "compiler", "commit", "mpi"),
                                   cpu_model="CPU model (`/proc/cpuinfo`)"))


def measured(bench):
    """A section made from the rows of BENCH.jsonl: '(not measured in this run)' without any."""
    return section(lambda d: br.load_rows(d, bench), "(not measured in this run)")


def by_backend_and_threads(rows, field, values):
    """(backend, THREADS, [the row whose field is each of values, or None]) for
    the threads, then the processes backend, THREADS counts ascending."""
    t = br.by_key(rows, "backend", "threads", field)
    for backend in ("threads", "processes"):
        for n in sorted({r["threads"] for r in rows if r["backend"] == backend}):
            yield backend, n, [t.get((backend, n, v)) for v in values]


def barrier_tables(d):
    rows = br.load_rows(d, "barrier_latency")
    return rows, br.by_key(rows, "backend", "threads")


@measured("barrier_latency")
def section_barrier(rows):
    t = br.by_key(rows, "backend", "threads")
    counts = sorted({r["threads"] for r in rows})
    out = []
    for n in counts:
        th, pr, mpi = t.get(("threads", n)), t.get(("processes", n)), t.get(("mpi", n))
        ref = br.SPIN_YIELD_REFERENCE_US.get(n)
        ompi_ref = br.OPEN_MPI_REFERENCE_US.get(n)
        med = lambda r: r["median_us"] if r else None  # noqa: E731
        rng = lambda r: "%s–%s" % (num(r["min_us"]), num(r["max_us"])) if r else "—"  # noqa: E731
        out.append([n, num(med(th)), rng(th), num(med(pr)), rng(pr), num(med(mpi)), rng(mpi),
                    num(ref) if ref else "—",
                    num(med(th) / ref) if th and ref else "—",
                    num(med(th) / med(mpi)) if th and mpi else "—",
                    num(med(pr) / med(mpi)) if pr and mpi else "—",
                    num(ompi_ref) if ompi_ref else "—"])
    return table(["THREADS", "threads µs", "(min–max)", "processes µs", "(min–max)", "Open MPI µs", "(min–max)",
                  "target µs (spin-then-yield)", "threads / target", "threads / MPI", "processes / MPI",
                  "issue's Open MPI 4.1 µs"], out)


def section_memops(d, backend):
    rows = [r for r in br.load_rows(d, "memops_bandwidth") if r["backend"] == backend]
    if not rows:
        return "(not measured in this run)"
    t = br.by_key(rows, "op", "where", "bytes")
    sizes = sorted({r["bytes"] for r in rows})
    cols = [(op, w) for op in ("upc_memcpy", "upc_memget", "upc_memput") for w in ("local", "remote")
            if any(r["op"] == op and r["where"] == w for r in rows)]
    out = []
    for s in sizes:
        base = t.get(("memcpy", "private", s))
        out.append([br.size_label(s), num(base["median_gbps"]) if base else "—"] +
                   [num(t[(op, w, s)]["ratio_vs_memcpy"]) if (op, w, s) in t else "—" for op, w in cols])
    threads = rows[0]["threads"]
    note = ("THREADS=%d, every thread transferring at once; GB/s per thread; the other columns are "
            "median bandwidth / median std::memcpy bandwidth at that size.\n\n" % threads)
    return note + table(["size", "memcpy GB/s"] + ["%s %s" % cw for cw in cols], out)


@measured("lock_throughput")
def section_locks(rows):
    out = []
    for backend, n, (c, u, p) in by_backend_and_threads(rows, "mode", ("contended", "uncontended", "pthread_contended")):
        mp = lambda r: num(r["median_pairs_per_s"] / 1e6) if r else "—"  # noqa: E731
        out.append([backend, n, mp(c), num(c["ns_per_pair"]) if c else "—", mp(u), mp(p),
                    num(c.get("ratio_vs_pthread") or c["median_pairs_per_s"] / p["median_pairs_per_s"]) if c and p else "—"])
    return table(["backend", "THREADS", "contended Mpairs/s", "contended ns/pair/thread", "uncontended Mpairs/s",
                  "pthread mutex Mpairs/s", "contended / pthread"], out)


@measured("privatised_sum")
def section_privatised(rows):
    out = []
    for backend, n, (s, p, q) in by_backend_and_threads(rows, "method", ("shared", "privatised", "plain")):
        us = lambda r: num(r["median_us"]) if r else "—"  # noqa: E731
        out.append([backend, n, us(s), us(p), us(q), num(s["ratio_vs_plain"]) if s else "—",
                    num(p["ratio_vs_plain"]) if p else "—",
                    verdict(p["ratio_vs_plain"] <= br.PRIVATISED_TARGET_RATIO) if p else "—"])
    return table(["backend", "THREADS", "shared x[i] µs", "privatised µs", "plain loop µs", "shared / plain",
                  "privatised / plain", "target ≤ 1.05"], out)


def section_targets(d):
    out = []
    rows, t = barrier_tables(d)
    if rows:
        for n in sorted(br.SPIN_YIELD_REFERENCE_US):
            r = t.get(("threads", n))
            ref = br.SPIN_YIELD_REFERENCE_US[n]
            out.append(["barrier, threads backend, THREADS=%d ≤ %s µs" % (n, num(ref)),
                        "%s µs" % num(r["median_us"]) if r else "—", verdict(r["median_us"] <= ref) if r else "—"])
        for backend in ("threads", "processes"):
            counts = sorted(n for (b, n) in t if b == backend and ("mpi", n) in t and n <= br.BARRIER_TARGET_MAX_THREADS)
            if not counts:
                out.append(["barrier, %s backend < Open MPI" % backend, "no MPI rows in this run", "—"])
                continue
            missed = [n for n in counts if t[(backend, n)]["median_us"] >= t[("mpi", n)]["median_us"]]
            worst = max(counts, key=lambda n: t[(backend, n)]["median_us"] / t[("mpi", n)]["median_us"])
            out.append(["barrier, %s backend < Open MPI at THREADS %s" % (backend, ", ".join(map(str, counts))),
                        "worst ratio %s at %d%s" % (num(t[(backend, worst)]["median_us"] / t[("mpi", worst)]["median_us"]),
                                                    worst, "; missed at " + ", ".join(map(str, missed)) if missed else ""),
                        verdict(not missed)])
    mem = br.load_rows(d, "memops_bandwidth")
    for backend in ("threads", "processes"):
        big = [r for r in mem if r["backend"] == backend and r["op"] == "upc_memcpy" and r["bytes"] >= br.MEMCPY_TARGET_MIN_BYTES]
        if big:
            worst = min(big, key=lambda r: r["ratio_vs_memcpy"])
            out.append(["upc_memcpy ≥ 0.90 × memcpy at ≥ 1 MiB, %s backend" % backend,
                        "lowest %s (%s %s)" % (num(worst["ratio_vs_memcpy"]), worst["where"], br.size_label(worst["bytes"])),
                        verdict(worst["ratio_vs_memcpy"] >= br.MEMCPY_TARGET_RATIO)])
    priv = [r for r in br.load_rows(d, "privatised_sum") if r["method"] == "privatised"]
    if priv:
        worst = max(priv, key=lambda r: r["ratio_vs_plain"])
        out.append(["privatised loop ≤ 1.05 × plain loop",
                    "highest %s (%s, THREADS=%d)" % (num(worst["ratio_vs_plain"]), worst["backend"], worst["threads"]),
                    verdict(worst["ratio_vs_plain"] <= br.PRIVATISED_TARGET_RATIO)])
    return targets_table("target (issue 2)", out)


SECTIONS = {
    "run": section_run,
    "targets": section_targets,
    "barrier": section_barrier,
    "memops_threads": lambda d: section_memops(d, "threads"),
    "memops_processes": lambda d: section_memops(d, "processes"),
    "locks": section_locks,
    "privatised": section_privatised,
}
# The results set (bench/results/NAME) each section is made from, and the script that writes it.
SECTION_SETS = {name: ("microbenchmarks", "run_micro.sh") for name in SECTIONS}
for sections, made_by in ((coll_tables.SECTIONS, ("collectives", "run_coll.sh")),
                          (upccoll_tables.SECTIONS, ("upccoll", "run_upccoll.sh")),
                          (startup_tables.SECTIONS, ("startup", "run_startup.sh"))):
    SECTIONS.update(sections)
    SECTION_SETS.update({name: made_by for name in sections})

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results_dir", nargs="?", help="default: each section's own bench/results set")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    ap.add_argument("--only", default="", help="refresh only the sections whose name starts with this")
    ap.add_argument("--check", action="store_true", help="print the updated document instead of writing it")
    ap.add_argument("--verify", action="store_true", help="exit 1 when a section differs from what the results give")
    args = ap.parse_args()
    with open(args.doc) as f:
        text = f.read()
    stale = []
    for name, make in SECTIONS.items():
        if not name.startswith(args.only):
            continue
        pattern = re.compile(r"(<!-- BEGIN AUTO:%s -->\n).*?(<!-- END AUTO:%s -->)" % (name, name), re.S)
        found = pattern.search(text)
        if not found:
            print("update_tables.py: %s has no AUTO:%s markers; skipped" % (args.doc, name), file=sys.stderr)
            continue
        d = os.path.abspath(args.results_dir) if args.results_dir else br.results_set(ROOT, *SECTION_SETS[name])
        body = make(d)
        if body is None:  # nothing of this kind in RESULTS_DIR: leave the section as it is
            continue
        if found.group(0) != found.group(1) + body + "\n" + found.group(2):
            stale.append("%s: AUTO:%s is not what %s gives" % (os.path.relpath(args.doc), name, os.path.relpath(d)))
        text = pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)
    if args.verify:
        for line in stale:
            print(line)
        if stale:
            print("tools/bench/update_tables.py rewrites them from the results; a hand edit between AUTO markers is lost")
            sys.exit(1)
        print("%s: every AUTO section is what its results give" % os.path.relpath(args.doc))
    elif args.check:
        sys.stdout.write(text)
    else:
        with open(args.doc, "w") as f:
            f.write(text)
        print("updated", os.path.relpath(args.doc))


if __name__ == "__main__":
    main()
