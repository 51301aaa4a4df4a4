#!/usr/bin/env python3
"""Acceptance run of public UPC programs: compile each one unchanged with upcc,
run it with upcrun at several THREADS on both backends and under --check, and
classify it (docs/upcc.md, "Acceptance: public UPC programs").

usage: run_corpus.py [options] DIR...

Each DIR is searched recursively for programs (the programs are fetched
separately; they are never part of upcemu):
  - a folder with a harness.conf (Berkeley UPC's test-harness format, as in
    Berkeley's upc-tests tree) holds the tests it names: their Files, Flags,
    AppArgs, AppEnv, PassExpr, FailExpr, ExitCode, CompileResult (fail: the
    program is invalid and must be rejected), BuildCmd (nolink: compile only;
    make: not a upcc build, skipped), DynamicThreads / StaticThreads (0: not
    that way; a number: the only THREADS it is meant for) are followed;
  - any other .upc or .c file that defines main is one program, compiled alone
    (its folder is the working folder, so its own headers are found).

A program is compiled as it is (dynamic THREADS); if that fails, once per
THREADS with -T N (a static THREADS; the table says "-T"). Each run has stdin
from /dev/null, a fresh working folder, and a time limit (upcrun --timeout,
then a kill). Run cells: pass, WRONG (nonzero status, the program's failure
message, or a missing pass line), REPORT (upcemu stopped it with a report:
bad access, deadlock, ...), CRASH (a signal), TIMEOUT, INPUT (a usage
message: it needs arguments or files), "-" (not built for that THREADS) and
"n/a" (not meant for that THREADS).

A program's class is the worst of its runs: compile, crash (CRASH or REPORT),
timeout, wrong, needs input, pass; negative tests (CompileResult: fail) are
"rejected" (right) or "accepted" (wrong: an invalid program compiled).
--notes FILE reclassifies failing programs whose cause is known not to be
upcemu's: lines "PROGRAM  bug|input|n/a  REASON" (PROGRAM as in the table).

Options:
  --threads LIST   THREADS to run (default 1,2,4)
  --runs LIST      run kinds per THREADS: threads, processes, and with
                   ":check" under --check; an "@N" suffix limits a kind to
                   THREADS N (default threads,processes,processes:check@2,
                   threads:check@4)
  --timeout S      seconds per run (default 60) and --compile-timeout S
                   (default 300)
  --work DIR       logs and binaries (default: a new folder under /tmp);
                   results.json there holds every cell
  --only REGEX     only programs whose name matches
  -j N             programs at a time (default 1)
  --notes FILE     known causes (above)
  --list           print the programs found (and why any is skipped) and stop
  --reclassify     classify again the runs of an earlier --work folder (its
                   results.json and logs) without compiling or running
environment: UPCC (default <repo>/tools/upcc/upcc; may carry arguments),
UPCRUN (default <repo>/build/tools/upcrun).
Exit status: 0 when every program passed (or was reclassified by --notes),
1 otherwise, 2 for a wrong command line.
"""
import argparse
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

# How much of a run's output is read back for classification: its start and its
# end (where a report or a final verdict is).
READ_HEAD = 2 << 20
READ_TAIL = 1 << 20

# Failure words a program prints when it checks itself (outside a harness).
GENERIC_FAIL = re.compile(
    r"^(.*\b(FAIL(ED|URE)?|Fail(ed|ure)|ERROR|Error|error|WRONG|Wrong|wrong|INCORRECT|"
    r"[Ii]ncorrect|mismatch|MISMATCH)\b.*)$", re.M)
# ...but not lines saying there were none.
NOT_A_FAILURE = re.compile(r"\b(no|0|zero)\s+(errors?|failures?|mismatch(es)?)\b|errors?\s*[:=]\s*0\b"
                           r"|\bwithout errors?\b|\bmax(imum)?\s+error\b|\berror\s*(bound|tolerance)\b", re.I)
