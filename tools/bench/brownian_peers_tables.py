#!/usr/bin/env python3
"""The tables of tools/bench/run_brownian_peers.sh (Brownian dynamics against
OpenMP and MPI, seed 003 Figures 5.6 and 5.8) from its runs.jsonl: the median
time of every version at each THREADS = threads = ranks count, its speedup
over the sequential code, and the ratios peer / UPC (above 1: UPC is faster).
The sequential baseline (the thesis's is its sequential C code) is the OpenMP
peer on one thread: the sequential code's operations in the same order
(apps/brownian/sequential.hpp), without the checks that the UPC app's own
sequential run times with it (L Lᵀ = D and the spectrum's bounds at step 0,
O(n³) each).

  tools/bench/brownian_peers_tables.py bench/results/brownian-peers/runs.jsonl > bench/results/brownian-peers/tables.md

Exit status 1 when a run failed or did not verify (the tables are printed all
the same).
"""
import json
import statistics
import sys
from collections import defaultdict

# (side, variant) columns of each figure, with their headings.
SHARED = [("upc threads", "cholesky", "UPC Cholesky"), ("openmp", "cholesky", "OpenMP Cholesky"),
          ("upc threads", "fixman_balanced", "UPC Fixman bal-comms"),
          ("upc threads", "fixman_minimum", "UPC Fixman min-comms"), ("openmp", "fixman", "OpenMP Fixman")]
DISTRIBUTED = [("upc processes", "cholesky", "UPC Cholesky"), ("mpi", "cholesky", "MPI Cholesky"),
               ("upc processes", "fixman_balanced", "UPC bal-comms"), ("mpi", "fixman_balanced", "MPI bal-comms"),
               ("upc processes", "fixman_minimum", "UPC min-comms"), ("mpi", "fixman_minimum", "MPI min-comms")]
# (peer column, UPC column) pairs whose ratio each figure's table gives.
SHARED_RATIOS = [(("openmp", "cholesky"), ("upc threads", "cholesky"), "Cholesky OpenMP/UPC"),
                 (("openmp", "fixman"), ("upc threads", "fixman_balanced"), "Fixman OpenMP/UPC bal-comms")]
DISTRIBUTED_RATIOS = [(("mpi", v), ("upc processes", v), f"{name} MPI/UPC")
                      for v, name in [("cholesky", "Cholesky"), ("fixman_balanced", "bal-comms"),
                                      ("fixman_minimum", "min-comms")]]


def method(variant):
    return "cholesky" if "cholesky" in variant else "fixman"


def table(title, columns, ratios, times, sequential, counts):
    out = [title, ""]
    head = ["THREADS"] + [f"{h} s (speedup)" for _, _, h in columns] + [r[2] for r in ratios]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---:|" * len(head))
    for t in counts:
        med = {(s, v): statistics.median(times[(s, v, t)]) if times[(s, v, t)] else None for s, v, _ in columns}
        cells = [str(t)]
        for s, v, _ in columns:
            m, base = med[(s, v)], sequential.get(method(v))
            cells.append("–" if m is None else f"{m:.3f} ({base / m:.2f})" if base else f"{m:.3f}")
        for peer, upc, _ in ratios:
            cells.append(f"{med[peer] / med[upc]:.2f}" if med.get(peer) and med.get(upc) else "–")
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    return out


def main(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    times = defaultdict(list)  # (side, variant, threads) -> seconds
    bad, problem = [], set()
    for r in rows:
        if r.get("status", 0) != 0 or r.get("verified") is not True:
            bad.append(f"{r.get('side')} {r.get('variant', '(run)')} at {r.get('threads')} (round {r.get('round')}): "
                       f"exit {r.get('status')}, verified {r.get('verified')}")
            continue
        times[(r["side"], r["variant"], r["threads"])].append(r["time_s"])
        problem.add((r["particles"], r["steps"]))
    seq = {m: statistics.median(times[("openmp", m, 1)]) for m in ("cholesky", "fixman") if times[("openmp", m, 1)]}
    counts = sorted({t for (_, _, t) in times})
    runs = max((len(v) for v in times.values()), default=0)
    out = [f"Problem: {', '.join(f'{p} beads, {s} steps' for p, s in sorted(problem))}; median seconds of {runs} "
           f"alternated runs; speedup over the sequential code (the OpenMP peer on 1 thread: Cholesky "
           f"{seq.get('cholesky', float('nan')):.3f} s, Fixman {seq.get('fixman', float('nan')):.3f} s); "
           "ratio = peer / UPC (above 1: UPC is faster).", ""]
    out += table("**Shared memory (Figure 5.6): UPC on the threads backend against OpenMP**", SHARED, SHARED_RATIOS,
                 times, seq, counts)
    out += table("**Distributed memory (Figure 5.8): UPC on the processes backend against MPI**", DISTRIBUTED,
                 DISTRIBUTED_RATIOS, times, seq, counts)
    verified = sum(len(v) for v in times.values())
    out.append(f"Verification: {verified} version runs checked out" +
               (f", {len(bad)} did not: " + "; ".join(bad) if bad else "") + ".")
    print("\n".join(out))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
