#!/usr/bin/env python3
"""Tables (markdown, on stdout) and the speedup plot of tools/bench/run_apps.sh's
apps.jsonl: one row per app, version and problem with time, rate and speedup at
each THREADS on each backend; the extended-collective (or remap) versions against
the standard ones; the NAS apps against their MPI peers, same THREADS/ranks.

  tools/bench/apps_tables.py bench/results/applications/apps.jsonl [--img docs/img]
"""
import argparse
import math
import os
import sys
from collections import defaultdict

import bench_results as br

# Per app: the version the others are compared with (the standard-UPC one).
# UPC-MR's apps compare each configuration with itself without collectives.
MAPREDUCE = ("hist", "linreg", "wordc", "spamc")
BASELINE = {
    "is": "standard",
    "ft": "memget",
    "cg": "hand",
    "dense_matmul": "standard",
    "sparse_matmul": "standard",
    "image_filter": "standard",
    "brownian": "sequential_fixman",  # the thesis's speedups are over the sequential code
    # The classroom kit: the standard collectives stage (the extended one is the comparison the thesis makes).
    **{f"classroom/{code}": "collectives" for code in ("stencil", "buffon_laplace", "min_distance", "pi", "matvec", "stencil2d")},
}
RATE_FIELDS = (("mops", "Mop/s"), ("gflops", "GFLOPS"), ("mpixels_s", "Mpixel/s"))


def problem(row):
    for key in ("class", "size", "n", "particles", "nodes", "elements", "trials"):
        if key in row:
            return f"{key} {row[key]}" if key != "class" else f"class {row[key]}"
    return ""


def rate(row):
    for key, unit in RATE_FIELDS:
        if isinstance(row.get(key), (int, float)):
            return row[key], unit
    return None, None


def fmt_time(t):
    return f"{t:.3g} s" if t < 100 else f"{t:.0f} s"


def load(path):
    rows, failed = [], []
    for r in br.load_jsonl(path):
        (failed if r.get("failed_run") else rows).append(r)
    return rows, failed


def table_runs(rows, counts):
    """time, rate, speedup per (app, version, problem, backend) and THREADS."""
    groups = defaultdict(dict)
    for r in rows:
        if r.get("backend") == "mpi":
            continue
        key = (r.get("app", r.get("label")), r.get("variant", ""), problem(r), r["backend"])
        groups[key][r["threads"]] = r
    out = ["| app | version | problem | backend | " + " | ".join(f"{n}" for n in counts) + " | verified |",
           "|---|---|---|---|" + "---:|" * len(counts) + "---|"]
    for key in sorted(groups):
        by_n = groups[key]
        base = by_n.get(1) or by_n[min(by_n)]
        cells = []
        for n in counts:
            r = by_n.get(n)
            if r is None:
                cells.append("")
                continue
            t = r.get("time_s")
            v, unit = rate(r)
            s = f"{fmt_time(t)}" if isinstance(t, (int, float)) else "?"
            if v is not None:
                s += f", {v:.4g} {unit}"
            if isinstance(t, (int, float)) and t > 0 and base is not r:
                s += f", ×{base['time_s'] / t * (1 if base['threads'] == 1 else base['threads']):.2f}"
            cells.append(s)
        verified = all(r.get("verified") is True and r.get("status", 0) == 0 for r in by_n.values())
        out.append(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | " + " | ".join(cells) +
                   f" | {'yes' if verified else '**NO**'} |")
    return out


def table_versions(rows, counts):
    """Each version's time over its app's baseline version (same problem, backend, THREADS)."""
    index = {}
    for r in rows:
        if r.get("backend") != "mpi":
            index[(r.get("app"), r.get("variant"), problem(r), r["backend"], r["threads"])] = r

    def baseline(app, variant):
        if app in MAPREDUCE:
            return None if variant.endswith("+nocoll") else variant + "+nocoll"
        return BASELINE.get(app) if variant != BASELINE.get(app) else None
    out = ["| app | version / baseline | problem | backend | " + " | ".join(str(n) for n in counts) + " |",
           "|---|---|---|---|" + "---:|" * len(counts)]
    seen = sorted({(k[0], k[1], k[2], k[3]) for k in index if baseline(k[0], k[1])})
    for app, variant, prob, backend in seen:
        base = baseline(app, variant)
        cells = []
        for n in counts:
            a = index.get((app, variant, prob, backend, n))
            b = index.get((app, base, prob, backend, n))
            cells.append(f"{a['time_s'] / b['time_s']:.2f}" if a and b and b["time_s"] > 0 else "")
        if any(cells):
            out.append(f"| {app} | {variant} / {base} | {prob} | {backend} | " + " | ".join(cells) + " |")
    return out


