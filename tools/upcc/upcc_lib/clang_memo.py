"""libclang's answers, each asked once (docs/upcc.md, "Translation time and memory").

The Python bindings ask libclang anew on every attribute access, through
wrappers that check each result with further calls, and the translator asks
every node and every type many questions: that, not clang's parse, was most of
upcc's time. Here the bindings' hot queries are replaced by ones that give the
same answers from fewer calls:

- a cursor's kind, type, spelling and referenced declaration are computed on
  first access and are plain attributes of the cursor object from then on;
- a type's answers (canonical type, pointee, element, spelling, ...) are
  memoised by the type's identity: clang's types are unique in their AST, and
  a CXType's data[0] is the type itself (its QualType, qualifiers included);
- offsets in upcc_input.c come from clang's raw source locations: clang numbers
  the bytes of each file consecutively from the file's first location, so an
  offset is a difference (the parsed text is preprocessed: no location in it
  is a macro expansion); anywhere else the bindings' way is kept;
- a cursor's children come through one callback for every walk, its tokens
  with two calls each.
What is memoised by identity holds for one parse: new_parse starts afresh.
"""
import ctypes
import operator

import clang.cindex as ci

_memo = {}  # (question, identity) -> libclang's answer, for the current parse
_MISSING = object()
# The raw locations of upcc_input.c's first byte and of its end, in the parse
# being translated (a location between them is that file's).
_main_file = [1, 0]
_offset = ctypes.c_uint()


def new_parse(tu, length):
    """Start on the parse tu of upcc_input.c (length bytes)."""
    _memo.clear()
    f = tu.get_file("upcc_input.c")
    first = ci.conf.lib.clang_getLocationForOffset(tu, f, 0).int_data
    # (a raw location with the top bit set is a macro expansion's)
    _main_file[:] = [first, first + length] if 0 < first and first + length < 1 << 31 else [1, 0]


def type_memo():
    """The memo of answers by type identity (type_algebra keeps its own there:
    key (question, type_key(t)))."""
    return _memo


def type_key(t):
    return t.data[0]


def _file_offset(location):
    ci.conf.lib.clang_getInstantiationLocation(location, None, None, None, ctypes.byref(_offset))
    return _offset.value


def _range_offsets(extent):
    """(first, end) byte offsets of a CXSourceRange, and whether it is in upcc_input.c."""
    first, last = _main_file
    a, b = extent.begin_int_data, extent.end_int_data
    if first <= a <= last and first <= b <= last:
        return a - first, b - first, True
    lib = ci.conf.lib
    return _file_offset(lib.clang_getRangeStart(extent)), _file_offset(lib.clang_getRangeEnd(extent)), False


# ---- offsets and children: asked of every node ----
def _extent(c):
    c._upcc_start, c._upcc_end, c._upcc_in_main = _range_offsets(ci.conf.lib.clang_getCursorExtent(c))


def main_file_offset(c):
    """The offset of cursor c in upcc_input.c, or None when its extent is elsewhere."""
    a = begin_of(c)
    return a if c.__dict__.get("_upcc_in_main") else None


class _Offset:
    """A cursor's _upcc_start or _upcc_end: both ends of its extent are found
    on the first access, and are plain attributes of the cursor from then on (a
    non-data descriptor: the instance's own value wins)."""

    def __init__(self, name):
        self.name = name

    def __get__(self, c, cls=None):
        if c is None:
            return self
        _extent(c)
        return c.__dict__[self.name]


# c's first byte offset, and the offset just after c (a cursor's or a token's):
# attribute look-ups, the cheapest call there is (they are asked of every node)
begin_of = operator.attrgetter("_upcc_start")
end_of = operator.attrgetter("_upcc_end")


