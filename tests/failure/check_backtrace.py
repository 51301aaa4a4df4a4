#!/usr/bin/env python3
"""Checks the backtrace of a failure report (issue 27.11) by running a program
that fails, once for each setting of the backtrace:

  default (program)  the first frames are the ones expected, each the program's
                     function at the marked file:line; no frame of upcemu or the
                     system libraries; a line saying how many are not shown
  UPCEMU_BACKTRACE=full, upcrun --backtrace=full
                     the expected frames still, and upcemu's own too
  UPCEMU_BACKTRACE=off
                     the report without a backtrace
and with bad values of both (status 2, a message naming them). No report may
hold a mangled C++ name (_ZN...).

  check_backtrace.py --source FILE --status N --root DIR --frame FUNCTION=MARK...
                     --runtime NAME [--no-debug-info] -- UPCRUN [OPTIONS] PROGRAM [ARGS]

MARK names the line of FILE with the comment "frame: MARK"; FUNCTION is how the
frame's function name starts; NAME how one of upcemu's function names starts.
With --no-debug-info (a program built without -g) the expected frames are
their function in the program's file and offset ("f() in ./prog+0x1a2b").
"""
import argparse
import os
import re
import subprocess
import sys

MANGLED = re.compile(r'(?<![A-Za-z0-9_])_Z[A-Za-z0-9_]')
HEADER = re.compile(r'^  backtrace( of thread \d+)?:$')
RUNTIME_NAMES = ('upc::', 'std::', 'boost::', '__gnu_cxx::', 'upcemu_', '__upcc_', 'doctest::')

failures = []
NO_DEBUG_INFO = False


def fail(what, stderr):
    failures.append(f'{what}\n--- stderr ---\n{stderr[-6000:]}')


def run(command, env_value=None):
    env = dict(os.environ)
    env.pop('UPCEMU_BACKTRACE', None)
    if env_value is not None:
        env['UPCEMU_BACKTRACE'] = env_value
    r = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    return r.returncode, r.stderr


def frames_of(stderr):
    """The frame lines after the report's backtrace header: (function, path, line, text)."""
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        if HEADER.match(line):
            out = []
            for text in lines[i + 1:]:
                if not text.startswith('    #'):
                    break
                body = text.strip().split(' ', 1)[1]  # after '#N'
                function, path, number = body, None, None
                if ' at ' in body:
                    function, place = body.rsplit(' at ', 1)
                    path, _, number = place.rpartition(':')
                elif ' in ' in body:
                    function = body.rsplit(' in ', 1)[0]
                out.append((function, path, int(number) if number and number.isdigit() else None, text))
            return out
    return None


def qualified(function):
    """'ns::f' of 'void ns::f(int)'."""
    head = function.split('(')[0] if not function.startswith('(') else function
    return head.split(' ')[-1]


def marked_line(source, mark):
    with open(source) as f:
        for number, text in enumerate(f, 1):
            if re.search(r'frame: ' + re.escape(mark) + r'\s*(\*/)?$', text.rstrip()):
                return number
    sys.exit(f'no line marked "frame: {mark}" in {source}')


def is_runtime(frame, root):
    function, path, _, text = frame
    if qualified(function).startswith(RUNTIME_NAMES):
        return True
    if path:
        full = os.path.realpath(path)
        for folder in ('lib', 'include', os.path.join('tools', 'upcc', 'include')):
            if full.startswith(os.path.join(root, folder) + os.sep):
                return True
        if full.startswith('/usr/include/'):
            return True
    return ' in /lib/' in text or ' in /usr/lib/' in text


def matches(frame, expected, source):
    function, path, number, text = frame
    name, line = expected
    if not qualified(function).startswith(name):
        return False
    if NO_DEBUG_INFO:
        return path is None and re.search(r' in \S+\+0x[0-9a-f]+$', text) is not None
    return path is not None and number == line and os.path.realpath(path) == os.path.realpath(source)


