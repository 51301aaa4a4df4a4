#!/usr/bin/env python3
"""Runs one program under several settings and checks that each run exits 0
and prints the same answer: the first group of PATTERN, taken from each run's
output. For the apps whose results must be the same bits across THREADS,
backends and algorithms (NAS FT's checksum digest, NAS CG's zeta at the same
THREADS on both backends), beyond each run's own verification.

  same_answer.py PATTERN SETTINGS [SETTINGS...] -- PROGRAM [ARGS...]

SETTINGS is one run's environment, space-separated NAME=VALUE pairs
("UPCEMU_THREADS=4 UPCEMU_BACKEND=processes").
"""
import os
import re
import subprocess
import sys

args = sys.argv[1:]
if "--" not in args or len(args) < 4:
    sys.exit(__doc__)
split = args.index("--")
pattern, settings, command = re.compile(args[0]), args[1:split], args[split + 1:]
answers = {}
for s in settings:
    env = dict(os.environ)
    env.update(kv.split("=", 1) for kv in s.split())
    r = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    found = pattern.search(r.stdout + r.stderr)
    if r.returncode != 0 or not found:
        print(f"[{s}] exit status {r.returncode}, answer {'found' if found else 'not found'}:\n{(r.stdout + r.stderr)[-3000:]}")
        sys.exit(1)
    answers[s] = found.group(1)
    print(f"[{s}] {answers[s]}")
if len(set(answers.values())) != 1:
    print("the answers differ")
    sys.exit(1)
