#!/usr/bin/env python3
"""Checks of the differential tester itself, without compiling anything: the same
seed gives the same programs, every family yields cases, index expressions stay
inside their objects, a program and its twin print the same tags, the transcript
comparison finds what differs (and not what only moved), and the minimiser finds
the culprit."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import FAMILIES  # noqa: E402
from model import Form, Size, rand_form  # noqa: E402
from program import Program  # noqa: E402
import upcc_diff  # noqa: E402
import random  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL:', what)


# 1. Deterministic: the same seed (and options) gives the same sources; another seed others.
for static in (None, 3):
    a = Program(11, 40, static_threads=static)
    b = Program(11, 40, static_threads=static)
    c = Program(12, 40, static_threads=static)
    for lang in ('upc', 'cxx'):
        check(a.render(lang) == b.render(lang), f'seed 11 ({lang}, static {static}) renders twice the same')
        check(a.render(lang) != c.render(lang), f'seeds 11 and 12 ({lang}, static {static}) differ')

# 2. Every family yields cases with atoms, alone (--only) and in a mixed program.
for fam in sorted(FAMILIES):
    p = Program(3, 12, only=[fam])
    check(all(c.family == fam for c in p.cases), f'--only {fam} draws only {fam}')
    check(len(p.atoms()) >= 6, f'--only {fam} gives atoms ({len(p.atoms())})')
mixed = Program(5, 200)
check({c.family for c in mixed.cases} == set(FAMILIES), 'a 200-case program draws every family')

# 3. Both sources print the same tags, in the same order, for every atom.
for seed in (1, 2, 3):
    p = Program(seed, 60)
    tags = [re.findall(r'"(\d+\.\d+\.\d+)"', p.render(lang)) for lang in ('upc', 'cxx')]
    check(tags[0] == tags[1] and len(tags[0]) > 100, f'seed {seed}: UPC and C++ print the same tags')
    check(len(set(tags[0])) == len(tags[0]), f'seed {seed}: tags are unique')
    # a subset renders only its atoms
    keep = p.atoms()[:3]
    sub = re.findall(r'"(\d+)\.(\d+)\.\d+"', p.render('upc', keep))
    check({(int(c), int(a)) for c, a in sub} <= set(keep), f'seed {seed}: a subset renders only its atoms')

# 3b. No variable a case declares hides a declared object (a pointer named like an array).
for seed in (4, 72, 73):
    for static in (None, 3):
        p = Program(seed, 150, static_threads=static)
        names = {o.name for o in p.objects}
        declared = set(re.findall(r'\*\s*(\w+)\s*(?:=|;)', p.render('upc').split('static void case_', 1)[1]))
        check(not (declared & names), f'seed {seed}: locals named like objects: {sorted(declared & names)}')

# 4. Index expressions are inside their object at every THREADS.
rng = random.Random(7)
for _ in range(3000):
    size = Size(rng.randint(0, 5), rng.randint(0, 4))
    if size.min() == 0:
        continue
    f = rand_form(rng, size, ['MYTHREAD', '(MYTHREAD + 1) % THREADS'])
    for T in range(1, 9):
        for me in range(T):
            env = {'THREADS': T, 'MYTHREAD': me}
            v = eval(f.render().replace('%', '%'), {}, env)
            check(0 <= v < size.k0 + size.k1 * T, f'{f.render()} at THREADS {T} inside {size}')
check(Form(3, 1, ((2, 'MYTHREAD'),)).render() == '(3 + (THREADS - 1) + 2 * (MYTHREAD))', 'Form renders')
check((Form(3) - Form(5)).render() == '(-2)', 'negative offsets render in parentheses')

# 5. The comparison: a changed value and a missing line are found; lines that only moved are not.
ref = [['1.0.1 5', '1.0.2 T0 P1 A8', 'v1 a3[2] changed: 4', 'end']]
check(upcc_diff.compare(ref, ref) == (None, set()), 'identical transcripts agree')
first, cases = upcc_diff.compare(ref, [['1.0.1 5', '1.0.2 T0 P0 A8', 'end']])
check(first == (0, '1.0.2 T0 P1 A8', '1.0.2 T0 P0 A8') and cases == {1}, 'a changed line is found')
first, cases = upcc_diff.compare([['2.0.1 1', '3.0.1 2', 'end']], [['2.0.1 1', 'end']])
check(first == (0, '3.0.1 2', '<missing>') and cases == {3}, 'a missing line is found')
first, cases = upcc_diff.compare([['2.0.1 1', 'end']], [['2.0.1 1', 'v2 d5[0] changed: 9', 'end']])
check(cases == {2}, 'an element left changed is found')

# 6. ddmin finds the one interesting atom among many.
items = [(c, a) for c in range(20) for a in range(3)]
found = upcc_diff.ddmin(items, lambda s: (7, 1) in s, 200)
check(found == [(7, 1)], f'ddmin finds the culprit ({found})')
found = upcc_diff.ddmin(items, lambda s: (2, 0) in s and (15, 2) in s, 200)
check(sorted(found) == [(2, 0), (15, 2)], f'ddmin finds a pair ({found})')

print(f'upcc_diff selftest: {len(failures)} failure(s)')
sys.exit(1 if failures else 0)
