#!/usr/bin/env python3
"""check_docs_status.py finds what it must and nothing else: run on small trees
written here, with stale status lines and paths at known lines.

  test_check_docs_status.py CHECKER
"""
import os
import subprocess
import sys
import tempfile

STALE_DOC = """# A library

**Status (issue 11, in progress).** Built: broadcast.

Exchange has no multicore algorithm yet, and the
permute is not
yet checked.

The message quotes the program: `UPC_MULTICORE has no algorithm for permute yet`.

```
a code block may say it is not yet done, TODO
```

Sources: `lib/coll/gone.cpp`, `lib/here.{hpp,cpp}`, tests/upc/lib_<name>.upc,
`bench/prog` (a build target), `bench/nothing`, [the guide](guide.md),
[the index](index.md#top).

## Status

Everything is built.
"""

CLEAN_README = """# Tree

`upccoll_test` returns 1 done, 0 not yet.
"""

# file:line and the words each finding must show (the lines of STALE_DOC above)
EXPECTED = [
    "docs/lib.md:3: a status line naming an issue: 'Status (issue 11'",
    "docs/lib.md:3: a progress word: 'in progress'",
    "docs/lib.md:5: 'not ... yet': 'no multicore algorithm yet'",
    "docs/lib.md:6: 'not ... yet': 'not yet'",
    "docs/lib.md:15: names a file that does not exist: 'lib/coll/gone.cpp'",
    "docs/lib.md:15: names a file that does not exist: 'lib/here.cpp'",
    "docs/lib.md:16: names a file that does not exist: 'bench/nothing'",
    "docs/lib.md:16: names a file that does not exist: 'guide.md'",
    "docs/lib.md:19: a status section: '## Status'",
]


def write(root, path, text):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    with open(os.path.join(root, path), "w", encoding="utf-8") as f:
        f.write(text)


def check(checker, root, allowlist):
    r = subprocess.run([sys.executable, checker, "--root", root, "--allowlist", allowlist],
                       capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def main():
    checker = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as root:
        write(root, "README.md", CLEAN_README)
        write(root, "lib/here.hpp", "")
        write(root, "bench/meson.build", "executable('prog', 'prog.cpp')\n")
        write(root, "docs/index.md", "# Index\n")
        allowlist = os.path.join(root, "allow.txt")
        write(root, "allow.txt", "README.md | 1 done, 0 not yet | upccoll_test's return values\n")

        # a clean tree passes, its one legitimate 'not yet' allowed
        status, out = check(checker, root, allowlist)
        if status != 0:
            failures.append(f"clean tree: status {status}, expected 0:\n{out}")

        # without the allowlist entry the same line is reported
        write(root, "allow.txt", "")
        status, out = check(checker, root, allowlist)
        if status != 1 or "README.md:3: 'not ... yet': 'not yet'" not in out:
            failures.append(f"README's 'not yet' without its allowlist entry: status {status}:\n{out}")

        # an entry that matches nothing fails, naming itself
        write(root, "allow.txt", "README.md | 1 done, 0 not yet | ok\ndocs/x.md | gone | stale entry\n")
        status, out = check(checker, root, allowlist)
        if status != 1 or "allow.txt:2: allowlist entry for docs/x.md ('gone') matches nothing" not in out:
            failures.append(f"unused allowlist entry: status {status}:\n{out}")

        # every stale line and path is reported at its line, nothing in code is
        write(root, "allow.txt", "README.md | 1 done, 0 not yet | ok\n")
        write(root, "docs/lib.md", STALE_DOC)
        status, out = check(checker, root, allowlist)
        found = [line for line in out.splitlines() if line.startswith("docs/lib.md:")]
        if status != 1:
            failures.append(f"stale doc: status {status}, expected 1")
        for e in EXPECTED:
            if e not in found:
                failures.append(f"stale doc: missing finding {e!r}")
        for line in found:
            if line not in EXPECTED:
                failures.append(f"stale doc: unexpected finding {line!r}")
        if failures:
            failures.append(f"checker output:\n{out}")

    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
