#!/usr/bin/env python3
"""Lines of code of the transposes of seed 004's Figure 4, counted from the
sources: the code between `LOC <name> begin` and `LOC <name> end` markers
(bench/remap/remapbench.cpp, bench/peers/mpi/remap_mpi.c; several regions of
one name add up), without blank and
comment lines, split into communication (lines that call upc_memget, MPI_*,
the remap operator or a barrier) and the rest (declarations, packing,
unpacking, index arithmetic). The remap version's one statement is counted
with its declarations.

usage: remap_loc.py   (markdown to stdout)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILES = ["bench/remap/remapbench.cpp", "bench/peers/mpi/remap_mpi.c"]
COMM = re.compile(r"upc_memget|MPI_|gather\(|upc_barrier")


def regions():
    found = {}
    for f in FILES:
        name, lines = None, []
        for line in open(os.path.join(ROOT, f)):
            m = re.search(r"LOC (\S+) (begin|end)", line)
            if m and m.group(2) == "begin":
                name, lines = m.group(1), []
                continue
            if m and m.group(2) == "end":
                found[name] = found.get(name, []) + lines  # a version may have several regions
                name = None
                continue
            if name:
                lines.append(line)
    return found


def count(lines):
    code = comm = 0
    for line in lines:
        s = line.strip()
        if not s or s.startswith("//") or s.startswith("/*") or s.startswith("*"):
            if "gather(" in s:  # the remap statement, quoted in a comment where it runs
                code += 1
                comm += 1
            continue
        code += 1
        comm += bool(COMM.search(s))
    return code, comm


def main():
    r = regions()
    print("| transpose | lines | of which communication |")
    print("|---|---|---|")
    for name in ["ft-remap", "ft-upc_memget", "ft-mpi", "cg-remap", "cg-upc_memget", "cg-mpi"]:
        if name not in r:
            sys.exit(f"remap_loc.py: no LOC region {name}")
        code, comm = count(r[name])
        print(f"| {name} | {code} | {comm} |")


if __name__ == "__main__":
    main()
