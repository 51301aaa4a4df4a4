#!/usr/bin/python3
"""upcc leaves alone the code that names nothing reaching shared data (docs/upcc.md,
"What is left alone"). This checks that skipping changes nothing: every UPC
program of tests/upc (and the library headers they include) translated with and
without skipping (UPCC_NO_SKIP=1) gives the same C, byte for byte.

  test_skip_equivalence.py [--all]   (default: every fourth program; --all: each,
                                      and four programs of the differential tester)"""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
UPCC = os.path.join(ROOT, "tools", "upcc", "upcc")


def translated(path, no_skip):
    env = dict(os.environ, UPCC_NO_SKIP="1" if no_skip else "0")
    static = ["-T", "4"] if any(k in path for k in ("npb_is_style", "param_arrays", "ptr_rows_static",
                                                     "appendix_a")) else []
    r = subprocess.run([UPCC, "-E"] + static + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


def generated(folder, seeds):
    """Programs of the differential tester (tests/upcc_diff): every form it knows."""
    out = []
    for seed in seeds:
        d = os.path.join(folder, f"s{seed}")
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "upcc_diff", "upcc_diff.py"), "--seed",
                        str(seed), "--cases", "150", "--emit", d], stdout=subprocess.DEVNULL, check=True)
        out += sorted(glob.glob(os.path.join(d, "*.upc")))
    return out


def main():
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "upc", "*.upc")))
    if "--all" not in sys.argv:
        files = files[::4]
    else:
        import tempfile
        tmp = tempfile.mkdtemp(prefix="upcc_skip_")
        files += generated(tmp, range(101, 105))
    bad = 0
    for f in files:
        a, b = translated(f, False), translated(f, True)
        if a[0] != b[0] or a[1] != b[1]:
            bad += 1
            print(f"{os.path.basename(f)}: skipping changes the translation (status {a[0]} vs {b[0]})")
            for x, y in zip(a[1].splitlines(), b[1].splitlines()):
                if x != y:
                    print(f"  skipped:     {x.decode(errors='replace')[:300]}\n  not skipped: {y.decode(errors='replace')[:300]}")
                    break
            print(a[2][:500], b[2][:500])
    print(f"{len(files)} programs, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
