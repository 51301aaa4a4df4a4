#!/usr/bin/env python3
"""Differential tester of upcc (docs/upcc.md, "Differential tester"): random UPC
programs over pointers-to-shared, translated by upcc, against the same programs
written on upcemu's C++ API. Seeded and reproducible; a failing case is
minimised to a small reproducer written under --out.

  upcc_diff.py --seed 7 --cases 100                 one program of 100 cases
  upcc_diff.py --seeds 1-3 --cases 80 --only dir    cases of one family
  upcc_diff.py --list-families
  upcc_diff.py --seed 7 --emit DIR                  write the two sources only

Exit status: 0 when every seed agrees, 1 when upcc's program differs (or does
not compile), 2 for a usage error, 3 when the C++ reference itself fails (a bug
of the tester or of the C++ API)."""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import FAMILIES  # noqa: E402
from program import Program  # noqa: E402

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
DEFAULT_RUNS = 'threads:1,threads:2,threads:3,threads:4,processes:2,processes:4,threads:3:check,processes:3:check'


class Setup:
    def __init__(self, args):
        self.build = os.path.abspath(args.build_dir)
        self.upcc = os.path.abspath(args.upcc) if args.upcc else os.path.join(SOURCE_ROOT, 'tools', 'upcc', 'upcc')
        self.upcrun = os.path.join(self.build, 'tools', 'upcrun')
        self.cxx = os.environ.get('CXX', 'c++')
        self.upcc_flags = args.upcc_flags.split() + (['-T', str(args.static_threads)] if args.static_threads else [])
        self.cxx_flags = args.cxx_flags.split()
        self.timeout = args.timeout
        self.builds = 0
        for f in (self.upcc, self.upcrun, os.path.join(self.build, 'lib', 'libupcemu.a')):
            if not os.path.exists(f):
                sys.exit(f'upcc_diff: {f} is missing: build upcemu first (ninja -C {self.build} '
                         'tools/upcrun lib/libupcemu.a lib/libupcemu_main.a lib/libupcemu_c.a lib/libupcemu_c_main.a)')

    def compile_cxx(self, src, exe):
        b = self.build
        cmd = [self.cxx, '-std=c++20', '-w', *self.cxx_flags, '-I', os.path.join(SOURCE_ROOT, 'include'),
               '-I', os.path.join(b, 'include'), src,
               '-Wl,--whole-archive', os.path.join(b, 'lib', 'libupcemu_main.a'), '-Wl,--no-whole-archive',
               os.path.join(b, 'lib', 'libupcemu.a'), '-lboost_thread', '-pthread', '-lrt', '-ldl', '-rdynamic',
               '-Wl,--wrap=_exit', '-Wl,--wrap=_Exit', '-Wl,--wrap=quick_exit', '-o', exe]
        self.builds += 1
        return subprocess.run(cmd, capture_output=True, text=True, errors='replace')

    def compile_upc(self, src, exe):
        env = dict(os.environ, UPCEMU_BUILD_DIR=self.build)
        self.builds += 1
        return subprocess.run([self.upcc, *self.upcc_flags, src, '-o', exe], capture_output=True, text=True,
                              errors='replace', env=env)

    def run(self, exe, backend, threads, check, prefix):
        """Runs exe; returns (exit status or 'timeout', stderr, transcripts per thread)."""
        for t in range(threads):
            if os.path.exists(f'{prefix}.{t}'):
                os.unlink(f'{prefix}.{t}')
        cmd = [self.upcrun, '-n', str(threads), '--backend', backend] + (['--check'] if check else []) + [exe, prefix]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, err = p.communicate(timeout=self.timeout)
            status = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
            status = 'timeout'
        outs = []
        for t in range(threads):
            try:
                with open(f'{prefix}.{t}', errors='replace') as f:
                    outs.append(f.read().splitlines())
            except OSError:
                outs.append([])
        return status, err.decode(errors='replace'), outs


def parse_runs(text):
    runs = []
    for item in text.split(','):
        parts = item.strip().split(':')
        if len(parts) not in (2, 3) or parts[0] not in ('threads', 'processes') or not parts[1].isdigit() \
                or (len(parts) == 3 and parts[2] != 'check'):
            raise argparse.ArgumentTypeError(f'--runs: "{item}" is not BACKEND:THREADS[:check]')
        runs.append((parts[0], int(parts[1]), len(parts) == 3))
    return runs


def run_name(r):
    return f'{r[0]} THREADS={r[1]}' + (' --check' if r[2] else '')