def _visit(child, parent, found):
    d = child.__dict__  # (written directly: the callback runs for every node of the tree)
    d["_tu"] = found[0]  # (the cursor keeps its translation unit alive)
    kind = _kind_of_id(child._kind_id)
    if kind is not None:
        d["kind"] = kind  # (every child's is asked; an unknown one raises when asked)
    # its offsets too (most children's are asked): here, one libclang call and
    # no Python call (elsewhere than in upcc_input.c, when asked)
    e = _cursor_extent(child)
    first, last = _main_file
    a, b = e.begin_int_data, e.end_int_data
    if first <= a <= last and first <= b <= last:
        d["_upcc_start"], d["_upcc_end"], d["_upcc_in_main"] = a - first, b - first, True
    found.append(child)
    return 1  # CXChildVisit_Continue


_kind_of_id = {k: kind for k, kind in enumerate(ci.CursorKind._kinds) if kind is not None}.get
_visitor = ci.callbacks["cursor_visit"](_visit)
_cursor_extent = None  # clang_getCursorExtent, without the bindings' wrapper (install)


class _Children:
    """A cursor's _upcc_kids: its children, found on the first access (one
    libclang call, a callback for each child) and a plain attribute from then
    on. The bindings' get_children makes a callback for each call and compares
    each child with the null cursor (two more calls); a child is never the
    null cursor."""

    def __get__(self, c, cls=None):
        if c is None:
            return self
        found = [c._tu]
        ci.conf.lib.clang_visitChildren(c, _visitor, found)
        k = c.__dict__["_upcc_kids"] = found[1:]
        return k


# c's children, as a list (cached; the translator drops a subtree's by
# deleting its root's _upcc_kids)
children = operator.attrgetter("_upcc_kids")


class Token:
    """A token of a cursor's extent: its spelling and offsets (begin_of, end_of)."""

    def __init__(self, spelling, start, end):
        self.spelling, self._upcc_start, self._upcc_end = spelling, start, end


# ---- tokens ----
_token_extent = []  # clang_getTokenExtent and clang_getTokenSpelling without the bindings' checks (install)


def _tokenize(tu, extent):
    lib = ci.conf.lib
    toks = []
    memory, count = ctypes.POINTER(ci.Token)(), ctypes.c_uint()
    lib.clang_tokenize(tu, extent, ctypes.byref(memory), ctypes.byref(count))
    try:
        token_extent, token_spelling = _token_extent
        for i in range(count.value):
            t = memory[i]
            a, b, _ = _range_offsets(token_extent(tu, t))
            toks.append(Token(_text(token_spelling(tu, t)), a, b))
    finally:
        if count.value:
            lib.clang_disposeTokens(tu, memory, count)
    return toks


def tokens(c):
    """The tokens of c's extent, as a list (cached; Cursor.get_tokens): two
    libclang calls a token, where the bindings' make five for a spelling and
    an offset."""
    toks = c.__dict__.get("_upcc_tokens")
    if toks is None:
        toks = c._upcc_tokens = _tokenize(c._tu, ci.conf.lib.clang_getCursorExtent(c))
    return toks


def tokens_through(c, end):
    """The first tokens of c's extent: at least those that begin before offset
    end, as tokens(c) gives them (libclang's lexer starts where the extent
    does and stops after the token that reaches the end of its range). A
    declaration's tokens up to its name, without those of its initialiser."""
    whole = c.__dict__.get("_upcc_tokens")
    if whole is not None:
        return whole
    head = c.__dict__.get("_upcc_head")  # (its end, its tokens)
    if head is not None and end <= head[0]:
        return head[1]
    e = ci.conf.lib.clang_getCursorExtent(c)
    first, last = _main_file
    a = e.begin_int_data
    if not (first <= a <= last and a - first < end <= e.end_int_data - first):
        return tokens(c)
    e.end_int_data = first + end
    toks = _tokenize(c._tu, e)
    c._upcc_head = (end, toks)
    return toks


class _TypeBytes(ctypes.Structure):
    """A CXType as plain bytes: its kind and its identity (clang's QualType, see
    type_key) without the Type object and the array object data[0] makes."""
    _fields_ = [("kind", ctypes.c_int), ("identity", ctypes.c_void_p), ("unit", ctypes.c_void_p)]


