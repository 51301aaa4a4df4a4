"""The text being translated: byte offsets, the user's file and line of each
physical line (from the line markers), and splicing rewrites into ranges.

The translation is a set of edits of the prepassed text (byte ranges replaced
by their rewrite); everything else, line markers included, is kept so that gcc
reports the user's lines (docs/upcc.md, "Pipeline").
"""
import bisect
import functools
import operator
import os
import re
import sys

import clang.cindex as ci

from .clang_memo import main_file_offset
from .clang_util import begin_of, children, end_of

from .errors import UpcError

LINE_MARKER = re.compile(rb'#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"([ 0-9]*)')
MARKER_LINES = re.compile(r"(?m)^[ \t]*#[^\n]*$")
K = ci.CursorKind
_INIT_LIST, _UNEXPOSED = K.INIT_LIST_EXPR, K.UNEXPOSED_EXPR
NO_SKIP = os.environ.get("UPCC_NO_SKIP") == "1"
_start = operator.itemgetter(0)
UPCC_INCLUDE = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "include"))


def decode(raw):
    """Source bytes as text; bytes that are not UTF-8 (a Latin-1 string literal)
    survive as surrogates and are encoded back unchanged."""
    return raw.decode("utf-8", errors="surrogateescape")


def encode(text):
    return text.encode("utf-8", errors="surrogateescape")


