#!/usr/bin/env python3
"""Runs each program of apps/classroom/mistakes/ with and without the checker
(UPCEMU_CHECK=1, what `upcrun --check` sets; UPCEMU_CHECK=races, what
`upcrun --check=races` sets, for the two data races) and asserts what comes out: the
exit status, and the key phrases of upcemu's report (the checker's message
naming the function, the argument and the thread; the deadlock report) or, for
the mistakes upcemu cannot see (data races, legal but wrong code), of the
program's own check. docs/classroom.md quotes these messages.

  check_mistakes.py BUILD_DIR          BUILD_DIR: build/apps/classroom/mistakes
  check_mistakes.py BUILD_DIR --show   also print each run's output

Every case runs on 4 threads; the runs go concurrently (the deadlock reports
each wait for the 2 s watchdog). Exit status 0 when every case says what it
should, 1 otherwise.
"""
import argparse
import os
import subprocess
import sys

THREADS = 4
DEADLOCK = "upcemu: deadlock: every thread is waiting and none can go on"
DIFFERENT_CALLS = "the threads wait in different synchronisation calls"

# program -> (exit status, phrases) without and with the checker, on the
# threads backend; a few also run on the processes backend (PROCESSES).
CASES = {
    "missing_barrier": {
        "plain": (1, ["WRONG: thread 0 added the counts before every thread had written its own"]),
        "check": (1, ["WRONG: thread 0 added the counts before every thread had written its own"]),
        "races": (1, ["upcemu: shared ", ": data race on element ", " of the shared_array<long int> of 4 elements "
                      "declared at ", "missing_barrier.cpp:22: thread ", "'s write at ", " and thread ",
                      "are not ordered by any barrier, lock or strict access", "put a upc_barrier between them"]),
    },
    "unlocked_accumulator": {
        "plain": (1, ["WRONG: the shared total holds", "updates were lost"]),
        "check": (1, ["WRONG: the shared total holds", "updates were lost"]),
        "races": (1, ["upcemu: shared ", ": data race on element 0 (thread 0, offset ",
                      ") of the shared<long int> declared at ", "unlocked_accumulator.cpp:",
                      "are not ordered by any barrier, lock or strict access",
                      "hold one lock around each update (upc_lock, upc_unlock)"]),
    },
    "forall_every_thread": {
        "plain": (1, ["NOT SHARED: every thread made all 39980 updates (each should make about 9995)"]),
        "check": (1, ["NOT SHARED: every thread made all 39980 updates (each should make about 9995)"]),
    },
    "out_of_bounds": {
        "plain": (1, ["WRONG: b[31] = "]),
        "check": (1, ["upcemu: shared_array[]: index 32 is out of bounds for a shared array of 32 elements (thread 3)"]),
    },
    "collective_some_threads": {
        "plain": (1, [DEADLOCK, "thread 0: waiting in upc_all_reduceL at", "collective_some_threads.cpp:",
                      "threads 1-3: waiting in upc_barrier at", DIFFERENT_CALLS]),
        "check": (1, [DEADLOCK, "thread 0: waiting in upc_all_reduceL at", "threads 1-3: waiting in upc_barrier at",
                      DIFFERENT_CALLS]),
    },
    "collective_different_args": {
        "plain": (1, ["upcemu: upc_all_broadcast: argument nbytes must be single-valued (the same on every thread): "
                      "this thread passed 8 at", "thread 0 passed 12 at"]),
        "check": (1, ["upcemu: upc_all_broadcast: argument nbytes must be single-valued (the same on every thread): "
                      "this thread passed 8 at", "thread 0 passed 12 at"]),
    },
    "memget_crosses_block": {
        "plain": (1, ["WRONG: element 2 of the copy is 0, a[8] is 108"]),
        "check": (1, ["upcemu: upc_memget: src (thread 0, offset ",
                      ") plus 16 bytes runs past the end of the shared_array<int, 8> of ",
                      "on thread 0 (8 bytes of it from there): a upc_mem* copy reaches only the part of an object "
                      "that one thread holds; copy each thread's block separately (thread 0)"]),
    },
    "barrier_in_branch": {
        "plain": (1, [DEADLOCK, "threads 0-1: waiting in upc_barrier at", "threads 2-3: waiting in upc_all_reduceL at",
                      DIFFERENT_CALLS]),
        "check": (1, [DEADLOCK, "threads 0-1: waiting in upc_barrier at", "threads 2-3: waiting in upc_all_reduceL at",
                      DIFFERENT_CALLS]),
    },
    "block_size_argument": {
        "plain": (1, ["WRONG: row 0 sums to 86, expected 15"]),
        "check": (1, ["WRONG: row 0 sums to 86, expected 15"]),
    },
    "privatise_remote": {
        "plain": (1, ["upcemu: cast of a pointer-to-shared to a local pointer: the pointer-to-shared has affinity to "
                      "thread 0, not to the calling thread; use upc_memget/upc_memput or upc_cast for remote data"]),
        "check": (1, ["upcemu: cast of a pointer-to-shared to a local pointer: the pointer-to-shared has affinity to "
                      "thread 0, not to the calling thread; use upc_memget/upc_memput or upc_cast for remote data"]),
    },
    "lock_not_released": {
        "plain": (1, [DEADLOCK, "waiting in upc_lock (lock 0x", ", held by thread ", "waiting in upc_barrier at"]),
        "check": (1, [DEADLOCK, "waiting in upc_lock (lock 0x", ", held by thread ", "waiting in upc_barrier at"]),
    },
    "private_global": {
        "plain": (1, ["WRONG: thread 1 counted", "the private counters were not private"]),
        "check": (1, ["WRONG: thread 1 counted", "the private counters were not private"]),
    },
}

