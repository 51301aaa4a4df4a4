"""UPC -> C translation on clang's AST (docs/upcc.md).

The prepassed source (prepass.py) is parsed by libclang; every expression's type
carries its address space, i.e. whether it is shared and with which layout. The
output is the prepassed text with the source ranges of UPC constructs replaced;
all other text, line markers included, is kept, so gcc reports the user's lines.
"""
import os
import re
import tempfile

import clang.cindex as ci

from .errors import UpcError
from .prepass import prepass

LIBCLANG = "/usr/lib/llvm-14/lib/libclang-14.so.1"
_configured = False

K = ci.CursorKind
AS_RE = re.compile(r"__attribute__\(\(address_space\((\d+)\)\)\)\s*")
IMPLICIT = (K.UNEXPOSED_EXPR, K.PAREN_EXPR)
OUTPUT_PRELUDE = """#define __upcc_THREADS (upcemu_threads())
#define __upcc_MYTHREAD (upcemu_mythread())
"""


def _configure():
    global _configured
    if not _configured:
        ci.Config.set_library_file(LIBCLANG)
        _configured = True


class SharedObject:
    def __init__(self, name, cname, ctype, dims, block, consistency):
        self.name, self.cname, self.ctype, self.dims = name, cname, ctype, dims
        self.block, self.consistency = block, consistency


