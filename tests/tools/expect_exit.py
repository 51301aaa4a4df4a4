#!/usr/bin/env python3
"""Runs a program and checks how it ends: its exit status and a phrase its
output (stdout and stderr together) must contain. For the tests of a program's
usage errors (status 2 and a message naming the option), where meson's
should_fail would accept any non-zero status.

  expect_exit.py STATUS PHRASE PROGRAM [ARGS...]
"""
import subprocess
import sys

if len(sys.argv) < 4:
    sys.exit(__doc__)
status, phrase, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
r = subprocess.run(command, capture_output=True, text=True, timeout=600)
output = r.stdout + r.stderr
ok = r.returncode == status and phrase in output
if not ok:
    print(f"expected exit status {status} and '{phrase}' in the output;")
    print(f"got status {r.returncode}, output:\n{output[-4000:]}")
sys.exit(0 if ok else 1)