# The same on the processes backend (with the checker), where it differs or
# matters: a C++ global is private there, as in UPC.
PROCESSES = {
    "out_of_bounds": CASES["out_of_bounds"]["check"],
    "collective_some_threads": CASES["collective_some_threads"]["check"],
    "privatise_remote": CASES["privatise_remote"]["check"],
    "lock_not_released": CASES["lock_not_released"]["check"],
    "unlocked_accumulator": CASES["unlocked_accumulator"]["check"],
    "private_global": (0, ["every thread counted its own work"]),
}


def runs(build_dir):
    """(name, argv, env, expected status, phrases) for every run."""
    out = []
    for program, modes in CASES.items():
        for mode, (status, phrases) in modes.items():
            flag = {"plain": ("no check", "0"), "check": ("--check", "1"), "races": ("--check=races", "races")}[mode]
            out.append((f"{program} (threads, {flag[0]})", program,
                        {"UPCEMU_BACKEND": "threads", "UPCEMU_CHECK": flag[1]}, status, phrases))
    for program, (status, phrases) in PROCESSES.items():
        check = "0" if program == "private_global" else "1"
        out.append((f"{program} (processes, {'--check' if check == '1' else 'no check'})", program,
                    {"UPCEMU_BACKEND": "processes", "UPCEMU_CHECK": check}, status, phrases))
    return [(name, os.path.join(build_dir, program), env, status, phrases) for name, program, env, status, phrases in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir", help="the folder of the built mistake programs")
    ap.add_argument("--show", action="store_true", help="print every run's output")
    args = ap.parse_args()

    started = []
    for name, exe, extra, status, phrases in runs(args.build_dir):
        if not os.access(exe, os.X_OK):
            print(f"check_mistakes.py: {exe} is not built", file=sys.stderr)
            return 2
        env = dict(os.environ, UPCEMU_THREADS=str(THREADS), UPCEMU_TIMEOUT="120", **extra)
        env.pop("UPCEMU_QUIET", None)
        proc = subprocess.Popen([exe], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        started.append((name, proc, status, phrases))

    failures = 0
    for name, proc, status, phrases in started:
        output, _ = proc.communicate(timeout=300)
        missing = [p for p in phrases if p not in output]
        ok = proc.returncode == status and not missing
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: exit status {proc.returncode}" +
              ("" if proc.returncode == status else f" (expected {status})") +
              "".join(f"\n     missing: {p!r}" for p in missing))
        if args.show or not ok:
            for line in output.splitlines():
                if not line.startswith("    ") or not ok:  # backtrace lines only for failures
                    print(f"     | {line}")
    print(f"{len(started) - failures} of {len(started)} runs said what they should")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
