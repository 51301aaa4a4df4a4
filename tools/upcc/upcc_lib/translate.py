"""UPC -> C translation on clang's AST (docs/upcc.md).

The prepassed source (prepass.py) is parsed by libclang; every expression's type
carries its address space, i.e. whether it is shared and with which layout. The
output is the prepassed text with the source ranges of UPC constructs replaced;
all other text, line markers included, is kept, so gcc reports the user's lines.

The work is split by phase, one mixin each:
  source.py          text, locations, splicing
  type_algebra.py    UPC's type algebra and the lowered C types
  declarations.py    declarations of every kind
  expressions.py     expressions (places, accesses, conversions, operators)
  upc_constructs.py  upc_forall, barriers, fences, upc_*sizeof, sizeof
  diagnostics.py     clang's errors in UPC's words
and `Translator.rw` dispatches each cursor kind through one table.
"""
import gc
import re

import clang.cindex as ci

from .clang_util import begin_of, children, end_of

from . import clang_util, conversions
from .declarations import Declarations
from .diagnostics import check_diagnostics, in_user_code
from .errors import UpcError
from .expressions import Expressions
from .prepass import prepass
from .source import Source, encode
from .type_algebra import Types
from .upc_constructs import UpcConstructs

K = ci.CursorKind
OUTPUT_PRELUDE = """#define __upcc_THREADS (upcemu_threads())
#define __upcc_MYTHREAD (upcemu_mythread())
"""
PARSE_PRELUDE = clang_util.os.path.join(clang_util.os.path.dirname(__file__), "..", "include", "parse_prelude.h")


