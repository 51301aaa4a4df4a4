#!/usr/bin/env python3
"""Tables of tools/bench/run_hosts_vs_mpi.sh's results (docs/benchmarks.md,
"The mpi backend across hosts").

    hosts_vs_mpi_tables.py DIR    # DIR holds memops.jsonl, nas.jsonl, coll.jsonl (and barrier.jsonl)

Every row is tagged with hosts, round and impl (upcemu: this build; before:
the build given to --before; mpi: the MPI peers). A figure is the median over
rounds of each round's figure; a ratio is the median over rounds of that
round's ratio, so both sides of it ran on the same machine state.
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import bench_results as br
import markdown_tables as mt


def rows(path):
    if not Path(path).exists():
        return []
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip().startswith("{")]


size = br.size_label


def table(head, lines):
    print(mt.table(head, lines))
    print()


def med(values):
    return statistics.median(values) if values else None


def fmt(v, digits=3):
    return "–" if v is None else f"{v:.{digits}g}"


def by_round(values, key):
    """{round: value} of the rows that match key (a dict of field values)."""
    return {r["round"]: r for r in values if all(r.get(k) == v for k, v in key.items())}


def ratio_median(num, den, field):
    """Median over the rounds both have of num[round][field] / den[round][field]."""
    out = [num[k][field] / den[k][field] for k in num if k in den and den[k][field] and num[k][field]]
    return med(out)


def memops_tables(memops):
    have_before = any(r["impl"] == "before" for r in memops)
    for hosts in sorted({r["hosts"] for r in memops}):
        rs = [r for r in memops if r["hosts"] == hosts]
        print(f"**upc_memget / upc_memput against MPI, {hosts} hosts, one rank each** "
              "(GB/s per rank, every rank at once, to the neighbour on the next host; "
              "median of the rounds' medians; ratios: MPI / upcemu, per round)\n")
        head = ["upcemu op", "bytes", "upcemu"] + (["before"] if have_before else []) + \
               ["MPI op", "MPI", "ping-pong", "MPI / upcemu", "ping-pong / upcemu"] + \
               (["MPI / before"] if have_before else [])
        lines = []
        for upc_op, mpi_op in (("upc_memget", "MPI_Get"), ("upc_memput", "MPI_Put")):
            for b in sorted({r["bytes"] for r in rs if r.get("op") == upc_op}):
                u = by_round(rs, {"impl": "upcemu", "op": upc_op, "bytes": b, "where": "remote"})
                old = by_round(rs, {"impl": "before", "op": upc_op, "bytes": b, "where": "remote"})
                m = by_round(rs, {"impl": "mpi", "op": mpi_op, "bytes": b})
                p = by_round(rs, {"impl": "mpi", "op": "pingpong", "bytes": b})
                g = lambda d: med([x["median_gbps"] for x in d.values()])
                line = [upc_op, size(b), fmt(g(u))] + ([fmt(g(old))] if have_before else []) + \
                       [mpi_op, fmt(g(m)), fmt(g(p)), fmt(ratio_median(m, u, "median_gbps"), 2) + "×",
                        fmt(ratio_median(p, u, "median_gbps"), 2) + "×"]
                if have_before:
                    line.append(fmt(ratio_median(m, old, "median_gbps"), 2) + "×")
                lines.append(line)
        table(head, lines)


def nas_tables(nas):
    have_before = any(r["impl"] == "before" for r in nas)
    for hosts in sorted({r["hosts"] for r in nas}):
        rs = [r for r in nas if r["hosts"] == hosts]
        threads = sorted({r["threads"] for r in rs})
        print(f"**NAS IS and FT, {hosts} hosts, {'/'.join(map(str, threads))} ranks** (seconds as NPB reports them, "
              "median over rounds; MPI: its fastest variant in each round; ratio: upcemu / MPI, per round)\n")
        head = ["app", "class", "upcemu variant", "upcemu s"] + (["before s"] if have_before else []) + \
               ["MPI s (variant)", "upcemu / MPI"] + (["before / MPI"] if have_before else [])
        lines = []
        unverified = [r for r in rs if not r.get("verified")]
        for app in sorted({r["app"] for r in rs}):
            for cls in sorted({r["class"] for r in rs if r["app"] == app}):
                sel = [r for r in rs if r["app"] == app and r["class"] == cls]
                # MPI's fastest variant, per round
                best = {}
                for r in sel:
                    if r["impl"] == "mpi" and (r["round"] not in best or r["time_s"] < best[r["round"]]["time_s"]):
                        best[r["round"]] = r
                mpi_variants = sorted({r["variant"] for r in best.values()})
                for variant in sorted({r["variant"] for r in sel if r["impl"] == "upcemu"}):
                    u = by_round(sel, {"impl": "upcemu", "variant": variant})
                    old = by_round(sel, {"impl": "before", "variant": variant})
                    t = lambda d: med([x["time_s"] for x in d.values()])
                    line = [app.upper(), cls, variant, fmt(t(u))] + ([fmt(t(old))] if have_before else []) + \
                           [f"{fmt(t(best))} ({', '.join(mpi_variants)})", fmt(ratio_median(u, best, "time_s"), 2) + "×"]
                    if have_before:
                        line.append(fmt(ratio_median(old, best, "time_s"), 2) + "×")
                    lines.append(line)
        table(head, lines)
        if unverified:
            print(f"Runs that did not verify: {len(unverified)}\n")


def coll_tables(coll):
    if not coll or not any(r["impl"] == "before" for r in coll):
        return
    print("**Collectives, 4 ranks on 2 hosts (2 + 2), IN/OUT_ALLSYNC, this build and the one before** "
          "(µs per call, median over rounds; ratio: before / now, per round)\n")
    lines = []
    for name in ("broadcast", "exchange", "reduce"):
        for b in sorted({r["nbytes"] for r in coll if r.get("coll") == name}):
            sel = [r for r in coll if r.get("coll") == name and r["nbytes"] == b]
            # the first row of a run per size, as run_hosts.sh's tables take it
            now, old = {}, {}
            for r in sel:
                (now if r["impl"] == "upcemu" else old).setdefault(r["round"], r)
            us = lambda d: med([x["median_us"] for x in d.values()])
            lines.append([name, size(b), fmt(us(now), 4), fmt(us(old), 4), fmt(ratio_median(old, now, "median_us"), 2) + "×"])
    table(["collective", "bytes per thread", "now µs", "before µs", "before / now"], lines)


def barrier_tables(barrier):
    if not barrier:
        return
    have_before = any(r["impl"] == "before" for r in barrier)
    print("**upc_barrier against MPI_Barrier** (µs per barrier, slowest rank, median over rounds of each run's "
          "median; ratios per round)\n")
    head = ["hosts", "ranks", "upcemu µs"] + (["before µs"] if have_before else []) + ["MPI_Barrier µs", "upcemu / MPI"] + \
           (["before / MPI", "before / upcemu"] if have_before else [])
    lines = []
    for hosts in sorted({r["hosts"] for r in barrier}):
        rs = [r for r in barrier if r["hosts"] == hosts]
        u = by_round(rs, {"impl": "upcemu"})
        old = by_round(rs, {"impl": "before"})
        m = by_round(rs, {"impl": "mpi"})
        us = lambda d: med([x["median_us"] for x in d.values()])
        ranks = "/".join(map(str, sorted({r["threads"] for r in rs})))
        line = [str(hosts), ranks, fmt(us(u))] + ([fmt(us(old))] if have_before else []) + \
               [fmt(us(m)), fmt(ratio_median(u, m, "median_us"), 2) + "×"]
        if have_before:
            line += [fmt(ratio_median(old, m, "median_us"), 2) + "×", fmt(ratio_median(old, u, "median_us"), 2) + "×"]
        lines.append(line)
    table(head, lines)


def main():
    d = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results/mpi-backend-vs-mpi")
    memops_tables(rows(d / "memops.jsonl"))
    nas_tables(rows(d / "nas.jsonl"))
    coll_tables(rows(d / "coll.jsonl"))
    barrier_tables(rows(d / "barrier.jsonl"))


if __name__ == "__main__":
    main()