class Source:
    """Mixin: self.raw (bytes) is the prepassed text; self.filename the input."""

    def _markers(self):
        """Physical line -> (presumed file, line, system) from the line markers.
        (Called whenever self.raw changes.) An ASCII text is kept decoded too:
        its byte offsets are its character offsets, and src slices it."""
        self.ascii_text = self.raw.decode("ascii") if self.raw.isascii() else None
        self.has_cr = b"\r" in self.raw
        self.line_starts = [0]
        pos = self.raw.find(b"\n")
        while pos >= 0:
            self.line_starts.append(pos + 1)
            pos = self.raw.find(b"\n", pos + 1)
        self.presumed_of_line = []
        file, line, system = self.filename, 1, False
        for start in self.line_starts:
            m = LINE_MARKER.match(self.raw, start) if self.raw[start:start + 1] == b"#" else None
            self.presumed_of_line.append((file, line, system))
            if m:
                file, line, system = decode(m.group(2)), int(m.group(1)), b"3" in m.group(3).split()
            else:
                line += 1

    def _line(self, cursor):
        """The physical line (from 0) where cursor starts: found among the line
        starts for a cursor of upcc_input.c (clang would count a lone \r as a
        line end too: then, and elsewhere, libclang's answer)."""
        at = main_file_offset(cursor)
        if at is None or self.has_cr:
            return cursor.extent.start.line - 1
        return bisect.bisect_right(self.line_starts, at) - 1

    def where(self, cursor):
        return self.presumed_of_line[self._line(cursor)][:2]

    def is_system(self, cursor):
        return self.presumed_of_line[self._line(cursor)][2]

    def from_upcc_header(self, cursor):
        """Whether the cursor comes from upcemu_c.h or upcc's own UPC headers."""
        f, _ = self.where(cursor)
        return self._upcc_header(f)

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def _upcc_header(f):
        if os.path.basename(f) == "upcemu_c.h":
            return True
        return os.path.dirname(os.path.abspath(f)) == UPCC_INCLUDE

    def error(self, cursor, message):
        f, l = self.where(cursor)
        raise UpcError(f, l, message)

    def warn(self, cursor, message):
        """A warning in gcc's form, on stderr now (the translation goes on)."""
        f, l = self.where(cursor)
        key = (f, l, message)
        if key not in self.__dict__.setdefault("warned", set()):
            self.warned.add(key)
            sys.stderr.write(f"{f}:{l}: warning: {message}\n")

    def src(self, a, b):
        t = self.ascii_text
        return t[a:b] if t is not None else decode(self.raw[a:b])

    def text_of(self, c):
        return self.src(begin_of(c), end_of(c))

    def tmp(self):
        """A fresh name for a temporary of the generated code."""
        self.tmp_count = getattr(self, "tmp_count", 0) + 1
        return f"__upcc_t{self.tmp_count}"

    @staticmethod
    def flatten(text):
        """text on one line: its line markers dropped (declarations keep them after it)."""
        return (MARKER_LINES.sub("", text) if "#" in text else text).replace("\n", " ")

    @staticmethod
    def without_markers(text):
        return MARKER_LINES.sub("", text) if "#" in text else text

    # ---- where there is something to translate ----
    IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
    UPC_WORDS = (b"address_space", b"static", b"main")  # main: renamed for the runtime to call
    PLAIN_MARKERS = (b"__upcc_THREADS", b"__upcc_MYTHREAD")  # macros of the output: nothing to rewrite

    relevant_at = None  # find_relevant's offsets (None: everything is relevant)

    def find_relevant(self, functions):
        """The offsets of the tokens that make code need translation: a name
        that reaches shared data (the prepass's names), a shared type, a UPC
        construct's marker, `static` (a private static becomes per thread), and
        each `return` of a function whose result is a pointer-to-shared (`return
        0;` converts a null pointer constant)."""
        words = {encode(n) for n in self.names}.union(self.UPC_WORDS)
        plain = self.PLAIN_MARKERS
        at = [m.start() for m in self.IDENT.finditer(self.raw)
              if (w := m.group()) in words or w[:7] == b"__upcc_" and w not in plain]
        for f in functions:
            if self.mentions_shared(f.result_type):
                a, b = begin_of(f), end_of(f)
                at += [m.start() + a for m in re.finditer(rb"\breturn\b", self.raw[a:b])]
        self.relevant_at = None if NO_SKIP else sorted(at)

    def relevant(self, a, b):
        """Whether [a, b) holds anything to translate (always, with UPCC_NO_SKIP=1:
        the test that skipping changes nothing compares both)."""
        at = self.relevant_at
        if at is None:
            return True
        i = bisect.bisect_left(at, a)
        return i < len(at) and at[i] < b

    def converts_to_shared(self, k):
        """A node whose text names nothing shared but that makes a pointer-to-shared
        (a null pointer constant converted, `return 0;`, `{0, 0}` for a struct
        holding one): its parent is relevant, so it is looked at."""
        kind = k.kind
        return kind is _INIT_LIST or kind is _UNEXPOSED and self.is_sptr(k.type)

    # ---- splicing ----
    def gen_range(self, cursors, a, b):
        """The text [a, b) with the rewrites of the cursors' children inside it."""
        kids = []
        for c in cursors:
            kids += children(c)
        return self.splice(kids, a, b)

    def generic(self, c):
        """c's own text with each child replaced by its rewrite."""
        return self.splice(children(c), begin_of(c), end_of(c))

    def splice(self, kids, a, b):
        """The text [a, b) with each of `kids` inside it (in source order: an
        attribute such as an __asm__ label comes first among a cursor's children)
        replaced by its rewrite, where it has one. (relevant() written out: this
        loop looks at every child of every node translated.)"""
        out, pos = [], a
        spans = [(k._upcc_start, k._upcc_end, k) for k in kids]  # (begin_of, end_of)
        spans.sort(key=_start)  # (stable, and cheap when already in order)
        at = self.relevant_at
        n = len(at) if at is not None else 0
        for ka, kb, k in spans:
            if ka < pos or kb > b or kb <= ka:
                continue
            if at is not None:
                i = bisect.bisect_left(at, ka)
                if not (i < n and at[i] < kb) and not self.converts_to_shared(k):
                    continue
            t = self.rw_relevant(k)
            if t is None:
                continue
            out.append(self.src(pos, ka))
            out.append(t)
            pos = kb
        out.append(self.src(pos, b))
        return "".join(out)

    def apply(self, edits, prelude, appendix):
        """The whole output: the text with the edits applied, then the generated
        support code after a line marker of its own."""
        out, pos = [prelude], 0
        for a, b, t in sorted(edits):
            if a < pos:
                raise RuntimeError("overlapping edits")
            out.append(self.src(pos, a))
            out.append(t)
            pos = b
        out.append(self.src(pos, len(self.raw)))
        out.append("\n# 1 \"<upcc: generated>\"\n")
        out += appendix
        return "".join(out)  # (one copy of the whole output)