def case_of(line):
    """The case id a transcript line belongs to (None for 'end')."""
    m = re.match(r'(?:v)?(\d+)[. ]', line)
    return int(m.group(1)) if m else None


def line_key(line):
    """What a transcript line reports: its tag (case.atom.n), 'v<case> <object>[i]' or 'end'."""
    if line.startswith('v'):
        return line.split(' changed:')[0]
    return line.split(' ')[0]


def compare(ref, got):
    """Compares two runs' transcripts line by line by tag, so that one missing or extra line
    does not shift the rest. Returns the first difference (thread, expected line, got line)
    in the reference's order, or None, and the set of case ids whose lines differ."""
    first = None
    cases = set()
    for t, (r, g) in enumerate(zip(ref, got)):
        gm = {line_key(x): x for x in g}
        rm = {line_key(x): x for x in r}
        diffs = [(x, gm.get(line_key(x), '<missing>')) for x in r if gm.get(line_key(x)) != x]
        diffs += [('<missing>', x) for x in g if line_key(x) not in rm]
        for a, b in diffs:
            if first is None:
                first = (t, a, b)
            for line in (a, b):
                c = case_of(line)
                if c is not None:
                    cases.add(c)
    return first, cases


class Seed:
    """One seed's program, its builds and runs."""

    def __init__(self, setup, args, seed, work):
        self.setup, self.args, self.seed = setup, args, seed
        self.prog = Program(seed, args.cases, only=args.only, static_threads=args.static_threads)
        self.work = os.path.join(work, f'seed{seed}')
        os.makedirs(self.work, exist_ok=True)
        self.n = 0

    def build(self, keep, name, cxx=True):
        """Writes and builds both programs (the UPC one only unless cxx) for the atoms in keep;
        returns (cxx exe, upc exe, upc failure text or None, cxx failure text or None).
        self.origin maps the UPC source's lines to atoms and helpers."""
        d = os.path.join(self.work, name)
        os.makedirs(d, exist_ok=True)
        upc_src = os.path.join(d, 'prog.upc')
        text, self.origin = self.prog.render_with_map('upc', keep)
        with open(upc_src, 'w') as f:
            f.write(text)
        cx_err = None
        if cxx:
            cxx_src = os.path.join(d, 'prog.cpp')
            with open(cxx_src, 'w') as f:
                f.write(self.prog.render('cxx', keep))
            cx = self.setup.compile_cxx(cxx_src, os.path.join(d, 'prog_cxx'))
            cx_err = None if cx.returncode == 0 else (cx.stdout + cx.stderr).strip()
        up = self.setup.compile_upc(upc_src, os.path.join(d, 'prog_upc'))
        self.upc_src = upc_src
        return (os.path.join(d, 'prog_cxx'), os.path.join(d, 'prog_upc'),
                None if up.returncode == 0 else (up.stdout + up.stderr).strip(), cx_err)

    def run_both(self, cxx_exe, upc_exe, r, tag):
        backend, threads, check = r
        pre = os.path.join(os.path.dirname(upc_exe), f'out_{tag}')
        ref = self.setup.run(cxx_exe, 'threads', threads, True, pre + '_cxx')
        got = self.setup.run(upc_exe, backend, threads, check, pre + '_upc')
        return ref, got


def first_error(text):
    """upcc's first error line without its place (the same cause in a smaller program)."""
    for line in text.splitlines():
        if 'error' in line:
            line = re.sub(r'^[^:]*:\d+:(\d+:)?', '', line).strip()
            # quoted names and numbers vary with the program around the cause
            return re.sub(r"'[^']*'", "'...'", line)
    return text.splitlines()[0] if text else ''


def error_place(text):
    """(file, line) of upcc's first error, or None."""
    for line in text.splitlines():
        m = re.match(r'^([^:]+):(\d+):(?:\d+:)? *(?:fatal )?error', line)
        if m:
            return m.group(1), int(m.group(2))
    return None