USAGE = re.compile(r"^.*(\busage\b|\bUsage\b|\bUSAGE\b|\bsyntax:|missing argument|"
                   r"(wrong|invalid|bad) (number of )?arguments?|needs? (an? )?arguments?|"
                   r"specify (the|a|an) |cannot open|can't open|could not open|couldn't open|"
                   r"No such file or directory|unable to open).*$", re.M)
# A report may follow a program's unfinished line (printf without a newline).
REPORT = re.compile(r"upcemu: (?!warning)[^\n]*")
# A program that says it cannot run with this THREADS (it checks THREADS itself).
THREADS_REQUIREMENT = re.compile(
    r"^.*(\b(at least|at most|exactly|more than|fewer than|multiple of|power of (2|two)|even|odd)\b[^\n]{0,40}"
    r"\b(UPC )?(threads|THREADS|thread count|number of threads|processors|procs|processes)\b|"
    r"\bTHREADS\s*(must|should|needs to)\b|"
    r"\b(requires?|needs?|must (be )?run with)\b[^\n]{0,30}\b\d+\s+(or more )?(UPC )?(threads|THREADS|processes)\b).*$",
    re.M)
# RequireFeature names of Berkeley's harness that only Berkeley UPC's runtime has.
BERKELEY_ONLY = {"upcr", "gasnet", "trace", "upc_trace_printf", "upc_trace_mask", "berkeleyupc", "pthread_support"}
MAIN_DEF = re.compile(r"^[ \t]*((static|extern)\s+)?(int|void|signed int|unsigned)?[ \t]*\bmain\s*\(", re.M)
CLASS_ORDER = ["compile", "accepted", "crash", "timeout", "wrong", "needs input",
               "program's bug", "n/a", "pass", "rejected"]
PASSING = {"pass", "rejected"}


# ---------------------------------------------------------------- harness.conf

def parse_harness(path):
    """The tests of a Berkeley harness.conf, as a list of dicts (defaults applied)."""
    tests, defaults, cur, in_default = [], {}, None, False
    wild = []
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith(("PassExpr", "FailExpr")) \
                else re.sub(r"\s+#.*$", "", raw.rstrip())
            if not line.strip():
                continue
            if line.strip() == "BEGIN_DEFAULT_CONFIG":
                in_default, defaults = True, {}
                continue
            if line.strip() == "END_DEFAULT_CONFIG":
                in_default = False
                continue
            m = re.match(r"^\s*([A-Za-z]+):\s*(.*?)\s*$", line)
            if not m:
                continue
            key, value = m.group(1), m.group(2)
            if in_default:
                defaults[key] = value
            elif key == "TestName":
                cur = dict(defaults)
                cur["TestName"] = value
                tests.append(cur)
            elif key == "WildCard":
                wild.append((value, dict(defaults)))
            elif cur is not None:
                cur[key] = value
    return tests, wild


