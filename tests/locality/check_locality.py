#!/usr/bin/env python3
"""upcrun --report=locality against a sequential model of affinity_classes.upc
(and its C++ form, affinity_classes.cpp: the same loops on the same lines).

  check_locality.py UPCRUN PROGRAM SOURCE MODE [BACKEND]

MODE:
  table        -n 4: the printed table's rows, counts and order, the total, and
               the upc_forall note (the every-thread loop, not the nested one)
  table-nodes  -n 4 --nodes 2: the same with remote split into same node / other node
  file         -n 4 --nodes 2 --report=traffic,locality --report-file F: the
               traffic rows, then the locality rows, with bytes, as JSON lines;
               and --report=locality alone: its rows only, replacing the file
  bad-options  bad --report values refused by upcrun and by the program itself
               (UPCEMU_REPORT), each with its message

The expected counts come from model(), which runs the program's loops
sequentially with UPC's layout rules (blocked: element i on thread (i / B) %
THREADS; cyclic: i % THREADS; upc_forall iteration i on the owner of its
affinity); HAND_COUNTS_4 holds the same numbers for THREADS 4 counted by hand
from the loop bounds, and model() must agree with them.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

B = 16
ROWS = ["init_a", "init_c", "good", "fair", "bad", "every_thread", "nested", "memget"]

# THREADS 4, one node: (local, remote) per line, counted by hand.
#  good: 62 iterations x 4 accesses; a[i-1] remote at i = 16, 32, 48 and a[i+1]
#        at i = 15, 31, 47: 6 remote.
#  fair: b[i] always local (62); c[j] on thread j % 4 and the iteration on
#        i / 16: c[i] local 14 times, c[i-1] 16, c[i+1] 16: 108 local.
#  bad:  iteration i on thread i % 4: b[i] and a[i] local 14 times each,
#        a[i-1] 15, a[i+1] 15: 58 local of 248.
#  every_thread: each of 4 threads reads a[0..15], thread 0's: 16 local, 48 remote.
#  nested: thread t reads b[16t], b[16t+1], its own: 8 local.
#  memget: each thread copies the next thread's block once: 4 remote.
HAND_COUNTS_4 = {"init_a": (64, 0), "init_c": (64, 0), "good": (242, 6), "fair": (108, 140), "bad": (58, 190),
                 "every_thread": (16, 48), "nested": (8, 0), "memget": (0, 4)}


def model(threads, node_of):
    """{line name: [local, near, far, local bytes, near bytes, far bytes]}."""
    n = B * threads
    blocked = lambda i: (i // B) % threads  # noqa: E731
    cyclic = lambda i: i % threads  # noqa: E731
    rows = {name: [0] * 6 for name in ROWS}

    def access(name, runner, owner, nbytes=4):
        k = 0 if owner == runner else 1 if node_of[owner] == node_of[runner] else 2
        rows[name][k] += 1
        rows[name][3 + k] += nbytes

    for i in range(n):
        access("init_a", blocked(i), blocked(i))
        access("init_c", cyclic(i), cyclic(i))
    for i in range(1, n - 1):
        for name, runner, data in (("good", blocked(i), blocked), ("fair", blocked(i), cyclic),
                                   ("bad", i % threads, blocked)):
            access(name, runner, blocked(i))  # the write of b[i]
            for j in (i - 1, i, i + 1):
                access(name, runner, data(j))
    for t in range(threads):
        for i in range(B):
            access("every_thread", t, blocked(i))
        for j in (0, 1):
            access("nested", t, blocked(t * B + j))
        access("memget", t, (t + 1) % threads, B * 4)
    return rows


def source_lines(source):
    """{line name: line number}, from the source's "line: NAME" markers."""
    lines = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"line: (\w+)", text)
            if m:
                lines[m.group(1)] = number
    missing = set(ROWS) - set(lines)
    if missing:
        sys.exit(f"{source}: no marker for {sorted(missing)}")
    return lines


