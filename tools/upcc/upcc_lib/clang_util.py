"""libclang: finding the library, and the few queries the Python bindings lack."""
import ctypes
import glob
import os
import re
import subprocess

import clang.cindex as ci

from . import clang_memo
from .clang_memo import begin_of, children, end_of, new_parse  # noqa: F401 (the translator's)
from .errors import UpcError

K = ci.CursorKind
_configured = False


def find_libclang():
    """The libclang shared library: $UPCC_LIBCLANG, else the newest
    /usr/lib/llvm-N/lib/libclang-N.so.1 (Debian's libclang1-N), else what the
    dynamic linker knows as libclang*.so (ldconfig -p)."""
    env = os.environ.get("UPCC_LIBCLANG")
    if env:
        return env
    found = []
    for path in glob.glob("/usr/lib/llvm-*/lib/libclang-*.so.1") + glob.glob("/usr/lib/llvm-*/lib/libclang.so.1"):
        m = re.search(r"llvm-(\d+)", path)
        found.append((int(m.group(1)) if m else 0, path))
    if found:
        return max(found)[1]
    try:
        out = subprocess.run(["ldconfig", "-p"], stdout=subprocess.PIPE, universal_newlines=True).stdout
    except OSError:
        out = ""
    for line in out.splitlines():
        m = re.search(r"(libclang(?:-[\d.]+)?\.so[\d.]*) .*=> (\S+)", line)
        if m:
            return m.group(2)
    return None


def configure():
    global _configured
    if _configured:
        return
    lib = find_libclang()
    if lib is None:
        raise UpcError("upcc", 0, "cannot find libclang (install libclang1-14, or set UPCC_LIBCLANG to its path)")
    ci.Config.set_library_file(lib)
    _configured = True
    _register_evaluate()
    _bytes_survive()
    clang_memo.install()


def _bytes_survive():
    """The bindings decode every string libclang returns as strict UTF-8, but C
    source may hold other bytes in its literals (a Latin-1 "café"): decode and
    encode them with surrogateescape, as the translator does its text."""
    base_value = ctypes.c_char_p.value

    def value(self):
        v = base_value.__get__(self)
        return None if v is None else v.decode("utf-8", "surrogateescape")

    def init(self, p=None):
        if p is None:
            p = ""
        if isinstance(p, str):
            p = p.encode("utf-8", "surrogateescape")
        ctypes.c_char_p.__init__(self, p)

    ci.c_interop_string.value = property(value)
    ci.c_interop_string.__init__ = init


class _EvalResult(ctypes.c_void_p):
    pass


def _register_evaluate():
    lib = ci.conf.lib
    try:
        lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
        lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
        lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getKind.restype = ctypes.c_int
        lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
        lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    except AttributeError:
        pass


def evaluate_int(cursor):
    """The value of an integer constant expression, or None."""
    lib = ci.conf.lib
    try:
        r = lib.clang_Cursor_Evaluate(cursor)
    except (AttributeError, ctypes.ArgumentError):
        return None
    if not r:
        return None
    try:
        if lib.clang_EvalResult_getKind(r) != 1:  # CXEval_Int
            return None
        return lib.clang_EvalResult_getAsLongLong(r)
    finally:
        lib.clang_EvalResult_dispose(r)


IMPLICIT = (K.UNEXPOSED_EXPR, K.PAREN_EXPR)


def _unwrapper(kinds, doc):
    """A function giving a cursor without the single-child wrappers of `kinds`
    around it (a plain loop: it runs on every node the rules look at)."""
    def unwrap(c):
        while c.kind in kinds:
            kids = children(c)
            if len(kids) != 1:
                break
            c = kids[0]
        return c
    unwrap.__doc__ = doc
    return unwrap


strip = _unwrapper(frozenset(IMPLICIT), "c without the parentheses and implicit conversions around it.")
strip_parens = _unwrapper(frozenset((K.PAREN_EXPR,)), "c without the parentheses around it.")


def only_child(c):
    kids = children(c)
    return kids[0] if len(kids) == 1 else None


def expression_children(c):
    return [x for x in children(c) if x.kind.is_expression()]