def harness_programs(folder, conf, root):
    tests, wild = parse_harness(conf)
    named = {t["TestName"] for t in tests}
    for pattern, defaults in wild:
        rx = re.compile("^" + re.escape(pattern).replace(re.escape("<*>"), "(.+)") + "$")
        for name in sorted(os.listdir(folder)):
            m = rx.match(name)
            if m and m.group(1) not in named:
                t = dict(defaults)
                t["TestName"] = m.group(1)
                tests.append(t)
    progs = []
    for t in tests:
        name = t["TestName"]
        files = t.get("Files", "$TESTNAME$.upc").replace("$TESTNAME$", name).split()
        build = t.get("BuildCmd", "upcc")
        p = new_program(folder, root, name, files)
        p["harness"] = True
        p["flags"] = shlex.split(t.get("Flags", "").replace("$TESTNAME$", name))
        p["args"] = shlex.split(t.get("AppArgs", "").replace("$TESTNAME$", name))
        p["env"] = dict(kv.split("=", 1) for kv in shlex.split(t.get("AppEnv", "")) if "=" in kv)
        p["pass_expr"] = none_if_zero(t.get("PassExpr"))
        p["fail_expr"] = none_if_zero(t.get("FailExpr"))
        p["exit_code"] = t.get("ExitCode", "ignore").split()[0] if t.get("ExitCode") else "ignore"
        p["negative"] = t.get("CompileResult", "pass").split()[:1] == ["fail"]
        p["nolink"] = "nolink" in build
        p["features"] = t.get("RequireFeature", "")
        p["suite_runs_it"] = t.get("TimeLimit", "$DEFAULT$").split()[:1] != ["0"]
        if "make" in build:
            p["skip"] = "built by make in its suite (BuildCmd: %s)" % build
        elif any(f.startswith("$") for f in files):
            p["skip"] = "files named by harness variables: " + " ".join(files)
        else:
            missing = [f for f in files if not os.path.exists(os.path.join(folder, f))]
            if missing:
                p["skip"] = "missing file " + missing[0]
        p["dynamic"] = threads_setting(t.get("DynamicThreads"))
        p["static"] = threads_setting(t.get("StaticThreads"))
        progs.append(p)
    return progs


def none_if_zero(expr):
    if expr is None:
        return None
    expr = expr.strip()
    return None if expr in ("", "0") else expr


def threads_setting(value):
    """None: any THREADS; 0: not built this way; N: meant for THREADS N only."""
    if value is None:
        return None
    v = value.split()[0] if value.split() else ""
    if v.isdigit():
        return int(v)
    return None


def new_program(folder, root, name, files):
    rel = os.path.relpath(folder, root)
    pid = name if rel == "." else rel + "/" + name
    return {"id": pid, "folder": folder, "files": files, "flags": [], "args": [], "env": {},
            "pass_expr": None, "fail_expr": None, "exit_code": None, "negative": False,
            "nolink": False, "features": "", "suite_runs_it": True, "harness": False,
            "dynamic": None, "static": None}


# ---------------------------------------------------------------- discovery

def discover(root):
    root = os.path.abspath(root)
    progs = []
    harness_dirs = set()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        if "harness.conf" in files:
            harness_dirs.add(folder)
            progs += harness_programs(folder, os.path.join(folder, "harness.conf"), root)
            continue
        if any(folder.startswith(h + os.sep) for h in harness_dirs):
            # A harness folder's subfolders belong to its tests (shared sources, headers)
            continue
        for name in sorted(files):
            if not name.endswith((".upc", ".c")):
                continue
            try:
                with open(os.path.join(folder, name), errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            if MAIN_DEF.search(strip_comments(text)):
                progs.append(new_program(folder, root, os.path.splitext(name)[0], [name]))
    return progs


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


# ---------------------------------------------------------------- running

def run_cmd(cmd, cwd, log, timeout, env=None, stdin=subprocess.DEVNULL):
    """(status, timed_out): the command in its own session, killed whole on timeout."""
    with open(log, "wb") as out:
        try:
            p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, stdin=stdin,
                                 env=env, start_new_session=True)
        except OSError as e:  # the tool is being rebuilt, or is gone: say so in the log
            out.write(("run_corpus.py: could not start %s: %s\n" % (cmd[0], e)).encode())
            return 127, False
        try:
            return p.wait(timeout=timeout), False
        except subprocess.TimeoutExpired:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    p.wait(timeout=5)
                    break
                except subprocess.TimeoutExpired:
                    continue
            return p.wait(), True


def read_log(path):
    with open(path, "rb") as f:
        data = f.read(READ_HEAD)
        size = os.fstat(f.fileno()).st_size
        if size > READ_HEAD:
            f.seek(max(READ_HEAD, size - READ_TAIL))
            data += b"\n[...]\n" + f.read()
    return data.decode("utf-8", "replace")


def first_error(text):
    for line in text.splitlines():
        if re.search(r"\berror\b", line):
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no output)"


