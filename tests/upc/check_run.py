#!/usr/bin/env python3
"""Runs a program and checks how it ends: its exit status, texts its output
(stdout and stderr together) must contain, and texts it must not.

  check_run.py STATUS [--has TEXT]... [--lacks TEXT]... -- PROGRAM [ARGS...]
"""
import subprocess
import sys

args = sys.argv[1:]
if '--' not in args or not args:
    sys.exit(__doc__)
command = args[args.index('--') + 1:]
options = args[:args.index('--')]
status, has, lacks = int(options[0]), [], []
for flag, text in zip(options[1::2], options[2::2]):
    (has if flag == '--has' else lacks).append(text)
r = subprocess.run(command, capture_output=True, text=True, timeout=300)
output = r.stdout + r.stderr
problems = [f'status {r.returncode}, expected {status}'] if r.returncode != status else []
problems += [f'missing: {t!r}' for t in has if t not in output]
problems += [f'unexpected: {t!r}' for t in lacks if t in output]
if problems:
    print('\n'.join(problems))
    print('output:\n' + output[-4000:])
sys.exit(1 if problems else 0)