def table_mpi(rows, counts):
    """Each UPC version's time over the fastest MPI peer version, same app, problem and count."""
    mpi = defaultdict(dict)
    for r in rows:
        if r.get("backend") == "mpi":
            key = (r.get("app"), problem(r), r["threads"])
            if r.get("time_s") and (key not in mpi or r["time_s"] < mpi[key]["time_s"]):
                mpi[key] = r
    out = ["| app | UPC version / MPI | problem | backend | " + " | ".join(str(n) for n in counts) + " |",
           "|---|---|---|---|" + "---:|" * len(counts)]
    mpi_rows = ["| app | MPI version | problem | " + " | ".join(str(n) for n in counts) + " |",
                "|---|---|---|" + "---:|" * len(counts)]
    upc = sorted({(r.get("app"), r.get("variant"), problem(r), r["backend"]) for r in rows
                  if r.get("backend") != "mpi" and any(k[0] == r.get("app") for k in mpi)})
    index = {(r.get("app"), r.get("variant"), problem(r), r["backend"], r["threads"]): r for r in rows}
    for app, variant, prob, backend in upc:
        cells = []
        for n in counts:
            a, m = index.get((app, variant, prob, backend, n)), mpi.get((app, prob, n))
            cells.append(f"{a['time_s'] / m['time_s']:.2f}" if a and m else "")
        out.append(f"| {app} | {variant} | {prob} | {backend} | " + " | ".join(cells) + " |")
    for app, variant, prob in sorted({(r.get("app"), r.get("variant"), problem(r)) for r in rows if r.get("backend") == "mpi"}):
        cells = []
        for n in counts:
            m = index.get((app, variant, prob, "mpi", n))
            if m:
                v, unit = rate(m)
                cells.append(f"{fmt_time(m['time_s'])}" + (f", {v:.4g} {unit}" if v is not None else "") +
                             ("" if m.get("verified") else " **NOT VERIFIED**"))
            else:
                cells.append("")
        mpi_rows.append(f"| {app} | {variant} | {prob} | " + " | ".join(cells) + " |")
    return mpi_rows, out


def machine_cpus(jsonl):
    """nproc from the machine.txt beside the results (None when absent)."""
    path = os.path.join(os.path.dirname(os.path.abspath(jsonl)), "machine.txt")
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("nproc:"):
                return int(line.split(":", 1)[1])
    return None


def plot(rows, img, cpus):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    apps = sorted({r.get("app") for r in rows if r.get("backend") == "threads"})
    if not apps:
        return None
    cols = min(4, len(apps))
    lines = math.ceil(len(apps) / cols)
    fig, axes = plt.subplots(lines, cols, figsize=(4 * cols, 3.2 * lines), squeeze=False)
    for ax, app in zip(axes.flat, apps):
        series = defaultdict(dict)
        for r in rows:
            if r.get("app") == app and r.get("backend") == "threads" and r.get("time_s"):
                series[(r.get("variant"), problem(r))][r["threads"]] = r["time_s"]
        for (variant, prob), by_n in sorted(series.items()):
            if 1 not in by_n:
                continue
            ns = sorted(by_n)
            ax.plot(ns, [by_n[1] / by_n[n] for n in ns], marker="o", label=f"{variant}")
        ns = sorted({n for s in series.values() for n in s})
        if ns:
            ideal = [min(n, cpus) if cpus else n for n in ns]
            ax.plot(ns, ideal, color="grey", linestyle=":", linewidth=0.8,
                    label=f"ideal on {cpus} CPUs" if cpus else "ideal")
        ax.set_xscale("log", base=2)
        ax.set_title(app, fontsize=9)
        ax.set_xlabel("THREADS (threads backend)", fontsize=8)
        ax.set_ylabel("speedup over 1 thread", fontsize=8)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(apps):]:
        ax.axis("off")
    os.makedirs(img, exist_ok=True)
    path = os.path.join(img, "apps_speedup.png")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("jsonl")
    ap.add_argument("--img", help="draw apps_speedup.png into this folder")
    args = ap.parse_args()
    rows, failed = load(args.jsonl)
    counts = sorted({r["threads"] for r in rows})
    print("### Runs: time, rate, speedup over 1 thread (same version and backend)\n")
    print("\n".join(table_runs(rows, counts)))
    print("\n### Versions against the standard-UPC one (time ratio; below 1: faster)\n")
    print("\n".join(table_versions(rows, counts)))
    mpi_rows, ratios = table_mpi(rows, counts)
    if len(mpi_rows) > 2:
        print("\n### The MPI peers (same machine, same run)\n")
        print("\n".join(mpi_rows))
        print("\n### UPC versions against the fastest MPI version (time ratio; below 1: UPC faster)\n")
        print("\n".join(ratios))
    if failed:
        print("\n### Failed runs\n")
        for r in failed:
            print(f"- {r['label']} {r['backend']} THREADS={r['threads']}: exit status {r['status']}")
    if args.img:
        p = plot(rows, args.img, machine_cpus(args.jsonl))
        if p:
            print(f"wrote {os.path.relpath(p)}", file=sys.stderr)


if __name__ == "__main__":
    main()
