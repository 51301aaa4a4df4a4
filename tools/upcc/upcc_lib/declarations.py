"""Declarations: shared objects, pointers-to-shared wherever they are declared,
typedefs, struct members, parameters, functions, initialisers, and private
variables with static storage (docs/upcc.md, "Declarations").

Every declaration is a group of declarators sharing their specifiers. When the
specifiers are not shared the text is kept (initialisers rewritten); when they
are, each declarator becomes its own C declaration: a shared object becomes an
`upcemu_object __upcc_o_<name>` (its storage is the runtime's), a pointer to a
shared type an `upcemu_sptr`. Private variables with static storage become
`_Thread_local`: every UPC thread has its own copy.
"""
import re

import clang.cindex as ci

from .clang_memo import tokens_through
from .clang_util import begin_of, children, end_of

from .errors import UpcError
from .type_algebra import AS_RE

K = ci.CursorKind


class SharedObject:
    """A declared shared object: its C name (an upcemu_object), element type,
    dimension texts (THREADS included), block and consistency."""

    def __init__(self, name, cname, ctype, dims, block, consistency):
        self.name, self.cname, self.ctype, self.dims = name, cname, ctype, dims
        self.block, self.consistency = block, consistency
        self.defined = False  # its storage is declared (upcemu_declare) by this unit


