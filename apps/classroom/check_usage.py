#!/usr/bin/env python3
"""Every program of the classroom kit answers --help with its usage (status 0)
and a bad option or value with `<program>: <what is wrong>` on stderr and
status 2, before any UPC thread starts.

  check_usage.py BUILD_DIR        BUILD_DIR: build/apps/classroom
"""
import os
import subprocess
import sys

STAGES = ["sequential", "naive", "optimised", "collectives", "extended"]
# each code's size option, and a value below its minimum
SIZE = {"stencil": "--n=2", "pi": "--trials=0", "buffon_laplace": "--trials=0", "min_distance": "--nodes=0",
        "stencil2d": "--rows=2", "matvec": "--n=0"}


def run(exe, *args):
    r = subprocess.run([exe, *args], env=dict(os.environ, UPCEMU_THREADS="2"), capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def main():
    build = sys.argv[1]
    failures = 0
    for code, size in SIZE.items():
        for stage in STAGES:
            exe = os.path.join(build, code, stage)
            program = f"classroom/{code}/{stage}"
            checks = [(["--help"], 0, "usage:", "stdout"),
                      (["--bogus"], 2, f"{program}: unknown option --bogus (see --help)", "stderr"),
                      ([size], 2, f"{program}: {size}: must be at least", "stderr")]
            for args, status, phrase, stream in checks:
                rc, out, err = run(exe, *args)
                text = out if stream == "stdout" else err
                if rc != status or phrase not in text:
                    failures += 1
                    print(f"FAIL {program} {' '.join(args)}: status {rc} (expected {status}); {stream}: {text.strip()!r}")
    print(f"{'all' if not failures else failures} usage checks {'passed' if not failures else 'failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
