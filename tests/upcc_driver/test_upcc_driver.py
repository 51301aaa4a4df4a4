#!/usr/bin/env python3
"""upcc behaves as a real compiler driver (issue 26, item 6), one group per test:

  test_upcc_driver.py UPCC UPCRUN GROUP

GROUP is one of the functions named in GROUPS below. Each works in a fresh
temporary folder and fails (exit 1, saying what) when upcc does not do what a
C compiler driver does: a Makefile's compiler variables with arguments, -x
upc before objects, include search order, one-line errors for inputs that are
not a program, no temporary folder left by a signal, no Python traceback for
any command line or input, the bytes of a string literal unchanged."""
import os
import re
import shlex
import signal
import shutil
import subprocess
import sys
import tempfile
import time

UPCC = UPCRUN = None
# the lines upcc may print for an error: its own, or a diagnostic at the user's file and line
ERROR_LINE = re.compile(r"(upcc: error: |[^:\s][^:]*:\d+(:\d+)?: (fatal )?error: )")


class Failure(Exception):
    pass


def check(condition, what, result=None):
    if not condition:
        detail = "" if result is None else \
            f"\n  exit status {result.returncode}\n  stderr:\n{result.stderr}"
        raise Failure(what + detail)


def upcc(args, cwd, env=None, **kw):
    """Run upcc; stdout and stderr as text (undecodable bytes escaped)."""
    return subprocess.run([UPCC] + args, cwd=cwd, env=dict(os.environ, **(env or {})), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, errors="backslashreplace", timeout=300, **kw)


def write(folder, name, text, mode="w"):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)
    return path


def run_program(prog, threads="2"):
    return subprocess.run([UPCRUN, "-n", threads, prog], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120)


def one_error_line(r, *needles):
    """stderr is exactly one `upcc: error:` line containing every needle, and no linker words."""
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1, "exit status 1 expected", r)
    check(len(lines) == 1 and lines[0].startswith("upcc: error: "), "one line 'upcc: error: ...' expected", r)
    for n in needles:
        check(n in lines[0], f"the message should say '{n}'", r)
    for raw in ("undefined reference", "multiple definition", "collect2", "/usr/bin/ld", "Traceback"):
        check(raw not in r.stderr, f"raw tool output '{raw}' in stderr", r)


HELLO = """#include <upc.h>
#include <stdio.h>
int helper(int);
int main(void) {
  if (MYTHREAD == 0) printf("helper says %d\\n", helper(THREADS));
  return 0;
}
"""
HELPER = "int helper(int x) { return 10 * x; }\n"


