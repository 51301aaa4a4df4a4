#!/usr/bin/python3
"""upcc's time and memory against source size (issue 26, item 7; docs/upcc.md,
"Translation time and memory").

Generates UPC sources of growing size in two mixes and times `upcc -E` on each,
beside libclang's own parse of the same preprocessed text (the floor: upcc
cannot be cheaper than the parser it uses):

  upc   every function touches shared data (upc_forall, shared arrays, pointers-
        to-shared in shared structs): the worst case for the translator
  mixed one function in ten does; the rest is plain C (loops over private
        arrays, calls, string handling), as in real programs

  translate_scale.py [--sizes 0.066,0.66,6.6] [--mixes upc,mixed] [--runs 3] [--json FILE]
                     [--baseline OTHER_UPCC] [--no-parse]

Prints a markdown table: source MB, preprocessed MB, upcc wall and CPU seconds
(median of --runs), seconds per MB of source, peak RSS, libclang's parse alone
(CPU seconds, peak RSS). Run it on a quiet machine.

--baseline OTHER_UPCC compares two translators (another checkout's
tools/upcc/upcc, e.g. a worktree at an older commit): each run times both, one
after the other, the order swapped every run, so that both sides of a row see
the same load; the table then gives both CPU times, their medians, and the
single runs. --no-parse leaves out libclang's parse alone.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
UPCC = os.path.join(ROOT, "tools", "upcc", "upcc")

HEAD = """#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define N 64
shared [4] int a[N*THREADS];
shared double b[N*THREADS];
struct P { int x; double y; shared int *p; };
shared struct P ps[THREADS];
shared [] int *shared dir[THREADS];
"""

UPC_FUNCTION = """
static int f{i}(int k) {{
  int s = 0, j;
  shared int *p = (shared int *)&a[k % (N*THREADS)];
  upc_forall (j = 0; j < N*THREADS; j++; &a[j]) {{
    a[j] = j + {i};
    b[j] = a[j] * 0.5;
  }}
  upc_barrier;
  for (j = 0; j < N; j++) s += p[j % 4] + (int)b[(j * 7) % (N*THREADS)];
  ps[MYTHREAD].x = s; ps[MYTHREAD].p = p + 1;
  if (ps[MYTHREAD].p != NULL && upc_threadof(ps[MYTHREAD].p) < THREADS) s += *ps[MYTHREAD].p;
  return s + (dir[MYTHREAD] == NULL);
}}
"""

C_FUNCTION = """
static double g{i}(const double *v, int n) {{
  double acc = 0, tmp[16];
  int j, q;
  char buf[64];
  for (j = 0; j < n; j++) {{
    tmp[j % 16] = v[j] * {i}.5 + (j & 3);
    for (q = 0; q < 16; q++) acc += tmp[q] * (q + 1) / (double)(j + 1);
  }}
  snprintf(buf, sizeof buf, "%d:%f", n, acc);
  if (strlen(buf) > 40) acc -= 1;
  return acc + (double)strtol("17", NULL, 10);
}}
"""


def source(megabytes, mix):
    parts, n = [HEAD], 0
    target = megabytes * 1e6
    size = len(HEAD)
    while size < target:
        f = UPC_FUNCTION if mix == "upc" or n % 10 == 0 else C_FUNCTION
        text = f.format(i=n)
        parts.append(text)
        size += len(text)
        n += 1
    calls = "".join(f"  s += {'f' if mix == 'upc' or j % 10 == 0 else '(int)g'}{j}"
                    f"({'MYTHREAD' if mix == 'upc' or j % 10 == 0 else 'v, 8'});\n" for j in range(0, n, 97))
    parts.append("int main(void) {\n  double v[8] = {0};\n  int s = 0;\n" + calls +
                 "  printf(\"%d\\n\", s + (int)v[0]);\n  return 0;\n}\n")
    return "".join(parts)


def measure(cmd, env=None):
    """(wall seconds, user+sys seconds, peak RSS MiB) of cmd and its children."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"translate_scale: {' '.join(cmd)} failed:\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


PARSE_ONLY = r"""
import sys
sys.path.insert(0, sys.argv[1])
from upcc_lib import clang_util
from upcc_lib.prepass import prepass
from upcc_lib.source import encode
import clang.cindex as ci
clang_util.configure()
text = open(sys.argv[2], encoding="utf-8", errors="surrogateescape").read()
pre = prepass(text)[0]
tu = ci.Index.create().parse("upcc_input.c", args=["-x", "c", "-std=gnu11", "-include", sys.argv[3],
                             "-Wno-everything"], unsaved_files=[("upcc_input.c", encode(pre))])
"""


def compared(upccs, src, out, env, runs):
    """For each translator of upccs, its runs on src (measure's triples), the
    order of the translators swapped every run."""
    times = [[] for _ in upccs]
    for r in range(runs):
        order = list(range(len(upccs)))
        if r % 2:
            order.reverse()
        for i in order:
            times[i].append(measure([upccs[i], "-E", src, "-o", out], env))
    return times


