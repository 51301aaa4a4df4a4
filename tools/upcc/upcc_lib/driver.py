"""The upcc command line: preprocess, translate, compile, link (docs/upcc.md)."""
import os
import re
import shutil
import subprocess
import sys

from . import options
from .driver_commands import run, tool
from .driver_inputs import classify_all
from .driver_link import explain
from .driver_scratch import Interrupted, scratch_dir
from .driver_translate import translate_to_file
from .errors import DriverError, UsageError

HERE = os.path.dirname(os.path.realpath(__file__))
UPCC_INCLUDE = os.path.normpath(os.path.join(HERE, "..", "include"))
# Above this much preprocessed text, translation takes long enough to say so first.
LARGE_INPUT_BYTES = 1_000_000
VERSION, USAGE = options.VERSION, options.USAGE


# What a UPC program links besides libupcemu.a (the link line in compile_and_link).
UPCC_LIBRARIES = ("libupcemu_main.a", "libupcemu_c_main.a", "libupcemu_c.a")


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


# gcc's diagnostics on translated C, in the program's words: the C it compiles
# names the runtime's types and upcc's renamings
GCC_WORDS = [
    (re.compile(r"\bupcemu_sptr\b"), "pointer-to-shared"),
    (re.compile(r"\bstruct upcemu_lock\b"), "upc_lock_t"),
    (re.compile(r"\bupcemu_object\b"), "shared object"),
    (re.compile(r"\b__upcc_o_(\w+?)(?:_\d+)?\b"), r"\1"),
    (re.compile(r"\b(?:__upcc_user_main|upcemu_c_program_main)\b"), "main"),
    (re.compile(r"\b__upcc_(THREADS|MYTHREAD)\b"), r"\1"),
]


def in_upc_words(text):
    for rx, word in GCC_WORDS:
        text = rx.sub(word, text)
    return text


def emit(text):
    """Write text to stderr, the bytes of the user's files unchanged (surrogate-escaped)."""
    sys.stderr.flush()
    sys.stderr.buffer.write(text.encode("utf-8", "surrogateescape"))
    sys.stderr.buffer.flush()


def default_optimisation(o):
    """gcc's -O2 for translated UPC unless the user chose -O* or -g*: Berkeley upcc
    compiles the generated C optimised by default (GASNet's CFLAGS; -O2 unless -g
    with GCC UPC as its back end), and a shared access, an inline call of the C
    ABI, costs about ten times as much unoptimised."""
    return [] if any(f.startswith(("-O", "-g")) for f in o.cc_flags) else ["-O2"]


# The libraries' feature macros, which UPC 1.3 says an implementation that has
# the library predefines (so a program may test them before any #include), each
# with the value the library's own header gives it.
FEATURE_MACROS = ["-D__UPC_COLLECTIVE__=1", "-D__UPC_TICK__=1", "-D__UPC_CASTABLE__=1", "-D__UPC_ATOMIC__=1",
                  "-D__UPC_IO__=1", "-D__UPC_NB__=1"]


