"""UPC's type algebra on clang's types (docs/upcc.md, "Types").

The prepass turns every `shared [B] strict|relaxed` into an address space K of
clang's, so a type says where it is shared, pointer levels included:
`shared int *shared p` is `AS(1) int *AS(2)`. From that:

- a *shared type* is one whose own qualifiers carry an address space;
- a *pointer-to-shared* is a pointer whose pointee is a shared type; its value
  is an `upcemu_sptr` in the output, wherever it lives (private, shared, a
  member, an array element);
- the *layout* of a shared type is (block, consistency) from the prepass table;
- the *lowered C type* (`c_type`) is the type with every pointer-to-shared
  replaced by `upcemu_sptr` and every address space dropped, spelled so gcc
  can read it whatever the declarator's shape (`__typeof__` composes them).
"""
import functools
import re

import clang.cindex as ci

from .clang_memo import type_memo

AS_RE = re.compile(r"__attribute__\(\(address_space\((\d+)\)\)\)\s*")
TK = ci.TypeKind
ARRAYS = (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY)
SIMPLE_TYPE = re.compile(r"^[A-Za-z_][\w ]*$")
INTEGERS = frozenset((TK.BOOL, TK.CHAR_U, TK.UCHAR, TK.CHAR16, TK.CHAR32, TK.USHORT, TK.UINT, TK.ULONG, TK.ULONGLONG,
                      TK.UINT128, TK.CHAR_S, TK.SCHAR, TK.WCHAR, TK.SHORT, TK.INT, TK.LONG, TK.LONGLONG, TK.INT128,
                      TK.ENUM))
TYPE_MEMO = type_memo()
VOID_RE = re.compile(r"^(?:(?:const|volatile|restrict)\s+)*void(?:\s+(?:const|volatile|restrict))*$")