class _String(ctypes.Structure):
    """A CXString, libclang's string result, without the bindings' wrapper (a
    Python call to convert it and one to dispose of it, besides libclang's)."""
    _fields_ = [("data", ctypes.c_void_p), ("flags", ctypes.c_uint)]


_string_calls = []  # clang_getCString and clang_disposeString, raw (install)


def _text(s):
    """The text of a _String, which is then disposed of (None for libclang's
    null string, as the bindings give it)."""
    get, dispose = _string_calls
    b = get(s)
    dispose(s)
    return None if b is None else b.decode("utf-8", "surrogateescape")


class _Once:
    """An attribute computed on its first access and then stored in the object,
    where later accesses find it as a plain attribute (a non-data descriptor:
    the instance's own value wins)."""

    def __init__(self, name, compute):
        self.name, self.compute = name, compute

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        v = obj.__dict__[self.name] = self.compute(obj)
        return v


def _per_kind(question):
    answers = {}

    def ask(kind):
        r = answers.get(kind.value)
        if r is None:
            r = answers[kind.value] = question(kind)
        return r
    return ask


def _raw(name, argtypes, restype):
    """A libclang function without the bindings' result check (which looks for a
    translation unit among the arguments on every call)."""
    lib = ci.conf.lib
    f = lib._FuncPtr((name, lib))
    f.argtypes, f.restype = argtypes, restype
    return f


# The bindings' own queries, as they were before install: the test that the
# memoised ones give the same answers (tests/upcc_unit/test_clang_memo.py).
BINDINGS = {}
_REPLACED = {
    ci.Cursor: ("kind", "type", "spelling", "referenced", "get_usr", "get_children", "get_tokens"),
    ci.Type: ("kind", "spelling", "get_canonical", "get_pointee", "element_type", "element_count",
              "is_const_qualified", "is_volatile_qualified", "get_size", "get_array_size"),
    ci.SourceLocation: ("offset",),
    ci.CursorKind: ("is_declaration", "is_reference", "is_expression", "is_statement", "is_attribute", "is_invalid",
                    "is_translation_unit", "is_preprocessing", "is_unexposed"),
}


def _memo_type(question, f):
    """A query answering a type, memoised by the type's identity and kept as
    an attribute of the Type object asked too (most are the one object of
    their type, type_of's)."""
    name = "_upcc_" + question

    def get(t):
        d = t.__dict__
        r = d.get(name)
        if r is None:
            key = (question, t.data[0])
            r = _memo.get(key)
            if r is None:
                r = _memo[key] = f(t)
                r._tu = t._tu
            if r is not t:  # (no object keeps itself)
                d[name] = r
        return r
    return get


def _memo_value(question, f):
    """A query answering a value (as _memo_type)."""
    name = "_upcc_" + question

    def get(t):
        d = t.__dict__
        r = d.get(name, _MISSING)
        if r is _MISSING:
            key = (question, t.data[0])
            r = _memo.get(key, _MISSING)
            if r is _MISSING:
                r = _memo[key] = f(t)
            d[name] = r
        return r
    return get


def install():
    """Replace the bindings' hot queries (once libclang is loaded)."""
    for cls, names in _REPLACED.items():
        for name in names:
            BINDINGS[f"{cls.__name__}.{name}"] = cls.__dict__[name]
    _token_extent[:] = [_raw("clang_getTokenExtent", [ci.TranslationUnit, ci.Token], ci.SourceRange),
                        _raw("clang_getTokenSpelling", [ci.TranslationUnit, ci.Token], _String)]
    _string_calls[:] = [_raw("clang_getCString", [_String], ctypes.c_char_p),
                        _raw("clang_disposeString", [_String], None)]
    _install_cursor_queries()
    _install_type_queries()


