"""Expressions: every UPC expression form on every combination of types
(docs/upcc.md, "Expressions").

The rewrite is type-directed. An expression whose type is shared is a *place*
in the global address space: `place(c)` gives its address as an upcemu_sptr
(and what is known about it), built from the expression's own form:

    a (declared object)   upcemu_base(&__upcc_o_a)
    E[i]                  E's pointer value + i (C: *(E + i)), or for an array
                          E (decaying), E's address + i rows
    *E                    E's value (a pointer-to-shared)
    E.f, E->f             upcemu_field(address of E / value of E, offsetof f)

and is then read or written through `upcemu_addr` (access), which is told what
the access does for the race check (`kind`: read, write or both, strict or
not; a plain assignment's target writes, `op=` and ++/-- read and write,
everything else reads). A value of
pointer-to-shared type is an upcemu_sptr wherever it lives; arithmetic,
comparison and conversion follow UPC 1.3 6.4.2 and 6.4.3. Nothing here looks at
how an expression is spelled beyond its operator: `x[t][j]` where x[t] is a
pointer-to-shared stored in shared memory is *(x[t] + j), as C says.

A member of a shared struct has indefinite block size (UPC 1.3 6.4.4: `&` of a
shared structure element of type T is `shared [] T *`): a pointer derived from
one (`&s.m`, a decaying `s.arr`) steps bytes on the struct's thread.
"""
import re

import clang.cindex as ci

from .clang_util import (IMPLICIT, begin_of, children, end_of, evaluate_int, expression_children, only_child, strip,
                         strip_parens)

K = ci.CursorKind
TK = ci.TypeKind
_BINARY = K.BINARY_OPERATOR

# upcemu_addr's `kind` (include/upcemu_c.h: enumerators, so they survive in the
# already preprocessed C that upcc emits)
READ, WRITE, UPDATE = "UPCEMU_READ", "UPCEMU_WRITE", "UPCEMU_READ | UPCEMU_WRITE"


def strict_kind(kind):
    return f"{kind} | UPCEMU_STRICT"


class Place:
    """A shared lvalue: its address, or the pieces of one (base + sum(terms)
    elements of `elem` under `block`), so that a[i][j] folds into one step."""
    __slots__ = ("base", "terms", "elem", "block", "type", "member", "dims")

    def __init__(self, base, type_, terms=None, elem=None, block=None, member=False, dims=None):
        self.base, self.type, self.terms, self.elem, self.block = base, type_, terms, elem, block
        self.member, self.dims = member, dims

    @property
    def sptr(self):
        if not self.terms:
            return self.base
        return f"upcemu_add({self.base}, {' + '.join(self.terms)}, sizeof({self.elem}), {self.block})"


