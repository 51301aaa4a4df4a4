#!/usr/bin/env python3
"""Every benchmark result kept in the tree is one the docs are made from, and
bench/results/README.md says which: so that results do not pile up unnoticed.

  check_bench_results_index.py [--root DIR]

The README names each set with a heading "## `NAME/`" (the folder
bench/results/NAME) and lists its files on a "Files:" line (to the next blank
line) as backticked paths relative to the set; a path may be a pattern
(`*_T[248]_mpi.jsonl`: shell wildcards, matched part by part, so `*` does not
cross a folder). Fails, naming each, on: a file under bench/results/ outside
every set or matching none of its set's paths, a set whose folder is missing,
a set listed twice or with no Files line, a listed path that matches no file.
"""
import argparse
import fnmatch
import os
import re
import sys

SET_HEADING = re.compile(r"^## `([^`]+)/`\s*$", re.M)
NEXT_HEADING = re.compile(r"^## ", re.M)
FILES_PARAGRAPH = re.compile(r"^Files:(.*?)(?:\n\s*\n|\Z)", re.M | re.S)
BACKTICKED = re.compile(r"`([^`]+)`")


def read_sets(readme_text):
    """[(set name, [path patterns] or None when it has no Files line)] in README order."""
    sets = []
    headings = list(SET_HEADING.finditer(readme_text))
    for m in headings:
        following = NEXT_HEADING.search(readme_text, m.end())
        section = readme_text[m.end():following.start() if following else len(readme_text)]
        files = FILES_PARAGRAPH.search(section)
        sets.append((m.group(1), BACKTICKED.findall(files.group(1)) if files else None))
    return sets


def matches(pattern, path):
    """pattern matches path part by part (a wildcard stays within one folder name)."""
    want, have = pattern.split("/"), path.split("/")
    return len(want) == len(have) and all(fnmatch.fnmatchcase(h, w) for h, w in zip(have, want))


def files_under(folder):
    """Every file under folder, as a path relative to it with '/' separators."""
    found = []
    for where, _, names in os.walk(folder):
        for name in names:
            found.append(os.path.relpath(os.path.join(where, name), folder).replace(os.sep, "/"))
    return sorted(found)


def problems_in(results):
    readme = os.path.join(results, "README.md")
    if not os.path.isfile(readme):
        return [f"{readme}: missing (it lists the result sets the docs are made from)"]
    with open(readme, encoding="utf-8") as f:
        sets = read_sets(f.read())
    problems = []
    if not sets:
        problems.append(f"{readme}: names no set (a heading '## `NAME/`' per set)")
    patterns = {}  # set name -> its paths
    for name, paths in sets:
        if name in patterns:
            problems.append(f"{readme}: set '{name}/' is listed twice")
            continue
        patterns[name] = paths or []
        if paths is None:
            problems.append(f"{readme}: set '{name}/' has no 'Files:' line")
        if not os.path.isdir(os.path.join(results, name)):
            problems.append(f"{readme}: set '{name}/' is listed but bench/results/{name}/ does not exist")
    for path in files_under(results):
        if path == "README.md":
            continue
        owners = [n for n in patterns if path.startswith(n + "/")]
        if not owners:
            problems.append(f"bench/results/{path}: in no set listed in README.md (keep only what a doc is made "
                            "from, and list it)")
            continue
        name = max(owners, key=len)
        inside = path[len(name) + 1:]
        if not any(matches(p, inside) for p in patterns[name]):
            problems.append(f"bench/results/{path}: not among the Files of set '{name}/' in README.md")
    for name, paths in patterns.items():
        folder = os.path.join(results, name)
        present = files_under(folder) if os.path.isdir(folder) else []
        for p in paths:
            if not any(matches(p, f) for f in present):
                problems.append(f"{readme}: set '{name}/' lists '{p}', which matches no file")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                        "..", "..")))
    args = parser.parse_args()
    results = os.path.join(args.root, "bench", "results")
    problems = problems_in(results)
    for p in problems:
        print(p)
    if problems:
        print(f"\n{len(problems)} finding(s): bench/results/README.md and the files under bench/results/ disagree.")
        return 1
    print(f"{len(files_under(results)) - 1} result files, each in a set that bench/results/README.md lists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
