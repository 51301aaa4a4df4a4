"""upcc's command line: the options, their values, checked (docs/upcc.md, Options).

Every wrong command line is a UsageError: one line `upcc: error: ...`, exit
status 2, never a half-parsed run."""
import re
from dataclasses import dataclass, field

from .errors import UsageError

VERSION = "upcc (upcemu) 0.1: UPC 1.3 subset, see docs/upcc.md"

USAGE = """usage: upcc [options] file.upc|file.c|file.o ... [-o prog]

Compiles UPC 1.3 programs (.upc and .c files, translated to C, as Berkeley upcc
does; -x c for plain C files) into one program for upcemu; run it with
`upcrun -n N ./prog`.
Object files and libraries (.o, .a, .so, or any ELF object or ar archive,
whatever -x says) are linked.

  -o FILE            the output (default a.out, or FILE.o with -c); with -E
                     the translated C
  -c                 compile only, to .o files
  -E                 print the translated C of the .upc files and stop
  --keep             keep the translated C as FILE.upc.c next to the output
  -T N, -TN, -T=N, -fupc-threads=N, -fupc-threads-N
                     a static THREADS of N (the run must have N threads)
  -x upc|c|none      the language of the source files that follow (as gcc's
                     -x): upc compiles them as UPC whatever their suffix, c as
                     plain C (a helper file that must stay C: its globals are
                     then one per process, not per UPC thread), none goes back
                     to choosing by the suffix (.upc and .c: UPC)
  -I DIR -D M[=V] -U M -include FILE -iquote DIR -isystem DIR -idirafter DIR
                     passed to the preprocessor; -I folders are searched
                     before upcc's own headers, as Berkeley upcc does
  -O* -g* -W* -f* -m* -std=...
                     passed to gcc (-O*, -g*, -f*, -m* to the link too); the
                     translated C is compiled with -O2 unless -O* or -g* is
                     given, as Berkeley upcc optimises by default
  -l LIB -L DIR -Wl,... -pthread
                     passed to the link
  --help, --version

Environment: CC (default gcc) and CXX (default g++) name the compilers, with
arguments if wanted (CC="gcc -m64", split as a shell would); UPCC_VERBOSE=1
prints the commands; UPCC_DEBUG=1 prints the traceback of an internal error;
UPCEMU_BUILD_DIR names the build tree in a source tree; TMPDIR the folder of
upcc's temporary files (always removed, also when upcc is interrupted).
Exit status: 0 done, 1 an error in the inputs, 2 a wrong command line,
4 an internal error of upcc, 128+N stopped by signal N.
"""

# -DNAME, -DNAME=VALUE, -DNAME(ARGS)=BODY; -U takes only a name
_DEFINE = re.compile(r"[A-Za-z_]\w*(\([^)]*\))?(=.*)?\Z", re.S)
_NAME = re.compile(r"[A-Za-z_]\w*\Z")


@dataclass
class Options:
    out: str = None
    compile_only: bool = False
    preprocess_only: bool = False
    keep: bool = False
    static_threads: int = None
    cpp_flags: list = field(default_factory=list)   # -I -D -U -include, in order
    cc_flags: list = field(default_factory=list)    # -O -g -W -f -m -std=
    link_flags: list = field(default_factory=list)  # -l -L -Wl, -pthread
    inputs: list = field(default_factory=list)      # (path, language given by -x or None)
    show: str = None                                # "help" or "version"


def _threads(spelling, value):
    if not value.isdigit() or int(value) < 1:
        raise UsageError(f"{spelling} needs a positive number of threads, not '{value}'")
    return int(value)


def _threads_value(a):
    """The N of -TN, -T=N, -fupc-threads=N, -fupc-threads-N; None if `a` is none of them."""
    for prefix in ("-fupc-threads=", "-fupc-threads-", "-T="):
        if a.startswith(prefix):
            return prefix.rstrip("=-"), a[len(prefix):]
    if a.startswith("-T") and len(a) > 2:
        return "-T", a[2:]
    return None


def _check_macro(option, value):
    pattern = _DEFINE if option == "-D" else _NAME
    if not pattern.match(value):
        what = "a macro name (NAME or NAME=VALUE)" if option == "-D" else "a macro name"
        raise UsageError(f"{option} needs {what}, not '{value}'")


def parse(argv):
    """Options of a command line; raises UsageError for a wrong one."""
    o = Options()
    x_lang = None  # -x: None (by the suffix), "upc" or "c"
    i = 0

    def value(option):
        """The argument after `option`."""
        if i + 1 >= len(argv):
            raise UsageError(f"{option} needs an argument (see upcc --help)")
        return argv[i + 1]

    while i < len(argv):
        a = argv[i]
        step = 1
        if a in ("-h", "--help"):
            o.show = "help"
            return o
        if a == "--version":
            o.show = "version"
            return o
        if a == "-o":
            o.out = value(a)
            if o.out == "":
                raise UsageError("-o needs a file name, not ''")
            step = 2
        elif a == "-c":
            o.compile_only = True
        elif a == "-E":
            o.preprocess_only = True
        elif a == "--keep":
            o.keep = True
        elif a == "-T":
            o.static_threads = _threads("-T", value(a))
            step = 2
        elif _threads_value(a):
            spelling, v = _threads_value(a)
            o.static_threads = _threads(spelling, v)
        elif a == "-x" or (a.startswith("-x") and len(a) > 2):
            v = value(a) if a == "-x" else a[2:]
            if a == "-x":
                step = 2
            if v not in ("upc", "c", "none"):
                raise UsageError(f"-x takes upc, c or none, not '{v}'")
            x_lang = None if v == "none" else v
        elif a in ("-I", "-D", "-U", "-include", "-iquote", "-isystem", "-idirafter"):
            v = value(a)
            if a in ("-D", "-U"):
                _check_macro(a, v)
            o.cpp_flags += [a, v]
            step = 2
        elif a.startswith(("-D", "-U")):
            _check_macro(a[:2], a[2:])
            o.cpp_flags.append(a)
        elif a.startswith(("-I", "-iquote", "-isystem", "-idirafter")):
            o.cpp_flags.append(a)
        elif a in ("-l", "-L"):
            o.link_flags += [a, value(a)]
            step = 2
        elif a.startswith(("-l", "-L", "-Wl,")) or a == "-pthread":
            o.link_flags.append(a)
        elif a.startswith(("-O", "-g", "-W", "-f", "-m", "-std=")):
            o.cc_flags.append(a)
        elif a == "-":
            raise UsageError("reading the source from standard input ('-') is not supported: give a file")
        elif a.startswith("-"):
            raise UsageError(f"unknown option '{a}' (see upcc --help)")
        else:
            o.inputs.append((a, x_lang))
        i += step
    if not o.inputs:
        raise UsageError("no input files (see upcc --help)")
    return o
