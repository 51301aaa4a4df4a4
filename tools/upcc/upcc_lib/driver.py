"""The upcc command line: preprocess, translate, compile, link (docs/upcc.md)."""
import os
import shutil
import subprocess
import sys
import tempfile

from .errors import UpcError

VERSION = "upcc (upcemu) 0.1: UPC 1.3 subset, see docs/upcc.md"
HERE = os.path.dirname(os.path.realpath(__file__))
UPCC_INCLUDE = os.path.normpath(os.path.join(HERE, "..", "include"))

USAGE = """usage: upcc [options] file.upc|file.c ... [-o prog]

Compiles UPC 1.3 programs (.upc, translated to C) and C files (.c, compiled as
they are) into one program for upcemu; run it with `upcrun -n N ./prog`.

  -o FILE            the output (default a.out, or FILE.o with -c)
  -c                 compile only, to .o files
  -E                 print the translated C of the .upc files and stop
  --keep             keep the translated C as FILE.upc.c next to the output
  -T N, -fupc-threads=N
                     a static THREADS of N (the run must have N threads)
  -x upc|c|none      the language of the inputs that follow (as gcc's -x):
                     upc compiles them as UPC whatever their suffix (a .c
                     file that is a UPC program, as NPB-UPC's is.c), c as
                     plain C, none goes back to choosing by the suffix
  -I DIR -D M[=V] -U M -O* -g* -l LIB -L DIR -Wl,...  -W* -f* -std=...
                     passed to gcc / the link
  --help, --version
"""


def find_tree():
    """(include dirs, library dirs) of the in-tree build or the installed layout."""
    root = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
    build = os.environ.get("UPCEMU_BUILD_DIR") or os.path.join(root, "build")
    if os.path.exists(os.path.join(root, "include", "upcemu_c.h")) and \
            os.path.exists(os.path.join(build, "lib", "libupcemu.a")):
        return [os.path.join(root, "include")], [os.path.join(build, "lib")]
    try:
        from . import install_paths  # written by `meson install` (tools/upcc/meson.build)
    except ImportError:
        return None
    # HERE is <prefix>/<datadir>/upcemu/upcc/upcc_lib, whatever the prefix (DESTDIR, moved trees).
    prefix = HERE
    for _ in os.path.join(install_paths.DATADIR, "upcemu", "upcc", "upcc_lib").split(os.sep):
        prefix = os.path.dirname(prefix)
    return [os.path.join(prefix, install_paths.INCLUDEDIR, "upcemu")], [os.path.join(prefix, install_paths.LIBDIR)]


def looks_like_upc(path):
    """Whether a file includes one of the UPC headers (for the -x upc hint)."""
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    import re
    return re.search(r"^\s*#\s*include\s*[<\"]upc(_relaxed|_strict)?\.h[>\"]", text, re.M) is not None