def compile_program(p, opts, work):
    """Fill p['builds'] = {threads or None: binary} and p['compile'] ('yes', 'yes(-T)', 'no')."""
    upcc = shlex.split(opts.upcc)
    os.makedirs(work, exist_ok=True)
    p["builds"] = {}
    attempts = []
    if p["dynamic"] != 0:
        attempts.append(None)
    base = upcc + p["flags"] + (["-c"] if p["nolink"] else [])
    log_text = []

    def build(static):
        tag = "dyn" if static is None else "T%d" % static
        out = os.path.join(work, "prog." + tag + (".o" if p["nolink"] else ""))
        cmd = base + ([] if static is None else ["-T", str(static)])
        srcs = list(p["files"])
        if p["nolink"] and len(srcs) > 1:
            cmd += srcs
        else:
            cmd += srcs + ["-o", out]
        log = os.path.join(work, "compile.%s.log" % tag)
        rc, to = run_cmd(cmd, p["folder"], log, opts.compile_timeout)
        text = read_log(log)
        log_text.append("$ %s\n%s" % (" ".join(shlex.quote(c) for c in cmd), text))
        if rc == 0 and not to:
            p["builds"][static] = out
            return True
        p.setdefault("compile_error", "timeout" if to else first_error(text))
        return False

    ok = build(None) if None in attempts else False
    if ok:
        p["compile"] = "yes"
    elif p["static"] != 0 and not p["negative"]:
        for n in opts.threads_list:
            build(n)
        p["compile"] = "yes(-T)" if p["builds"] else "no"
    elif p["static"] != 0 and p["negative"] and not attempts:
        p["compile"] = "yes(-T)" if build(max(opts.threads_list)) else "no"
    else:
        p["compile"] = "no"
    with open(os.path.join(work, "compile.log"), "w") as f:
        f.write("\n".join(log_text))


def run_kinds(opts):
    kinds = []
    for spec in opts.runs.split(","):
        only = None
        if "@" in spec:
            spec, n = spec.split("@", 1)
            only = int(n)
        backend, _, check = spec.partition(":")
        kinds.append((backend, check == "check", only))
    return kinds


def columns(opts):
    cols = []
    for n in opts.threads_list:
        for backend, check, only in run_kinds(opts):
            if only is None or only == n:
                cols.append((n, backend, check))
    return cols


def column_name(col):
    n, backend, check = col
    return "%d%s%s" % (n, backend[0], "c" if check else "")


def classify_run(p, rc, timed_out, text):
    """(cell, detail) of one run."""
    if timed_out or rc == 124 or "exceeded its time limit" in text:
        return "TIMEOUT", ""
    rep = REPORT.search(text)
    if rep:
        return "REPORT", rep.group(0)[:200]
    need = THREADS_REQUIREMENT.search(text)
    if need and (rc != 0 or (p["harness"] and p["pass_expr"] and not re.search(p["pass_expr"], text, re.M))):
        return "n/a", need.group(0).strip()[:200]
    if rc < 0 or rc > 128:
        sig = -rc if rc < 0 else rc - 128
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        return "CRASH", name
    usage = USAGE.search(text)
    if p["harness"]:
        if p["fail_expr"] and re.search(p["fail_expr"], text, re.M):
            return "WRONG", re.search(r"^.*(%s).*$" % p["fail_expr"], text, re.M).group(0)[:200] \
                if re.search(r"^.*(%s).*$" % p["fail_expr"], text, re.M) else p["fail_expr"]
        code = p["exit_code"]
        if code not in (None, "ignore") and code.lstrip("-").isdigit() and rc != int(code):
            if usage and not p["args"]:
                return "INPUT", usage.group(0).strip()[:200]
            return "WRONG", "exit status %d" % rc
        if p["pass_expr"] and not re.search(p["pass_expr"], text, re.M):
            if usage and not p["args"]:
                return "INPUT", usage.group(0).strip()[:200]
            return "WRONG", "no line matching %r" % p["pass_expr"]
        return "pass", ""
    if rc != 0:
        if usage:
            return "INPUT", usage.group(0).strip()[:200]
        return "WRONG", "exit status %d%s" % (rc, last_line_hint(text))
    for m in GENERIC_FAIL.finditer(text):
        if not NOT_A_FAILURE.search(m.group(0)):
            return "WRONG", m.group(0).strip()[:200]
    return "pass", ""


