#!/usr/bin/python3
"""upcc asks libclang through memoised queries (tools/upcc/upcc_lib/clang_memo.py,
docs/upcc.md "Translation time and memory"); each of their answers must be the
Python bindings' own. For every cursor of upcc_input.c in the parse of a few
UPC programs (system headers included: they are part of that file), this
compares the offsets, line, kind, spelling, children, type (with its
canonical type, pointee and element), referenced declaration and its USR, and
for declarations and literals the tokens, with what the bindings' queries
(kept in clang_memo.BINDINGS) answer; and the memoised questions about shared
types (top_as, is_sptr) with the same questions asked of the bindings'
spellings.

  test_clang_memo.py [--all]   (default: a program written for it and every
                                eighth program of tests/upc; --all: each)"""
import contextlib
import glob
import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "upcc"))
sys.path.insert(0, HERE)

import clang.cindex as ci  # noqa: E402

from test_translate import preprocess  # noqa: E402
from upcc_lib import clang_memo, driver, options  # noqa: E402
from upcc_lib.errors import UpcError  # noqa: E402
from upcc_lib.clang_memo import begin_of, children, end_of, tokens, tokens_through  # noqa: E402
from upcc_lib.translate import Translator  # noqa: E402
from upcc_lib.type_algebra import Types  # noqa: E402

K, TK = ci.CursorKind, ci.TypeKind
B = clang_memo.BINDINGS

# Every kind of declaration and type the translator meets, a line marker inside
# a declaration (NULL comes from a system header), bytes that are not UTF-8 in
# a string literal, a lone carriage return.
PROGRAM = """#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
typedef shared [4] double blocked_t;
struct node { int v; shared struct node *next; shared [] int *buf; double d[3]; };
shared struct node nodes[THREADS];
shared [] int *shared dir[THREADS];
blocked_t grid[8 * THREADS];
strict shared int flag;
shared [*] int star[10 * THREADS];
static int counter;
const char *latin = "caf\\udce9";
int *private_p = NULL,
    *other = (int *)
    NULL;
enum colour { RED, GREEN };
union u { int i; float f; };
static shared int *pick(shared int *p, int k) { return p + k; }
int main(int argc, char **argv) {
  int i; \r
  shared int *p = (shared int *)&grid[0];
  upc_forall (i = 0; i < 8 * THREADS; i++; &grid[i]) grid[i] = i * 0.5;
  dir[MYTHREAD] = (shared [] int *)upc_alloc(4 * sizeof(int));
  nodes[MYTHREAD].next = &nodes[(MYTHREAD + 1) % THREADS];
  if (dir[MYTHREAD] != NULL && upc_threadof(nodes[MYTHREAD].next) < THREADS) counter += dir[MYTHREAD][1];
  flag = upc_blocksizeof(grid) + sizeof(union u) + GREEN;
  upc_barrier;
  printf("%d %s %d\\n", (int)pick(p, 1)[0], latin, argc + (argv != 0) + star[0]);
  return 0;
}
"""

DECLARATIONS = (K.VAR_DECL, K.FIELD_DECL, K.TYPEDEF_DECL, K.PARM_DECL, K.FUNCTION_DECL)
LITERALS = (K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.STRING_LITERAL, K.CHARACTER_LITERAL)


def offset(location):
    return B["SourceLocation.offset"].fget(location)


def same_type(memo, bindings):
    return (memo._kind_id, memo.data[0]) == (bindings._kind_id, bindings.data[0])


def type_spelling(t):
    return B["Type.spelling"].fget(t)