class Translator(Source, Types, Declarations, Expressions, UpcConstructs):
    # cursor kind -> the method that rewrites it (anything else: its text with
    # its children rewritten)
    RW = {
        K.VAR_DECL: "rw_var",
        K.PARM_DECL: "rw_param",
        K.FUNCTION_DECL: "rw_function",
        K.DECL_STMT: "rw_decl_stmt",
        K.STRUCT_DECL: "rw_record",
        K.UNION_DECL: "rw_record",
        K.CXX_UNARY_EXPR: "rw_sizeof",
        K.FOR_STMT: "rw_for",
        K.CALL_EXPR: "rw_call",
        K.UNARY_OPERATOR: "rw_unary",
        K.BINARY_OPERATOR: "rw_binary",
        K.COMPOUND_ASSIGNMENT_OPERATOR: "rw_binary",
        K.CSTYLE_CAST_EXPR: "rw_cast",
        K.UNEXPOSED_EXPR: "rw_implicit",
        K.ARRAY_SUBSCRIPT_EXPR: "rw_lvalue",
        K.DECL_REF_EXPR: "rw_lvalue",
        K.MEMBER_REF_EXPR: "rw_lvalue",
    }
    CONDITION_HOLDERS = frozenset((K.IF_STMT, K.WHILE_STMT, K.DO_STMT, K.FOR_STMT, K.CONDITIONAL_OPERATOR,
                                   K.BINARY_OPERATOR))

    def __init__(self, text, filename, static_threads=None):
        clang_util.configure()
        self.static_threads = static_threads
        self.text, self.layouts, self.pragmas, self.names = prepass(text, static_threads)
        self.filename = filename
        self.raw = encode(self.text)
        self._markers()
        self.objects = {}  # USR -> SharedObject
        self.appendix = []
        self.anon_names = {}  # an unnamed struct defined in a shared declaration -> its tag
        self.type_memo = {}  # type_algebra's answers by type spelling
        self.edits = []
        self.handlers = {k: getattr(self, m) for k, m in self.RW.items()}

    def rw(self, c):
        """The rewrite of cursor c (its text when nothing in it is UPC)."""
        a, b = begin_of(c), end_of(c)
        if not self.relevant(a, b) and not self.converts_to_shared(c):
            return self.src(a, b)  # names nothing shared: nothing in it to translate
        return self.rw_relevant(c)

    def rw_relevant(self, c):
        """rw of a cursor already found to need translating (splice asks first)."""
        k = c.kind
        if k in self.CONDITION_HOLDERS:
            self.mark_conditions(c, k)
        if self.conds:  # (truth_value's own first test, written out: asked of every node)
            t = self.truth_value(c)
            if t is not None:
                return t
        h = self.handlers.get(k)
        return h(c) if h is not None else self.generic(c)

    def parse(self):
        tu = ci.Index.create().parse(
            "upcc_input.c", args=["-x", "c", "-std=gnu11", "-include", PARSE_PRELUDE, "-Wno-everything",
                                  "-Wimplicit-function-declaration", "-ferror-limit=0"],
            unsaved_files=[("upcc_input.c", self.raw)])
        clang_util.new_parse(tu, len(self.raw))
        return tu

    def parse_with_conversions(self):
        """Parse; while clang refuses implicit conversions between pointer-to-shared
        types, make them explicit casts and parse again (conversions.py)."""
        tu = self.parse()
        for _ in range(16):  # a conversion inside another's operand may show only then
            casts = conversions.casts_to_insert(tu.diagnostics, lambda d: in_user_code(self, d))
            if not casts:
                break
            self.raw, shift = conversions.insert_casts(self.raw, casts)
            self.pragmas = [(shift(at), state) for at, state in self.pragmas]
            self._markers()
            tu = self.parse()
        return tu

    def translate(self):
        tu = self.parse_with_conversions()
        check_diagnostics(self, tu)
        top = [c for c in tu.cursor.get_children()
               if c.location.file and c.location.file.name == "upcc_input.c"]
        self.find_relevant([c for c in top if c.kind == K.FUNCTION_DECL and c.is_definition()])
        i = 0
        while i < len(top):
            c = top[i]
            if self.is_system(c):
                i += 1
                continue
            if c.kind in (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL) and i + 1 < len(top) and \
                    top[i + 1].kind in (K.VAR_DECL, K.TYPEDEF_DECL) and \
                    begin_of(top[i + 1]) <= begin_of(c) and \
                    end_of(top[i + 1]) >= end_of(c):
                i += 1  # `typedef struct S {...} T;`, `struct S {...} v;`: the declaration translates it
                continue
            if c.kind in (K.VAR_DECL, K.TYPEDEF_DECL):
                group = [c]
                while i + 1 < len(top) and begin_of(top[i + 1]) == begin_of(c) and \
                        top[i + 1].kind == c.kind:
                    i += 1
                    group.append(top[i])
                text = self.rw_decls(group, file_scope=True)
                a, b = begin_of(c), max(end_of(g) for g in group)
                if text != self.src(a, b):
                    self.edits.append((a, b, text))
            elif c.kind in (K.FUNCTION_DECL, K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL):
                text = self.rw(c)
                if text != self.text_of(c):
                    self.edits.append((begin_of(c), end_of(c), text))
            c.__dict__.pop("_upcc_kids", None)  # its subtree's cached cursors go
            i += 1
        if self.static_threads:
            self.appendix.append(
                f"__attribute__((constructor)) static void __upcc_require_threads(void) "
                f"{{ upcemu_require_threads({self.static_threads}, \"{self.filename}\"); }}\n")
        out = self.apply(self.edits, OUTPUT_PRELUDE, self.appendix)
        self.check_nothing_left(out)
        return out

    def check_nothing_left(self, out):
        """No shared type may reach gcc untranslated: gcc ignores clang's address
        spaces, so a `shared int *` left in the text would silently become an
        `int *`. Anything left is an error at the user's line (a construct upcc
        does not translate yet), never a wrong program."""
        at = out.find("__attribute__((address_space(")
        if at < 0:
            return
        file, line = self.filename, 0
        for m in re.finditer(r'(?m)^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"[^\n]*$|\n', out[:at]):
            if m.group(1):
                file, line = m.group(2), int(m.group(1)) - 1
            else:
                line += 1
        raise UpcError(file, line, "upcc cannot translate this use of a shared type yet (please report it); "
                                   "a cast, a declaration or a sizeof spelled another way may work")


def translate(text, filename, static_threads=None):
    # Without the cyclic garbage collector: the translation makes a few hundred
    # thousand objects (tokens, cursors) that live until it ends and hold no
    # cycles, and each of the collector's full passes walks all of them (a
    # tenth of the time, for nothing).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return Translator(text, filename, static_threads).translate()
    finally:
        if collecting:
            gc.enable()