class Declarations:
    current_function = None
    prefix = []

    def is_shared_object(self, c):
        return self.top_as(c.type) > 0 and not self.is_sptr(c.type) or (
            self.is_sptr(c.type) and "address_space" in c.type.get_canonical().spelling.rsplit("*", 1)[-1])

    STORAGE_WORD = re.compile(r"\b(static|extern)\b")

    def typedef_dims(self, t, written):
        """(dims, star_at): the array dimensions (source text, outermost first)
        that the declared type `t` takes from typedef names, below the `written`
        dimensions of the declarator itself (`typedef J K[10]; K k[5];` gives K's
        [10], then J's), and how many dimensions precede those of a typedef that
        says shared [*] (None: none does)."""
        dims, star_at = [], None
        for _ in range(written):
            t = t.element_type
        while True:
            if t.kind == ci.TypeKind.ELABORATED:
                t = t.get_named_type()
            if t.kind != ci.TypeKind.TYPEDEF:
                return dims, star_at
            decl = t.get_declaration()
            if decl is None or decl.kind != K.TYPEDEF_DECL:
                return dims, star_at
            own = self.declarator_dims(decl)
            u = decl.underlying_typedef_type
            if own and self.top_as(u) > 0 and self.layout(self.top_as(u))[0] == "*":
                star_at = written + len(dims)  # before the innermost [*] typedef's own dimensions
            dims += own
            t = u
            for _ in own:
                if t.kind == ci.TypeKind.ELABORATED:
                    t = t.get_named_type()
                t = t.element_type

    def declarator_dims(self, c):
        """The bracket groups right after the declared name of `c` (a typedef)."""
        toks = list(c.get_tokens())
        spell = [t.spelling for t in toks]
        at = next((i for i, t in enumerate(toks) if t.spelling == c.spelling and begin_of(t) == c.location.offset),
                  None)
        if at is None:
            return []
        dims, j = [], at + 1
        while j < len(toks) and spell[j] == "[":
            text, j = self.bracket_group(toks, spell, j)
            dims.append(text)
        return dims

    def bracket_group(self, toks, spell, j):
        """(the text inside the bracket group opened at toks[j], the index after it)."""
        depth, q = 0, j
        while q < len(toks):
            depth += spell[q] == "["
            depth -= spell[q] == "]"
            if depth == 0:
                break
            q += 1
        return self.src(end_of(toks[j]), begin_of(toks[q])).strip(), q + 1

    def storage(self, c):
        """`static` / `extern` before the declared name (the text up to the name;
        a comment there is gone with the preprocessor)."""
        c_start = begin_of(c)
        name = c.location.offset if c.spelling else end_of(c)
        head = self.src(c_start, max(c_start, name))
        return self.STORAGE_WORD.findall(re.sub(r'"(?:[^"\\\n]|\\.)*"', "", head))

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
                          and begin_of(t) == c.location.offset)
            except StopIteration:
                at = spell.index(c.spelling)
            j = at + 1
            init = None
            while j < len(toks):
                if spell[j] == "[":
                    text, j = self.bracket_group(toks, spell, j)
                    dims.append(text)
                elif spell[j] == "=":
                    init = self.src(end_of(toks[j]), end_of(c)).strip()
                    break
                else:
                    j += 1
            # dimensions that come with a typedef (`typedef shared int V[8]; V v;`):
            # without them the object had one element (and [*] a block of 1)
            written = len(dims)
            more, star_at = self.typedef_dims(c.type, written)
            dims += more
            if block == "*" and star_at is not None and star_at > 0:
                # `typedef shared [*] J K[10]; K k[3];` (or `typedef K L[10]; L l;`):
                # upc_blocksizeof(L) is K's block (upc_constructs.star_block_of_type),
                # the object's would count all of its elements: refused, not guessed
                raise UpcError(f, line, f"shared [*] array '{c.spelling}': its [*] comes from a typedef that is the "
                                        f"element of a larger array, so its block size is ambiguous (the typedef's "
                                        f"elements or the whole array's); write shared [*] on the whole array")
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
            usr = c.get_usr()
            known = self.objects.get(usr)
            stor = self.storage(c)
            if known is not None and known.defined and not func and "extern" not in stor:
                # declared again (C 6.9.2 tentative definitions: `shared int x[THREADS];`
                # twice): the object and its storage exist already
                if not known.dims and dims:
                    known.dims = dims
                if init is not None:  # `shared int y; shared int y = 5;`: this one initialises it
                    self.appendix.append(self.initializer(c, base, cname, elem_out, known.dims, f, line))
                texts.append(("static " if "static" in stor else "", cname))
                continue
            self.objects[usr] = SharedObject(c.spelling, cname, elem, dims, block, cons)
            if "extern" in stor:
                if known is not None:  # keep what a definition already said
                    self.objects[usr] = known
                texts.append(("extern ", cname))
                continue
            self.objects[usr].defined = True
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
        text += "\n" * self.src(begin_of(first), end_of(group[-1])).count("\n")
        if file_scope:
            self.edits.append((begin_of(first), end_of(group[-1]), text))
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
            if t.spelling == c.spelling and begin_of(t) == c.location.offset:
                return i
        return None

    def declarator_start(self, c):
        """Offset where the declarator of c begins (after the specifiers)."""
        toks = tokens_through(c, c.location.offset + len(c.spelling)) if c.spelling else c.get_tokens()
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
        return begin_of(toks[min(j, at)])

    def base_is_shared(self, c, spec_end, start=None, extra=()):
        """Whether the declaration's specifiers name a shared (non-pointer) type."""
        start = begin_of(c) if start is None else start
        text = self.raw[start:spec_end]
        for k in children(c) + list(extra):  # a struct defined in the specifiers: its members do not count
            if k.kind in (K.STRUCT_DECL, K.UNION_DECL) and start <= begin_of(k) and \
                    end_of(k) <= spec_end:
                a, b = begin_of(k) - start, end_of(k) - start
                text = text[:a] + b" " * (b - a) + text[b:]
        if AS_RE.search(text.decode("utf-8", "surrogateescape")):
            return True
        for k in c.get_children():
            if k.kind == K.TYPE_REF and begin_of(k) < spec_end and k.referenced is not None and \
                    k.referenced.kind == K.TYPEDEF_DECL:
                u = k.referenced.underlying_typedef_type
                if self.top_as(u) > 0 and not self.is_sptr(u):
                    return True
        return False

    def rw_decls(self, group, file_scope, outer=None, extra=()):
        """One declaration (VAR_DECLs, TYPEDEF_DECLs or FIELD_DECLs sharing their
        specifiers): each declarator translated; split into one declaration per
        declarator when the specifiers are shared (pointers-to-shared become
        upcemu_sptr, shared objects upcemu_object)."""
        first = group[0]
        # outer: a block-scope DECL_STMT whose specifiers define a struct (extra): the
        # VAR_DECLs' extents begin after the struct there, the statement's at its start
        start = begin_of(first) if outer is None else begin_of(outer)
        spec_end = self.declarator_start(first)
        shared_base = self.base_is_shared(first, spec_end, start, extra)
        if not shared_base and not any(self.is_shared_object(c) for c in group
                                       if c.kind == K.VAR_DECL):
            if any(self.declared_type_mentions_shared(c) for c in group):
                return self.rw_lowered_declarators(group, start, spec_end, outer)
            text = self.gen_range(group, start, max(end_of(c) for c in group))
            if first.kind == K.VAR_DECL and self.wants_tls(first):
                text = "_Thread_local " + text
            if first.kind == K.VAR_DECL and len(group) == 1:
                text = self.private_init(first, text)
            if first.kind == K.TYPEDEF_DECL:
                text = AS_RE.sub("", text)
            return text
        spec_words = [t.spelling for t in tokens_through(outer or first, spec_end)
                      if start <= begin_of(t) < spec_end]
        storage = [w for w in spec_words if w in self.STORAGE]
        spec_plain = AS_RE.sub("", self.gen_range([first], start, spec_end))
        parts, prefix_parts = [], []
        # a struct/union defined in the specifiers (`shared struct S {...} s[THREADS];`):
        # defined on its own first (an unnamed one gets a tag), then named by its tag
        rec = next((k for k in children(first) + list(extra) if k.kind in (K.STRUCT_DECL, K.UNION_DECL) and
                    k.is_definition() and start <= begin_of(k) and end_of(k) <= spec_end), None)
        if rec is not None and first.kind == K.VAR_DECL:
            kw = "union" if rec.kind == K.UNION_DECL else "struct"
            deftext = self.rw(rec)
            if rec.is_anonymous() or not rec.spelling or "(" in rec.spelling:
                self.anon_count = getattr(self, "anon_count", 0) + 1
                tag = f"__upcc_anon_{self.anon_count}"
                deftext = re.sub(r"^\s*" + kw + r"\b", f"{kw} {tag}", deftext, count=1)
                self.anon_names[AS_RE.sub("", rec.type.get_canonical().spelling).strip()] = f"{kw} {tag}"
                self.type_memo.clear()  # c_type spells it by its new tag from now on
            else:
                tag = rec.spelling
            parts.append(self.flatten(deftext))
            spec_plain = AS_RE.sub("", self.gen_range([first], start, begin_of(rec)) + f"{kw} {tag}" +
                                   self.gen_range([first], end_of(rec), spec_end))
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
            dend = end_of(c)
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
        lines = self.src(start, max(end_of(c) for c in group)).split("\n")[1:]
        tail = "".join("\n" + (ln if re.match(r"\s*#", ln) else "") for ln in lines)
        if not parts:
            return ("/* shared static: see __upcc_o_ */" if not file_scope else "") + tail
        return "; ".join(self.flatten(p) for p in parts) + tail

    def declared_type_mentions_shared(self, c):
        t = c.underlying_typedef_type if c.kind == K.TYPEDEF_DECL else c.type
        return self.mentions_shared(t)

    def rw_lowered_declarators(self, group, start, spec_end, outer):
        """A declaration whose specifiers are not shared but whose declarators reach a
        shared type (`int *shared [] *p;`: a pointer to a shared pointer-to-private;
        `typedef int *shared *pp_t;`): each declarator becomes its own declaration
        of its lowered type, `upcemu_sptr p;`, with its initialiser rewritten."""
        storage = [w for w in self.STORAGE_WORD.findall(self.src(start, spec_end))]
        typedef = group[0].kind == K.TYPEDEF_DECL
        parts = []
        for c in group:
            t = c.underlying_typedef_type if typedef else c.type
            init = [k for k in children(c) if k.kind.is_expression()] if c.kind == K.VAR_DECL else []
            # an array declarator's size is an expression child too: only what
            # follows an '=' is the initialiser (`LOCK locks[100];` has none)
            if init and "=" not in self.src(c.location.offset, begin_of(init[-1])):
                init = []
            tls = "_Thread_local " if c.kind == K.VAR_DECL and self.wants_tls(c) else ""
            text = (("typedef " if typedef else "") + " ".join(storage) + (" " if storage else "") + tls +
                    f"{self.c_type(t)} {c.spelling}")
            if init:
                text += " = " + self.rw(init[-1])
            parts.append(self.private_init(c, text) if c.kind == K.VAR_DECL else text)
        lines = self.src(start, max(end_of(c) for c in group)).split("\n")[1:]
        tail = "".join("\n" + (ln if re.match(r"\s*#", ln) else "") for ln in lines)
        return "; ".join(self.flatten(p) for p in parts) + tail

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

    def private_init(self, c, text):
        """A private variable with static storage holding a pointer-to-shared and
        initialised with an address (`shared int *p = &x[0];`): the translated value
        is a call, not a C constant; or one whose initialiser names a per-thread
        private variable (`int *px = &x;`): its address is no constant either. At file scope the declaration keeps no
        initialiser and a function, registered by a constructor with
        upcemu_private_initializer, sets each thread's copy before main; a static
        in a function is set when its declaration is first reached on each thread."""
        if c.kind != K.VAR_DECL or self.is_system(c) or self.from_upcc_header(c) or "extern" in self.storage(c):
            return text
        tls_address = self.init_names_thread_local(c)
        if not self.has_sptr(c.type) and not tls_address:
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
        if not tls_address and not re.search(r"\bupcemu_\w+\s*\(", init):
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

    def init_names_thread_local(self, c):
        """Whether c's initialiser names a private variable with static storage: that
        variable is per thread (_Thread_local), so its address (`int *px = &x;`,
        `char *p = buf;`) is no C constant, and each thread's copy points to its
        own (UPC: every thread has its own x, and its own px = &x)."""
        todo = [c]
        while todo:
            k = todo.pop()
            if k.kind == K.DECL_REF_EXPR and k.referenced is not None and k.referenced.kind == K.VAR_DECL and \
                    k.referenced != c and self.wants_tls(k.referenced):
                return True
            todo += children(k)
        return False

    def wants_tls(self, c):
        key = bytes(c)  # (memoised: every reference to a variable asks)
        memo = self.__dict__.setdefault("tls_memo", {})
        r = memo.get(key)
        if r is None:
            scope = c.semantic_parent.kind if c.semantic_parent else None
            stor = self.storage(c)
            r = memo[key] = (scope == K.TRANSLATION_UNIT or "static" in stor) and not self.is_system(c) and \
                not c.type.is_const_qualified() and not self.from_upcc_header(c) and not self.is_shared_object(c)
        return r

    def rw_record(self, c):
        """A struct/union: its fields declared with pointer-to-shared types."""
        kids = children(c)
        out, pos = [], begin_of(c)
        i = 0
        while i < len(kids):
            k = kids[i]
            ka = begin_of(k)
            if ka < pos:
                i += 1
                continue
            if k.kind == K.FIELD_DECL:
                group = [k]
                while i + 1 < len(kids) and kids[i + 1].kind == K.FIELD_DECL and \
                        begin_of(kids[i + 1]) == ka:
                    i += 1
                    group.append(kids[i])
                kb = max(end_of(g) for g in group)
                t = self.rw_decls(group, file_scope=False)
            else:
                kb = end_of(k)
                t = self.rw(k)
            out.append(self.src(pos, ka))
            out.append(t)
            pos = kb
            i += 1
        out.append(self.src(pos, end_of(c)))
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

    def rw_function(self, c):
        saved = self.current_function, self.prefix
        self.current_function, self.prefix = c.spelling, []
        text = self.generic(c)
        name_off = c.location.offset - begin_of(c)
        head, rest = text[:name_off], text[name_off:]
        if self.is_sptr(c.result_type):
            keep = [w for w in head.split() if w in ("static", "extern", "inline", "__inline", "__inline__")]
            head = " ".join(keep + ["upcemu_sptr "])
        if c.spelling == "main" and c.is_definition():
            returns_int = self.canonical(c.result_type).kind == ci.TypeKind.INT
            if returns_int:
                # main is renamed, so C99 5.1.2.2.3's return 0 at its closing brace is lost: say it
                end = rest.rstrip().rfind("}")
                if end > 0:
                    rest = rest[:end] + "return 0; }" + rest[end + 1:]
            else:
                self.warn(c, f"return type of 'main' is not 'int' (the thread's status is 0)")
            # the runtime calls upcemu_c_program_main(argc, argv); main's own parameters
            # (none, argc, argc and argv, or an environment too, as C allows; old codes
            # also write `char *argv`) are given what they name
            params = list(c.get_arguments())
            rest = "__upcc_user_main" + rest[4:]
            args = ["argc", "(void *)argv", "(void *)environ"][:len(params)]
            call = f"__upcc_user_main({', '.join(args)})"
            self.appendix.append(
                "extern char **environ;\n"
                "int upcemu_c_program_main(int argc, char **argv) { (void)argc; (void)argv; " +
                (f"return {call}; }}\n" if returns_int else f"{call}; return 0; }}\n"))
        text = "".join(self.prefix) + head + rest
        self.current_function, self.prefix = saved
        return text

    def rw_var(self, c):
        text = self.generic(c)
        if self.is_sptr(c.type):
            name_off = c.location.offset - begin_of(c)
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

    def rw_param(self, c):
        if self.mentions_shared(c.type) and not self.is_shared(c.type):
            # a pointer-to-shared, a pointer to one, a function pointer taking one:
            # the parameter's lowered type (arrays are pointers here, C11 6.7.6.3p7)
            return f"{self.c_type(c.type)} {c.spelling}".rstrip()
        return self.generic(c)

    def rw_decl_stmt(self, c):
        kids = children(c)
        # `static shared struct S {...} s[N];`: the struct is defined inside the
        # declaration, which translates it (rw_decls)
        if len(kids) >= 2 and kids[0].kind in (K.STRUCT_DECL, K.UNION_DECL) and kids[0].is_definition() \
                and all(v.kind in (K.VAR_DECL, K.TYPEDEF_DECL) and
                        begin_of(v) >= end_of(kids[0]) for v in kids[1:]) and \
                self.base_is_shared(kids[1], self.declarator_start(kids[1]), begin_of(c), kids[:1]):
            # (the VAR_DECLs' extents begin after the struct at block scope)
            b = max(end_of(v) for v in kids[1:])
            return (self.rw_decls(kids[1:], file_scope=False, outer=c, extra=kids[:1]) +
                    self.src(b, end_of(c)))
        if kids and all(v.kind in (K.VAR_DECL, K.TYPEDEF_DECL) for v in kids):
            a, b = begin_of(kids[0]), max(end_of(v) for v in kids)
            return (self.src(begin_of(c), a) + self.rw_decls(kids, file_scope=False) +
                    self.src(b, end_of(c)))
        return self.generic(c)
