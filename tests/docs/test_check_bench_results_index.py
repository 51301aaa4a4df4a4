#!/usr/bin/env python3
"""check_bench_results_index.py passes a tree whose README lists every result
file, and fails, naming each, on the ways a tree and its README can disagree:
run on small trees written here.

  test_check_bench_results_index.py CHECKER
"""
import os
import subprocess
import sys
import tempfile

README = """# Results

Prose may name `things` freely.

## `micro/`

Shows: a table.

Files: `machine.txt` `barrier.jsonl`
`*_T[24].jsonl`

## `coll/`

Files: `before/machine.txt` `rows.jsonl`

## Removed runs

`old/` is in git history.
"""
GOOD_FILES = ["micro/machine.txt", "micro/barrier.jsonl", "micro/bcast_T2.jsonl", "micro/bcast_T4.jsonl",
              "coll/before/machine.txt", "coll/rows.jsonl"]


def tree(root, readme, files):
    results = os.path.join(root, "bench", "results")
    for path in files:
        os.makedirs(os.path.dirname(os.path.join(results, path)), exist_ok=True)
        open(os.path.join(results, path), "w").close()
    if readme is not None:
        os.makedirs(results, exist_ok=True)
        with open(os.path.join(results, "README.md"), "w", encoding="utf-8") as f:
            f.write(readme)


def run(checker, readme, files):
    with tempfile.TemporaryDirectory() as root:
        tree(root, readme, files)
        p = subprocess.run([sys.executable, checker, "--root", root], capture_output=True, text=True)
        return p.returncode, p.stdout


# (what, README, files, lines the output must hold)
CASES = [
    ("a file outside every set", README, GOOD_FILES + ["2026-11-21/barrier.jsonl"],
     ["bench/results/2026-11-21/barrier.jsonl: in no set listed"]),
    ("a file of a set that its Files do not list", README, GOOD_FILES + ["micro/bcast_T8.jsonl", "micro/x.err"],
     ["bench/results/micro/bcast_T8.jsonl: not among the Files of set 'micro/'",
      "bench/results/micro/x.err: not among the Files of set 'micro/'"]),
    ("a wildcard does not cross a folder", README, GOOD_FILES + ["micro/sub/bcast_T2.jsonl"],
     ["bench/results/micro/sub/bcast_T2.jsonl: not among the Files of set 'micro/'"]),
    ("a listed set whose folder is missing", README, [f for f in GOOD_FILES if not f.startswith("coll/")],
     ["set 'coll/' is listed but bench/results/coll/ does not exist",
      "set 'coll/' lists 'rows.jsonl', which matches no file"]),
    ("a listed file that is missing", README, [f for f in GOOD_FILES if f != "micro/barrier.jsonl"],
     ["set 'micro/' lists 'barrier.jsonl', which matches no file"]),
    ("a set listed twice", README + "\n## `micro/`\n\nFiles: `machine.txt`\n", GOOD_FILES,
     ["set 'micro/' is listed twice"]),
    ("a set without a Files line", README.replace("Files: `before/machine.txt` `rows.jsonl`", "Nothing."),
     GOOD_FILES, ["set 'coll/' has no 'Files:' line"]),
    ("no README", None, GOOD_FILES, ["README.md: missing"]),
]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    checker = sys.argv[1]
    failures = []
    status, out = run(checker, README, GOOD_FILES)
    if status != 0:
        failures.append(f"a tree whose README lists every file: exit {status}, output:\n{out}")
    for what, readme, files, expected in CASES:
        status, out = run(checker, readme, files)
        if status != 1:
            failures.append(f"{what}: exit {status} (1 expected), output:\n{out}")
        for line in expected:
            if line not in out:
                failures.append(f"{what}: the output lacks '{line}'; it was:\n{out}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print(f"check_bench_results_index.py: a good tree passes and all {len(CASES)} kinds of disagreement fail")
    return 0


if __name__ == "__main__":
    sys.exit(main())