class Types:
    """Mixin over self.layouts (the prepass table) and self.anon_names."""

    # ---- shared or not ----
    # Each answer is memoised by the type's identity (clang_memo): types repeat
    # far more than they vary, and every expression asks about its own.
    @staticmethod
    def canonical(t):
        return t.get_canonical()

    @staticmethod
    def canonical_spelling(t):
        return t.get_canonical().spelling

    @staticmethod
    def top_as(t):
        """K of the type's own address space (0: not shared). Works on the canonical
        spelling: libclang's element_type drops an array element's address space."""
        r = t.__dict__.get("_upcc_top_as")  # (kept on the Type object too: asked of most nodes)
        if r is None:
            key = ("top_as", t.data[0])
            r = TYPE_MEMO.get(key)
            if r is None:
                r = TYPE_MEMO[key] = Types.top_as_spelling(t.get_canonical().spelling)
            t._upcc_top_as = r
        return r

    @staticmethod
    @functools.lru_cache(maxsize=None)
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

    def is_shared(self, t):
        return self.top_as(t) > 0

    def is_sptr(self, t):
        r = t.__dict__.get("_upcc_sptr")  # (as top_as)
        if r is None:
            key = ("sptr", t.data[0])
            r = TYPE_MEMO.get(key)
            if r is None:
                c = t.get_canonical()
                r = TYPE_MEMO[key] = c.kind == TK.POINTER and self.top_as(c.get_pointee()) > 0
            t._upcc_sptr = r
        return r

    @staticmethod
    def mentions_shared(t):
        """Whether a shared type appears anywhere in t (then its text must be lowered)."""
        return "address_space(" in t.get_canonical().spelling

    def is_array(self, t):
        return t.get_canonical().kind in ARRAYS

    def is_pointer(self, t):
        return t.get_canonical().kind == TK.POINTER

    def is_record(self, t):
        return t.get_canonical().kind == TK.RECORD

    def is_integer(self, t):
        return t.get_canonical().kind in INTEGERS

    @staticmethod
    def pointee(t):
        """The pointee of pointer type t, keeping its typedef names where libclang can
        (a pointer type spelled by a typedef, `typedef shared heap_t *heap_p;`, has
        no pointee until canonical)."""
        p = t.get_pointee()
        if p.kind == TK.INVALID:
            p = t.get_canonical().get_pointee()
        return p

    def element(self, t):
        """An array type's element type (canonical: libclang's element_type of a
        non-canonical array loses nothing, but a typedef has none)."""
        e = t.element_type
        if e.kind == TK.INVALID:
            e = t.get_canonical().element_type
        return e

    def ultimate(self, t):
        """The ultimate element type: t without its array dimensions."""
        while self.is_array(t):
            t = t.get_canonical().element_type
        return t

    @staticmethod
    def is_void(t):
        r = t.__dict__.get("_upcc_void")  # (as top_as)
        if r is None:
            key = ("void", t.data[0])
            r = TYPE_MEMO.get(key)
            if r is None:
                r = TYPE_MEMO[key] = VOID_RE.match(AS_RE.sub("", t.get_canonical().spelling).strip()) is not None
            t._upcc_void = r
        return r

    def is_incomplete(self, t):
        c = t.get_canonical()
        return c.kind == TK.RECORD and c.get_size() < 0

    # ---- layouts ----
    def layout(self, k):
        """(block, consistency) of address space k: block '1', '0' (indefinite),
        '*' or the block's text; consistency 'strict', 'relaxed' or None."""
        if k <= 0:  # (the table's index -1 would answer for a type that is not shared)
            raise AssertionError("upcc: the layout of a type that is not shared was asked for")
        return self.layouts.table[k - 1]

    @staticmethod
    def block_expr(block):
        return {"1": "1", "0": "0", "*": "((size_t)-1)"}.get(block, f"((size_t)({block}))")

    def pointee_layout(self, ptr_type):
        key = ("pl", ptr_type.kind, ptr_type.spelling)
        r = self.type_memo.get(key)
        if r is None:
            r = self.type_memo[key] = self._pointee_layout(ptr_type)
        return r

    def _pointee_layout(self, ptr_type):
        """(element C type, block expression, consistency, rows) for stepping a
        pointer-to-shared: the element is the pointee's ultimate element (UPC 1.3
        6.4.2: the block applies to it), rows the number of those elements in one
        step (1, or the product of a pointee array's dimensions)."""
        pt = ptr_type.get_canonical().get_pointee()
        block, cons = self.layout(self.top_as(pt))
        if block == "*":
            block = "1"  # a pointer cannot have [*]; as a type name it means the default
        elem, rows = self.pointee(ptr_type), 1
        while elem.get_canonical().kind == TK.CONSTANTARRAY:
            rows *= elem.get_canonical().element_count
            elem = elem.get_canonical().element_type
        return self.c_type(elem, drop_quals=True), self.block_expr(block), cons, rows

    # ---- the lowered C type ----
    def c_type(self, t, drop_quals=False):
        """Memoised by the type's spelling (which names a typedef, a tag, and an
        unnamed record by its place): types repeat far more than they vary."""
        key = (t.kind, t.spelling, drop_quals)
        r = self.type_memo.get(key)
        if r is None:
            r = self.type_memo[key] = self._c_type(t, drop_quals)
        return r

    def _c_type(self, t, drop_quals=False):
        """The C spelling of type t in the output: every pointer-to-shared is
        upcemu_sptr, address spaces are gone, typedef names kept (a program's
        typedef is emitted lowered itself)."""
        k = t.kind
        quals = "" if drop_quals else self._quals(t)
        if k == TK.TYPEDEF:
            name = AS_RE.sub("", t.spelling).strip()
            return self._strip_quals(name) if drop_quals else name
        if k == TK.ELABORATED:
            named = t.get_named_type()
            if named.kind == TK.TYPEDEF:
                return (quals + self.c_type(named, True)).strip()
            if named.kind in (TK.RECORD, TK.ENUM):
                return (quals + self._tag_spelling(named)).strip()
            return self.c_type(named, drop_quals)
        c = t.get_canonical()
        if k == TK.UNEXPOSED or k != c.kind and k not in (TK.POINTER,) + ARRAYS:
            return self.c_type_canonical(c, drop_quals)
        return self.c_type_canonical(t, drop_quals)

    def c_type_canonical(self, t, drop_quals=False):
        k = t.get_canonical().kind
        quals = "" if drop_quals else self._quals(t)
        if k == TK.POINTER:
            p = self.pointee(t)
            if self.top_as(p) > 0:
                return (quals + "upcemu_sptr").strip()
            pc = p.get_canonical()
            if pc.kind in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO):
                return f"__typeof__({self._function(pc, '(*)')}){(' ' + quals.strip()) if quals else ''}"
            inner = self.c_type(p)
            if SIMPLE_TYPE.match(inner):
                return f"{inner} *{(' ' + quals.strip()) if quals else ''}".rstrip()
            return f"__typeof__({inner} *){(' ' + quals.strip()) if quals else ''}"
        if k == TK.CONSTANTARRAY:
            return f"__typeof__({self.c_type(self.element(t))}[{t.get_canonical().element_count}])"
        if k == TK.INCOMPLETEARRAY:
            return f"__typeof__({self.c_type(self.element(t))}[])"
        if k in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO):
            return f"__typeof__({self._function(t.get_canonical(), '')})"
        if k in (TK.RECORD, TK.ENUM):
            return (quals + self._tag_spelling(t)).strip()
        s = AS_RE.sub("", t.spelling).strip()
        if "address_space" in s:
            s = AS_RE.sub("", t.get_canonical().spelling).strip()
        return self._strip_quals(s) if drop_quals else s

    def _function(self, f, declarator):
        res = self.c_type(f.get_result())
        if f.kind == TK.FUNCTIONNOPROTO:
            return f"{res} {declarator}()"
        args = [self.c_type(a) for a in f.argument_types()]
        if f.is_function_variadic():
            args.append("...")
        return f"{res} {declarator}({', '.join(args) or 'void'})"

    def _tag_spelling(self, t):
        s = AS_RE.sub("", t.get_canonical().spelling).strip()
        s = self._strip_quals(s)
        for k, v in self.anon_names.items():
            s = s.replace(k, v)
        if "(unnamed" in s or "(anonymous" in s:
            # an unnamed struct reached through a typedef: the typedef's name
            s2 = AS_RE.sub("", t.spelling).strip()
            if "(unnamed" not in s2 and "(anonymous" not in s2:
                s = self._strip_quals(s2)
        return s

    @staticmethod
    def _strip_quals(s):
        return re.sub(r"\b(const|volatile|restrict)\b\s*", "", s).strip()

    @staticmethod
    def _quals(t):
        q = []
        if t.is_const_qualified():
            q.append("const")
        if t.is_volatile_qualified():
            q.append("volatile")
        return " ".join(q) + (" " if q else "")

    def ctype(self, t):
        """The C spelling of a value of type t (qualifiers kept)."""
        return self.c_type(t)

    def has_sptr(self, t):
        """Whether a value of type t holds a pointer-to-shared (itself, an element, a member)."""
        c = t.get_canonical()
        if self.is_sptr(c):
            return True
        if c.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
            return self.has_sptr(c.element_type)
        if c.kind == TK.RECORD:
            return any(self.has_sptr(f.type) for f in c.get_fields())
        return False
