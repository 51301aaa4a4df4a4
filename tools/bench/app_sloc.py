#!/usr/bin/env python3
"""The applications' programmability table (issue 13): source lines of each
version, split into communication, declarations and computation, in the spirit
of seed 004's Figure 4 and the thesis's SLOC counts.

Each version marks its own kernel code with

    // sloc <app>/<version> <category> begin
    ...
    // sloc <app>/<version> <category> end

where <category> is comm (communication and synchronisation), decl
(declarations, allocation, distribution set-up) or comp (computation). Regions
may repeat; their lines add up. A counted line is one that is not blank and not
only a comment. Code shared by the versions (options, generators, verification)
is left unmarked and so is not counted.

  tools/bench/app_sloc.py                  markdown table of every version
  tools/bench/app_sloc.py --format=json    one JSON object per version
  tools/bench/app_sloc.py apps/nas/ft      only the versions found under a path
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_PATHS = ["apps", "bench/peers/mpi/nas"]
SOURCE_SUFFIXES = (".c", ".cpp", ".cc", ".h", ".hpp", ".upc")
CATEGORIES = ("comm", "decl", "comp")
MARKER = re.compile(r"^\s*(?://|/\*)\s*sloc\s+(\S+)\s+(\S+)\s+(begin|end)\b")


def is_code(line, in_block_comment):
    """(counts, still_in_block_comment) for one line."""
    s = line.strip()
    code = False
    while s:
        if in_block_comment:
            end = s.find("*/")
            if end < 0:
                return code, True
            s = s[end + 2:].strip()
            in_block_comment = False
            continue
        if s.startswith("//"):
            break
        if s.startswith("/*"):
            in_block_comment = True
            s = s[2:]
            continue
        code = True
        # The rest of the line may open a comment; what matters is that it has code.
        start = s.find("/*")
        if start < 0 or s.find("*/", start) >= 0:
            break
        in_block_comment = True
        s = s[start + 2:]
    return code, in_block_comment


def scan(path, counts, errors):
    open_regions = {}
    in_block = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = MARKER.match(line)
            if m:
                version, category, what = m.groups()
                where = f"{os.path.relpath(path, ROOT)}:{number}"
                if category not in CATEGORIES:
                    errors.append(f"{where}: unknown category '{category}' (use {', '.join(CATEGORIES)})")
                    continue
                key = (version, category)
                if what == "begin":
                    if key in open_regions:
                        errors.append(f"{where}: '{version} {category}' begins again before it ended")
                    open_regions[key] = number
                else:
                    if key not in open_regions:
                        errors.append(f"{where}: '{version} {category}' ends but never began")
                    open_regions.pop(key, None)
                counts.setdefault(version, {c: 0 for c in CATEGORIES}).setdefault("files", set()).add(
                    os.path.relpath(path, ROOT))
                continue
            code, in_block = is_code(line, in_block)
            if code:
                for version, category in open_regions:
                    counts[version][category] += 1
    for (version, category), number in open_regions.items():
        errors.append(f"{os.path.relpath(path, ROOT)}:{number}: '{version} {category}' never ends")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="folders or files to scan (default: apps, bench/peers/mpi/nas)")
    ap.add_argument("--format", choices=["markdown", "json"], default="markdown")
    args = ap.parse_args()
    paths = args.paths or [os.path.join(ROOT, p) for p in DEFAULT_PATHS]
    counts, errors = {}, []
    for p in paths:
        if os.path.isfile(p):
            scan(p, counts, errors)
            continue
        if not os.path.isdir(p):
            sys.exit(f"app_sloc.py: no such file or folder: {p}")
        for dirpath, _, names in os.walk(p):
            for name in sorted(names):
                if name.endswith(SOURCE_SUFFIXES):
                    scan(os.path.join(dirpath, name), counts, errors)
    if errors:
        for e in errors:
            print(f"app_sloc.py: {e}", file=sys.stderr)
        sys.exit(1)
    if args.format == "json":
        for version in sorted(counts):
            c = counts[version]
            row = {"version": version, **{k: c[k] for k in CATEGORIES}, "total": sum(c[k] for k in CATEGORIES),
                   "files": sorted(c["files"])}
            print(json.dumps(row))
        return
    print("| app / version | communication | declarations | computation | total |")
    print("|---|---:|---:|---:|---:|")
    for version in sorted(counts):
        c = counts[version]
        print(f"| {version} | {c['comm']} | {c['decl']} | {c['comp']} | {sum(c[k] for k in CATEGORIES)} |")


if __name__ == "__main__":
    main()