def print_comparison_header():
    print("| mix | source MB | preprocessed MB | upcc CPU s, baseline → this | CPU s per source MB, baseline → this "
          "| peak MiB, baseline → this | single runs' CPU s, baseline / this |")
    print("|---|---|---|---|---|---|---|")


def print_comparison(row, base, this):
    cpu = [statistics.median(r[1] for r in runs) for runs in (base, this)]
    row.update(baseline_cpu_s=cpu[0], cpu_s=cpu[1], baseline_peak_mib=max(r[2] for r in base),
               peak_mib=max(r[2] for r in this), baseline_runs=[r[1] for r in base], runs=[r[1] for r in this])
    row["cpu_s_per_mb"] = cpu[1] / row["source_mb"]
    single = " / ".join(", ".join(f"{r[1]:.2f}" for r in runs) for runs in (base, this))
    print(f"| {row['mix']} | {row['source_mb']:.2f} | {row['preprocessed_mb']:.2f} | {cpu[0]:.2f} → {cpu[1]:.2f} | "
          f"{cpu[0] / row['source_mb']:.2f} → {cpu[1] / row['source_mb']:.2f} | "
          f"{row['baseline_peak_mib']:.0f} → {row['peak_mib']:.0f} | {single} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="0.066,0.33,0.66,1.3,3.3,6.6", help="source sizes in MB, comma-separated")
    ap.add_argument("--mixes", default="upc,mixed")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="also write the rows to this file")
    ap.add_argument("--baseline", metavar="OTHER_UPCC", help="compare with this translator, run by run")
    ap.add_argument("--no-parse", action="store_true", help="leave out libclang's parse alone")
    args = ap.parse_args()
    if args.baseline and not os.access(args.baseline, os.X_OK):
        sys.exit(f"translate_scale: --baseline {args.baseline}: not an executable")
    env = dict(os.environ)
    env.setdefault("UPCEMU_BUILD_DIR", os.path.join(ROOT, "build"))
    rows = []
    if args.baseline:
        print_comparison_header()
    else:
        print("| mix | source MB | preprocessed MB | upcc wall s | upcc CPU s | CPU s per source MB | upcc peak MiB "
              "| libclang parse CPU s | libclang peak MiB |")
        print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="upcc_scale_") as d:
        for mix in args.mixes.split(","):
            for mb in (float(x) for x in args.sizes.split(",")):
                src = os.path.join(d, f"{mix}_{mb}.upc")
                with open(src, "w") as f:
                    f.write(source(mb, mix))
                pre = os.path.join(d, f"{mix}_{mb}.i")
                with open(pre, "w") as out:
                    subprocess.run(["gcc", "-E", "-std=gnu11", "-D__UPC__=1", "-D__UPCC__=1",
                                    "-I", os.path.join(ROOT, "tools/upcc/include"), "-I", os.path.join(ROOT, "include"),
                                    "-include", "upcemu_c.h", "-x", "c", src], stdout=out, check=True)
                row = {"mix": mix, "source_mb": os.path.getsize(src) / 1e6,
                       "preprocessed_mb": os.path.getsize(pre) / 1e6}
                out = os.path.join(d, "out.c")
                if args.baseline:
                    base, this = compared([args.baseline, UPCC], src, out, env, args.runs)
                    print_comparison(row, base, this)
                    rows.append(row)
                    continue
                runs = [measure([UPCC, "-E", src, "-o", out], env) for _ in range(args.runs)]
                parse = [] if args.no_parse else [
                    measure([sys.executable, "-c", PARSE_ONLY, os.path.join(ROOT, "tools", "upcc"), pre,
                             os.path.join(ROOT, "tools/upcc/include/parse_prelude.h")]) for _ in range(args.runs)]
                row.update({
                    "wall_s": statistics.median(r[0] for r in runs), "cpu_s": statistics.median(r[1] for r in runs),
                    "peak_mib": max(r[2] for r in runs), "runs": [r[1] for r in runs],
                    "parse_cpu_s": statistics.median(r[1] for r in parse) if parse else float("nan"),
                    "parse_peak_mib": max(r[2] for r in parse) if parse else float("nan"),
                })
                row["cpu_s_per_mb"] = row["cpu_s"] / row["source_mb"]
                rows.append(row)
                print(f"| {mix} | {row['source_mb']:.3f} | {row['preprocessed_mb']:.2f} | {row['wall_s']:.2f} | "
                      f"{row['cpu_s']:.2f} | {row['cpu_s_per_mb']:.2f} | {row['peak_mib']:.0f} | "
                      f"{row['parse_cpu_s']:.2f} | {row['parse_peak_mib']:.0f} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