def makefile_variables(d):
    """A NAS-style Makefile, unchanged: UPCC = upcc -x upc (sources in .c files),
    compile lines $(UPCC) -c, then the link line $(UPCC) -o prog with objects and a
    library after the -x upc; make passes CC="gcc -m64" and CXX="g++ -m64" (its
    command-line variables) to upcc's environment."""
    env = {"CC": "gcc -m64", "CXX": "g++ -m64"}
    ucc = shlex.split(f"{shlex.quote(UPCC)} -x upc")  # $(UPCC), as make's shell splits it
    write(d, "main.c", HELLO)
    write(d, "common/helper.c", HELPER)
    for args in (["-c", "-O2", "main.c"], ["-c", "-O2", "common/helper.c", "-o", "common/helper.o"]):
        r = subprocess.run(ucc + args, cwd=d, env=dict(os.environ, **env), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(r.returncode == 0 and "Traceback" not in r.stderr, f"$(UPCC) {' '.join(args)} failed", r)
    # a library of plain C objects, and an ELF object whose name has no suffix
    subprocess.run(["gcc", "-c", "-x", "c", "-", "-o", os.path.join(d, "extra.o")],
                   input="int extra(void) { return 1; }\n", text=True, check=True)
    subprocess.run(["ar", "rc", os.path.join(d, "libextra.a"), os.path.join(d, "extra.o")], check=True)
    os.rename(os.path.join(d, "extra.o"), os.path.join(d, "extra_object"))
    link = ucc + ["-o", "prog", "main.o", "common/helper.o", "libextra.a", "extra_object"]
    r = subprocess.run(link, cwd=d, env=dict(os.environ, **env), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(r.returncode == 0, "the link line $(UPCC) -o prog main.o ... (objects after -x upc) failed", r)
    run = run_program(os.path.join(d, "prog"))
    check(run.returncode == 0 and "helper says 20" in run.stdout,
          f"the program built by the Makefile's commands did not run right: {run.stdout}{run.stderr}")
    # a Makefile's CC = upcc, exported: upcc must not run itself as its C compiler
    r = upcc(["-x", "upc", "main.c", "common/helper.c", "-o", "prog2"], d, env={"CC": "upcc"})
    check(r.returncode == 0, "CC=upcc in the environment made upcc fail", r)


def non_utf8_literal(d):
    """A string literal holding a Latin-1 byte (valid C: the source character set is
    the implementation's) compiles, and the program prints the bytes unchanged; so
    does a source whose file name is not UTF-8."""
    src = (b'#include <upc.h>\n#include <stdio.h>\n'
           b'int main(void) {\n  const char *s = "caf\xe9";\n'
           b'  if (MYTHREAD == 0) { for (const char *p = s; *p; p++) printf("%02x ", (unsigned char)*p); '
           b'printf("\\n"); }\n  return 0;\n}\n')
    write(d, "latin1.upc", src, "wb")
    r = upcc(["latin1.upc", "-o", "latin1"], d)
    check(r.returncode == 0, "a Latin-1 byte in a string literal does not compile", r)
    run = run_program(os.path.join(d, "latin1"))
    check(run.returncode == 0 and run.stdout.strip() == "63 61 66 e9",
          f"the string's bytes changed on the way: {run.stdout!r} (expected '63 61 66 e9')")
    e = subprocess.run([UPCC, "-E", "latin1.upc"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(e.returncode == 0 and b'"caf\xe9"' in e.stdout, "upcc -E does not keep the byte 0xe9 of the literal")
    # a file name that is not UTF-8 (it reaches the translated C's line markers)
    odd_name = os.path.join(os.fsencode(d), b"caf\xe9.upc")
    with open(odd_name, "wb") as f:
        f.write(HELLO.replace("helper(THREADS)", "THREADS").encode())
    r = upcc([os.fsdecode(odd_name), "-o", "odd"], d)
    check(r.returncode == 0, "a source whose name is not UTF-8 does not compile", r)


def include_order(d):
    """As Berkeley upcc: the user's -I folders come before upcc's own headers for
    #include <...> (a user's upc_collective.h, as GWU's reference collectives ship,
    is the one included), in their order; #include "..." first looks in the
    including file's folder."""
    write(d, "inc1/upc_collective.h", "#define USER_COLLECTIVES 1\n")
    write(d, "inc1/config.h", "#define CONFIG 1\n")
    write(d, "inc2/config.h", "#define CONFIG 2\n")
    write(d, "src/config.h", "#define LOCAL_CONFIG 3\n")
    write(d, "src/prog.upc", """#include <upc.h>
#include <upc_collective.h>
#ifndef USER_COLLECTIVES
#error upcc's own upc_collective.h was included, not the one of the user's -I folder
#endif
#include <config.h>
#if CONFIG != 1
#error the -I folders were not searched in their order
#endif
#include "config.h"
#ifndef LOCAL_CONFIG
#error #include "config.h" did not find the including file's folder first
#endif
int main(void) { return 0; }
""")
    r = upcc(["-Iinc1", "-I", "inc2", "-c", "src/prog.upc", "-o", "prog.o"], d)
    check(r.returncode == 0, "the include search order is not Berkeley upcc's", r)
    # a plain C file sees the same order
    write(d, "src/plain.c", '#include <config.h>\n#if CONFIG != 1\n#error order\n#endif\nint f(void) { return 0; }\n')
    r = upcc(["-Iinc1", "-Iinc2", "-c", "src/plain.c", "-o", "plain.o"], d)
    check(r.returncode == 0, "a plain C file does not search the -I folders in their order", r)
    # The source's folder comes after the user's -I and before upcc's headers, as in
    # Berkeley upcc: #include <...> finds a program's own header (Berkeley's matmult
    # includes <config.h>), and a folder's own upc_collective.h is the one included
    # (MTU's reference collectives, compiled from their folder).
    write(d, "coll/upc_collective.h", "#define FOLDER_COLLECTIVES 1\n")
    write(d, "coll/only_here.h", "#define ONLY_HERE 1\n")
    write(d, "coll/config.h", "#define CONFIG 4\n")
    write(d, "coll/prog.upc", """#include <upc.h>
#include <upc_collective.h>
#ifndef FOLDER_COLLECTIVES
#error the upc_collective.h of upcc was included, not the one in the source folder
#endif
#include <only_here.h>
#include <config.h>
#if CONFIG != 2
#error the source folder was searched before the user -I folder
#endif
int main(void) { return 0; }
""")
    r = upcc(["-Iinc2", "-c", "coll/prog.upc", "-o", "coll.o"], d)
    check(r.returncode == 0, "#include <...> does not search the source's folder after the user's -I", r)
    # the source's folder, not the working folder
    write(d, "coll/prog2.upc", "#include <only_here.h>\nint main(void) { return 0; }\n")
    r = upcc(["-c", os.path.join(d, "coll/prog2.upc"), "-o", os.path.join(d, "coll2.o")], os.path.join(d, "inc2"))
    check(r.returncode == 0, "#include <...> does not search the source's folder when upcc runs elsewhere", r)


def predefined_macros(d):
    """UPC 1.3 (required and optional library specifications): an implementation that
    has a library predefines its feature macro, so a program may test it before
    any #include; the headers then define the same value (no redefinition)."""
    write(d, "prog.upc", """#if __UPC_COLLECTIVE__ != 1 || __UPC_TICK__ != 1 || __UPC_CASTABLE__ != 1 \\
    || __UPC_ATOMIC__ != 1 || __UPC_IO__ != 1 || __UPC_NB__ != 1
#error a feature macro of a library is not predefined
#endif
#include <upc.h>
#include <upc_collective.h>
#include <upc_tick.h>
#include <upc_castable.h>
#include <upc_atomic.h>
#include <upc_io.h>
#include <upc_nb.h>
#if __UPC_COLLECTIVE__ != 1 || __UPC_TICK__ != 1 || __UPC_CASTABLE__ != 1 \\
    || __UPC_ATOMIC__ != 1 || __UPC_IO__ != 1 || __UPC_NB__ != 1
#error a header changed a feature macro
#endif
int main(void) { return 0; }
""")
    r = upcc(["-c", "prog.upc", "-o", "prog.o"], d)
    check(r.returncode == 0 and "redefined" not in r.stderr, "the feature macros are not predefined as UPC 1.3 says", r)


def default_optimisation(d):
    """The translated C is compiled with -O2 unless the user gives -O* or -g*
    (Berkeley upcc optimises by default); a plain C file (-x c) gets gcc's own
    default, and a user's -O0 is kept."""
    write(d, "prog.upc", "#include <upc.h>\nshared int x[THREADS];\nint main(void) { x[MYTHREAD] = 1; return 0; }\n")
    write(d, "plain.c", "int helper(void) { return 1; }\n")

    def compile_line(args, suffix):
        r = upcc(args, d, env={"UPCC_VERBOSE": "1"})
        check(r.returncode == 0, "upcc " + " ".join(args) + " failed", r)
        lines = [ln for ln in r.stderr.splitlines() if " -c " in ln and suffix in ln]
        check(len(lines) == 1, f"one compile of {suffix} expected in upcc's commands", r)
        return lines[0].split()

    check("-O2" in compile_line(["-c", "prog.upc", "-o", "p.o"], ".upc.c"),
          "the translated C is not compiled with -O2 by default")
    words = compile_line(["-g", "-c", "prog.upc", "-o", "p.o"], ".upc.c")
    check("-O2" not in words and "-g" in words, "with -g the translated C must not get the default -O2")
    words = compile_line(["-O0", "-c", "prog.upc", "-o", "p.o"], ".upc.c")
    check("-O2" not in words and "-O0" in words, "a user's -O0 must be kept, without the default -O2")
    words = compile_line(["-x", "c", "-c", "plain.c", "-o", "plain.o"], "plain.c")
    check("-O2" not in words, "a plain C file (-x c) must keep gcc's own default")


def inputs_without_program(d):
    """Inputs that make no program: one clear line each, never the linker's words."""
    write(d, "empty.upc", "")
    os.mkdir(os.path.join(d, "folder.upc"))
    write(d, "plain.c", "int main(void) { return 0; }\n")
    write(d, "a.upc", "#include <upc.h>\nint main(void) { return 0; }\n")
    write(d, "b.upc", "#include <upc.h>\nint main(void) { return 0; }\n")
    write(d, "binary.upc", bytes(range(256)) * 8, "wb")
    one_error_line(upcc(["empty.upc", "-o", "p"], d), "no input defines main", "empty.upc is empty")
    one_error_line(upcc(["folder.upc", "-o", "p"], d), "folder.upc", "is a directory")
    one_error_line(upcc(["missing.upc", "-o", "p"], d), "missing.upc", "No such file")
    one_error_line(upcc(["-x", "c", "plain.c", "-o", "p"], d), "plain.c defines main", "-x c")
    one_error_line(upcc(["a.upc", "-x", "c", "plain.c", "-o", "p"], d), "plain.c defines main", "-x c")
    one_error_line(upcc(["a.upc", "b.upc", "-o", "p"], d), "main is defined more than once", "a.upc", "b.upc")
    one_error_line(upcc(["binary.upc", "-o", "p"], d), "binary.upc", "binary file")
    # the same .c compiled as UPC (its default, as Berkeley upcc) is a program
    r = upcc(["plain.c", "-o", "p"], d)
    check(r.returncode == 0, "plain.c (UPC by default) should build", r)
    r = upcc(["-x", "upc", "plain.c", "-o", "p"], d)
    check(r.returncode == 0, "plain.c with -x upc should build", r)
    # a build tree with the runtime only (what `setup.sh demo` builds): -c works,
    # the link names the missing libraries and the command that builds them
    runtime_only = os.path.join(d, "runtime_only")
    os.makedirs(os.path.join(runtime_only, "lib"))
    libdir = os.path.join(os.path.dirname(UPCRUN), "..", "lib")
    shutil.copy(os.path.join(libdir, "libupcemu.a"), os.path.join(runtime_only, "lib"))
    env = {"UPCEMU_BUILD_DIR": runtime_only}
    r = upcc(["-c", "a.upc", "-o", "a.o"], d, env=env)
    check(r.returncode == 0, "upcc -c needs no library", r)
    one_error_line(upcc(["a.upc", "-o", "p"], d, env=env), "libupcemu_c.a", "not built yet", "setup.sh build")


def _upcc_at_compile_step(d, tmpdir, slow_cc, ignored=()):
    """upcc compiling hello.upc with the slow compiler, once its translation is
    written; SIGINT, SIGTERM and SIGHUP at their defaults in upcc except `ignored`,
    whatever this test inherited (a suite run in the background from a script
    ignores SIGINT, and upcc keeps an inherited ignore, as gcc's driver does)."""
    def dispositions():
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN if s in ignored else signal.SIG_DFL)
    p = subprocess.Popen([UPCC, "hello.upc", "-o", "hello"], cwd=d, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, TMPDIR=tmpdir, CC=f"{sys.executable} {slow_cc}"),
                         preexec_fn=dispositions)
    deadline = time.time() + 60
    while not any(f.endswith(".upc.c") for _, _, fs in os.walk(tmpdir) for f in fs):
        check(time.time() < deadline and p.poll() is None, "upcc never reached the compile step")
        time.sleep(0.02)
    return p


def signals_leave_no_folder(d):
    """SIGTERM, SIGINT or SIGHUP in the middle of a run (while the compiler runs on
    the translated C) leaves no temporary folder, exits 128+N, prints no traceback.
    A signal that upcc's parent ignored (nohup) stays ignored."""
    write(d, "hello.upc", HELLO.replace("helper(THREADS)", "THREADS"))
    # a C compiler that takes its time on the compile step (CC with arguments, too)
    slow_cc = write(d, "slow_cc.py", "import os, sys, time\n"
                    "if '-c' in sys.argv[1:]: time.sleep(60)\n"
                    "os.execvp('gcc', ['gcc'] + sys.argv[1:])\n")
    tmpdir = os.path.join(d, "tmp")
    os.mkdir(tmpdir)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        p = _upcc_at_compile_step(d, tmpdir, slow_cc)
        p.send_signal(sig)
        _, err = p.communicate(timeout=60)
        check(p.returncode == 128 + sig, f"{sig.name}: exit status {p.returncode}, expected {128 + sig}")
        check("Traceback" not in err and err.strip() == "", f"{sig.name}: upcc printed {err!r}")
        left = os.listdir(tmpdir)
        check(not left, f"{sig.name} left {left} in TMPDIR")
    # started under nohup: SIGHUP changes nothing, SIGTERM still stops it cleanly
    p = _upcc_at_compile_step(d, tmpdir, slow_cc, ignored=(signal.SIGHUP,))
    p.send_signal(signal.SIGHUP)
    time.sleep(0.5)
    check(p.poll() is None, f"an ignored SIGHUP stopped upcc (status {p.returncode})")
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    check(p.returncode == 128 + signal.SIGTERM, f"SIGTERM after an ignored SIGHUP: exit status {p.returncode}")
    check(not os.listdir(tmpdir), f"SIGTERM after an ignored SIGHUP left {os.listdir(tmpdir)} in TMPDIR")


def internal_error_guard(d):
    """An exception upcc did not expect is one line and exit status 4 (the traceback
    only with UPCC_DEBUG=1); KeyboardInterrupt is exit status 130, quietly. The entry
    script's guard is run with the driver's main replaced by one that fails. The
    translator runs in a child process: a translator that crashes (SIGSEGV), raises
    inside a callback from C (which ctypes would only print, with a traceback) or
    recurses too deeply is one line too."""
    probe = """import ctypes, importlib.machinery, importlib.util, os, signal, sys
upcc_path, failure = sys.argv[1], sys.argv[2]
loader = importlib.machinery.SourceFileLoader("upcc_entry", upcc_path)
spec = importlib.util.spec_from_loader("upcc_entry", loader)
entry = importlib.util.module_from_spec(spec)
loader.exec_module(entry)
sys.path.insert(0, os.path.dirname(os.path.realpath(upcc_path)))
import upcc_lib.driver
def failing_main(argv):
    if failure == "interrupt":
        raise KeyboardInterrupt
    return {}["no such key"]
def failing_translate(text, src, static_threads):
    if failure == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if failure == "recursion":
        raise RecursionError("maximum recursion depth exceeded")
    if failure == "callback":  # an exception in a Python function that C calls back
        compare = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda a, b: 1 // 0)
        values = (ctypes.c_int * 4)(4, 3, 2, 1)
        ctypes.CDLL(None).qsort(values, 4, ctypes.sizeof(ctypes.c_int), compare)
        return "int main(void) { return 0; }\\n"
if failure in ("crash", "interrupt"):
    upcc_lib.driver.main = failing_main
else:
    upcc_lib.driver.translator = lambda: failing_translate
sys.argv = [upcc_path, "hello.upc", "-o", "hello"]
sys.exit(entry.guarded_main())
"""
    write(d, "probe.py", probe)
    write(d, "hello.upc", HELLO.replace("helper(THREADS)", "THREADS"))
    no_debug = {k: v for k, v in os.environ.items() if k != "UPCC_DEBUG"}

    def probe_run(failure, env=no_debug):
        return subprocess.run([sys.executable, "probe.py", UPCC, failure], cwd=d, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=120)

    def one_line(r, status, pattern):
        lines = r.stderr.strip().splitlines()
        check(r.returncode == status, f"exit status {status} expected", r)
        check(len(lines) == 1 and re.match(pattern, lines[0]) and "Traceback" not in r.stderr,
              f"one line matching {pattern} expected", r)

    report = r"\(please report; rerun with UPCC_DEBUG=1 (for the traceback|to see where)\)$"
    one_line(probe_run("crash"), 4, r"upcc: internal error: KeyError: 'no such key' \(probe\.py:\d+\) " + report)
    r = probe_run("crash", dict(os.environ, UPCC_DEBUG="1"))
    check(r.returncode == 4 and "Traceback" in r.stderr and "upcc: internal error: KeyError" in r.stderr,
          "UPCC_DEBUG=1 should print the traceback and the line", r)
    r = probe_run("interrupt")
    check(r.returncode == 130 and r.stderr == "", "KeyboardInterrupt should exit 130 and print nothing", r)
    one_line(probe_run("segv"), 4, r"upcc: internal error: the translator stopped with SIGSEGV while translating "
                                   r"hello\.upc " + report)
    one_line(probe_run("callback"), 4, r"upcc: internal error: ZeroDivisionError: integer division or modulo by zero "
                                       r"\(probe\.py:\d+\) " + report)
    one_line(probe_run("recursion"), 1, r"upcc: error: hello\.upc: an expression or statement is nested too deeply")


def large_input_note(d):
    """More than 1 MB of preprocessed text: a note before translating (here the
    translation then stops at a syntax error, at its line)."""
    write(d, "large.upc", "#include <upc.h>\nstatic const char big[] = \"" + "x" * 1_100_000 +
          "\";\nint main(void) { return big[0] != 'x' }\n")
    r = upcc(["large.upc", "-o", "large"], d)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1, "exit status 1 expected (syntax error)", r)
    check(lines and re.match(r"upcc: note: large\.upc is 1\.\d MB after preprocessing; translating it takes a while$",
                             lines[0]), "the first line should be the note about the size", r)
    check(any(ln.startswith("large.upc:3: error: ") for ln in lines[1:]), "the syntax error at line 3", r)
    r = upcc(["-c", "-o", "small.o", "-x", "upc", "/dev/null"], d)
    check(r.returncode == 0 and "note" not in r.stderr, "no note for a small input", r)


def odd_command_lines(d):
    """Odd command lines and odd inputs: the exit status is 0, 1 or 2, no Python
    traceback, and every line that says error: is upcc's or at the user's file and line."""
    write(d, "hello.upc", HELLO.replace("helper(THREADS)", "THREADS"))
    write(d, "empty.upc", "")
    write(d, "binary.upc", bytes(range(256)) * 64, "wb")
    write(d, "syntax.upc", "#include <upc.h>\nint main(void) { return 0 }\n")
    write(d, "brace.upc", "}\n")
    write(d, "hash_error.upc", "#error stop here\n")
    write(d, "no_header.upc", "#include <no_such_header.h>\n")
    write(d, "huge_line.upc", "#include <upc.h>\nint a[] = {" + "1," * 100_000 + "};\nint main(void) { return 0 }\n")
    # a sum of 20 000 terms: as deep an AST (libclang crashed on its 8 MB parse thread at 50 000)
    write(d, "deep.upc", "int main(void) { int x = 0; return " + "+".join(["x"] * 20_000) + "; }\n")
    write(d, "comment_latin1.upc", b"#include <upc.h>\n/* caf\xe9 */\nint main(void) { return 0; }\n", "wb")
    write(d, "latin1_plain.c", b'const char *s = "caf\xe9";\n', "wb")
    write(d, "text.txt", "hello\n")
    write(d, "we ird name.upc", HELLO.replace("helper(THREADS)", "THREADS"))
    os.mkdir(os.path.join(d, "dir.upc"))
    cases = [
        [], ["-o"], ["-c"], ["-T"], ["-T", "x"], ["-T0", "hello.upc"], ["-T=-3", "hello.upc"],
        ["-fupc-threads=abc", "hello.upc"], ["-fupc-threads-", "hello.upc"], ["-x"], ["-x", "fortran", "hello.upc"],
        ["-xpascal"], ["--bogus"], ["-"], ["-D"], ["-D", "1x", "hello.upc"], ["-D=", "hello.upc"],
        ["-U", "A=B", "hello.upc"], ["-I"], ["-l"], ["-L"], ["-include"], ["-o", "", "hello.upc"],
        ["-c", "-o", "x.o", "hello.upc", "empty.upc"], ["-E", "-o", "x.c", "hello.upc", "syntax.upc"],
        ["empty.upc", "-o", "p"], ["binary.upc"], ["-x", "c", "binary.upc"], ["dir.upc"], ["/dev/null"],
        ["-x", "upc", "/dev/null", "-o", "p"], ["-c", "-x", "upc", "/dev/null", "-o", "null.o"],
        ["syntax.upc", "-o", "p"], ["brace.upc"], ["hash_error.upc"], ["no_header.upc"],
        ["huge_line.upc", "-o", "p"], ["-c", "deep.upc", "-o", "deep.o"], ["-c", "comment_latin1.upc", "-o", "c.o"],
        ["-c", "latin1_plain.c", "-o", "l.o"],
        ["text.txt"], ["we ird name.upc", "-o", "p"],
        ["-E", "syntax.upc"], ["-E", "hello.upc"], ["hello.upc", "-o", "/no/such/folder/prog"],
        ["-c", "hello.upc", "-o", "/no/such/folder/p.o"], ["-c", "hello.upc", "hello.upc.o"],
        ["hello.upc", "-o", "."], ["-c", "hello.upc", "-o", "hello.upc"],
        ["--help"], ["--version"], ["-h"],
    ]
    env_cases = [({"CC": ""}, ["-c", "hello.upc", "-o", "h.o"]), ({"CC": "gcc '"}, ["hello.upc"]),
                 ({"CC": "no-such-compiler"}, ["hello.upc"]), ({"CXX": "no-such-linker"}, ["hello.upc", "-o", "p"])]
    problems = []
    for env, args in [({}, a) for a in cases] + env_cases:
        r = upcc(args, d, env=env)
        shown = f"{' '.join(f'{k}={v!r}' for k, v in env.items())} upcc {shlex.join(args)}".strip()
        if r.returncode not in (0, 1, 2):
            problems.append(f"{shown}: exit status {r.returncode}")
        if "Traceback" in r.stderr or "internal error" in r.stderr:
            problems.append(f"{shown}: Python traceback or internal error:\n{r.stderr}")
        for line in r.stderr.splitlines():
            if "error:" in line and not ERROR_LINE.match(line):
                problems.append(f"{shown}: error line not upcc's nor at FILE:LINE: {line}")
    check(not problems, "\n".join(problems))


GROUPS = {f.__name__: f for f in (makefile_variables, non_utf8_literal, include_order, predefined_macros,
                                  default_optimisation, inputs_without_program,
                                  signals_leave_no_folder, internal_error_guard, large_input_note,
                                  odd_command_lines)}


def main():
    global UPCC, UPCRUN
    if len(sys.argv) != 4 or sys.argv[3] not in GROUPS:
        print(__doc__ + "\ngroups: " + ", ".join(GROUPS), file=sys.stderr)
        return 2
    UPCC, UPCRUN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="upcc-driver-") as d:
        try:
            GROUPS[sys.argv[3]](d)
        except Failure as e:
            print(f"FAIL: {e}")
            return 1
    print(f"ok: {sys.argv[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