class Translator:
    def __init__(self, text, filename, static_threads=None):
        _configure()
        self.static_threads = static_threads
        self.text, self.layouts, self.pragmas = prepass(text, static_threads)
        self.filename = filename
        self.raw = self.text.encode()
        self._markers()
        self.objects = {}  # USR -> SharedObject
        self.appendix = []
        self.errors = []
        self.anon_names = {}  # an unnamed struct defined in a shared declaration -> its tag

    # ---- locations ----
    def _markers(self):
        """Physical line -> (presumed file, line, system) from the line markers."""
        self.line_starts = [0]
        for m in re.finditer(rb"\n", self.raw):
            self.line_starts.append(m.end())
        self.presumed_of_line = []
        file, line, system = self.filename, 1, False
        for phys, start in enumerate(self.line_starts):
            end = self.raw.find(b"\n", start)
            s = self.raw[start:end if end >= 0 else len(self.raw)].decode(errors="replace")
            m = re.match(r'#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"([ 0-9]*)', s)
            self.presumed_of_line.append((file, line, system))
            if m:
                file, line, system = m.group(2), int(m.group(1)), "3" in m.group(3).split()
            else:
                line += 1

    def where(self, cursor):
        return self.presumed_of_line[cursor.extent.start.line - 1][:2]

    def is_system(self, cursor):
        return self.presumed_of_line[cursor.extent.start.line - 1][2]

    def error(self, cursor, message):
        f, l = self.where(cursor)
        raise UpcError(f, l, message)

    def src(self, a, b):
        return self.raw[a:b].decode()

    # ---- types ----
    @staticmethod
    def top_as(t):
        """K of the type's own address space (0: not shared). Works on the canonical
        spelling: libclang's element_type drops an array element's address space."""
        return Translator.top_as_spelling(t.get_canonical().spelling)

    @staticmethod
    def top_as_spelling(s):
        s = re.sub(r"(\s*\[[^\]]*\])+$", "", s.strip())  # an array: its element type
        if s.endswith(")") and not s.endswith(")))") and not re.search(r"\((unnamed|anonymous) [^()]*\)$", s):
            return 0  # a function type
        if "*" in s:
            m = re.search(r"\*\s*(?:(?:const|volatile|restrict)\s*)*__attribute__\(\(address_space\((\d+)\)\)\)"
                          r"(?:\s*(?:const|volatile|restrict))*\s*$", s)
            return int(m.group(1)) if m else 0
        m = re.search(r"address_space\((\d+)\)", s)
        return int(m.group(1)) if m else 0

    def is_sptr(self, t):
        c = t.get_canonical()
        return c.kind == ci.TypeKind.POINTER and self.top_as(c.get_pointee()) > 0

    @staticmethod
    def pointee(t):
        """The pointee of pointer type t, keeping its typedef names where libclang can
        (a pointer type spelled by a typedef, `typedef shared heap_t *heap_p;`, has
        no pointee until canonical)."""
        p = t.get_pointee()
        if p.kind == ci.TypeKind.INVALID:
            p = t.get_canonical().get_pointee()
        return p

    def is_array(self, t):
        return t.get_canonical().kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
                                          ci.TypeKind.VARIABLEARRAY)

    def ctype(self, t):
        """The C spelling of a value of type t in the output."""
        if self.is_sptr(t):
            return "upcemu_sptr"
        s = AS_RE.sub("", t.spelling).strip()
        if "address_space" in s or "(anonymous" in s or "(unnamed" in s:
            s = AS_RE.sub("", t.get_canonical().spelling).strip()
        for k, v in self.anon_names.items():
            s = s.replace(k, v)
        return s

    def layout(self, k):
        return self.layouts.table[k - 1]

    def block_expr(self, block):
        return {"1": "1", "0": "0", "*": "((size_t)-1)"}.get(block, f"((size_t)({block}))")

    def convert(self, text, from_t, to_t):
        """A pointer-to-shared converted to another pointer-to-shared type."""
        fe, fb, _ = self.pointee_info(from_t)
        te, tb, _ = self.pointee_info(to_t)
        if (fe, fb) == (te, tb):
            return text
        size = lambda e: "0" if re.sub(r"\b(const|volatile)\b", "", e).strip() == "void" else f"sizeof({e})"
        return f"upcemu_cast({text}, {fb}, {size(fe)}, {tb}, {size(te)})"

    def arith_info(self, c, ptr_type):
        """pointee_info for pointer arithmetic: an error on a pointer to shared void."""
        elem, block, cons = self.pointee_info(ptr_type)
        if re.sub(r"\b(const|volatile|restrict)\b", "", elem).strip() == "void":
            self.error(c, "arithmetic on a pointer to shared void (shared void * has no element size; "
                          "cast it to a pointer to a shared object type first)")
        return elem, block, cons

    def pointee_info(self, ptr_type):
        """(element type text, block, consistency). A pointer to an array of shared
        (`shared int (*p)[N]`) steps over whole rows in units of the innermost
        element (UPC 1.3 §6.4.2: the block applies to the base element): the
        element returned is that base element, and arith_scale gives the row's count."""
        pt = ptr_type.get_canonical().get_pointee()
        block, cons = self.layout(self.top_as(pt))
        if block == "*":
            block = "1"
        elem = self.pointee(ptr_type)
        while elem.get_canonical().kind == ci.TypeKind.CONSTANTARRAY:
            elem = elem.get_canonical().element_type
        return self.ctype(elem), self.block_expr(block), cons

    @staticmethod
    def arith_scale(ptr_type):
        """The number of base elements in one step of a pointer-to-shared: 1, or
        the product of the pointee array's dimensions."""
        n, t = 1, ptr_type.get_canonical().get_pointee()
        while t.kind == ci.TypeKind.CONSTANTARRAY:
            n *= t.element_count
            t = t.element_type
        return n

    # ---- the walk ----
    def translate(self):
        tu = ci.Index.create().parse(
            "upcc_input.c", args=["-x", "c", "-std=gnu11", "-include",
                                  os.path.join(os.path.dirname(__file__), "..", "include", "parse_prelude.h"),
                                  "-Wno-everything",
                                  # a call of an undeclared function (C99 removed implicit
                                  # declarations) would return int, and an int stored into a
                                  # pointer-to-shared was silently lost: say so instead
                                  "-Werror=implicit-function-declaration"],
            unsaved_files=[("upcc_input.c", self.text)],
            options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD * 0)
        # gcc's preprocessed system headers use a few GCC-only attributes that clang
        # rejects (e.g. __malloc__ with arguments): only errors in user code count.
        errs = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error and d.location.line and
                not self.presumed_of_line[d.location.line - 1][2]]
        # Pointers-to-shared of different layouts convert (shared void * in particular):
        # clang sees different address spaces, UPC the same kind of pointer.
        errs = [d for d in errs if not ("changes address space" in d.spelling and
                                        d.spelling.count("address_space(") >= 2)]
        # The first error (in clang's order, which is the source's) is the one reported:
        # a later error may only follow from it (a shared `rint` redefining <math.h>'s
        # function, then `&rint` taken as the function's address).
        for d in errs[:1]:
            if "automatic variable qualified with an address space" in d.spelling:
                raise UpcError(*self._diag_where(d), "a shared variable declared in a function must be static "
                               "(UPC has no automatic shared objects)")
            if "changes address space" in d.spelling:
                raise UpcError(*self._diag_where(d), "a pointer-to-shared and a private pointer do not convert "
                               "implicitly (cast a pointer-to-shared with local affinity to a private pointer)")
        if errs:
            msg = errs[0].spelling
            for n in errs[0].children:  # "previous definition is here": say where
                if n.location.line and n.location.line - 1 < len(self.presumed_of_line) and \
                        n.location.file and n.location.file.name == "upcc_input.c":
                    pf, pl = self._diag_where(n)
                    msg += f" ({n.spelling.replace(' is here', '')} at {pf}:{pl})"
                    break
            raise UpcError(*self._diag_where(errs[0]), msg)
        self.edits = []
        prev_start = None
        top = [c for c in tu.cursor.get_children()
               if c.location.file and c.location.file.name == "upcc_input.c"]
        i = 0
        while i < len(top):
            c = top[i]
            if self.is_system(c):
                i += 1
                continue
            if c.kind in (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL) and i + 1 < len(top) and \
                    top[i + 1].kind in (K.VAR_DECL, K.TYPEDEF_DECL) and \
                    top[i + 1].extent.start.offset <= c.extent.start.offset and \
                    top[i + 1].extent.end.offset >= c.extent.end.offset:
                i += 1  # `typedef struct S {...} T;`, `struct S {...} v;`: the declaration translates it
                continue
            if c.kind in (K.VAR_DECL, K.TYPEDEF_DECL):
                group = [c]
                while i + 1 < len(top) and top[i + 1].extent.start.offset == c.extent.start.offset and \
                        top[i + 1].kind == c.kind:
                    i += 1
                    group.append(top[i])
                text = self.rw_decls(group, file_scope=True)
                a, b = c.extent.start.offset, max(g.extent.end.offset for g in group)
                if text != self.src(a, b):
                    self.edits.append((a, b, text))
            else:
                self.top_level(c)
            i += 1
        return self.apply()

    def _diag_where(self, d):
        line = d.location.line
        if line and line - 1 < len(self.presumed_of_line):
            f, l0, _ = self.presumed_of_line[line - 1]
            return f, l0
        return self.filename, 0

    def top_level(self, c):
        if c.kind in (K.FUNCTION_DECL, K.VAR_DECL, K.TYPEDEF_DECL, K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL):
            text = self.rw(c)
            old = self.src(c.extent.start.offset, c.extent.end.offset)
            if text != old:
                self.edits.append((c.extent.start.offset, c.extent.end.offset, text))

    def apply(self):
        out, pos = [], 0
        for a, b, t in sorted(self.edits):
            if a < pos:
                raise RuntimeError("overlapping edits")
            out.append(self.src(pos, a))
            out.append(t)
            pos = b
        out.append(self.src(pos, len(self.raw)))
        tail = ""
        if self.static_threads:
            tail += (f"__attribute__((constructor)) static void __upcc_require_threads(void) "
                     f"{{ upcemu_require_threads({self.static_threads}, \"{self.filename}\"); }}\n")
        return OUTPUT_PRELUDE + "".join(out) + "\n# 1 \"<upcc: generated>\"\n" + "".join(self.appendix) + tail

    # ---- declarations ----
    def is_shared_object(self, c):
        return self.top_as(c.type) > 0 and not self.is_sptr(c.type) or (
            self.is_sptr(c.type) and "address_space" in c.type.get_canonical().spelling.rsplit("*", 1)[-1])

    def storage(self, c):
        toks = [t.spelling for t in c.get_tokens()]
        name_at = toks.index(c.spelling) if c.spelling in toks else len(toks)
        return [t for t in toks[:name_at] if t in ("static", "extern")]

    def declare_objects(self, group, file_scope, func=None):
        texts = []
        for c in group:
            f, line = self.where(c)
            k = self.top_as(c.type)
            block, cons = self.layout(k)
            toks = list(c.get_tokens())
            spell = [t.spelling for t in toks]
            # the dimensions: bracket groups after the name
            dims = []
            try:
                at = next(i for i, t in enumerate(toks) if t.spelling == c.spelling
                          and t.extent.start.offset == c.location.offset)
            except StopIteration:
                at = spell.index(c.spelling)
            j = at + 1
            init = None
            while j < len(toks):
                if spell[j] == "[":
                    depth, q = 0, j
                    while q < len(toks):
                        depth += spell[q] == "["
                        depth -= spell[q] == "]"
                        if depth == 0:
                            break
                        q += 1
                    dims.append(self.src(toks[j].extent.end.offset, toks[q].extent.start.offset).strip())
                    j = q + 1
                elif spell[j] == "=":
                    init = self.src(toks[j].extent.end.offset, c.extent.end.offset).strip()
                    break
                else:
                    j += 1
            if not self.static_threads and sum("__upcc_THREADS" in d for d in dims) > 1:
                raise UpcError(f, line, f"THREADS appears in more than one dimension of shared array "
                                        f"'{c.spelling}'; with a dynamic THREADS (no -T) it may appear in "
                                        f"one dimension only")
            if block not in ("0", "1", "*") and not self.is_array(c.type) and False:
                pass
            elem_t = c.type
            while self.is_array(elem_t):
                elem_t = elem_t.get_canonical().element_type if elem_t.get_canonical().kind != ci.TypeKind.POINTER else elem_t
            elem = self.ctype(elem_t)
            base = (func + "_" if func else "") + c.spelling
            if func:  # two blocks of one function may each have a static `x`
                self.local_count = getattr(self, "local_count", 0) + 1
                base += f"_{self.local_count}"
            # the generated code at file scope names the element type: a struct defined
            # in the function gets a file-scope copy under a tag of its own
            elem_out = self.hoist_local_record(elem_t, base) if func else elem
            cname = "__upcc_o_" + base
            self.objects[c.get_usr()] = SharedObject(c.spelling, cname, elem, dims, block, cons)
            stor = self.storage(c)
            if "extern" in stor:
                texts.append(("extern ", cname))
                continue
            texts.append(("static " if "static" in stor or func else "", cname))
            if init is not None and dims and dims[0] == "":
                # the first dimension taken from the initialiser (clang completed the type)
                n0 = c.type.get_canonical().get_array_size()
                if n0 < 0:
                    raise UpcError(f, line, f"shared array '{c.spelling}': cannot tell its size from the initialiser")
                dims[0] = str(n0)
            count = " * ".join(f"(size_t)({d})" for d in dims) if dims else "1"
            if any(d == "" for d in dims):
                raise UpcError(f, line, f"shared array '{c.spelling}' needs a size in every dimension")
            fq = f.replace("\\", "\\\\").replace('"', '\\"')
            tname = elem.replace('"', "")
            self.appendix.append(
                f"static size_t __upcc_n_{base}(void) {{ return {count}; }}\n"
                f"__attribute__((constructor)) static void __upcc_d_{base}(void) {{ upcemu_declare(&{cname}, "
                f"sizeof({elem_out}), {self.block_expr(block)}, __upcc_n_{base}, \"{tname}\", \"{fq}\", {line}, "
                f"(const void *)0); }}\n")
            if init is not None:
                self.appendix.append(self.initializer(c, base, cname, elem_out, dims, f, line))
        first = group[0]
        decl = ", ".join(c for _, c in texts)
        text = f"{texts[0][0]}upcemu_object {decl}"
        text += "\n" * self.src(first.extent.start.offset, group[-1].extent.end.offset).count("\n")
        if file_scope:
            self.edits.append((first.extent.start.offset, group[-1].extent.end.offset, text))
        return text

    def hoist_local_record(self, elem_t, base):
        """The element type's spelling for the generated file-scope code of a static
        shared object declared in a function: when the type is a struct or union
        defined in a function (`static shared struct S {...} s[N];`), a copy of its
        definition under the tag `__upcc_local_<base>` goes before the function
        (self.prefix) and that tag is returned; otherwise the type's own spelling."""
        t = elem_t.get_canonical()
        decl = t.get_declaration()
        if t.kind != ci.TypeKind.RECORD or decl is None or not decl.is_definition():
            return self.ctype(elem_t)
        p = decl.semantic_parent
        while p is not None and p.kind not in (K.FUNCTION_DECL, K.TRANSLATION_UNIT):
            p = p.semantic_parent
        if p is None or p.kind != K.FUNCTION_DECL:
            return self.ctype(elem_t)
        kw = "union" if decl.kind == K.UNION_DECL else "struct"
        tag = f"__upcc_local_{base}"
        body = self.flatten(self.rw_record(decl))
        body = AS_RE.sub("", body[body.index("{"):])
        self.prefix.append(f"{kw} {tag} {body}; ")
        return f"{kw} {tag}"

    # ---- declarations with several declarators, pointers-to-shared, typedefs ----
    QUALS = ("const", "volatile", "restrict", "__restrict", "__restrict__")
    STORAGE = ("typedef", "static", "extern", "register", "_Thread_local", "__thread", "inline", "__inline",
               "__inline__", "_Noreturn")

    def _name_index(self, c, toks):
        for i, t in enumerate(toks):
            if t.spelling == c.spelling and t.extent.start.offset == c.location.offset:
                return i
        return None

    def declarator_start(self, c):
        """Offset where the declarator of c begins (after the specifiers)."""
        toks = list(c.get_tokens())
        at = self._name_index(c, toks)
        if at is None:
            return c.location.offset
        j = at
        while j > 0:
            t = toks[j - 1].spelling
            if t in ("*", "(") or t in self.QUALS:
                j -= 1
                continue
            # __attribute__((address_space(K))): 9 tokens ending at j-1
            if t == ")" and j >= 9 and toks[j - 9].spelling == "__attribute__" and \
                    toks[j - 6].spelling == "address_space":
                j -= 9
                continue
            break
        # a qualifier or address space not after a '*' belongs to the specifiers
        while j < at and toks[j].spelling not in ("*", "("):
            j += 9 if toks[j].spelling == "__attribute__" else 1
        return toks[min(j, at)].extent.start.offset

    def base_is_shared(self, c, spec_end, start=None, extra=()):
        """Whether the declaration's specifiers name a shared (non-pointer) type."""
        start = c.extent.start.offset if start is None else start
        text = self.raw[start:spec_end]
        for k in list(c.get_children()) + list(extra):  # a struct defined in the specifiers: its members do not count
            if k.kind in (K.STRUCT_DECL, K.UNION_DECL) and start <= k.extent.start.offset and \
                    k.extent.end.offset <= spec_end:
                a, b = k.extent.start.offset - start, k.extent.end.offset - start
                text = text[:a] + b" " * (b - a) + text[b:]
        if AS_RE.search(text.decode()):
            return True
        for k in c.get_children():
            if k.kind == K.TYPE_REF and k.extent.start.offset < spec_end and k.referenced is not None and \
                    k.referenced.kind == K.TYPEDEF_DECL:
                u = k.referenced.underlying_typedef_type
                if self.top_as(u) > 0 and not self.is_sptr(u):
                    return True
        return False

    def gen_range(self, cursors, a, b):
        """The text [a, b) with the rewrites of the cursors' children inside it."""
        kids = []
        for c in cursors:
            kids += list(c.get_children())
        return self.splice(kids, a, b)

    def splice(self, kids, a, b):
        """The text [a, b) with each of `kids` inside it (in source order: an
        attribute such as an __asm__ label comes first among a cursor's children)
        replaced by its rewrite, where it has one."""
        out, pos = [], a
        for k in sorted(kids, key=lambda k: k.extent.start.offset):
            ka, kb = k.extent.start.offset, k.extent.end.offset
            if ka < pos or kb > b or kb <= ka:
                continue
            t = self.rw(k)
            if t is None:
                continue
            out.append(self.src(pos, ka))
            out.append(t)
            pos = kb
        out.append(self.src(pos, b))
        return "".join(out)

    def rw_decls(self, group, file_scope, outer=None, extra=()):
        """One declaration (VAR_DECLs, TYPEDEF_DECLs or FIELD_DECLs sharing their
        specifiers): each declarator translated; split into one declaration per
        declarator when the specifiers are shared (pointers-to-shared become
        upcemu_sptr, shared objects upcemu_object)."""
        first = group[0]
        # outer: a block-scope DECL_STMT whose specifiers define a struct (extra): the
        # VAR_DECLs' extents begin after the struct there, the statement's at its start
        start = first.extent.start.offset if outer is None else outer.extent.start.offset
        spec_end = self.declarator_start(first)
        shared_base = self.base_is_shared(first, spec_end, start, extra)
        if not shared_base and not any(self.is_shared_object(c) for c in group
                                       if c.kind == K.VAR_DECL):
            text = self.gen_range(group, start, max(c.extent.end.offset for c in group))
            if first.kind == K.VAR_DECL and self.wants_tls(first):
                text = "_Thread_local " + text
            if first.kind == K.VAR_DECL and len(group) == 1:
                text = self.private_init(first, text)
            if first.kind == K.TYPEDEF_DECL:
                text = AS_RE.sub("", text)
            return text
        spec_words = [t.spelling for t in (outer or first).get_tokens()
                      if start <= t.extent.start.offset < spec_end]
        storage = [w for w in spec_words if w in self.STORAGE]
        spec_plain = AS_RE.sub("", self.gen_range([first], start, spec_end))
        parts, prefix_parts = [], []
        # a struct/union defined in the specifiers (`shared struct S {...} s[THREADS];`):
        # defined on its own first (an unnamed one gets a tag), then named by its tag
        rec = next((k for k in list(first.get_children()) + list(extra) if k.kind in (K.STRUCT_DECL, K.UNION_DECL) and
                    k.is_definition() and start <= k.extent.start.offset and k.extent.end.offset <= spec_end), None)
        if rec is not None and first.kind == K.VAR_DECL:
            kw = "union" if rec.kind == K.UNION_DECL else "struct"
            deftext = self.rw(rec)
            if rec.is_anonymous() or not rec.spelling or "(" in rec.spelling:
                self.anon_count = getattr(self, "anon_count", 0) + 1
                tag = f"__upcc_anon_{self.anon_count}"
                deftext = re.sub(r"^\s*" + kw + r"\b", f"{kw} {tag}", deftext, count=1)
                self.anon_names[AS_RE.sub("", rec.type.get_canonical().spelling).strip()] = f"{kw} {tag}"
            else:
                tag = rec.spelling
            parts.append(self.flatten(deftext))
            spec_plain = AS_RE.sub("", self.gen_range([first], start, rec.extent.start.offset) + f"{kw} {tag}" +
                                   self.gen_range([first], rec.extent.end.offset, spec_end))
        prev_end = None
        for c in group:
            if prev_end is None:
                dstart = spec_end
            else:
                # after the comma that ends the previous declarator (a later declarator's
                # extent starts at its name at block scope, at the specifiers at file scope)
                seg = re.sub(rb"(?m)^[ \t]*#[^\n]*", lambda m: b" " * len(m.group()),
                             self.raw[prev_end:c.location.offset])
                comma = seg.find(b",")
                dstart = prev_end + comma + 1 if comma >= 0 else prev_end
            dend = c.extent.end.offset
            prev_end = dend
            if c.kind == K.VAR_DECL and self.is_shared_object(c):
                f, line = self.where(c)
                if "static" not in storage and "extern" not in storage and not file_scope:
                    self.error(c, f"a shared variable declared in a function must be static "
                                  f"(UPC has no automatic shared objects)")
                # a block-scope `extern shared` names the file-scope object
                text = self.declare_objects([c], file_scope=False, func=None if file_scope or
                                            "extern" in storage else (self.current_function or "f"))
                if file_scope:
                    parts.append(text.strip())
                else:
                    self.prefix.append(text.replace("\n", " ") + ";")
                continue
            if c.kind == K.FIELD_DECL and self.top_as(c.type) > 0 and not self.is_sptr(c.type):
                self.error(c, f"the member '{c.spelling}' cannot be shared (a struct is shared as a whole)")
            decl = self.gen_range([c], dstart, dend)
            if shared_base and "*" in self.src(dstart, c.location.offset):
                # the leftmost '*' is the pointer to the shared base: upcemu_sptr
                decl = self.strip_sptr_stars(decl)
                decl = AS_RE.sub("", decl)
                decl = self.drop_row_dims(decl, c.spelling)
                tls = "_Thread_local " if c.kind == K.VAR_DECL and self.wants_tls(c) else ""
                parts.append(self.private_init(c, " ".join(storage) + (" " if storage else "") + tls +
                                               "upcemu_sptr " + decl.strip()))
            else:
                tls = "_Thread_local " if c.kind == K.VAR_DECL and self.wants_tls(c) else ""
                parts.append(self.private_init(c, tls + spec_plain.strip() + " " + AS_RE.sub("", decl).strip()))
        # The declarations on one line, then the range's line structure (its line
        # markers included, e.g. those around a NULL from a system header) kept.
        lines = self.src(start, max(c.extent.end.offset for c in group)).split("\n")[1:]
        tail = "".join("\n" + (ln if re.match(r"\s*#", ln) else "") for ln in lines)
        if not parts:
            return ("/* shared static: see __upcc_o_ */" if not file_scope else "") + tail
        return "; ".join(self.flatten(p) for p in parts) + tail

    @staticmethod
    def flatten(text):
        """text on one line: its line markers dropped (rw_decls keeps them after it)."""
        return re.sub(r"(?m)^[ \t]*#[^\n]*$", "", text).replace("\n", " ")

    STAR_RE = re.compile(r"\*\s*((?:(?:const|volatile|restrict|__restrict|__restrict__)\s*|"
                         r"__attribute__\(\(address_space\(\d+\)\)\)\s*)*)")

    def strip_sptr_stars(self, decl):
        """The declarator of a pointer to a shared base without the stars that the
        upcemu_sptr stands for: the first, and each further one whose pointee is
        shared (the star before it carries an address space): `*shared *p` (a
        private pointer to a shared pointer-to-shared) is one upcemu_sptr."""
        m = re.match(r"\s*\(?\s*", decl)
        pos, levels = m.end(), []
        while True:
            sm = self.STAR_RE.match(decl, pos)
            if not sm:
                break
            levels.append((sm.start(), sm.end(), "address_space" in sm.group(1)))
            pos = sm.end()
        if not levels:
            return decl
        cut = 1
        for i, (_, _, shared) in enumerate(levels[:-1]):
            if shared:
                cut = i + 2
        return decl[:levels[0][0]] + decl[levels[cut - 1][1]:]

    @staticmethod
    def drop_row_dims(decl, name):
        """A declarator of a pointer to an array of shared, its star already gone
        (`(p)[N] = a`, `(pa[3])[N]`): the whole pointer is one upcemu_sptr, so the
        parentheses and the row's dimensions after them go (`p = a`, `pa[3]`)."""
        m = re.match(r"\s*\(\s*" + re.escape(name) + r"\b", decl)
        if not m:
            return decl
        pos, depth = m.end(), 0
        while pos < len(decl):  # the name's own dimensions, up to the ')'
            ch = decl[pos]
            depth += ch in "(["
            depth -= ch in ")]"
            if depth < 0:
                break
            pos += 1
        if pos >= len(decl):
            return decl
        inner = decl[m.start():pos].replace("(", "", 1).strip()
        q = pos + 1
        dims = re.compile(r"\s*\[")
        found = False
        while True:
            dm = dims.match(decl, q)
            if not dm:
                break
            depth, r = 0, dm.end() - 1
            while r < len(decl):
                depth += decl[r] in "(["
                depth -= decl[r] in ")]"
                r += 1
                if depth == 0:
                    break
            q, found = r, True
        if not found:
            return decl
        return decl[:m.start()] + inner + decl[q:]

    def has_sptr(self, t):
        """Whether a value of type t holds a pointer-to-shared (itself, an element, a member)."""
        c = t.get_canonical()
        if self.is_sptr(c):
            return True
        if c.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            return self.has_sptr(c.element_type)
        if c.kind == ci.TypeKind.RECORD:
            return any(self.has_sptr(f.type) for f in c.get_fields())
        return False

    def private_init(self, c, text):
        """A private variable with static storage holding a pointer-to-shared and
        initialised with an address (`shared int *p = &x[0];`): the translated value
        is a call, not a C constant. At file scope the declaration keeps no
        initialiser and a function, registered by a constructor with
        upcemu_private_initializer, sets each thread's copy before main; a static
        in a function is set when its declaration is first reached on each thread."""
        if c.kind != K.VAR_DECL or not self.has_sptr(c.type) or self.is_system(c) or \
                self.from_upcc_header(c) or "extern" in self.storage(c):
            return text
        file_scope = c.semantic_parent is not None and c.semantic_parent.kind == K.TRANSLATION_UNIT
        if not file_scope and "static" not in self.storage(c):
            return text
        m = re.search(r"\b" + re.escape(c.spelling) + r"\b", text)
        if not m:
            return text
        depth, eq = 0, None
        for i in range(m.end(), len(text)):
            ch = text[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == "=" and depth == 0 and text[i + 1:i + 2] != "=":
                eq = i
                break
        if eq is None:
            return text
        decl, init = text[:eq].rstrip(), text[eq + 1:].strip()
        if not re.search(r"\bupcemu_\w+\s*\(", init):
            return text  # a C constant (a null pointer-to-shared)
        n = c.type.get_canonical().get_array_size() if self.is_array(c.type) else -1
        if n >= 0:
            decl = decl[:m.end()] + re.sub(r"\[\s*\]", f"[{n}]", decl[m.end():], count=1)
        self.pinit_count = getattr(self, "pinit_count", 0) + 1
        k, v = self.pinit_count, c.spelling
        body = (f"__typeof__({v}) __upcc_pv = {init}; "
                f"__builtin_memcpy((void *)&{v}, &__upcc_pv, sizeof {v});")
        if file_scope:
            self.appendix.append(
                f"static void __upcc_pi_{k}(void) {{ {body} }}\n"
                f"__attribute__((constructor)) static void __upcc_pr_{k}(void) {{ "
                f"upcemu_private_initializer(__upcc_pi_{k}); }}\n")
            return decl
        return (f"{decl}; static _Thread_local int __upcc_pg_{k}; "
                f"if (!__upcc_pg_{k}) {{ __upcc_pg_{k} = 1; {body} }}")

    def wants_tls(self, c):
        scope = c.semantic_parent.kind if c.semantic_parent else None
        stor = self.storage(c)
        return (scope == K.TRANSLATION_UNIT or "static" in stor) and not self.is_system(c) and \
            not c.type.is_const_qualified() and not self.from_upcc_header(c) and not self.is_shared_object(c)

    def rw_record(self, c):
        """A struct/union: its fields declared with pointer-to-shared types."""
        kids = list(c.get_children())
        out, pos = [], c.extent.start.offset
        i = 0
        while i < len(kids):
            k = kids[i]
            ka = k.extent.start.offset
            if ka < pos:
                i += 1
                continue
            if k.kind == K.FIELD_DECL:
                group = [k]
                while i + 1 < len(kids) and kids[i + 1].kind == K.FIELD_DECL and \
                        kids[i + 1].extent.start.offset == ka:
                    i += 1
                    group.append(kids[i])
                kb = max(g.extent.end.offset for g in group)
                t = self.rw_decls(group, file_scope=False)
            else:
                kb = k.extent.end.offset
                t = self.rw(k)
            out.append(self.src(pos, ka))
            out.append(t)
            pos = kb
            i += 1
        out.append(self.src(pos, c.extent.end.offset))
        return "".join(out)

    def initializer(self, c, base, cname, elem, dims, f, line):
        """The initialiser of a shared object (UPC 1.3: static shared objects may be
        initialised; it happens once, before the program runs): a function that
        builds the value privately (so pointers-to-shared to other objects may
        appear) and copies it element by element, registered by a constructor;
        thread 0 runs it at the start of the run (upcemu_run_initializers)."""
        if dims:
            inner = dims[1:]
            if not self.static_threads and any("__upcc_THREADS" in d for d in inner):
                raise UpcError(f, line, f"the initialiser of shared array '{c.spelling}' needs a static THREADS "
                                        f"(upcc -T N): THREADS is in an inner dimension")
            shape = "[]" + "".join(f"[{d}]" for d in inner)
        else:
            shape = ""
        value = self.rw_text_init(c)
        return (f"static void __upcc_init_{base}(void) {{ {elem} __upcc_v{shape} = {value}; "
                f"upcemu_init_elems(&{cname}, &__upcc_v, sizeof(__upcc_v) / sizeof({elem}), sizeof({elem})); }}\n"
                f"__attribute__((constructor)) static void __upcc_r_{base}(void) {{ "
                f"upcemu_initializer(__upcc_init_{base}); }}\n")

    def rw_text_init(self, c):
        kids = [k for k in c.get_children() if k.kind.is_expression()]
        return self.rw(kids[-1]) if kids else "0"

    # ---- expressions and statements ----
    def generic(self, c):
        return self.splice(list(c.get_children()), c.extent.start.offset, c.extent.end.offset)

    def op_between(self, c, left, right):
        between = self.src(left.extent.end.offset, right.extent.start.offset)
        between = re.sub(r"(?m)^\s*#[^\n]*$", "", between)  # line markers inside a macro expansion
        return between.strip().strip("()").strip()

    def strip(self, c):
        while c.kind in IMPLICIT:
            kids = list(c.get_children())
            if len(kids) != 1:
                break
            c = kids[0]
        return c

    def is_strict(self, c):
        """Whether the shared lvalue c is accessed strictly: its type says strict or
        relaxed, else the `#pragma upc` in effect where the access is."""
        k = self.top_as(c.type)
        if not k:
            return False
        cons = self.layout(k)[1]
        if cons is None:
            off = c.extent.start.offset
            cons = "relaxed"
            for at, state in self.pragmas:
                if at > off:
                    break
                cons = state
        return cons == "strict"

    def dim_text(self, d):
        return d

    def tmp(self):
        self.tmp_count = getattr(self, "tmp_count", 0) + 1
        return f"__upcc_t{self.tmp_count}"

    def access(self, c, sptr_text):
        """A read (or, relaxed, any use) of the shared lvalue c. A strict read is
        fenced before and after (UPC 1.3 §5.1.2.3: ordered against every shared
        access of the thread); strict writes are translated by strict_update."""
        t = f"__typeof__({self.ctype(c.type)})"  # a pointer type's volatile must follow its '*'
        if self.is_strict(c):
            v = self.tmp()
            return (f"({{ upcemu_fence(); {t} {v} = *({t} volatile *)upcemu_addr({sptr_text}, sizeof({t}), "
                    f"__FILE__, __LINE__); upcemu_fence(); {v}; }})")
        return f"(*({t} volatile *)upcemu_addr({sptr_text}, sizeof({t}), __FILE__, __LINE__))"

    def strict_update(self, lv, op, right=None, prefix=True):
        """A strict write: `lv op right` (op '=' or 'X='), or ++/-- (right None),
        fenced before and after."""
        t = f"__typeof__({self.ctype(lv.type)})"
        s, a, v = self.tmp(), self.tmp(), self.tmp()
        head = f"upcemu_sptr {s} = {self.sptr_of(lv)}; "
        if right is not None:
            r = self.tmp()
            head += f"__typeof__({self.rw(right)}) {r} = ({self.rw(right)}); "
            expr = f"(*{a} {op} {r})"
        else:
            expr = f"({op}*{a})" if prefix else f"((*{a}){op})"
        return (f"({{ {head}upcemu_fence(); {t} volatile *{a} = ({t} volatile *)upcemu_addr({s}, sizeof({t}), "
                f"__FILE__, __LINE__); {t} {v} = {expr}; upcemu_fence(); {v}; }})")

    def sptr_of(self, c):
        """upcemu_sptr text for the shared lvalue c."""
        if c.kind in IMPLICIT:
            kids = list(c.get_children())
            if len(kids) == 1:
                return self.sptr_of(kids[0])
        if c.kind == K.DECL_REF_EXPR:
            obj = self.objects.get(c.referenced.get_usr())
            if obj is None:
                self.error(c, f"'{c.spelling}' is shared, but upcc has not seen its declaration")
            return f"upcemu_base(&{obj.cname})"
        if c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            idx, node = [], c
            while node.kind == K.ARRAY_SUBSCRIPT_EXPR:
                base, i = list(node.get_children())
                idx.append(i)
                node = self.strip(base)
                if node.kind == K.DECL_REF_EXPR and node.referenced.get_usr() in self.objects and \
                        self.is_array(node.type):
                    obj = self.objects[node.referenced.get_usr()]
                    idx.reverse()
                    terms = []
                    for level, e in enumerate(idx):
                        rest = obj.dims[level + 1:]
                        mul = "".join(f" * (ptrdiff_t)({d})" for d in rest)
                        terms.append(f"(ptrdiff_t)({self.rw(e)}){mul}")
                    if obj.block == "*":  # [*]: the block is known only when the run starts
                        return f"upcemu_elem(&{obj.cname}, {' + '.join(terms)}, sizeof({obj.ctype}))"
                    # The declared block as a constant: the element arithmetic's divisions by it
                    # become shifts or vanish (measured: 1.5-1.9x on element loops otherwise).
                    return (f"upcemu_add(upcemu_base(&{obj.cname}), {' + '.join(terms)}, sizeof({obj.ctype}), "
                            f"{self.block_expr(obj.block)})")
                if node.kind != K.ARRAY_SUBSCRIPT_EXPR:
                    break
            base, i = list(c.get_children())
            inner = self.strip(base)
            if self.is_array(inner.type) and self.member_array(inner):
                # An array member of a shared struct (`s.a[i]`, `p->a[i][j]`, `p[k].a[i]`):
                # the struct lies whole on one thread, so its arrays are contiguous there
                # and an index steps bytes within the struct, not threads.
                elem = self.ctype(c.type)
                return (f"upcemu_field({self.sptr_of(inner)}, "
                        f"(size_t)((ptrdiff_t)({self.rw(i)}) * (ptrdiff_t)sizeof({elem})))")
            if not self.is_sptr(base.type):
                self.error(c, "indexing a shared array this way is not supported yet")
            elem, block, _ = self.arith_info(c, base.type)
            k = self.arith_scale(base.type)
            return (f"upcemu_add({self.rw(base)}, (ptrdiff_t)({self.rw(i)}){f' * {k}' if k != 1 else ''}, "
                    f"sizeof({elem}), {block})")
        if c.kind == K.UNARY_OPERATOR:
            (op,) = list(c.get_children())
            return self.rw(op)
        if c.kind == K.MEMBER_REF_EXPR:
            (base,) = list(c.get_children())
            arrow = self.src(base.extent.end.offset, c.extent.end.offset).lstrip().startswith("->")
            p = self.rw(base) if arrow else self.sptr_of(base)
            rec = self.pointee(base.type) if arrow else base.type
            return f"upcemu_field({p}, __builtin_offsetof({self.ctype(rec)}, {c.spelling}))"
        self.error(c, f"upcc does not translate this shared expression yet ({c.kind.name})")

    def member_array(self, c):
        """Whether the array-typed expression c is (an element of) an array member
        of a struct: `s.a`, `p->a`, `s.a[i]` for a 2-D member."""
        while c.kind == K.ARRAY_SUBSCRIPT_EXPR and self.is_array(c.type):
            c = self.strip(list(c.get_children())[0])
        # the member itself an array: a member that points to rows (`v.rows[i][j]`,
        # `shared int (*rows)[N]`) indexes through the pointer instead
        return c.kind == K.MEMBER_REF_EXPR and self.is_array(c.type)

    def is_shared_lvalue(self, c):
        return c.kind in (K.DECL_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR, K.MEMBER_REF_EXPR, K.UNARY_OPERATOR) and \
            self.top_as(c.type) > 0 and not (c.kind == K.DECL_REF_EXPR and c.referenced.kind != K.VAR_DECL)

    conds = None

    def mark_conditions(self, c, k):
        """Remember the extents of the operands that C reads as truth values (an if,
        while, do or for condition, the operands of && and ||, the first of ?:): a
        pointer-to-shared there is compared against the null pointer-to-shared."""
        if self.conds is None:
            self.conds, self.cond_busy = set(), set()
        kids = list(c.get_children())
        picked = []
        if k == K.IF_STMT or k == K.WHILE_STMT or k == K.CONDITIONAL_OPERATOR:
            picked = [x for x in kids if x.kind.is_expression()][:1]
        elif k == K.DO_STMT:
            picked = [x for x in kids if x.kind.is_expression()][-1:]
        elif k == K.FOR_STMT:
            for x in kids[:-1]:
                head = self.src(c.extent.start.offset, x.extent.start.offset)
                if x.kind.is_expression() and head.count(";") == 1 and head.rstrip().endswith(";"):
                    picked = [x]
        elif k == K.BINARY_OPERATOR and len(kids) == 2 and \
                self.op_between(c, kids[0], kids[1]) in ("&&", "||"):
            picked = kids
        for x in picked:
            if self.is_sptr(x.type):
                self.conds.add((x.extent.start.offset, x.extent.end.offset))

    def rw(self, c):
        k = c.kind
        if k in (K.IF_STMT, K.WHILE_STMT, K.DO_STMT, K.FOR_STMT, K.CONDITIONAL_OPERATOR,
                 K.BINARY_OPERATOR):
            self.mark_conditions(c, k)
        if self.conds and c.kind.is_expression():
            key = (c.extent.start.offset, c.extent.end.offset)
            if key in self.conds and key not in self.cond_busy and self.is_sptr(c.type):
                self.cond_busy.add(key)
                try:
                    return f"(!upcemu_sptr_isnull({self.rw(c)}))"
                finally:
                    self.cond_busy.discard(key)
        # ---- declarations ----
        if k == K.VAR_DECL:
            return self.rw_var(c)
        if k == K.PARM_DECL:
            if self.is_sptr(c.type):
                if c.spelling:
                    return "upcemu_sptr " + c.spelling
                return "upcemu_sptr"
            text = self.generic(c)
            star = text.find("*")
            if star > 0 and AS_RE.search(text[:star]):
                # a pointer to a pointer-to-shared (`shared T **z`, `shared T *z[]`,
                # rewritten `(*z)` by the prepass): the first star is the upcemu_sptr
                return "upcemu_sptr " + AS_RE.sub("", self.strip_sptr_stars(text[star:])).strip()
            return text
        if k == K.FUNCTION_DECL:
            return self.rw_function(c)
        if k == K.DECL_STMT:
            kids = list(c.get_children())
            # `static shared struct S {...} s[N];`: the struct is defined inside the
            # declaration, which translates it (rw_decls)
            if len(kids) >= 2 and kids[0].kind in (K.STRUCT_DECL, K.UNION_DECL) and kids[0].is_definition() \
                    and all(v.kind in (K.VAR_DECL, K.TYPEDEF_DECL) and
                            v.extent.start.offset >= kids[0].extent.end.offset for v in kids[1:]) and \
                    self.base_is_shared(kids[1], self.declarator_start(kids[1]), c.extent.start.offset, kids[:1]):
                # (the VAR_DECLs' extents begin after the struct at block scope)
                b = max(v.extent.end.offset for v in kids[1:])
                return (self.rw_decls(kids[1:], file_scope=False, outer=c, extra=kids[:1]) +
                        self.src(b, c.extent.end.offset))
            if kids and all(v.kind in (K.VAR_DECL, K.TYPEDEF_DECL) for v in kids):
                a, b = kids[0].extent.start.offset, max(v.extent.end.offset for v in kids)
                return (self.src(c.extent.start.offset, a) + self.rw_decls(kids, file_scope=False) +
                        self.src(b, c.extent.end.offset))
            return self.generic(c)
        if k in (K.STRUCT_DECL, K.UNION_DECL):
            return self.rw_record(c)
        if k == K.CXX_UNARY_EXPR:
            text = self.src(c.extent.start.offset, c.extent.end.offset)
            if text.lstrip().startswith("sizeof"):
                kids = [x for x in c.get_children() if x.kind.is_expression()]
                e = self.strip(kids[0]) if kids else None
                if e is not None and self.top_as(e.type) > 0 and self.is_array(e.type):
                    obj = self.object_in(e)
                    if obj is not None and e.kind == K.DECL_REF_EXPR:
                        n = " * ".join(f"(size_t)({self.dim_text(d)})" for d in obj.dims)
                        return f"((size_t)({n}) * sizeof({obj.ctype}))"
                if e is not None and self.top_as(e.type) > 0:
                    return f"sizeof({self.ctype(e.type)})"
                m = re.fullmatch(r"\s*sizeof\s*\((.*)\)\s*", text, re.S)
                if e is None and m and AS_RE.search(m.group(1)):
                    stars = m.group(1).count("*")  # a type name: shared T *, shared T **, ...
                    if stars == 1 and "(" not in AS_RE.sub("", m.group(1)):
                        return "sizeof(upcemu_sptr)"
                    if stars > 1:
                        return "sizeof(void *)"
                return AS_RE.sub("", self.generic(c))
            return self.generic(c)
        if k == K.FOR_STMT:
            aff = self.forall_affinity(c)
            if aff is not None:
                self.forall_depth = getattr(self, "forall_depth", 0) + 1
                try:
                    body = self.generic(c)
                finally:
                    self.forall_depth -= 1
                controlling = "1" if list(aff.get_arguments()) else "0"
                # a once-loop around the for: no brace to close after the body
                return ("for (int __upcc_fl __attribute__((cleanup(upcemu_forall_leave))) = "
                        f"upcemu_forall_enter({controlling}), __upcc_once = 1; __upcc_once; __upcc_once = 0) "
                        + body)
            return self.generic(c)
        # ---- expressions ----
        if k == K.CALL_EXPR and c.spelling.startswith("__upcc_"):
            return self.rw_marker(c)
        if k == K.UNARY_OPERATOR:
            return self.rw_unary(c)
        if k == K.BINARY_OPERATOR or k == K.COMPOUND_ASSIGNMENT_OPERATOR:
            return self.rw_binary(c)
        if k == K.CSTYLE_CAST_EXPR:
            kids = [x for x in c.get_children() if x.kind.is_expression()]
            if kids:
                src = kids[-1]
                if self.is_sptr(c.type):
                    if self.is_sptr(src.type):
                        return "(" + self.convert(self.rw(src), src.type, c.type) + ")"
                    return "((upcemu_sptr){0, 0, 0})"
                if self.is_sptr(src.type) and c.type.get_canonical().kind == ci.TypeKind.POINTER:
                    return (f"(({self.ctype(c.type)})upcemu_local_of({self.rw(src)}, __FILE__, __LINE__))")
        if k == K.UNEXPOSED_EXPR:
            kids = list(c.get_children())
            if len(kids) == 1 and self.is_sptr(c.type) and not self.is_sptr(kids[0].type) \
                    and not self.is_array(kids[0].type) and self.top_as(kids[0].type) == 0:
                return "((upcemu_sptr){0, 0, 0})"  # a null pointer constant
            if len(kids) == 1 and self.is_sptr(c.type) and self.is_array(kids[0].type) and \
                    self.top_as(kids[0].type) > 0:
                return self.sptr_of(kids[0])  # array decays to a pointer-to-shared
            if len(kids) == 1 and self.is_sptr(c.type) and self.is_sptr(kids[0].type):
                return self.convert(self.rw(kids[0]), kids[0].type, c.type)  # implicit, e.g. to shared void *
        if k == K.ARRAY_SUBSCRIPT_EXPR and self.top_as(c.type) > 0:
            if self.is_array(c.type):
                return self.sptr_of(c)
            return self.access(c, self.sptr_of(c))
        if k in (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR) and self.is_shared_lvalue(c):
            if self.is_array(c.type):
                return self.sptr_of(c)
            return self.access(c, self.sptr_of(c))
        return self.generic(c)

    current_function = None
    prefix = []

    def rw_function(self, c):
        saved = self.current_function, self.prefix
        self.current_function, self.prefix = c.spelling, []
        text = self.generic(c)
        name_off = c.location.offset - c.extent.start.offset
        head, rest = text[:name_off], text[name_off:]
        if self.is_sptr(c.result_type):
            keep = [w for w in head.split() if w in ("static", "extern", "inline", "__inline", "__inline__")]
            head = " ".join(keep + ["upcemu_sptr "])
        if c.spelling == "main" and c.is_definition():
            # main is renamed, so C99 5.1.2.2.3's return 0 at its closing brace is lost: say it
            end = rest.rstrip().rfind("}")
            if end > 0:
                rest = rest[:end] + "return 0; }" + rest[end + 1:]
            params = [p for p in c.get_arguments()]
            if params:
                rest = "upcemu_c_program_main" + rest[4:]
            else:
                rest = "__upcc_user_main" + rest[4:]
                self.appendix.append("int upcemu_c_program_main(int argc, char **argv) "
                                     "{ (void)argc; (void)argv; return __upcc_user_main(); }\n")
        text = "".join(self.prefix) + head + rest
        self.current_function, self.prefix = saved
        return text

    def rw_var(self, c):
        text = self.generic(c)
        if self.is_sptr(c.type):
            name_off = c.location.offset - c.extent.start.offset
            head = text[:name_off]
            keep = [w for w in head.split() if w in ("static", "extern", "register", "_Thread_local", "__thread")]
            text = " ".join(keep + ["upcemu_sptr "]) + text[name_off:]
        scope = c.semantic_parent.kind if c.semantic_parent else None
        stor = self.storage(c)
        file_scope = scope == K.TRANSLATION_UNIT
        if (file_scope or "static" in stor) and not self.is_system(c) and \
                not c.type.is_const_qualified() and not self.from_upcc_header(c):
            text = "_Thread_local " + text
        return self.private_init(c, text)

    def from_upcc_header(self, c):
        f, _ = self.where(c)
        if os.path.basename(f) == "upcemu_c.h":
            return True
        return os.path.dirname(os.path.abspath(f)) == os.path.abspath(os.path.join(os.path.dirname(__file__), "..",
                                                                                      "include"))

    def forall_affinity(self, c):
        """The __upcc_forall_aff call of a translated upc_forall (a for whose body is
        `if (__upcc_forall_aff(d)) S`), or None."""
        kids = list(c.get_children())
        if not kids or kids[-1].kind != K.IF_STMT:
            return None
        cond = self.strip(next(kids[-1].get_children()))
        if cond.kind == K.CALL_EXPR and cond.spelling == "__upcc_forall_aff":
            src = self.src(c.extent.start.offset, kids[-1].extent.start.offset)
            if "__upcc_forall_aff" not in src:
                return cond
        return None

    def object_in(self, c):
        """The shared object a (typeof) operand names, with the type at that
        reference: a[i] of a multi-dimensional object is a row of it."""
        for d in c.walk_preorder():
            if d.kind == K.DECL_REF_EXPR and d.referenced is not None and d.referenced.get_usr() in self.objects:
                return self.objects[d.referenced.get_usr()]
        return None

    def operand_type(self, arg):
        t = arg.type.get_canonical()
        return t.get_pointee() if t.kind == ci.TypeKind.POINTER else t

    def elem_of(self, t):
        while self.is_array(t):
            t = t.get_canonical().element_type
        return t

    def rw_sizeof_op(self, c, op, arg):
        """upc_blocksizeof / upc_elemsizeof / upc_localsizeof (UPC 1.3 §6.5.1-3)."""
        t = self.operand_type(arg)
        k = self.top_as(t)
        if k == 0 and op != "elemsizeof":
            self.error(c, f"upc_{op} needs a shared type or an expression of shared type, not "
                          f"'{self.ctype(t)}'")
        elem = self.ctype(self.elem_of(t))
        whole = self.is_array(t)
        obj = self.object_in(arg) if whole else None
        if obj is not None and len(self.operand_dims(arg, obj)) != len(obj.dims):
            obj = None  # a row of the object: a type-level answer
        if op == "elemsizeof":
            return f"((size_t)sizeof({elem}))"
        block = self.layout(k)[0]
        if op == "blocksizeof":
            if obj is not None:
                return f"((size_t){obj.cname}.block)"
            if block == "*":
                if not whole:
                    return "((size_t)1)"
                self.error(c, "upc_blocksizeof of a shared [*] array type needs the array object itself")
            return f"((size_t){self.block_expr(block)})"
        # localsizeof
        if obj is not None:
            return f"upcemu_localsizeof({obj.cname}.count, {obj.cname}.block, sizeof({elem}))"
        if not whole:
            return f"((size_t)sizeof({elem}))"
        if block == "*":
            self.error(c, "upc_localsizeof of a shared [*] array type needs the array object itself")
        return (f"upcemu_localsizeof(sizeof({self.ctype(t)}) / sizeof({elem}), {self.block_expr(block)}, "
                f"sizeof({elem}))")

    def operand_dims(self, arg, obj):
        t = self.operand_type(arg)
        n = 0
        while self.is_array(t):
            n += 1
            t = t.get_canonical().element_type
        return [None] * n

    def rw_marker(self, c):
        name = c.spelling
        args = [a for a in c.get_arguments()]
        if name in ("__upcc_barrier", "__upcc_notify", "__upcc_wait"):
            fn = "upcemu_" + name[7:]
            if args:
                return f"{fn}(1, (int)({self.rw(args[0])}), __FILE__, __LINE__)"
            return f"{fn}(0, 0, __FILE__, __LINE__)"
        if name in ("__upcc_blocksizeof", "__upcc_elemsizeof", "__upcc_localsizeof"):
            return self.rw_sizeof_op(c, name[7:], args[0])
        if name == "__upcc_fence":
            return "upcemu_fence()"
        if name == "__upcc_forall_aff":
            if not args:
                return "1"
            a = args[0]
            if self.is_sptr(a.type):
                return f"(__upcc_fl || ({self.rw(a)}).thread == (uint32_t)upcemu_mythread())"
            kind = a.type.get_canonical().kind
            if kind in (ci.TypeKind.INT, ci.TypeKind.UINT, ci.TypeKind.LONG, ci.TypeKind.ULONG,
                        ci.TypeKind.LONGLONG, ci.TypeKind.ULONGLONG, ci.TypeKind.SHORT, ci.TypeKind.USHORT,
                        ci.TypeKind.CHAR_S, ci.TypeKind.SCHAR, ci.TypeKind.UCHAR, ci.TypeKind.BOOL,
                        ci.TypeKind.ENUM, ci.TypeKind.CHAR_U):
                return f"(__upcc_fl || upcemu_forall_int({self.rw(a)}))"
            self.error(c, f"upc_forall affinity must be an integer or a pointer-to-shared, "
                          f"not '{self.ctype(a.type)}'")
        self.error(c, f"{name[7:]} is not supported by upcc yet")

    def rw_unary(self, c):
        kids = list(c.get_children())
        if not kids:
            return self.generic(c)
        (op,) = kids
        before = re.sub(r"(?m)^\s*#[^\n]*$", "", self.src(c.extent.start.offset, op.extent.start.offset)).strip()
        after = re.sub(r"(?m)^\s*#[^\n]*$", "", self.src(op.extent.end.offset, c.extent.end.offset)).strip()
        sym = before or after
        if sym == "&" and (self.top_as(op.type) > 0 and not self.is_sptr(op.type) or
                           self.is_shared_lvalue(self.strip(op))):
            return self.sptr_of(op)
        if sym in ("++", "--") and self.top_as(op.type) > 0 and not self.is_array(op.type) and \
                self.is_shared_lvalue(self.strip(op)) and self.is_strict(op) and not self.is_sptr(op.type):
            return self.strict_update(self.strip(op), sym, prefix=bool(before))
        if sym == "*" and self.top_as(c.type) > 0:
            return self.access(c, self.rw(op)) if not self.is_array(c.type) else self.rw(op)
        if sym in ("++", "--") and self.is_sptr(op.type):
            elem, block, _ = self.arith_info(c, op.type)
            k = self.arith_scale(op.type)
            d = str(k) if sym == "++" else str(-k)
            strict = self.top_as(op.type) > 0 and self.is_shared_lvalue(self.strip(op)) and self.is_strict(op)
            if strict:
                # a strict shared pointer-to-shared (`strict shared T *strict shared p; p++`):
                # its lvalue, the update fenced before and after
                lv = (f"(*(upcemu_sptr volatile *)upcemu_addr({self.sptr_of(self.strip(op))}, "
                      f"sizeof(upcemu_sptr), __FILE__, __LINE__))")
            else:
                lv = self.rw(op)
            if before:
                text = f"({lv} = upcemu_add({lv}, {d}, sizeof({elem}), {block}))"
            else:
                text = (f"({{ upcemu_sptr volatile *__upcc_q = &({lv}); upcemu_sptr __upcc_o = *__upcc_q; "
                        f"*__upcc_q = upcemu_add(__upcc_o, {d}, sizeof({elem}), {block}); __upcc_o; }})")
            if strict:
                text = f"({{ upcemu_fence(); upcemu_sptr __upcc_r = {text}; upcemu_fence(); __upcc_r; }})"
            return text
        if sym == "!" and self.is_sptr(op.type):
            return f"upcemu_sptr_isnull({self.rw(op)})"
        return self.generic(c)

    def rw_binary(self, c):
        left, right = list(c.get_children())
        op = self.op_between(c, left, right)
        ls, rs = self.is_sptr(left.type), self.is_sptr(right.type)
        if op.endswith("=") and op not in ("==", "!=", "<=", ">=") and self.top_as(left.type) > 0 and \
                self.is_shared_lvalue(self.strip(left)) and self.is_strict(left) and \
                not (ls and op != "="):
            return self.strict_update(self.strip(left), op, right)
        if not (ls or rs):
            return self.generic(c)
        L, R = self.rw(left), self.rw(right)
        if op in ("+", "-") and ls and not rs:
            elem, block, _ = self.arith_info(c, left.type)
            k = self.arith_scale(left.type)
            return f"upcemu_add({L}, {op}(ptrdiff_t)({R}){f' * {k}' if k != 1 else ''}, sizeof({elem}), {block})"
        if op == "+" and rs and not ls:
            elem, block, _ = self.arith_info(c, right.type)
            k = self.arith_scale(right.type)
            return f"upcemu_add({R}, (ptrdiff_t)({L}){f' * {k}' if k != 1 else ''}, sizeof({elem}), {block})"
        if op == "-" and ls and rs:
            elem, block, _ = self.arith_info(c, left.type)
            k = self.arith_scale(left.type)
            return f"(upcemu_diff({L}, {R}, sizeof({elem}), {block}){f' / {k}' if k != 1 else ''})"
        if op in ("+=", "-=") and ls:
            elem, block, _ = self.arith_info(c, left.type)
            sign = "" if op == "+=" else "-"
            k = self.arith_scale(left.type)
            return (f"({{ upcemu_sptr *__upcc_q = &({L}); *__upcc_q = upcemu_add(*__upcc_q, "
                    f"{sign}(ptrdiff_t)({R}){f' * {k}' if k != 1 else ''}, sizeof({elem}), {block}); }})")
        if op in ("==", "!="):
            neg = "!" if op == "!=" else ""
            if ls and rs:
                return f"({neg}upcemu_sptr_eq({L}, {R}))"
            return f"({neg}upcemu_sptr_isnull({L if ls else R}))"
        if op in ("<", ">", "<=", ">=") and ls and rs:
            # C99 6.5.8 (UPC 1.3 adds nothing): by the places pointed to. On one thread
            # the elements of an object lie in index order, so the local addresses
            # decide, whatever the phases (a phase reset by a cast through shared [] or
            # upc_resetphase: the same address compares equal, as for == in 6.4.2p6);
            # across threads, the element distance (which reads the phases).
            elem, block, _ = self.pointee_info(left.type)
            a, b = self.tmp(), self.tmp()
            return (f"({{ upcemu_sptr {a} = {L}, {b} = {R}; ({a}.thread == {b}.thread ? "
                    f"(ptrdiff_t)({a}.offset - {b}.offset) : upcemu_diff({a}, {b}, sizeof({elem}), {block})) "
                    f"{op} 0; }})")
        if op == "=":
            return f"{L} = {R}"
        return self.generic(c)


def translate(text, filename, static_threads=None):
    return Translator(text, filename, static_threads).translate()