def run(cmd, **kw):
    if os.environ.get("UPCC_VERBOSE"):
        print(" ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, **kw)


def main(argv):
    out = None
    compile_only = preprocess_only = keep = False
    static_threads = None
    cpp_flags, cc_flags, link_flags, inputs = [], [], [], []
    x_lang = None  # -x: None (by the suffix), "upc" or "c"; inputs are (path, language)
    i = 0
    while i < len(argv):
        a = argv[i]
        nxt = lambda: argv[i + 1] if i + 1 < len(argv) else sys.exit(f"upcc: {a} needs an argument")
        if a in ("-h", "--help"):
            print(USAGE, end="")
            return 0
        if a == "--version":
            print(VERSION)
            return 0
        if a == "-o":
            out = nxt(); i += 2; continue
        if a == "-c":
            compile_only = True
        elif a == "-E":
            preprocess_only = True
        elif a == "--keep":
            keep = True
        elif a == "-T" or a.startswith("-fupc-threads=") or (a.startswith("-T") and a[2:].isdigit()):
            if a == "-T":
                v = nxt(); i += 1
            else:
                v = a.split("=", 1)[1] if "=" in a else a[2:]
            if not v.isdigit() or int(v) < 1:
                print(f"upcc: error: -T needs a positive number of threads, not '{v}'", file=sys.stderr)
                return 2
            static_threads = int(v)
        elif a == "-x" or (a.startswith("-x") and len(a) > 2):
            v = nxt() if a == "-x" else a[2:]
            if a == "-x":
                i += 1
            if v not in ("upc", "c", "none"):
                print(f"upcc: error: -x takes upc, c or none, not '{v}'", file=sys.stderr)
                return 2
            x_lang = None if v == "none" else v
        elif a in ("-I", "-D", "-U", "-include"):
            cpp_flags += [a, nxt()]; i += 2; continue
        elif a.startswith(("-I", "-D", "-U")):
            cpp_flags.append(a)
        elif a in ("-l", "-L"):
            link_flags += [a, nxt()]; i += 2; continue
        elif a.startswith(("-l", "-L", "-Wl,", "-pthread")):
            link_flags.append(a)
        elif a.startswith(("-O", "-g", "-W", "-f", "-m", "-std=")):
            cc_flags.append(a)
        elif a.startswith("-"):
            print(f"upcc: error: unknown option '{a}' (see upcc --help)", file=sys.stderr)
            return 2
        else:
            inputs.append((a, x_lang))
        i += 1
    if not inputs:
        print("upcc: error: no input files (see upcc --help)", file=sys.stderr)
        return 2
    tree = find_tree()
    if tree is None:
        print("upcc: error: cannot find upcemu: not in a built source tree (no build/lib/libupcemu.a; set "
              "UPCEMU_BUILD_DIR) and not installed (no upcc_lib/install_paths.py)", file=sys.stderr)
        return 2
    incs, libdirs = tree
    cc = os.environ.get("CC", "gcc")
    cxx = os.environ.get("CXX", "g++")
    tmp = tempfile.mkdtemp(prefix="upcc-")
    objects = []
    try:
        for src, src_lang in inputs:
            base = os.path.splitext(os.path.basename(src))[0]
            if src_lang == "upc" or (src_lang is None and src.endswith(".upc")):
                pre = run([cc, "-E", "-std=gnu11", "-D__UPC__=1", "-D__UPC_VERSION__=201311L",
                           "-D__UPCC__=1", "-I", UPCC_INCLUDE] + [f"-I{d}" for d in incs] + ["-include", "upcemu_c.h"] +
                          # -T N: THREADS is N for the preprocessor too (`#if THREADS < 256`);
                          # without it THREADS is the run's value, which `#if` cannot know:
                          # -Wundef finds it there (reported below as an error).
                          ([f"-D__UPC_STATIC_THREADS__=1", f"-DTHREADS_STATIC={static_threads}",
                            f"-DTHREADS={static_threads}"]
                           if static_threads else ["-D__UPC_DYNAMIC_THREADS__=1", "-Wundef",
                                                   "-fdiagnostics-plain-output"]) +
                          cpp_flags + ["-x", "c", src],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
                threads_in_if = False
                for ln in pre.stderr.splitlines(keepends=True):
                    if "[-Wundef]" in ln and '"THREADS" is not defined' in ln:
                        where = ln.split(": warning:")[0].rsplit(":", 1)[0]  # file:line (no column)
                        print(f"{where}: error: THREADS is not a preprocessor constant without -T N "
                              f"(compile with upcc -T N for a static THREADS that #if can test)",
                              file=sys.stderr)
                        threads_in_if = True
                    elif "[-Wundef]" in ln and "-Wundef" not in cc_flags:
                        continue  # our -Wundef, not the user's
                    else:
                        sys.stderr.write(ln)
                if pre.returncode != 0 or threads_in_if:
                    return 1
                from .translate import translate
                try:
                    c_text = translate(pre.stdout, src, static_threads)
                except UpcError as e:
                    print(str(e), file=sys.stderr)
                    return 1
                if preprocess_only:
                    sys.stdout.write(c_text)
                    continue
                c_file = os.path.join(tmp, base + ".upc.c")
                with open(c_file, "w") as f:
                    f.write(c_text)
                if keep:
                    shutil.copy(c_file, (out if out and not compile_only else base) + ".upc.c"
                                if len(inputs) == 1 else base + ".upc.c")
                src_c, lang = c_file, ["-x", "c"]
                extra = []
            elif src_lang is None and src.endswith((".o", ".a")):
                objects.append(src)
                continue
            else:
                src_c, lang, extra = src, (["-x", "c"] if src_lang == "c" else []), cpp_flags
            if preprocess_only:
                continue
            obj = (out if compile_only and out and len(inputs) == 1 else base + ".o") if compile_only \
                else os.path.join(tmp, base + ".o")
            r = run([cc, "-std=gnu11", "-fexceptions", "-c"] + lang + [src_c] + extra +
                    [f"-I{d}" for d in incs] + cc_flags + ["-o", obj])
            if r.returncode != 0:
                if src_c == src and looks_like_upc(src):
                    print(f"upcc: note: {src} was compiled as plain C (its suffix is not .upc) but includes "
                          f"<upc.h>, <upc_relaxed.h> or <upc_strict.h>: compile a UPC program kept in a .c "
                          f"file with -x upc ({os.path.basename(src)} after it)", file=sys.stderr)
                return 1
            objects.append(obj)
        if preprocess_only or compile_only:
            return 0
        libs = []
        for d in libdirs:
            libs.append(f"-L{d}")
        r = run([cxx, "-o", out or "a.out"] + objects + libs +
                ["-Wl,--whole-archive", "-lupcemu_main", "-Wl,--no-whole-archive",
                 "-lupcemu_c_main", "-lupcemu_c", "-lupcemu", "-rdynamic",
                 "-Wl,--wrap=_exit", "-Wl,--wrap=_Exit", "-Wl,--wrap=quick_exit"] +
                link_flags + ["-lboost_thread", "-lboost_system", "-pthread", "-lrt"])
        return 0 if r.returncode == 0 else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