class Expressions:
    # ---- places ----
    def place(self, c):
        """The Place of the shared lvalue c."""
        c = strip_parens(c)
        k = c.kind
        if k == K.UNEXPOSED_EXPR:
            inner = only_child(c)
            if inner is not None and self.top_as(inner.type) > 0:
                return self.place(inner)
        if k == K.DECL_REF_EXPR:
            return self.object_place(c)
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            return self.subscript_place(c)
        if k == K.UNARY_OPERATOR and self.unary_symbol(c)[0] == "*":
            (op,) = children(c)
            elem, block, _, _ = self.ptr_info(op)
            return Place(self.rw(op), c.type, [], elem, block)
        if k == K.MEMBER_REF_EXPR:
            (base,) = children(c)
            rec = self.pointee(base.type) if self.is_arrow(c, base) else base.type
            if self.is_arrow(c, base):
                addr = self.rw(base)
            else:
                addr = self.place(base).sptr
            field = self.field_offset(c, rec)
            return Place(f"upcemu_field({addr}, {field})", c.type, member=True)
        self.error(c, f"upcc does not translate this shared expression yet ({k.name})")

    def object_place(self, c):
        obj = self.objects.get(c.referenced.get_usr()) if c.referenced is not None else None
        if obj is None:
            self.error(c, f"'{c.spelling}' is shared, but upcc has not seen its declaration")
        block = f"{obj.cname}.block" if obj.block == "*" else self.block_expr(obj.block)
        return Place(f"upcemu_base(&{obj.cname})", c.type, [], obj.ctype, block, dims=list(obj.dims))

    def subscript_place(self, c):
        """E1[E2]: the operand of pointer or array type is the base (C allows i[a])."""
        a, b = children(c)
        base, idx = (a, b) if self.is_pointer(a.type) or self.is_array(a.type) else (b, a)
        i = f"(ptrdiff_t)({self.rw(idx)})"
        arr = strip(base) if self.is_array(strip(base).type) else None
        if arr is not None and self.top_as(arr.type) > 0:
            p = self.place(arr)
            if p.member:
                # an array inside a shared struct lies whole on the struct's thread
                return Place(f"upcemu_field({p.sptr}, (size_t)({i} * (ptrdiff_t)sizeof({self.c_type(c.type)})))",
                             c.type, member=True)
            rows, dims = self.row_count(c.type, p.dims)
            term = i if rows == "1" else f"{i} * (ptrdiff_t)({rows})"
            if p.terms is not None and p.elem is not None:
                return Place(p.base, c.type, p.terms + [term], p.elem, p.block, dims=dims)
            elem, block = self.elem_and_block(arr.type)
            return Place(p.sptr, c.type, [term], elem, block, dims=dims)
        if not self.is_sptr(base.type):
            self.error(c, "upcc cannot index this shared expression (its base is neither a shared array "
                          "nor a pointer-to-shared)")
        elem, block, _, rows = self.ptr_info(base)
        term = i if rows == 1 else f"{i} * {rows}"
        if self.points_into_member(base):
            return Place(f"upcemu_field({self.rw(base)}, (size_t)({i} * (ptrdiff_t)sizeof({self.c_type(c.type)})))",
                         c.type, member=True)
        return Place(self.rw(base), c.type, [term], elem, block)

    def row_count(self, t, dims):
        """(elements of the ultimate type in one t, the remaining dims): 1 for a
        non-array t; a row of a declared object counts from the declaration's
        own dimension texts (THREADS included), others from the type."""
        if not self.is_array(t):
            return "1", None
        if dims is not None and len(dims) > 1:
            rest = dims[1:]
            return " * ".join(f"({d})" for d in rest), rest
        n, u = 1, t.get_canonical()
        while u.kind == TK.CONSTANTARRAY:
            n *= u.element_count
            u = u.element_type
        return str(n), None

    def elem_and_block(self, array_type):
        k = self.top_as(array_type)
        block = self.layout(k)[0]
        if block == "*":
            block = "1"
        return self.c_type(self.ultimate(array_type), drop_quals=True), self.block_expr(block)

    def field_offset(self, c, rec):
        """offsetof(record, member) for the MEMBER_REF c."""
        ref = c.referenced
        if ref is not None and ref.kind == K.FIELD_DECL and ref.is_bitfield():
            self.error(c, f"the bit-field '{c.spelling}' of a shared struct cannot be accessed on its own "
                          f"(copy the struct to a private one, or make the member a plain integer)")
        return f"__builtin_offsetof({self.c_type(rec, drop_quals=True)}, {c.spelling})"

    @staticmethod
    def is_arrow_text(text):
        return text.lstrip().startswith("->")

    def is_arrow(self, c, base):
        return self.is_arrow_text(self.without_markers(self.src(end_of(base), end_of(c))))

    # ---- what a pointer value steps over ----
    def ptr_info(self, c):
        """(element, block, consistency, rows) of the pointer-to-shared expression c;
        a pointer derived from a member of a shared struct has block 0, one derived
        from a `shared [*]` object the block the object got when the run started."""
        elem, block, cons, rows = self.pointee_layout(c.type)
        if self.points_into_member(c):
            block = "0"
        elif self.layout(self.top_as(self.canonical(c.type).get_pointee()))[0] == "*":
            obj = self.star_object(c)
            if obj is not None:
                block = f"{obj.cname}.block"
        return elem, block, cons, rows

    def star_object(self, c):
        """The declared `shared [*]` object the pointer expression c points into
        (`&a[i]`, a decaying `a` or `m[i]`, those plus or minus an integer)."""
        while True:
            c = strip(c)
            if c.kind == K.DECL_REF_EXPR:
                obj = self.objects.get(c.referenced.get_usr()) if c.referenced is not None else None
                return obj if obj is not None and obj.block == "*" else None
            if c.kind == K.UNARY_OPERATOR and self.unary_symbol(c)[0] == "&":
                c = children(c)[0]
            elif c.kind == K.ARRAY_SUBSCRIPT_EXPR:
                a, b = children(c)
                base = a if self.is_pointer(a.type) or self.is_array(a.type) else b
                # an array of the object, or a pointer into it (`(&a[i])[j]`,
                # `(m[0] + k)[j]`: a [*] pointer type only comes from the object)
                if not self.is_array(strip(base).type) and not self.is_sptr(strip(base).type):
                    return None
                c = base
            elif c.kind == K.BINARY_OPERATOR:
                left, right = children(c)
                op = self.op_between(c, left, right)
                if op in ("+", "-") and self.is_sptr(left.type) and not self.is_sptr(right.type):
                    c = left
                elif op == "+" and self.is_sptr(right.type):
                    c = right
                elif op == ",":
                    c = right
                else:
                    return None
            elif c.kind == K.CONDITIONAL_OPERATOR:
                # both branches have the expression's type: either says which object
                branches = expression_children(c)[1:]
                return next((o for o in (self.star_object(b) for b in branches) if o is not None), None)
            else:
                return None

    def points_into_member(self, c):
        c = strip_parens(c)
        if c.kind == K.UNEXPOSED_EXPR:
            k = only_child(c)
            if k is not None and self.is_array(k.type) and self.top_as(k.type) > 0:
                return self.is_member_place(k)
            if k is not None and self.is_sptr(k.type) and \
                    self.pointee_layout(k.type)[:2] == self.pointee_layout(c.type)[:2]:
                return self.points_into_member(k)
            return False
        if c.kind == K.UNARY_OPERATOR and self.unary_symbol(c)[0] == "&":
            (op,) = children(c)
            return self.top_as(op.type) > 0 and self.is_member_place(op)
        if c.kind == K.BINARY_OPERATOR:
            # E + i, i + E, E - i have E's type (`shared [] T *` for a member's
            # address); `a, E` is E
            left, right = children(c)
            op = self.op_between(c, left, right)
            if op in ("+", "-") and self.is_sptr(left.type) and not self.is_sptr(right.type):
                return self.points_into_member(left)
            if op == "+" and self.is_sptr(right.type) and not self.is_sptr(left.type):
                return self.points_into_member(right)
            if op == ",":
                return self.points_into_member(right)
        if c.kind == K.CONDITIONAL_OPERATOR:
            return any(self.points_into_member(b) for b in expression_children(c)[1:])
        return False

    def is_member_place(self, c):
        c = strip_parens(c)
        while c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            a, b = children(c)
            base = a if self.is_pointer(a.type) or self.is_array(a.type) else b
            if not self.is_array(strip(base).type):
                return False
            c = strip_parens(strip(base))
        return c.kind == K.MEMBER_REF_EXPR

    def arith_info(self, c, ptr_expr):
        """ptr_info for pointer arithmetic: an error on a pointer to shared void."""
        elem, block, cons, rows = self.ptr_info(ptr_expr)
        if self.is_void(self.pointee(ptr_expr.type)):
            self.error(c, "arithmetic on a pointer to shared void (shared void * has no element size; "
                          "cast it to a pointer to a shared object type first)")
        if self.is_incomplete(self.pointee(ptr_expr.type)):
            self.error(c, f"arithmetic on a pointer to an incomplete shared type "
                          f"('{self.c_type(self.pointee(ptr_expr.type))}')")
        return elem, block, cons, rows

    # ---- reads and writes ----
    def is_strict(self, c):
        """Whether the shared lvalue c is accessed strictly: its type says strict or
        relaxed, else the `#pragma upc` in effect where the access is."""
        r = c.__dict__.get("_upcc_strict")
        if r is None:
            k = self.top_as(c.type)
            if not k:
                return False
            cons = self.layout(k)[1]
            if cons is None:
                off = begin_of(c)
                cons = "relaxed"
                for at, state in self.pragmas:
                    if at > off:
                        break
                    cons = state
            r = c._upcc_strict = cons == "strict"
        return r

    def value_type(self, c):
        return f"__typeof__({self.c_type(c.type)})"

    # The shared lvalues that an assignment or ++/-- writes (mark_target), so that
    # access, reached through the generic rewrite of the operator, tells the
    # runtime they write: (begin, end) -> [(cursor, kind)]. Anything not marked is
    # a read, which can only hide a race from the check, never invent one.
    targets = None

    def mark_target(self, c, kind):
        c = strip_parens(c)
        if self.targets is None:
            self.targets = {}
        self.targets.setdefault((begin_of(c), end_of(c)), []).append((c, kind))

    def access_kind(self, c):
        """What the access of the shared lvalue c does: UPCEMU_READ unless an
        assignment or ++/-- marked it; UPCEMU_STRICT added for a strict one."""
        kind = READ
        for cur, k in (self.targets or {}).get((begin_of(c), end_of(c)), ()):
            if cur == c:
                kind = k
        return strict_kind(kind) if self.is_strict(c) else kind

    def access(self, c, sptr_text):
        """A read, or a relaxed write (the target of an assignment or ++/--), of
        the shared lvalue c. A strict read is fenced before and after (UPC 1.3
        §5.1.2.3: ordered against every shared access of the thread); strict
        writes are translated by strict_update."""
        t = self.value_type(c)  # a pointer type's volatile must follow its '*'
        kind = self.access_kind(c)
        # A whole struct or union is copied as bytes, padding included, as a UPC
        # compiler's memget does (gcc copies a volatile struct member by member,
        # leaving the copy's padding as it was: memcmp of the copy then differs).
        record = c.type.get_canonical().kind == TK.RECORD
        vol = "" if record else " volatile"
        if record and self.is_strict(c):
            # No temporary either: gcc splits a struct temporary into its members
            # (padding lost again). The fence before is here; the one after is
            # the next strict access's own (a known limit, docs/upcc.md: a
            # relaxed access right after may be moved before the copy by gcc).
            return (f"(*({{ upcemu_fence(); ({t} *)upcemu_addr({sptr_text}, sizeof({t}), {kind}, __FILE__, "
                    f"__LINE__); }}))")
        if self.is_strict(c):
            v = self.tmp()
            return (f"({{ upcemu_fence(); {t} {v} = *({t}{vol} *)upcemu_addr({sptr_text}, sizeof({t}), {kind}, "
                    f"__FILE__, __LINE__); upcemu_fence(); {v}; }})")
        return f"(*({t}{vol} *)upcemu_addr({sptr_text}, sizeof({t}), {kind}, __FILE__, __LINE__))"

    def strict_update(self, lv, op, right=None, prefix=True):
        """A strict write: `lv op right` (op '=' or 'X='), or ++/-- (right None),
        fenced before and after."""
        t = self.value_type(lv)
        s, a, v = self.tmp(), self.tmp(), self.tmp()
        head = f"upcemu_sptr {s} = {self.place(lv).sptr}; "
        if right is not None:
            r = self.tmp()
            rt = self.rw(right)
            head += f"__typeof__({rt}) {r} = ({rt}); "
            expr = f"(*{a} {op} {r})"
        else:
            expr = f"({op}*{a})" if prefix else f"((*{a}){op})"
        vol = "" if lv.type.get_canonical().kind == TK.RECORD else " volatile"  # bytes, padding too (access)
        kind = strict_kind(WRITE if op == "=" else UPDATE)
        return (f"({{ {head}upcemu_fence(); {t}{vol} *{a} = ({t}{vol} *)upcemu_addr({s}, sizeof({t}), "
                f"{kind}, __FILE__, __LINE__); {t} {v} = {expr}; upcemu_fence(); {v}; }})")

    def is_shared_lvalue(self, c):
        c = strip_parens(c)
        if self.top_as(c.type) == 0:
            return False
        if c.kind == K.DECL_REF_EXPR:
            return c.referenced is not None and c.referenced.kind == K.VAR_DECL
        if c.kind == K.UNARY_OPERATOR:
            return self.unary_symbol(c)[0] == "*"
        return c.kind in (K.ARRAY_SUBSCRIPT_EXPR, K.MEMBER_REF_EXPR)

    def rw_lvalue(self, c):
        """DECL_REF, subscript, member, unary *: a shared one is read through its place."""
        if not self.is_shared_lvalue(c):
            return self.generic(c)
        p = self.place(c)
        if self.is_array(c.type):
            return p.sptr  # an array where C wants its address (it decays)
        return self.access(c, p.sptr)

    # ---- conversions ----
    def is_null_constant(self, c):
        """A null pointer constant (C11 6.3.2.3): an integer constant expression
        with value 0, or one cast to void *."""
        c = strip_parens(c)
        while c.kind in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR, K.PAREN_EXPR):
            kids = expression_children(c)
            if not kids:
                break
            if c.kind == K.CSTYLE_CAST_EXPR and self.is_pointer(c.type) and \
                    not self.is_void(self.pointee(c.type)):
                return False
            c = kids[-1]
        if not (self.is_integer(c.type) or c.kind == K.CHARACTER_LITERAL):
            return False
        if c.kind == K.INTEGER_LITERAL:
            literal = self.text_of(c)  # (the parsed text has no macros: the literal's one token)
            if literal:
                try:
                    return int(re.sub(r"[uUlL]+$", "", literal), 0) == 0
                except ValueError:
                    pass
        return evaluate_int(c) == 0

    def convert(self, text, from_expr, to_t, c):
        """The pointer-to-shared `text` (the value of from_expr) converted to type to_t
        (UPC 1.3 6.4.3): to or from shared void * the phase is kept, except that
        shared void * to a type of indefinite block size or block 1 gives phase 0;
        between other types the phase becomes 0 when the block, the element size
        differ or either type is incomplete."""
        fe, fb, _, frows = self.ptr_info(from_expr)
        te, tb, _, trows = self.pointee_layout(to_t)
        from_p, to_p = self.pointee(from_expr.type), self.pointee(to_t)
        if self.is_void(to_p):
            return text
        size = lambda e, p, rows: "0" if self.is_void(p) else (
            "((size_t)-1)" if self.is_incomplete(p) else f"sizeof({e}){f' * {rows}' if rows != 1 else ''}")
        fs, ts = size(fe, from_p, frows), size(te, to_p, trows)
        if (fs, fb) == (ts, tb):
            return text
        return f"upcemu_cast({text}, {fb}, {fs}, {tb}, {ts})"

    def rw_implicit(self, c):
        """An implicit conversion (libclang's UNEXPOSED_EXPR around one child)."""
        kids = children(c)
        if len(kids) != 1:
            return self.generic(c)
        (k,) = kids
        if self.mentions_shared(c.type) and self.raw.find(b"__builtin_va_arg", begin_of(c), end_of(c)) >= 0 and \
                self.text_of(c).lstrip().startswith("__builtin_va_arg"):
            # va_arg(ap, shared T *): libclang shows it as an unexposed expression
            return f"__builtin_va_arg({self.rw(k)}, {self.c_type(c.type)})"
        if self.is_sptr(c.type):
            if self.is_array(k.type) and self.top_as(k.type) > 0:
                return self.place(k).sptr  # a shared array decays to a pointer to its first element
            if self.is_sptr(k.type):
                return self.convert(self.rw(k), k, c.type, c)
            if self.is_null_constant(k):
                return "((upcemu_sptr){0, 0, 0})"
            if self.is_integer(k.type):
                what = self.call_name(k)
                self.error(c, f"an integer cannot be converted to a pointer-to-shared "
                              f"(UPC 1.3 6.4.3){what}")
            return self.generic(c)
        return self.generic(c)

    def call_name(self, k):
        """For messages: ' (the result of NAME, declared implicitly: include its header)'."""
        k = strip(k)
        if k.kind == K.CALL_EXPR and k.referenced is not None and k.referenced.kind == K.FUNCTION_DECL:
            if begin_of(k.referenced) == begin_of(k) or \
                    k.referenced.location.line == k.location.line and k.referenced.is_definition() is False and \
                    self.text_of(k.referenced) == "":
                return f" (the result of '{k.spelling}', which was declared implicitly: include its header)"
            return f" (the result of '{k.spelling}')"
        return ""

    def rw_cast(self, c):
        kids = expression_children(c)
        if not kids:
            return self.generic(c)
        src = kids[-1]
        to_shared, from_shared = self.is_sptr(c.type), self.is_sptr(src.type)
        if to_shared:
            if from_shared:
                return "(" + self.convert(self.rw(src), src, c.type, c) + ")"
            if self.is_null_constant(src):
                return "((upcemu_sptr){0, 0, 0})"
            what = "a private pointer" if self.is_pointer(src.type) else f"a value of type '{self.c_type(src.type)}'"
            self.error(c, f"{what} cannot be cast to a pointer-to-shared (UPC 1.3 6.4.3: only a "
                          f"pointer-to-shared or a null pointer constant converts to one)")
        if from_shared:
            tc = c.type.get_canonical().kind
            if tc == TK.POINTER:
                return f"(({self.c_type(c.type)})upcemu_local_of({self.rw(src)}, __FILE__, __LINE__))"
            if tc == TK.VOID:
                return f"((void)({self.rw(src)}))"
            if tc == TK.BOOL:
                return f"((_Bool)!upcemu_sptr_isnull({self.rw(src)}))"
            if self.is_integer(c.type):
                self.warn(c, f"a pointer-to-shared converted to '{self.c_type(c.type)}': its value is "
                             f"(thread << 48 | byte offset), not an address (upc_threadof, upc_phaseof and "
                             f"upc_addrfield give its parts)")
                return f"(({self.c_type(c.type)})upcemu_sptr_bits({self.rw(src)}))"
            self.error(c, f"a pointer-to-shared cannot be cast to '{self.c_type(c.type)}' (use upc_threadof, "
                          f"upc_phaseof or upc_addrfield for its parts)")
        if self.mentions_shared(c.type):
            # a private pointer whose pointee holds pointers-to-shared (`(shared int **)malloc(n)`)
            return f"(({self.c_type(c.type)})({self.rw(src)}))"
        return self.generic(c)

    # ---- operators ----
    def unary_symbol(self, c):
        """(operator, prefix?) of a UNARY_OPERATOR (cached on c)."""
        r = c.__dict__.get("_upcc_unary")
        if r is None:
            kids = children(c)
            if not kids:
                return "", True
            op = kids[0]
            before = self.without_markers(self.src(begin_of(c), begin_of(op))).strip()
            after = self.without_markers(self.src(end_of(op), end_of(c))).strip()
            r = c._upcc_unary = (before or after), bool(before)
        return r

    def rw_unary(self, c):
        kids = children(c)
        if not kids:
            return self.generic(c)
        (op,) = kids
        sym, prefix = self.unary_symbol(c)
        if sym == "*":
            return self.rw_lvalue(c) if self.top_as(c.type) > 0 else self.generic(c)
        if sym == "&":
            if self.is_shared_lvalue(op):
                return self.place(op).sptr
            return self.generic(c)
        if sym in ("++", "--"):
            if self.is_shared_lvalue(op):
                self.mark_target(op, UPDATE)
            if self.is_sptr(op.type):
                return self.step_pointer(c, op, sym, prefix)
            if self.is_shared_lvalue(op) and self.is_strict(op):
                return self.strict_update(strip_parens(op), sym, prefix=prefix)
            return self.generic(c)
        if sym == "!" and self.is_sptr(op.type):
            return f"upcemu_sptr_isnull({self.rw(op)})"
        return self.generic(c)

    def step_pointer(self, c, op, sym, prefix):
        """++/-- on a pointer-to-shared lvalue (private or shared, relaxed or strict)."""
        elem, block, _, rows = self.arith_info(c, op)
        d = str(rows) if sym == "++" else str(-rows)
        strict = self.is_shared_lvalue(op) and self.is_strict(op)
        if strict:
            lv = (f"(*(upcemu_sptr volatile *)upcemu_addr({self.place(op).sptr}, "
                  f"sizeof(upcemu_sptr), {strict_kind(UPDATE)}, __FILE__, __LINE__))")
        else:
            lv = self.rw(op)
        q, o = self.tmp(), self.tmp()
        if prefix:
            text = (f"({{ upcemu_sptr volatile *{q} = &({lv}); "
                    f"*{q} = upcemu_add(*{q}, {d}, sizeof({elem}), {block}); }})")
        else:
            text = (f"({{ upcemu_sptr volatile *{q} = &({lv}); upcemu_sptr {o} = *{q}; "
                    f"*{q} = upcemu_add({o}, {d}, sizeof({elem}), {block}); {o}; }})")
        if strict:
            r = self.tmp()
            text = f"({{ upcemu_fence(); upcemu_sptr {r} = {text}; upcemu_fence(); {r}; }})"
        return text

    def op_between(self, c, left, right):
        """The binary operator c between its operands left and right (cached on c)."""
        r = c.__dict__.get("_upcc_op")
        if r is None:
            between = self.src(end_of(left), begin_of(right))
            r = c._upcc_op = self.without_markers(between).strip().strip("()").strip()
        return r

    def rw_binary(self, c):
        left, right = children(c)
        ls, rs = self.is_sptr(left.type), self.is_sptr(right.type)
        if not (ls or rs or self.top_as(left.type)):
            return self.generic(c)  # no pointer-to-shared, no shared left side: nothing of its own
        op = self.op_between(c, left, right)
        assign = op.endswith("=") and op not in ("==", "!=", "<=", ">=")
        if assign and self.is_shared_lvalue(left) and self.is_strict(left) and not (ls and op != "="):
            return self.strict_update(strip_parens(left), op, right)
        if assign and self.is_shared_lvalue(left):
            self.mark_target(left, WRITE if op == "=" else UPDATE)
        if not (ls or rs):
            return self.generic(c)
        if op in ("+", "-") and ls and not rs:
            elem, block, _, rows = self.arith_info(c, left)
            return (f"upcemu_add({self.rw(left)}, {op}(ptrdiff_t)({self.rw(right)}){f' * {rows}' if rows != 1 else ''}, "
                    f"sizeof({elem}), {block})")
        if op == "+" and rs and not ls:
            elem, block, _, rows = self.arith_info(c, right)
            return (f"upcemu_add({self.rw(right)}, (ptrdiff_t)({self.rw(left)}){f' * {rows}' if rows != 1 else ''}, "
                    f"sizeof({elem}), {block})")
        if op == "-" and ls and rs:
            elem, block, _, rows = self.arith_info(c, left)
            return (f"(upcemu_diff({self.rw(left)}, {self.rw(right)}, sizeof({elem}), {block})"
                    f"{f' / {rows}' if rows != 1 else ''})")
        if op in ("+=", "-=") and ls:
            elem, block, _, rows = self.arith_info(c, left)
            sign = "" if op == "+=" else "-"
            lv = self.rw(left)
            if self.is_shared_lvalue(left) and self.is_strict(left):
                lv = (f"(*(upcemu_sptr volatile *)upcemu_addr({self.place(left).sptr}, "
                      f"sizeof(upcemu_sptr), {strict_kind(UPDATE)}, __FILE__, __LINE__))")
            q = self.tmp()
            text = (f"({{ upcemu_sptr volatile *{q} = &({lv}); *{q} = upcemu_add(*{q}, "
                    f"{sign}(ptrdiff_t)({self.rw(right)}){f' * {rows}' if rows != 1 else ''}, "
                    f"sizeof({elem}), {block}); }})")
            if self.is_shared_lvalue(left) and self.is_strict(left):
                r = self.tmp()
                text = f"({{ upcemu_fence(); upcemu_sptr {r} = {text}; upcemu_fence(); {r}; }})"
            return text
        if op in ("==", "!="):
            neg = "!" if op == "!=" else ""
            L, R = self.rw(left), self.rw(right)
            if ls and rs and not (self.is_null_constant(left) or self.is_null_constant(right)):
                return f"({neg}upcemu_sptr_eq({L}, {R}))"
            if ls and rs:
                return f"({neg}upcemu_sptr_isnull({R if self.is_null_constant(left) else L}))"
            return f"({neg}upcemu_sptr_isnull({L if ls else R}))"
        if op in ("<", ">", "<=", ">=") and ls and rs:
            if self.is_void(self.pointee(left.type)) or self.is_void(self.pointee(right.type)):
                self.error(c, f"'{op}' cannot compare a pointer to shared void (UPC 1.3 6.4.2: relational "
                              f"operators need pointers to complete types)")
            # C99 6.5.8, UPC 1.3 6.4.2: (p - q) op 0. On one thread the elements of
            # an object lie in index order, so the local addresses decide, whatever
            # the phases (a phase reset by a cast through shared [] or
            # upc_resetphase: the same address compares equal, as for == in
            # 6.4.2p6); across threads, the element distance (which reads the phases).
            elem, block, _, _ = self.ptr_info(left)
            a, b = self.tmp(), self.tmp()
            return (f"({{ upcemu_sptr {a} = {self.rw(left)}, {b} = {self.rw(right)}; ({a}.thread == {b}.thread ? "
                    f"(ptrdiff_t)({a}.offset - {b}.offset) : upcemu_diff({a}, {b}, sizeof({elem}), {block})) "
                    f"{op} 0; }})")
        if op in ("&&", "||", ","):
            return self.generic(c)
        if op == "=":
            return f"{self.rw(left)} = {self.rw(right)}"
        self.error(c, f"the operator '{op}' does not apply to a pointer-to-shared")

    # ---- truth values ----
    conds = None

    def mark_conditions(self, c, k):
        """Remember the extents of the operands that C reads as truth values (an if,
        while, do or for condition, the operands of && and ||, the first of ?:): a
        pointer-to-shared there is compared against the null pointer-to-shared."""
        if self.conds is None:
            self.conds, self.cond_busy = set(), set()
        kids = children(c)
        picked = []
        if k is _BINARY:  # (the most common, first)
            if len(kids) == 2 and (self.is_sptr(kids[0].type) or self.is_sptr(kids[1].type)) and \
                    self.op_between(c, kids[0], kids[1]) in ("&&", "||"):
                picked = kids
        elif k in (K.IF_STMT, K.WHILE_STMT, K.CONDITIONAL_OPERATOR):
            picked = [x for x in kids if x.kind.is_expression()][:1]
        elif k == K.DO_STMT:
            picked = [x for x in kids if x.kind.is_expression()][-1:]
        elif k == K.FOR_STMT:
            for x in kids[:-1]:
                head = self.src(begin_of(c), begin_of(x))
                if x.kind.is_expression() and head.count(";") == 1 and head.rstrip().endswith(";"):
                    picked = [x]
        for x in picked:
            if self.is_sptr(x.type):
                self.conds.add((begin_of(x), end_of(x)))

    def truth_value(self, c):
        """A pointer-to-shared where C wants a truth value, or None."""
        if not self.conds:
            return None
        key = (begin_of(c), end_of(c))
        if key in self.conds and key not in self.cond_busy and c.kind.is_expression() and self.is_sptr(c.type):
            self.cond_busy.add(key)
            try:
                return f"(!upcemu_sptr_isnull({self.rw(c)}))"
            finally:
                self.cond_busy.discard(key)
        return None