def preprocess(cc, o, src, incs):
    """The preprocessed text of a UPC source (str: undecodable bytes surrogate-escaped),
    or None after reporting the errors.

    Include search order (docs/implementation-defined.md §15, as Berkeley upcc):
    #include "..." first looks in the including file's folder; then, for both
    forms, the user's -I folders in their order, the source file's folder (Berkeley
    upcc adds it after the user's -I: `#include <config.h>` finds the program's own),
    upcc's UPC headers, the runtime's headers, the system's."""
    threads = (["-D__UPC_STATIC_THREADS__=1", f"-DTHREADS_STATIC={o.static_threads}",
                f"-DTHREADS={o.static_threads}"] if o.static_threads else
               # without -T, THREADS is the run's value, which `#if` cannot know:
               # -Wundef finds it there (reported below as an error)
               ["-D__UPC_DYNAMIC_THREADS__=1", "-Wundef", "-fdiagnostics-plain-output"])
    pre = run(cc + ["-E", "-std=gnu11", "-D__UPC__=1", "-D__UPC_VERSION__=201311L", "-D__UPCC__=1"] + threads +
              FEATURE_MACROS + ["-include", os.path.join(incs[0], "upcemu_c.h")] + o.cpp_flags +
              ["-I", os.path.dirname(os.path.abspath(src))] +
              ["-I", UPCC_INCLUDE] + [f"-I{d}" for d in incs] + ["-x", "c", src],
              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    threads_in_if = False
    for ln in pre.stderr.decode("utf-8", "surrogateescape").splitlines(keepends=True):
        if "[-Wundef]" in ln and '"THREADS" is not defined' in ln:
            where = ln.split(": warning:")[0].rsplit(":", 1)[0]  # file:line (no column)
            emit(f"{where}: error: THREADS is not a preprocessor constant without -T N "
                 f"(compile with upcc -T N for a static THREADS that #if can test)\n")
            threads_in_if = True
        elif "[-Wundef]" in ln and "-Wundef" not in o.cc_flags:
            continue  # our -Wundef, not the user's
        else:
            emit(ln)
    if pre.returncode != 0 or threads_in_if:
        return None
    return pre.stdout.decode("utf-8", "surrogateescape")


def main(argv):
    try:
        o = options.parse(argv)
        if o.show == "help":
            print(USAGE, end="")
            return 0
        if o.show == "version":
            print(VERSION)
            return 0
        return build(o)
    except DriverError as e:
        print(str(e), file=sys.stderr)
        return e.status
    except OSError as e:  # a file upcc writes (-o, --keep, its temporary folder): the system's reason
        if e.filename is None:
            raise
        print(f"upcc: error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    except Interrupted as e:
        return 128 + e.signum


def build(o):
    inputs = classify_all(o.inputs)
    sources = [x for x in inputs if x.kind != "object"]
    if o.out and (o.compile_only or o.preprocess_only) and len(sources) > 1:
        raise UsageError(f"-o {o.out} with {'-c' if o.compile_only else '-E'} and more than one source file: "
                         f"give one source at a time, or no -o")
    if o.out and not os.path.isdir(os.path.dirname(o.out) or "."):
        raise DriverError(f"-o {o.out}: the folder {os.path.dirname(o.out)} does not exist")
    if o.out and os.path.isdir(o.out):
        raise DriverError(f"-o {o.out}: is a directory")
    if o.out and any(os.path.exists(o.out) and os.path.samefile(o.out, x.path) for x in inputs):
        raise DriverError(f"-o {o.out}: is also an input, which the output would overwrite")
    if o.compile_only or o.preprocess_only:
        for x in inputs:
            if x.kind == "object":
                print(f"upcc: warning: {x.path}: linker input file unused because linking not done",
                      file=sys.stderr)
    tree = find_tree()
    if tree is None:
        raise DriverError("cannot find upcemu: not in a built source tree (no build/lib/libupcemu.a; set "
                          "UPCEMU_BUILD_DIR) and not installed (no upcc_lib/install_paths.py)")
    incs, libdirs = tree
    cc = tool("CC", "gcc")
    cxx = tool("CXX", "g++")
    translated = []  # -E: the files of the translated C of every .upc, in order
    with scratch_dir() as tmp:
        linked = []  # (object, shown name, kind), in command-line order
        for n, x in enumerate(inputs):
            src = x.path
            if x.kind == "object":
                linked.append((src, src, "object"))
                continue
            base = os.path.splitext(os.path.basename(src))[0]
            if x.kind == "upc":
                text = preprocess(cc, o, src, incs)
                if text is None:
                    return 1
                if len(text) > LARGE_INPUT_BYTES:
                    print(f"upcc: note: {src} is {len(text) / 1e6:.1f} MB after preprocessing; "
                          f"translating it takes a while", file=sys.stderr)
                c_file = os.path.join(tmp, f"{n}_{base}.upc.c")
                status = translate_to_file(translator(), text, src, o.static_threads, c_file)
                if status != 0:
                    return status
                if o.preprocess_only:
                    translated.append(c_file)
                    continue
                if o.keep:
                    shutil.copy(c_file, (o.out if o.out and not o.compile_only else base) + ".upc.c"
                                if len(sources) == 1 else base + ".upc.c")
                src_c, lang, extra = c_file, ["-x", "c"], default_optimisation(o)
            else:
                src_c, lang, extra = src, (["-x", "c"] if x.kind == "c" else []), o.cpp_flags
            if o.preprocess_only:
                continue
            obj = ((o.out if o.out else base + ".o") if o.compile_only
                   else os.path.join(tmp, f"{n}_{base}.o"))
            translated_c = src_c != src
            color = ["-fdiagnostics-color=always"] if translated_c and sys.stderr.isatty() else []
            if translated_c:  # columns and carets would point into the translated line
                color += ["-fno-show-column", "-fno-diagnostics-show-caret"]
            r = run(cc + ["-std=gnu11", "-fexceptions", "-c"] + lang + [src_c] + extra +
                    [f"-I{d}" for d in incs] + o.cc_flags + color + ["-o", obj],
                    stderr=subprocess.PIPE if translated_c else None)
            if translated_c and r.stderr:
                emit(in_upc_words(r.stderr.decode("utf-8", "surrogateescape")))
            if r.returncode != 0:
                if src_c == src and looks_like_upc(src):
                    print(f"upcc: note: {src} was compiled as plain C (-x c) but includes <upc.h>, "
                          f"<upc_relaxed.h> or <upc_strict.h>: drop -x c to compile it as UPC", file=sys.stderr)
                return 1
            linked.append((obj, src, "empty" if x.empty and x.kind == "upc" else x.kind))
        if o.preprocess_only:
            return write_translated(o, translated)
        if o.compile_only:
            return 0
        return link(cxx, o, linked, libdirs)


def translator():
    """translate() of the translator, which needs Python's clang module."""
    try:
        from .translate import translate
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] != "clang":
            raise
        raise DriverError(f"the UPC translator needs Python's clang module (Debian package python3-clang-14, "
                          f"which tools/setup.sh installs): {e}") from None
    return translate


def write_translated(o, c_files):
    data = b""
    for c_file in c_files:
        with open(c_file, "rb") as f:
            data += f.read()
    if o.out:
        with open(o.out, "wb") as f:
            f.write(data)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    return 0


def link(cxx, o, linked, libdirs):
    # `setup.sh demo` builds the runtime and the examples, not upcc's C interface
    missing = [lib for lib in UPCC_LIBRARIES if not any(os.path.exists(os.path.join(d, lib)) for d in libdirs)]
    if missing:
        raise DriverError(f"{', '.join(missing)} not found in {', '.join(libdirs)}: upcc's libraries are not "
                          f"built yet (run ./tools/setup.sh build, or ninja -C build)")
    # -O/-g/-f/-m matter to the link too (-m32, -fsanitize=...); -W and -std= are C-only
    link_cc_flags = [f for f in o.cc_flags if f.startswith(("-O", "-g", "-f", "-m"))]
    r = run(cxx + ["-o", o.out or "a.out"] + [obj for obj, _, _ in linked] + [f"-L{d}" for d in libdirs] +
            ["-Wl,--whole-archive", "-lupcemu_main", "-Wl,--no-whole-archive",
             "-lupcemu_c_main", "-lupcemu_c", "-lupcemu", "-rdynamic", "-Wl,-z,now",
             "-Wl,--wrap=_exit", "-Wl,--wrap=_Exit", "-Wl,--wrap=quick_exit"] +
            link_cc_flags + o.link_flags + ["-lboost_thread", "-lboost_system", "-pthread", "-lrt"],
            stderr=subprocess.PIPE)
    output = r.stderr.decode("utf-8", "surrogateescape")
    if r.returncode == 0:
        emit(output)
        return 0
    why = explain(output, linked)
    if why is None:
        emit(output)
    else:
        print(f"upcc: error: {why}", file=sys.stderr)
    return 1
