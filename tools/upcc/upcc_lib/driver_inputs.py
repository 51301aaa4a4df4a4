"""What each input of upcc is: UPC or C source to compile, or an object to link.

An object file or library is linked whatever -x says, known by its content (an
ELF object, an ar archive) as well as by its suffix: Berkeley upcc links every
input that is not source, while gcc would compile `-x c foo.o` as C text, which
is never what a Makefile that puts -x upc in its compiler variable means
(UPCC = upcc -x upc, then $(UPCC) -o prog a.o b.o). A missing file, a folder or
a binary file that is not an object is a one-line error here, before any tool
runs on it."""
import os
import re
import stat
from dataclasses import dataclass

from .errors import DriverError

_MAGIC = (b"\x7fELF", b"!<arch>\n", b"!<thin>\n")
_OBJECT_SUFFIX = re.compile(r"\.(o|a|so|so\.[0-9.]+)\Z")
# other sources gcc compiles by their suffix (assembler, C++): given to CC as they are
_GCC_SOURCE_SUFFIXES = (".s", ".S", ".sx", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".i")
_HEAD_BYTES = 1 << 16  # enough to tell text from binary


@dataclass
class Input:
    path: str
    kind: str            # "upc", "c" (plain C), "gcc" (compiled by CC as its suffix says), "object"
    empty: bool = False  # no bytes at all (a program without main: named when the link fails)


def _head(path):
    with open(path, "rb") as f:
        return f.read(_HEAD_BYTES)


def classify(path, language):
    """The Input for `path`, given -x's language in effect (None, "upc" or "c")."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise DriverError(f"{path}: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise DriverError(f"{path}: is a directory, not a source or object file")
    try:
        head = _head(path)
    except OSError as e:
        raise DriverError(f"{path}: {e.strerror}") from None
    if head.startswith(_MAGIC) or _OBJECT_SUFFIX.search(path):
        return Input(path, "object")
    if language is None:
        if path.endswith(".upc"):
            language = "upc"
        elif path.endswith(".c"):
            language = "upc"  # as Berkeley upcc: a .c file is UPC (plain C with -x c)
        elif path.endswith(_GCC_SOURCE_SUFFIXES):
            return Input(path, "gcc", not head)
        else:
            raise DriverError(f"{path}: not a file upcc knows by its name (.upc and .c are UPC, .o, .a and .so "
                              f"are linked): put -x upc or -x c before it to compile it as that language")
    if b"\0" in head:
        raise DriverError(f"{path}: a binary file (it contains NUL bytes), not {language.upper()} source "
                          f"nor an object file or library")
    return Input(path, language, not head)


def classify_all(inputs):
    """The Input of every (path, language); every bad input is reported, one line each."""
    found, problems = [], []
    for path, language in inputs:
        try:
            found.append(classify(path, language))
        except DriverError as e:
            problems.append(e)
    if problems:
        raise DriverError(*(m for p in problems for m in p.messages))
    return found