def last_line_hint(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return (": " + lines[-1][:160]) if lines else ""


def run_program(p, opts, work):
    cells, details = {}, {}
    timeouts = 0
    for col in columns(opts):
        n, backend, check = col
        name = column_name(col)
        meant = p["dynamic"] if p["dynamic"] not in (None, 0) else p["static"] if p["static"] not in (None, 0) else None
        if meant is not None and meant != n:
            cells[name] = "n/a"
            continue
        binary = p["builds"].get(None) or p["builds"].get(n)
        if binary is None:
            cells[name] = "-"
            continue
        if timeouts >= 2:
            cells[name] = "TIMEOUT"
            details[name] = "not run: two runs timed out before"
            continue
        rundir = os.path.join(work, "run." + name)
        os.makedirs(rundir, exist_ok=True)
        for f in os.listdir(rundir):
            path = os.path.join(rundir, f)
            if os.path.isfile(path):
                os.unlink(path)
        cmd = [opts.upcrun, "-n", str(n), "--backend", backend, "--timeout", str(opts.timeout)]
        if check:
            cmd.append("--check")
        cmd += [binary] + p["args"]
        env = dict(os.environ)
        env.update(p["env"])
        log = os.path.join(work, "run.%s.log" % name)
        t0 = time.time()
        rc, to = run_cmd(cmd, rundir, log, opts.timeout + 20, env=env)
        text = read_log(log)
        cell, detail = classify_run(p, rc, to, text)
        p.setdefault("status", {})[name] = 124 if to else rc
        if cell == "TIMEOUT":
            timeouts += 1
        cells[name] = cell
        if detail:
            details[name] = detail
        p.setdefault("seconds", {})[name] = round(time.time() - t0, 2)
    p["cells"], p["details"] = cells, details


def program_class(p):
    if p.get("skip"):
        return "n/a", p["skip"]
    if p["negative"]:
        if p["compile"] == "no":
            return "rejected", p.get("compile_error", "")
        return "accepted", "an invalid program (CompileResult: fail in its suite) compiled"
    if p["compile"] == "no":
        only = BERKELEY_ONLY & set(re.split(r"[,\s]+", p["features"]))
        if only:
            return "n/a", "needs Berkeley UPC's %s (RequireFeature): %s" % (
                ",".join(sorted(only)), p.get("compile_error", ""))
        return "compile", p.get("compile_error", "")
    if p["nolink"]:
        return "pass", "compile only (its suite does not link it)"
    cells = p["cells"]
    order = [("CRASH", "crash"), ("REPORT", "crash"), ("TIMEOUT", "timeout"), ("WRONG", "wrong"),
             ("INPUT", "needs input")]
    for cell, cls in order:
        hit = [c for c in cells if cells[c] == cell]
        if hit:
            return cls, "%s: %s" % (hit[0], p["details"].get(hit[0], cell))
    if not any(v == "pass" for v in cells.values()):
        said = [p["details"][c] for c in cells if p["details"].get(c)]
        return "n/a", said[0] if said else "no run was possible"
    return "pass", ""


def process(p, opts):
    work = os.path.join(opts.work, re.sub(r"[^A-Za-z0-9_.+-]+", "_", p["id"]))
    if not p.get("skip"):
        compile_program(p, opts, work)
        if p["builds"] and not p["negative"] and not p["nolink"]:
            run_program(p, opts, work)
    p.setdefault("cells", {})
    p.setdefault("details", {})
    p.setdefault("compile", "-")
    p["class"], p["reason"] = program_class(p)
    p["work"] = work
    return p


# ---------------------------------------------------------------- notes, tables

def read_notes(path):
    notes = {}
    if not path:
        return notes
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[1] not in ("bug", "input", "n/a"):
                sys.exit("run_corpus.py: %s: a note is PROGRAM bug|input|n/a REASON: %r" % (path, line))
            notes[parts[0]] = ({"bug": "program's bug", "input": "needs input", "n/a": "n/a"}[parts[1]], parts[2])
    return notes


def apply_notes(progs, notes):
    stale = []
    for p in progs:
        note = notes.get(p["id"])
        if not note:
            continue
        if p["class"] in PASSING:
            stale.append(p["id"])
            continue
        p["raw_class"] = p["class"]
        p["class"], p["reason"] = note[0], note[1] + " [was %s: %s]" % (p["class"], p["reason"])
    return stale


def print_tables(progs, opts, out=sys.stdout):
    cols = [column_name(c) for c in columns(opts)]
    width = max([len(p["id"]) for p in progs] + [7])
    head = "%-*s %-8s %s %-13s %s" % (width, "program", "compiles", " ".join("%-7s" % c for c in cols), "class",
                                      "why")
    out.write(head + "\n")
    for p in progs:
        cells = " ".join("%-7s" % p["cells"].get(c, "") for c in cols)
        out.write("%-*s %-8s %s %-13s %s\n" % (width, p["id"], p["compile"], cells, p["class"], p["reason"]))
    out.write("\nruns: %s (n = THREADS, t/p = threads/processes backend, c = --check)\n" % " ".join(cols))
    counts = {}
    for p in progs:
        counts[p["class"]] = counts.get(p["class"], 0) + 1
    out.write("\nsummary (%d programs)\n" % len(progs))
    for cls in CLASS_ORDER:
        if counts.get(cls):
            out.write("  %-14s %d\n" % (cls, counts[cls]))


def reclassify(opts, notes):
    """Classify again every run of an earlier run's work folder (opts.work)."""
    path = os.path.join(opts.work, "results.json")
    if os.path.exists(path):
        with open(path) as f:
            done = json.load(f)
    else:  # a run cut short: its journal
        with open(os.path.join(opts.work, "results.jsonl")) as f:
            done = [json.loads(line) for line in f if line.strip()]
    for p in done:
        p["class"], p["reason"] = p.pop("raw_class", p["class"]), p["reason"]
        if p["cells"] and not p.get("skip"):
            for name in list(p["cells"]):
                log = os.path.join(p["work"], "run.%s.log" % name)
                if not os.path.exists(log) or p["details"].get(name, "").startswith("not run"):
                    continue
                rc = p.get("status", {}).get(name)
                if rc is None:
                    continue
                cell, detail = classify_run(p, rc, False, read_log(log))
                p["cells"][name] = cell
                p["details"][name] = detail
        p["builds"] = {}
        p["class"], p["reason"] = program_class(p)
    return finish(done, opts, notes)


def finish(done, opts, notes):
    done.sort(key=lambda p: p["id"])
    stale = apply_notes(done, notes)
    with open(os.path.join(opts.work, "results.json"), "w") as f:
        json.dump([{k: v for k, v in p.items() if k != "builds"} for p in done], f, indent=1, default=str)
    print_tables(done, opts)
    with open(os.path.join(opts.work, "table.txt"), "w") as f:
        print_tables(done, opts, f)
    for s in stale:
        print("note for %s is no longer needed: it passes" % s)
    print("logs and results.json in %s" % opts.work)
    return 0 if all(p["class"] in PASSING | {"program's bug", "needs input", "n/a"} for p in done) else 1


def main(argv):
    ap = argparse.ArgumentParser(prog="run_corpus.py", add_help=True,
                                 description="Compile and run public UPC programs with upcc and upcrun.")
    ap.add_argument("dirs", nargs="*", metavar="DIR")
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--runs", default="threads,processes,processes:check@2,threads:check@4")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--compile-timeout", type=int, default=300)
    ap.add_argument("--work")
    ap.add_argument("--only")
    ap.add_argument("-j", type=int, default=1, dest="jobs")
    ap.add_argument("--notes")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--reclassify", action="store_true")
    opts = ap.parse_args(argv)
    try:
        opts.threads_list = [int(t) for t in opts.threads.split(",")]
        if any(t < 1 for t in opts.threads_list):
            raise ValueError
        run_kinds(opts)
    except ValueError:
        ap.error("--threads is a comma-separated list of positive integers; --runs KIND[:check][@N],...")
    for backend, _, _ in run_kinds(opts):
        if backend not in ("threads", "processes", "mpi"):
            ap.error("--runs: unknown backend %r" % backend)
    if opts.timeout < 1 or opts.jobs < 1:
        ap.error("--timeout and -j must be positive")
    if not opts.dirs and not opts.reclassify:
        ap.error("give at least one DIR")
    if opts.reclassify and not opts.work:
        ap.error("--reclassify needs --work (the folder of the earlier run)")
    for d in opts.dirs:
        if not os.path.isdir(d):
            ap.error("%s is not a folder" % d)
    opts.upcc = os.environ.get("UPCC") or os.path.join(REPO, "tools", "upcc", "upcc")
    opts.upcrun = os.environ.get("UPCRUN") or os.path.join(REPO, "build", "tools", "upcrun")
    if not os.access(opts.upcrun, os.X_OK):
        ap.error("no upcrun at %s (build it, or set UPCRUN)" % opts.upcrun)
    opts.work = os.path.abspath(opts.work or tempfile.mkdtemp(prefix="upc_corpus."))
    os.makedirs(opts.work, exist_ok=True)
    notes = read_notes(opts.notes)

    if opts.reclassify:
        return reclassify(opts, notes)
    progs = []
    for d in opts.dirs:
        found = discover(d)
        prefix = os.path.basename(os.path.normpath(d))
        for p in found:
            p["id"] = prefix + "/" + p["id"]
        progs += found
    if opts.only:
        progs = [p for p in progs if re.search(opts.only, p["id"])]
    ids = {}
    for p in progs:
        ids[p["id"]] = ids.get(p["id"], 0) + 1
    for p in progs:
        if ids[p["id"]] > 1:
            p["id"] += "(" + "+".join(p["files"]) + ")"
    if opts.list:
        for p in progs:
            print("%s\t%s\t%s" % (p["id"], " ".join(p["files"]), p.get("skip", "")))
        return 0
    sys.stderr.write("run_corpus.py: %d programs; logs in %s\n" % (len(progs), opts.work))

    # Workers take programs from a queue; each result is appended to results.jsonl
    # as it comes (a run cut short keeps what it did; --reclassify reads it).
    todo = queue.Queue()
    for p in progs:
        todo.put(p)
    done, lock = [], threading.Lock()
    journal = open(os.path.join(opts.work, "results.jsonl"), "w")

    def worker():
        while True:
            try:
                p = todo.get_nowait()
            except queue.Empty:
                return
            try:
                process(p, opts)
            except Exception as e:  # a program must not stop the others
                p.setdefault("cells", {})
                p.setdefault("details", {})
                p.setdefault("compile", "-")
                p["class"], p["reason"] = "n/a", "run_corpus.py failed on it: %s: %s" % (type(e).__name__, e)
            with lock:
                done.append(p)
                journal.write(json.dumps({k: v for k, v in p.items() if k != "builds"}, default=str) + "\n")
                journal.flush()
                sys.stderr.write("[%d/%d] %s: %s %s\n" % (len(done), len(progs), p["id"], p["class"],
                                                          " ".join("%s=%s" % kv for kv in p["cells"].items())))
                sys.stderr.flush()

    workers = [threading.Thread(target=worker, daemon=True) for _ in range(opts.jobs)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    journal.close()
    return finish(done, opts, notes)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