def check_common(label, status, stderr, want_status):
    if status != want_status:
        fail(f'{label}: exit status {status}, expected {want_status}', stderr)
    if not any(line.startswith('upcemu: ') for line in stderr.splitlines()):
        fail(f'{label}: no report headline (a line starting "upcemu: ")', stderr)
    if MANGLED.search(stderr):
        fail(f'{label}: a mangled C++ name in the report: {MANGLED.search(stderr).group(0)}...', stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--source', required=True)
    p.add_argument('--status', type=int, required=True)
    p.add_argument('--root', required=True)
    p.add_argument('--frame', action='append', required=True)
    p.add_argument('--runtime', required=True)
    p.add_argument('--no-debug-info', action='store_true')
    p.add_argument('command', nargs='+')
    a = p.parse_args()
    global NO_DEBUG_INFO
    NO_DEBUG_INFO = a.no_debug_info
    root = os.path.realpath(a.root)
    expected = []
    for spec in a.frame:
        name, mark = spec.split('=', 1)
        expected.append((name, marked_line(a.source, mark)))
    upcrun, rest = a.command[0], a.command[1:]

    # the default: the program's frames only
    status, stderr = run(a.command)
    check_common('default', status, stderr, a.status)
    frames = frames_of(stderr)
    if not frames:
        fail('default: no backtrace with frames in the report', stderr)
    else:
        for i, want in enumerate(expected):
            if i >= len(frames) or not matches(frames[i], want, a.source):
                where = 'in the program' if NO_DEBUG_INFO else f'at {a.source}:{want[1]}'
                fail(f'default: frame #{i} should be {want[0]} {where}', stderr)
        for frame in frames:
            if is_runtime(frame, root):
                fail(f'default: a frame of upcemu or the system is shown: {frame[3].strip()}', stderr)
        if 'not shown: ' not in stderr or 'frames of upcemu and the system libraries' not in stderr:
            fail('default: no line saying which frames are not shown', stderr)

    # every frame, through the environment and through upcrun's option
    for label, command, value in (('UPCEMU_BACKTRACE=full', a.command, 'full'),
                                  ('upcrun --backtrace=full', [upcrun, '--backtrace=full'] + rest, None)):
        status, stderr = run(command, value)
        check_common(label, status, stderr, a.status)
        full = frames_of(stderr) or []
        if not any(qualified(f[0]).startswith(a.runtime) for f in full):
            fail(f'{label}: no frame of {a.runtime}', stderr)
        position = 0
        for want in expected:  # in the same order, with upcemu's frames between them
            while position < len(full) and not matches(full[position], want, a.source):
                position += 1
            if position == len(full):
                fail(f'{label}: no frame {want[0]} at {a.source}:{want[1]} (in order)', stderr)
                break
        if frames and len(full) <= len(frames):
            fail(f'{label}: {len(full)} frames, not more than the default {len(frames)}', stderr)

    # none
    status, stderr = run(a.command, 'off')
    check_common('UPCEMU_BACKTRACE=off', status, stderr, a.status)
    if any(HEADER.match(line) or line.startswith('    #') for line in stderr.splitlines()):
        fail('UPCEMU_BACKTRACE=off: the report still has a backtrace', stderr)

    # bad values
    status, stderr = run([upcrun, '--backtrace=some'] + rest)
    if status != 2 or "--backtrace must be 'program', 'full' or 'off', got 'some'" not in stderr:
        fail(f'upcrun --backtrace=some: status {status}, expected 2 and a message naming the option', stderr)
    status, stderr = run(a.command, 'some')
    if status != 2 or "UPCEMU_BACKTRACE='some' is invalid" not in stderr:
        fail(f'UPCEMU_BACKTRACE=some: status {status}, expected 2 and a message naming the variable', stderr)

    for f in failures:
        print('FAILED:', f, '\n')
    print(f'{"ok" if not failures else f"{len(failures)} checks failed"}: {" ".join(a.command)}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
