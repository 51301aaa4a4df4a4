#!/usr/bin/env python3
"""tools/bench/app_sloc.py counts what it should: code lines inside marked
regions (not blank lines, not comment-only lines, block comments included), per
version and category, regions adding up; unbalanced or unknown markers are
errors; and the repository's own markers (apps/, the NAS MPI peers) are all
balanced."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TOOL = os.path.join(ROOT, "tools", "bench", "app_sloc.py")


def run(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


def check(condition, what):
    if not condition:
        print("FAILED:", what)
        sys.exit(1)


with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "a.cpp"), "w") as f:
        f.write("""int outside;
// sloc demo/v1 decl begin
int a;

// a comment
/* a block
   comment */
int b; /* trailing */
// sloc demo/v1 decl end
// sloc demo/v1 comm begin
upc_barrier;  // counted
// sloc demo/v1 comm end
// sloc demo/v1 comm begin
upc_memget(x, y, n);
// sloc demo/v1 comm end
// sloc demo/v2 comp begin
x = 1; /* opens
  and closes */ y = 2;
z = 3;
// sloc demo/v2 comp end
""")
    r = run("--format=json", d)
    check(r.returncode == 0, f"exit 0 on a good file, got {r.returncode}: {r.stderr}")
    rows = {row["version"]: row for row in map(json.loads, r.stdout.splitlines())}
    check(set(rows) == {"demo/v1", "demo/v2"}, f"versions found: {sorted(rows)}")
    check((rows["demo/v1"]["decl"], rows["demo/v1"]["comm"], rows["demo/v1"]["comp"]) == (2, 2, 0),
          f"demo/v1 counts: {rows['demo/v1']}")
    check(rows["demo/v2"]["comp"] == 3 and rows["demo/v2"]["total"] == 3, f"demo/v2 counts: {rows['demo/v2']}")

    md = run(d)
    check("| demo/v1 | 2 | 2 | 0 | 4 |" in md.stdout, f"markdown row: {md.stdout}")

    for bad, phrase in [("// sloc x/y comm begin\nint a;\n", "never ends"),
                        ("int a;\n// sloc x/y comm end\n", "never began"),
                        ("// sloc x/y talk begin\n// sloc x/y talk end\n", "unknown category")]:
        with open(os.path.join(d, "a.cpp"), "w") as f:
            f.write(bad)
        r = run(d)
        check(r.returncode == 1 and phrase in r.stderr, f"'{phrase}' for {bad!r}: {r.returncode} {r.stderr}")

r = run()
check(r.returncode == 0, f"the repository's sloc markers are balanced: {r.stderr}")
print("app_sloc.py: all checks passed")