def expected_order(counts, lines):
    """The report's order: most remote first, then most local, then by line."""
    return sorted(ROWS, key=lambda name: (-(counts[name][1] + counts[name][2]), -counts[name][0], lines[name]))


def run(cmd, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120,
                       env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout, r.stderr


def fail(message, output=""):
    print(output)
    sys.exit("FAIL: " + message)


def check_table(upcrun, program, source, backend, nodes):
    threads = 4
    node_of = [t // 2 for t in range(threads)] if nodes else [0] * threads
    counts = model(threads, node_of)
    lines = source_lines(source)
    base = os.path.basename(source)
    cmd = [upcrun, "-n", str(threads), "--backend", backend, "--report=locality"] + (["--nodes", "2"] if nodes else [])
    status, _, err = run(cmd + [program])
    if status != 0:
        fail(f"the run ended with status {status}", err)
    head = "upcemu locality report: 4 threads" + (" on 2 nodes x 2 threads (block)" if nodes else "") + \
        "; shared accesses by source line, most remote first"
    if head not in err:
        fail("no report heading: " + head, err)
    number = r"\s+(\d+)"
    row_re = re.compile(r"^  (\S+):(\d+)" + number + number + (number if nodes else "") + r"\s+([\d.]+)%\s+(\d+(?:\.\d)? \w?i?B)$")
    got = []
    for text in err.splitlines():
        m = row_re.match(text)
        if m:
            if os.path.basename(m.group(1)) != base:
                fail(f"a row of another file: {text}", err)
            got.append((int(m.group(2)), [int(x) for x in m.groups()[2:-2]], float(m.groups()[-2]), m.groups()[-1]))
    by_line = {v: k for k, v in lines.items()}
    names = [by_line.get(line, f"line {line}") for line, _, _, _ in got]
    order = expected_order(counts, lines)
    if names != order:
        fail(f"rows {names}, expected {order}", err)
    for (line, numbers, share, remote_bytes), name in zip(got, names):
        c = counts[name]
        want = [c[0], c[1], c[2]] if nodes else [c[0], c[1] + c[2]]
        if numbers != want:
            fail(f"{name} (line {line}): {numbers}, expected {want}", err)
        total = c[0] + c[1] + c[2]
        if abs(share - round(100.0 * (c[1] + c[2]) / total, 1)) > 0.05:
            fail(f"{name}: remote share {share}%", err)
        if remote_bytes != f"{c[4] + c[5]} B":
            fail(f"{name}: remote bytes {remote_bytes}, expected {c[4] + c[5]} B", err)
    local = sum(c[0] for c in counts.values())
    remote = sum(c[1] + c[2] for c in counts.values())
    total_line = f"  total: {local} local, {remote} remote" + \
        (f" ({sum(c[2] for c in counts.values())} to another node)" if nodes else "") + " accesses"
    if total_line not in err.splitlines():
        fail("no line: " + total_line, err)
    notes = [t for t in err.splitlines() if t.startswith("  note: ")]
    note = (f"  note: the upc_forall at {{}}:{lines['every_thread']} gives every iteration to every thread (its "
            f"affinity is empty or continue); {threads} threads ran all of it, {threads} times in all. To share the "
            "work, give it the affinity of the data each iteration writes, such as &a[i]")
    if len(notes) != 1 or not re.fullmatch(re.escape(note).replace(re.escape("{}"), r"\S*" + re.escape(base)), notes[0]):
        fail(f"one note expected, for line {lines['every_thread']} (not the nested loop): {notes}", err)


def check_file(upcrun, program, source, backend):
    threads = 4
    counts = model(threads, [t // 2 for t in range(threads)])
    lines = source_lines(source)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.jsonl")
        with open(path, "w") as f:
            f.write("an earlier run's text, to be replaced\n")
        status, _, err = run([upcrun, "-n", str(threads), "--backend", backend, "--nodes", "2",
                              "--report=traffic,locality", "--report-file", path, program])
        if status != 0:
            fail(f"the run ended with status {status}", err)
        if "locality report" in err or "traffic report" in err:
            fail("with --report-file the tables are not printed", err)
        with open(path) as f:
            rows = [json.loads(line) for line in f]
    kinds = [r.get("report", "traffic") for r in rows]
    if not kinds or kinds != sorted(kinds, key=lambda k: k != "traffic"):
        fail(f"the traffic rows first, then the locality rows: {kinds}")
    if not any(r.get("function") == "upc_memget" for r in rows if "report" not in r):
        fail("no traffic row for upc_memget")
    by_line = {v: k for k, v in lines.items()}
    got = {}
    for r in rows:
        if r.get("report") == "locality":
            name = by_line.get(r["line"], f"line {r['line']}")
            got[name] = [r["local"], r["remote_same_node"], r["remote_other_node"], r["local_bytes"],
                         r["remote_same_node_bytes"], r["remote_other_node_bytes"]]
            if (r["threads"], r["nodes"], os.path.basename(r["file"])) != (threads, 2, os.path.basename(source)):
                fail(f"row {r}")
    if got != counts:
        fail(f"locality rows {got}, expected {counts}")
    names = [by_line.get(r["line"]) for r in rows if r.get("report") == "locality"]
    if names != expected_order(counts, lines):
        fail(f"locality rows in the order {names}")
    notes = [(r["line"], r["threads_ran_all"], r["runs"]) for r in rows if r.get("report") == "locality_forall_every_thread"]
    if notes != [(lines["every_thread"], threads, threads)]:
        fail(f"forall rows {notes}")
    # --report=locality alone: the file holds its rows only (no traffic rows,
    # nothing of the file's earlier text)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.jsonl")
        with open(path, "w") as f:
            f.write("an earlier run's text, to be replaced\n")
        status, _, err = run([upcrun, "-n", str(threads), "--backend", backend, "--report=locality", "--report-file",
                              path, program])
        with open(path) as f:
            kinds = {json.loads(line).get("report", "traffic") for line in f}
    if status != 0 or kinds != {"locality", "locality_forall_every_thread"}:
        fail(f"--report=locality --report-file: status {status}, rows of {sorted(kinds)}", err)


def check_bad_options(upcrun, program):
    expected = "'traffic', 'locality' or both separated by a comma"
    for value in ["locality,", "bytes", "traffic,,locality", ""]:
        status, _, err = run([upcrun, "-n", "2", "--report=" + value, program])
        want = f"--report must be {expected}, got '{value}'"
        if status != 2 or want not in err:
            fail(f"upcrun --report={value}: status {status}, expected 2 and '{want}'", err)
    status, _, err = run([program], {"UPCEMU_REPORT": "locality,trafic", "UPCEMU_THREADS": "2"})
    want = f"environment variable UPCEMU_REPORT='locality,trafic' is invalid: expected {expected}"
    if status == 0 or want not in err:
        fail(f"UPCEMU_REPORT=locality,trafic: status {status}, expected '{want}'", err)


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    upcrun, program, source, mode = sys.argv[1:5]
    backend = sys.argv[5] if len(sys.argv) == 6 else "threads"
    hand = {name: (c[0], c[1] + c[2]) for name, c in model(4, [0] * 4).items()}
    if hand != HAND_COUNTS_4:
        fail(f"the model {hand} disagrees with the hand counts {HAND_COUNTS_4}")
    if mode == "table":
        check_table(upcrun, program, source, backend, nodes=False)
    elif mode == "table-nodes":
        check_table(upcrun, program, source, backend, nodes=True)
    elif mode == "file":
        check_file(upcrun, program, source, backend)
    elif mode == "bad-options":
        check_bad_options(upcrun, program)
    else:
        sys.exit(__doc__)
    print("ok")


if __name__ == "__main__":
    main()