class Checker:
    """Compares each memoised query with the bindings' on one parse."""

    def __init__(self, test, text, name, static_threads=None):
        self.test, self.name = test, name
        self.tr = Translator(text, name, static_threads)
        self.tu = self.tr.parse_with_conversions()
        self.count = 0

    def eq(self, got, want, what, c):
        if got != want:
            line = c.extent.start.line
            self.test.fail(f"{self.name}: {what} of {B['Cursor.kind'].fget(c)} at line {line}: "
                           f"memoised {got!r}, bindings {want!r}")

    def run(self):
        todo = [c for c in B["Cursor.get_children"](self.tu.cursor)
                if c.location.file and c.location.file.name == "upcc_input.c"]
        while todo:
            c = todo.pop()
            self.cursor(c)
            todo += B["Cursor.get_children"](c)
        return self.count

    def cursor(self, c):
        self.count += 1
        ext = c.extent
        self.eq((begin_of(c), end_of(c)), (offset(ext.start), offset(ext.end)), "offsets", c)
        self.eq(c.location.offset, offset(c.location), "location's offset", c)
        if clang_memo.main_file_offset(c) is not None:
            self.eq(self.tr._line(c), ext.start.line - 1, "line", c)
        kind = B["Cursor.kind"].fget(c)
        self.eq(c.kind, kind, "kind", c)
        for q in ("is_declaration", "is_expression", "is_statement", "is_reference"):
            self.eq(getattr(c.kind, q)(), B[f"CursorKind.{q}"](kind), q, c)
        self.eq(c.spelling, B["Cursor.spelling"].fget(c), "spelling", c)
        self.eq([bytes(k) for k in children(c)], [bytes(k) for k in B["Cursor.get_children"](c)], "children", c)
        self.types(c, c.type, B["Cursor.type"].fget(c))
        ref, want = c.referenced, B["Cursor.referenced"].fget(c)
        self.eq(None if ref is None else bytes(ref), None if want is None else bytes(want), "referenced", c)
        if want is not None:
            self.eq(ref.get_usr(), B["Cursor.get_usr"](want), "USR", c)
        if kind in DECLARATIONS + LITERALS and kind != K.FUNCTION_DECL:
            self.tokens(c)

    def types(self, c, t, want):
        self.eq(same_type(t, want), True, "type", c)
        self.eq(t.kind, B["Type.kind"].fget(want), "type kind", c)
        if want.kind == TK.INVALID:  # (a statement's: nothing more to ask)
            return
        self.eq(t.spelling, type_spelling(want), "type spelling", c)
        canonical = B["Type.get_canonical"](want)
        self.eq(same_type(t.get_canonical(), canonical), True, "canonical type", c)
        self.eq(t.get_canonical().spelling, type_spelling(canonical), "canonical spelling", c)
        self.eq(Types.top_as(t), Types.top_as_spelling(type_spelling(canonical)), "top_as", c)
        sptr = canonical.kind == TK.POINTER and \
            Types.top_as_spelling(type_spelling(B["Type.get_canonical"](B["Type.get_pointee"](canonical)))) > 0
        self.eq(self.tr.is_sptr(t), sptr, "is_sptr", c)
        if canonical.kind == TK.POINTER:
            self.eq(same_type(t.get_pointee(), B["Type.get_pointee"](want)), True, "pointee", c)
        if canonical.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
            self.eq(same_type(canonical.element_type, B["Type.element_type"].fget(canonical)), True, "element", c)
        if canonical.kind == TK.CONSTANTARRAY:
            self.eq(canonical.element_count, B["Type.element_count"].fget(canonical), "element count", c)
        for q in ("is_const_qualified", "is_volatile_qualified"):
            self.eq(getattr(t, q)(), B[f"Type.{q}"](want), q, c)
        if canonical.kind == TK.RECORD:  # (the translator asks whether a struct is complete)
            self.eq(t.get_canonical().get_size(), B["Type.get_size"](canonical), "size", c)

    def tokens(self, c):
        def spans(toks):
            return [(t.spelling, begin_of(t), end_of(t)) for t in toks]
        want = [(t.spelling, offset(t.extent.start), offset(t.extent.end)) for t in B["Cursor.get_tokens"](c)]
        if c.spelling and c.location.file and c.location.file.name == "upcc_input.c":
            # the head of a declaration: the first tokens, every one that begins before the name's end
            end = c.location.offset + len(c.spelling)
            head = spans(tokens_through(c, end))
            self.eq(head, want[:len(head)], "first tokens", c)
            self.eq([t for t in want[len(head):] if t[1] < end], [], "tokens missing from the first", c)
        self.eq(spans(tokens(c)), want, "tokens", c)


class MemoisedQueries(unittest.TestCase):
    def check(self, text, name, static_threads=None):
        n = Checker(self, text, name, static_threads).run()
        self.assertGreater(n, 1000, f"{name}: only {n} cursors walked")

    def test_written_program(self):
        self.check(preprocess(PROGRAM), "t.upc")

    def test_programs(self):
        files = sorted(glob.glob(os.path.join(ROOT, "tests", "upc", "*.upc")))
        checked = 0
        for f in files if "--all" in sys.argv else files[::8]:
            with self.subTest(program=os.path.basename(f)):
                text = preprocess_file(f)
                try:
                    if text is not None:
                        self.check(text, os.path.basename(f))
                        checked += 1
                except UpcError:
                    pass  # (refused without the -T it is built with)
        self.assertGreater(checked, 5)


def preprocess_file(path):
    """The program preprocessed as upcc does it (without -T); None if that fails."""
    o = options.parse(["-E", path])
    with contextlib.redirect_stderr(io.TextIOWrapper(io.BytesIO())):
        return driver.preprocess(["gcc"], o, path, driver.find_tree()[0])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + [a for a in sys.argv[1:] if a != "--all"])