def ddmin(items, interesting, budget):
    """Zeller's delta debugging: a 1-minimal subset of items that is still interesting
    (within budget tests)."""
    n = 2
    tests = 0
    while len(items) >= 2 and tests < budget:
        chunk = max(1, len(items) // n)
        subsets = [items[i:i + chunk] for i in range(0, len(items), chunk)]
        reduced = False
        for s in subsets:
            rest = [x for x in items if x not in s]
            tests += 1
            if rest and interesting(rest):
                items, n, reduced = rest, max(n - 1, 2), True
                break
            if tests >= budget:
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    return items


class Report:
    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.failures = []
        # reproducers of an earlier run would read as this run's
        if os.path.isdir(out_dir):
            for f in os.listdir(out_dir):
                if re.match(r'seed\d+_.*\.(upc|cpp|txt)$', f):
                    os.unlink(os.path.join(out_dir, f))

    def write(self, name, files):
        os.makedirs(self.out_dir, exist_ok=True)
        paths = []
        for suffix, text in files.items():
            p = os.path.join(self.out_dir, f'{name}.{suffix}')
            with open(p, 'w') as f:
                f.write(text)
            paths.append(p)
        return paths


def indent(text, prefix='    '):
    return '\n'.join(prefix + x for x in text.splitlines())


def check_seed(setup, args, seed, work, report):
    s = Seed(setup, args, seed, work)
    prog = s.prog
    keep = [x for x in prog.atoms() if not args.select or x[0] in args.select]
    if not keep:
        print(f'seed {seed}: no atoms to build (--select {",".join(map(str, sorted(args.select or [])))} '
              f'names no case of {len(prog.cases)} with atoms)')
        return 2
    fams = {}
    for c in prog.cases:
        fams[c.family] = fams.get(c.family, 0) + 1
    print(f'seed {seed}: {len(prog.cases)} cases, {len(keep)} atoms '
          f'({", ".join(f"{k} {v}" for k, v in sorted(fams.items()))})', flush=True)
    failed = False
    # 1. Build; a UPC compile failure is minimised, reported and its atoms set aside, then
    # again (the UPC program alone until it compiles). A cause already reported sets its
    # atom aside without a new reproducer.
    causes = {}
    for attempt in range(args.max_rebuilds + 1):
        _, upc_exe, upc_err, _ = s.build(keep, f'full{attempt}', cxx=False)
        if not upc_err:
            break
        failed = True
        cause = first_error(upc_err)
        place = error_place(upc_err)
        if not place or os.path.abspath(place[0]) != s.upc_src:
            # not in the generated program (a header, the driver): nothing to minimise
            print(f'seed {seed}: upcc fails: {cause}')
            print(indent(upc_err[-3000:]))
            return 1
        origin = s.origin.get(place[1])
        if cause in causes and isinstance(origin, tuple):
            causes[cause] += 1
            keep = [x for x in keep if x != origin]
            continue
        if len(causes) == args.max_compile_failures:
            print(f'seed {seed}: giving up after {len(causes)} different upcc errors')
            return 1
        print(f'seed {seed}: upcc fails: {cause}', flush=True)
        bad = minimise_compile(s, keep, cause, origin)
        causes[cause] = causes.get(cause, 0) + 1
        name = f'seed{seed}_compile_{len(report.failures)}'
        src = prog.render('upc', bad)
        files = report.write(name, {'upc': src, 'txt': f'upcc {" ".join(setup.upcc_flags)} {name}.upc\n{upc_err}\n'
                                    f'\nminimised: {first_error(upc_err)}\n'})
        report.failures.append(('compile', seed, cause, files))
        print(f'  minimised to {len(bad)} atom(s): {", ".join(f"case {c} atom {a}" for c, a in bad)} '
              f'({prog.cases[bad[0][0]].family}); reproducer {files[0]}')
        for c, a in bad[:2]:
            print(indent(prog.case_text(c, 'upc', set(bad))))
        keep = [x for x in keep if x not in bad]
    else:
        print(f'seed {seed}: giving up after {args.max_rebuilds} builds that upcc refused')
        return 1
    if causes:
        print(f'seed {seed}: set aside {len(prog.atoms()) - len(keep)} atom(s) upcc refuses: ' +
              '; '.join(f'{n} x {c}' for c, n in causes.items()), flush=True)
    cxx_exe, upc_exe, upc_err, cxx_err = s.build(keep, 'final')
    if cxx_err:
        print(f'seed {seed}: the C++ reference does not compile (a tester bug):\n{indent(cxx_err[:4000])}')
        return 3
    if upc_err:
        print(f'seed {seed}: upcc fails again: {first_error(upc_err)}')
        return 1
    # 2. Run and compare.
    reproduced = 0
    shown = set()
    signatures = set()
    for r in args.runs:
        (rs, rerr, ref), (gs, gerr, got) = s.run_both(cxx_exe, upc_exe, r, f'{r[0]}{r[1]}{"c" if r[2] else ""}')
        if rs != 0 or any(not x or x[-1] != 'end' for x in ref):
            print(f'seed {seed}: the C++ reference fails at {run_name(r)} (status {rs}; a tester or C++ API bug):\n'
                  f'{indent(rerr[-3000:])}')
            return 3
        first, cases = compare(ref, got)
        if gs == 0 and first is None:
            continue
        failed = True
        stopped = None
        if gs != 0 or any(not x or x[-1] != 'end' for x in got):
            # it stopped: the later cases are missing, not different
            stopped = last_case(got)
            cases = {c for c in cases if stopped is None or c <= stopped}
        print(f'seed {seed}: {run_name(r)}: upcc\'s program ' +
              (f'exits with status {gs}' if gs != 0 else 'differs') +
              (f' in case {stopped}' if stopped is not None else '') +
              (f'; differing cases: {", ".join(map(str, sorted(cases)))}' if cases else ''), flush=True)
        if cases and len(cases) > 1:
            print('  ' + summary(prog, cases))
        if gerr.strip():
            print(indent(error_lines(gerr)))
        if first:
            t, a, b = first
            print(f'  first difference: thread {t}: expected "{a}", got "{b}"')
        cid = min(cases) if cases else stopped
        if cid is not None and cid < len(prog.cases) and cid not in shown:
            c = prog.cases[cid]
            print(f'  case {cid} ({c.family}), UPC:')
            print(indent(prog.case_text(cid, 'upc')))
            print(f'  case {cid}, C++:')
            print(indent(prog.case_text(cid, 'cxx')))
        # minimise the first differing case, then others that look different (another
        # family or other objects), within --max-reproducers per seed
        todo = ([cid] if cid is not None else []) + sorted(cases)
        for c in todo:
            if reproduced >= args.max_reproducers or args.no_minimise:
                break
            if c in shown or c >= len(prog.cases) or signature(prog, c) in signatures:
                continue
            shown.add(c)
            signatures.add(signature(prog, c))
            reproduced += 1
            minimise_run(s, r, c, keep, report, first_atom(first, c) if c == cid else None)
        shown.update(cases)
        if args.stop_at_first:
            break
    return 1 if failed else 0


def signature(prog, cid):
    """A case's family and the objects it uses: cases alike are likely one cause."""
    case = prog.cases[cid]
    objs = sorted(describe(o) for o in prog.objects if any('obj:' + o.name in a.uses for a in case.atoms))
    return case.family, tuple(objs)


def describe(obj):
    """An object's kind and layout: 'a3 (shared [*] short a[2*THREADS])'."""
    layout = {0: '[] ', 1: '', '*': '[*] '}.get(getattr(obj, 'block', 1), f'[{getattr(obj, "block", 1)}] ')
    what = {'scalar': 'scalar', 'arr1': '1-D', 'arr2': '2-D', 'dir': 'directory', 'allalloc': 'upc_all_alloc'}[obj.kind]
    return f'{obj.name} ({what} shared {layout}{obj.elem.c})'


def summary(prog, cases):
    """Which families and objects the differing cases share (a hint at the cause)."""
    fams, objs = {}, {}
    for c in cases:
        case = prog.cases[c]
        fams[case.family] = fams.get(case.family, 0) + 1
        for o in prog.objects:
            if any('obj:' + o.name in a.uses for a in case.atoms):
                objs[describe(o)] = objs.get(describe(o), 0) + 1
    top = sorted(objs.items(), key=lambda x: -x[1])[:5]
    return ('by family: ' + ', '.join(f'{k} {v}' for k, v in sorted(fams.items(), key=lambda x: -x[1])) +
            '; objects used by most: ' + ', '.join(f'{k} {v}' for k, v in top))


def error_lines(stderr, n=4):
    """The report of a failed run without its backtrace."""
    lines = [x for x in stderr.splitlines() if x.strip() and not x.startswith((' ', '\t')) and
             not x.startswith('backtrace')]
    return '\n'.join(lines[:n])


def last_case(got):
    cs = [case_of(x) for t in got for x in t if case_of(x) is not None]
    return max(cs) if cs else None


def minimise_compile(s, keep, cause, origin):
    """The smallest set of atoms whose program upcc still refuses with the same error;
    origin: what the error's line comes from (an atom, or a helper's use key)."""
    def interesting(atoms):
        s.n += 1
        _, _, upc_err, _ = s.build(atoms, f'min{s.n}', cxx=False)
        return upc_err is not None and first_error(upc_err) == cause
    if isinstance(origin, tuple) and interesting([origin]):
        return [origin]
    if isinstance(origin, str):
        users = [a for a in keep if origin in s.prog.cases[a[0]].atoms[a[1]].uses]
        if users and interesting(users[:1]):
            return users[:1]
    cands = list(keep)
    lo, hi = 0, len(cands)
    # bisect on prefixes: the first prefix of the atoms that fails holds a failing atom at its end
    tests = 0
    while hi - lo > 1 and tests < 12:
        mid = (lo + hi) // 2
        tests += 1
        if interesting(cands[:mid]):
            hi = mid
        else:
            lo = mid
    last = cands[hi - 1]
    if interesting([last]):
        return [last]
    return ddmin(cands[:hi], interesting, s.args.max_tests)


def first_atom(first, cid):
    """The atom whose line differs first, when that line is tagged case.atom.n of case cid."""
    for line in (first or ())[1:]:
        m = re.match(r'(\d+)\.(\d+)\.\d+ ', line)
        if m and int(m.group(1)) == cid:
            return int(m.group(1)), int(m.group(2))
    return None


def minimise_run(s, r, cid, keep, report, atom=None):
    prog, setup = s.prog, s.setup

    def outcome(atoms):
        s.n += 1
        cxx_exe, upc_exe, upc_err, cxx_err = s.build(atoms, f'min{s.n}')
        if cxx_err or upc_err:
            return None
        (rs, _, ref), (gs, gerr, got) = s.run_both(cxx_exe, upc_exe, r, 'min')
        if rs != 0 or any(not x or x[-1] != 'end' for x in ref):
            return None
        first, _ = compare(ref, got)
        if gs == 0 and first is None:
            return None
        return gs, gerr, first, ref, got

    def interesting(atoms):
        return outcome(atoms) is not None

    start = [x for x in keep if x[0] == cid]
    t0 = time.time()
    if atom in start and len(start) > 1 and interesting([atom]):
        start = [atom]   # the atom that printed the first differing line, alone
    elif not interesting(start):
        # the difference needs an earlier case (a write that was not restored?): keep everything before
        start = [x for x in keep if x[0] <= cid]
        if not interesting(start):
            print('  (not reproduced by the cases up to this one: no reproducer)')
            return
    small = ddmin(start, interesting, s.args.max_tests)
    res = outcome(small)
    if res is None:
        return
    gs, gerr, first, ref, got = res
    family = prog.cases[small[0][0]].family
    name = f'seed{s.seed}_{family}_case{cid}'
    t, a, b = first if first else (0, '', '')
    expected = '\n'.join(f'thread {k}: ' + x for k, lines in enumerate(ref) for x in lines)
    observed = '\n'.join(f'thread {k}: ' + x for k, lines in enumerate(got) for x in lines)
    txt = (f'upcc_diff seed {s.seed}, {run_name(r)}: {len(small)} atom(s) of case(s) '
           f'{sorted({c for c, _ in small})} ({family})\n'
           "upcc's program: " + (f'exit status {gs}\n' if gs != 0 else 'exit status 0\n') +
           (f'first difference: thread {t}: expected "{a}", got "{b}"\n' if first else '') +
           (f'stderr:\n{indent(error_lines(gerr, 20))}\n' if gerr.strip() else '') +
           f'\nexpected (C++ API):\n{indent(expected)}\n\ngot (upcc):\n{indent(observed)}\n')
    files = report.write(name, {'upc': prog.render('upc', small), 'cpp': prog.render('cxx', small), 'txt': txt})
    report.failures.append(('run', s.seed, family, files))
    print(f'  minimised in {time.time() - t0:.0f} s to {len(small)} atom(s): {files[0]} (+ .cpp, .txt)')
    for c in sorted({c for c, _ in small}):
        print(indent(prog.case_text(c, 'upc', set(small))))
    if first:
        print(f'  expected "{a}", got "{b}"')


def seed_list(text):
    seeds = []
    for part in text.split(','):
        if '-' in part:
            a, b = part.split('-')
            seeds += list(range(int(a), int(b) + 1))
        else:
            seeds.append(int(part))
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, help='one seed')
    ap.add_argument('--seeds', type=seed_list, help='seeds: 1-5 or 1,4,9')
    ap.add_argument('--cases', type=int, default=100, help='cases per program (default 100)')
    ap.add_argument('--only', type=lambda s: s.split(','), help='draw cases from these families only (comma-separated)')
    ap.add_argument('--list-families', action='store_true', help='list the families and exit')
    ap.add_argument('--select', type=lambda s: {int(x) for x in s.split(',')}, metavar='C,C',
                    help='build only these cases of the seed\'s program (to rerun a reported case)')
    ap.add_argument('--runs', type=parse_runs, default=parse_runs(DEFAULT_RUNS),
                    help=f'BACKEND:THREADS[:check],... (default {DEFAULT_RUNS})')
    ap.add_argument('--build-dir', default=os.path.join(SOURCE_ROOT, 'build'))
    ap.add_argument('--out', help='where reproducers go (default BUILD_DIR/upcc_diff)')
    ap.add_argument('--work', help='keep the generated programs and runs in this folder')
    ap.add_argument('--emit', metavar='DIR', help='write the seed\'s prog.upc and prog.cpp to DIR and stop')
    ap.add_argument('--static-threads', type=int, metavar='N',
                    help='compile with upcc -T N (static THREADS: constant sizes of definite-block arrays, '
                         'THREADS in indefinite ones) and run at THREADS=N only')
    ap.add_argument('--upcc-flags', default='', help='extra upcc options, e.g. "-O2"')
    ap.add_argument('--upcc', metavar='PATH', help='the upcc to test (default: this tree\'s tools/upcc/upcc)')
    ap.add_argument('--cxx-flags', default='-O0', help='C++ compiler options (default -O0)')
    ap.add_argument('--timeout', type=float, default=120, help='seconds per run (default 120)')
    ap.add_argument('--no-minimise', action='store_true')
    ap.add_argument('--max-reproducers', type=int, default=3, help='minimised run failures per seed (default 3)')
    ap.add_argument('--max-compile-failures', type=int, default=6,
                    help='different upcc errors minimised per seed before giving up (default 6)')
    ap.add_argument('--max-tests', type=int, default=16, help='builds per minimisation (default 16)')
    ap.add_argument('--max-rebuilds', type=int, default=40,
                    help='builds of a seed\'s UPC program while setting aside what upcc refuses (default 40)')
    ap.add_argument('--stop-at-first', action='store_true', help='stop a seed at its first differing run')
    args = ap.parse_args()
    if args.list_families:
        for k in sorted(FAMILIES):
            print(f'{k:8} {FAMILIES[k]}')
        return 0
    if args.only:
        bad = [f for f in args.only if f not in FAMILIES]
        if bad:
            ap.error(f'--only: unknown famil{"ies" if len(bad) > 1 else "y"} {", ".join(bad)} '
                     f'(--list-families lists them)')
    if args.static_threads is not None:
        if args.static_threads < 1:
            ap.error('--static-threads: THREADS must be at least 1')
        n = args.static_threads
        args.runs = [r for r in args.runs if r[1] == n] or \
            [('threads', n, False), ('processes', n, False), ('threads', n, True)]
    seeds = args.seeds or ([args.seed] if args.seed is not None else None)
    if not seeds:
        ap.error('give --seed S or --seeds A-B')
    if args.emit:
        os.makedirs(args.emit, exist_ok=True)
        for seed in seeds:
            prog = Program(seed, args.cases, only=args.only, static_threads=args.static_threads)
            keep = [x for x in prog.atoms() if not args.select or x[0] in args.select]
            for lang, ext in (('upc', 'upc'), ('cxx', 'cpp')):
                with open(os.path.join(args.emit, f'seed{seed}.{ext}'), 'w') as f:
                    f.write(prog.render(lang, keep))
        print(f'wrote {len(seeds)} pair(s) to {args.emit}')
        return 0
    setup = Setup(args)
    work = args.work or tempfile.mkdtemp(prefix='upcc_diff_')
    report = Report(os.path.abspath(args.out or os.path.join(args.build_dir, 'upcc_diff')))
    t0 = time.time()
    status = 0
    try:
        for seed in seeds:
            status = max(status, check_seed(setup, args, seed, work, report))
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    ncases = len(seeds) * args.cases
    print(f'upcc_diff: {len(seeds)} seed(s), {ncases} cases, {setup.builds} builds, {time.time() - t0:.0f} s: ' +
          ('all agree' if status == 0 else f'{len(report.failures)} reproducer(s) in {report.out_dir}'
           if report.failures else 'FAILED'))
    return status


if __name__ == '__main__':
    sys.exit(main())