def _install_cursor_queries():
    """A cursor's kind, type, spelling, declaration, USR, children, tokens and offsets."""
    lib = ci.conf.lib
    cursor_type_bytes = _raw("clang_getCursorType", [ci.Cursor], _TypeBytes)
    referenced = _raw("clang_getCursorReferenced", [ci.Cursor], ci.Cursor)
    null = bytes(lib.clang_getNullCursor())
    cursor_spelling = _raw("clang_getCursorSpelling", [ci.Cursor], _String)
    cursor_usr = _raw("clang_getCursorUSR", [ci.Cursor], _String)
    cursor_kinds = ci.CursorKind.from_id

    def type_of(c):
        """One Type object for each type (it carries that type's own memos). The
        type comes as plain bytes, whose identity is one field: a Type object is
        made only for a type not seen yet."""
        raw = cursor_type_bytes(c)
        key = ("type", raw.identity)
        r = _memo.get(key)
        if r is None:
            r = _memo[key] = ci.Type.from_buffer_copy(raw)
            r._tu = c._tu
        return r

    def referenced_of(c):
        """One cursor object for each declaration referred to (as type_of)."""
        r = referenced(c)
        key = bytes(r)
        if key == null:  # the bindings' None (clang_equalCursors with the null cursor)
            return None
        key = ("referenced", key)
        known = _memo.get(key)
        if known is None:
            r._tu = c._tu
            known = _memo[key] = r
        return known

    ci.Cursor.kind = _Once("kind", lambda c: cursor_kinds(c._kind_id))
    ci.Cursor.type = _Once("type", type_of)
    ci.Cursor.spelling = _Once("spelling", lambda c: _text(cursor_spelling(c)))
    ci.Cursor.referenced = _Once("referenced", referenced_of)

    def usr(c):
        """Memoised by the cursor's identity (its bytes): every reference to a
        declaration gives a cursor object of its own, with the same bytes."""
        key = ("usr", bytes(c))
        r = _memo.get(key)
        if r is None:
            r = _memo[key] = _text(cursor_usr(c))
        return r
    ci.Cursor.get_usr = usr
    ci.Cursor.get_children = lambda c: iter(children(c))  # (walk_preorder's too)

    ci.Cursor.get_tokens = tokens
    ci.Cursor._upcc_start, ci.Cursor._upcc_end = _Offset("_upcc_start"), _Offset("_upcc_end")
    ci.Cursor._upcc_kids = _Children()
    global _cursor_extent
    _cursor_extent = _raw("clang_getCursorExtent", [ci.Cursor], ci.SourceRange)

    base_offset = ci.SourceLocation.offset.fget

    def offset(loc):
        first, last = _main_file
        a = loc.int_data
        return a - first if first <= a <= last else base_offset(loc)
    ci.SourceLocation.offset = property(offset)

    # what kind of node a kind is: one answer a kind
    for name in _REPLACED[ci.CursorKind]:
        setattr(ci.CursorKind, name, _per_kind(getattr(ci.CursorKind, name)))



def _install_type_queries():
    """A type's kind, spelling, canonical type, pointee, element and sizes."""
    type_spelling = _raw("clang_getTypeSpelling", [ci.Type], _String)
    type_kinds = ci.TypeKind.from_id
    ci.Type.kind = _Once("kind", lambda t: type_kinds(t._kind_id))
    ci.Type.spelling = _Once("spelling", _memo_value("spelling", lambda t: _text(type_spelling(t))))
    ci.Type.get_canonical = _memo_type("canonical", _raw("clang_getCanonicalType", [ci.Type], ci.Type))
    ci.Type.get_pointee = _memo_type("pointee", _raw("clang_getPointeeType", [ci.Type], ci.Type))
    element, base_element = _raw("clang_getElementType", [ci.Type], ci.Type), ci.Type.element_type.fget

    def element_type(t):
        key = ("element", t.data[0])
        r = _memo.get(key)
        if r is None:
            r = element(t)
            if r._kind_id == ci.TypeKind.INVALID.value:
                return base_element(t)  # (which raises, as the bindings do)
            r._tu = t._tu
            _memo[key] = r
        return r
    ci.Type.element_type = property(element_type)
    ci.Type.element_count = property(_memo_value("element_count", ci.Type.element_count.fget))
    for name in ("is_const_qualified", "is_volatile_qualified", "get_size", "get_array_size"):
        setattr(ci.Type, name, _memo_value(name, getattr(ci.Type, name)))
