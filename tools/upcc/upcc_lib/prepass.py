"""Token-level pass over preprocessed UPC source (docs/upcc.md, "Pipeline").

It makes UPC's few constructs parseable by clang as C, without moving any line:
every replacement keeps the newlines of what it replaces.

  shared, shared [B], shared [*], shared []   -> __attribute__((address_space(K)))
  strict / relaxed next to shared             -> folded into K
  upc_forall (a; b; c; d) S                   -> for (a; b; c) if (__upcc_forall_aff(d)) S
  upc_barrier [e]; upc_notify [e]; upc_wait [e];  -> __upcc_barrier(e); ...
  upc_fence                                   -> __upcc_fence()
  THREADS, MYTHREAD                           -> __upcc_THREADS, __upcc_MYTHREAD
  #pragma upc strict|relaxed                  -> recorded (the default consistency)

K indexes `layouts`: (block, consistency) with block '1' (default), the text of
B, '*' or '0' (indefinite). Only text outside system headers is rewritten (line
markers with flag 3), so a system header's identifier `shared` stays itself.
"""
import re

from .errors import UpcError

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<marker>^\#[^\n]*)
  | (?P<str>L?"(?:[^"\\\n]|\\.)*"|L?'(?:[^'\\\n]|\\.)*')
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\.\.\.|\#\#|.)
""", re.VERBOSE | re.MULTILINE | re.DOTALL)

LINE_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"([ 0-9]*)')


class Tok:
    __slots__ = ("kind", "text", "file", "line", "system")

    def __init__(self, kind, text, file, line, system):
        self.kind, self.text, self.file, self.line, self.system = kind, text, file, line, system


def tokenize(text):
    """Tokens with their presumed file and line (from the line markers)."""
    toks = []
    file, line, system = "<input>", 1, False
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        t = m.group()
        if kind == "marker":
            lm = LINE_MARKER.match(t)
            toks.append(Tok(kind, t, file, line, system))
            if lm:
                file = lm.group(2)
                line = int(lm.group(1)) - 1  # the newline after the marker brings it to N
                system = "3" in lm.group(3).split()
            elif re.match(r"#\s*pragma\s+upc\s+", t):
                pass
            continue
        toks.append(Tok(kind, t, file, line, system))
        if kind == "nl":
            line += 1
        elif kind == "str" or kind == "punct":
            line += t.count("\n")
    return toks


class Layouts:
    def __init__(self):
        self.table = []  # K-1 -> (block, consistency)

    def index(self, block, consistency):
        key = (block, consistency)
        if key not in self.table:
            self.table.append(key)
        return self.table.index(key) + 1


def _significant(toks, i, step):
    j = i + step
    while 0 <= j < len(toks) and toks[j].kind in ("ws", "nl"):
        j += step
    return j


def _newlines(toks, a, b):
    return "".join("\n" for t in toks[a:b] if t.kind == "nl") + "".join(
        "\n" * t.text.count("\n") for t in toks[a:b] if t.kind in ("str", "punct"))


def _balanced(toks, i, open_, close):
    """Index of the token closing the group opened at toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    raise UpcError(toks[i].file, toks[i].line, f"unbalanced '{open_}'")


_INTEGER = re.compile(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*")


def _constant(text):
    """The value of an integer constant expression made of literals, parentheses and
    + - * / % << >> (a block size such as `UPC_MAX_BLOCK_SIZE+1` after the
    preprocessor), or None when it holds anything else (a name, sizeof, a cast:
    then gcc computes it and the runtime checks the block size)."""
    import ast
    src = _INTEGER.sub(lambda m: str(int(m.group(1), 8 if re.fullmatch(r"0[0-7]+", m.group(1)) else 0)), text)
    try:
        tree = ast.parse(src.replace("/", "//"), mode="eval")
    except SyntaxError:
        return None
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv,
               ast.Mod, ast.LShift, ast.RShift, ast.USub, ast.UAdd)
    if not all(isinstance(n, allowed) for n in ast.walk(tree)) or \
            not all(isinstance(n.value, int) for n in ast.walk(tree) if isinstance(n, ast.Constant)):
        return None
    try:
        return eval(compile(tree, "<block size>", "eval"), {"__builtins__": {}})
    except (ArithmeticError, ValueError):
        return None


def _text(toks, a, b):
    return "".join(t.text for t in toks[a:b])


def _array_parameters(toks, static_threads):
    """A parameter declared as an array of shared (`void f(strict shared int
    a[2][10*THREADS])`) is a pointer to its element (C11 6.7.6.3p7), but clang
    rejects an address space on an array parameter: rewrite `a[2]` to `(*a)`
    before parsing (the removed tokens' newlines are kept). Only parameter lists
    at file scope: a '(' after an identifier or ')' outside braces."""
    n = len(toks)
    braces = 0
    stack = []  # for each open '(' outside braces: is it a parameter list
    for i, t in enumerate(toks):
        if t.kind != "punct" or t.system:
            continue
        if t.text == "{":
            braces += 1
        elif t.text == "}":
            braces -= 1
        elif braces == 0 and t.text == "(":
            j = _significant(toks, i, -1)
            stack.append(j >= 0 and (toks[j].kind == "id" or toks[j].text == ")"))
        elif braces == 0 and t.text == ")" and stack:
            is_params = stack.pop()
            if is_params:
                o = _matching_open(toks, i)
                if o is not None:
                    _rewrite_params(toks, o, i, static_threads)


def _matching_open(toks, close):
    depth = 0
    for j in range(close, -1, -1):
        if toks[j].text == ")":
            depth += 1
        elif toks[j].text == "(":
            depth -= 1
            if depth == 0:
                return j
    return None


def _rewrite_params(toks, o, c, static_threads):
    # split the list at its top-level commas
    params, depth, start = [], 0, o + 1
    for q in range(o + 1, c):
        x = toks[q].text
        if x in ("(", "["):
            depth += 1
        elif x in (")", "]"):
            depth -= 1
        elif x == "," and depth == 0:
            params.append((start, q))
            start = q + 1
    params.append((start, c))
    for a, b in params:
        if not any(toks[q].kind == "id" and toks[q].text == "shared" for q in range(a, b)):
            continue
        depth = 0
        for q in range(a, b):
            x = toks[q].text
            if x in ("(", "["):
                depth += 1
            elif x in (")", "]"):
                depth -= 1
            elif depth == 0 and toks[q].kind == "id" and toks[q].text != "shared":  # not `shared [B]`
                r = _significant(toks, q, 1)
                if r < b and toks[r].text == "[":
                    k = _balanced(toks, r, "[", "]")
                    rest = [z for z in range(k + 1, b) if toks[z].text == "THREADS"]
                    if rest and not static_threads:
                        raise UpcError(toks[q].file, toks[q].line,
                                       f"parameter '{toks[q].text}': an array of shared whose inner dimension "
                                       f"contains THREADS needs a static THREADS (upcc -T N)")
                    toks[q].text = f"(*{toks[q].text})"
                    for z in range(q + 1, k + 1):
                        if toks[z].kind != "nl":
                            toks[z].text = "\n" * toks[z].text.count("\n") if toks[z].kind in ("str", "punct") else ""
                    break


KEYWORDS_BEFORE_PAREN = ("sizeof", "if", "while", "for", "switch", "return", "_Alignof", "__typeof__", "typeof",
                         "__typeof", "_Generic", "__attribute__", "case")


def _pointer_to_rows_threads(toks):
    """Without -T: a pointer to an array of shared whose row contains THREADS
    (`shared int (*a)[10*THREADS]`) cannot be translated (the row's length is
    not a constant; the parse would see THREADS as 1): the same error as for the
    array-spelled parameter, or, for a variable or a type name, its own."""
    n = len(toks)
    for i, t in enumerate(toks):
        if t.system or t.text != "(":
            continue
        j = _significant(toks, i, 1)
        if j >= n or toks[j].text != "*":
            continue
        close = _balanced(toks, i, "(", ")")
        name = None
        for z in range(j + 1, close):  # the declared name: the first identifier not a qualifier
            if toks[z].kind == "id" and toks[z].text not in ("const", "volatile", "restrict", "__restrict",
                                                             "__restrict__", "shared", "strict", "relaxed"):
                name = toks[z].text
                break
            if toks[z].text in ("(", "["):
                break
        r = _significant(toks, close, 1)
        if r >= n or toks[r].text != "[":
            continue
        threads = False
        while r < n and toks[r].text == "[":  # the row's dimensions
            k = _balanced(toks, r, "[", "]")
            threads = threads or any(toks[z].text == "THREADS" for z in range(r + 1, k))
            r = _significant(toks, k, 1)
        if not threads:
            continue
        # the specifiers before the '(': back to the start of the declaration
        depth, b, shared, param = 0, i - 1, False, False
        while b >= 0:
            x = toks[b].text
            if x in (")", "]"):
                depth += 1
            elif x in ("(", "["):
                if depth == 0:
                    p = _significant(toks, b, -1)
                    param = x == "(" and p >= 0 and (toks[p].text == ")" or (
                        toks[p].kind == "id" and toks[p].text not in KEYWORDS_BEFORE_PAREN))
                    break
                depth -= 1
            elif depth == 0 and x in (";", "{", "}", ","):
                if x == ",":  # another parameter, or another declarator: find which
                    d2, e = 0, b - 1
                    while e >= 0 and not (d2 == 0 and toks[e].text in (";", "{", "}", "(")):
                        d2 += toks[e].text in (")", "]")
                        d2 -= toks[e].text in ("(", "[")
                        e -= 1
                    if e >= 0 and toks[e].text == "(":
                        p = _significant(toks, e, -1)
                        param = p >= 0 and (toks[p].text == ")" or (
                            toks[p].kind == "id" and toks[p].text not in KEYWORDS_BEFORE_PAREN))
                    if not param:  # `shared int a, (*p)[..]`: the specifiers are before the first
                        b = e
                        while b >= 0 and toks[b].text not in (";", "{", "}"):
                            shared = shared or toks[b].text == "shared"
                            b -= 1
                break
            shared = shared or (toks[b].kind == "id" and toks[b].text == "shared")
            b -= 1
        if not shared:
            continue
        if param and name:
            raise UpcError(t.file, t.line, f"parameter '{name}': an array of shared whose inner dimension "
                                           f"contains THREADS needs a static THREADS (upcc -T N)")
        what = f"'{name}': a" if name else "a"
        raise UpcError(t.file, t.line, f"{what} pointer to an array of shared whose dimension contains THREADS "
                                       f"needs a static THREADS (upcc -T N)")


C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void
    volatile while _Bool _Complex _Atomic _Alignas _Alignof _Noreturn _Static_assert _Thread_local __attribute__
    __restrict __restrict__ __inline __inline__ __extension__ __typeof__ typeof shared strict relaxed""".split())


def _shared_typedef_names(toks):
    """The identifiers of typedefs that mention a shared type, directly or through
    another of them (`typedef shared struct lock upc_lock_t;`,
    `typedef upc_lock_t *lockp;`). It may include other identifiers of those
    declarations: the names only decide where sizeof's operand is rewritten, which
    changes nothing for a name that is not shared."""
    names = set()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.kind == "id" and t.text == "typedef" and not t.system:
            depth, j, ids, shared = 0, i + 1, [], False
            while j < n and not (depth == 0 and toks[j].text == ";"):
                x = toks[j]
                if x.text in ("{", "(", "["):
                    depth += 1
                elif x.text in ("}", ")", "]"):
                    depth -= 1
                elif x.kind == "id":
                    if x.text == "shared" or x.text in names:
                        shared = True
                    elif x.text not in C_KEYWORDS and depth == 0 or x.text not in C_KEYWORDS and \
                            toks[j - 1].text in ("*", "("):
                        ids.append(x.text)
                j += 1
            if shared:
                names.update(ids)
            i = j
        i += 1
    return names


DECLARATION_START = frozenset("""auto char const double enum extern float inline int long register restrict short
    signed static struct typedef union unsigned void volatile _Alignas _Atomic _Bool _Complex _Noreturn
    _Thread_local __attribute__ __extension__ __inline __inline__ __restrict __restrict__ __thread __typeof__
    __typeof typeof __auto_type shared strict relaxed""".split())


STATEMENT_WORDS = frozenset("return if else while do switch case default goto break continue sizeof".split())


def _relevant_names(toks, shared_names):
    """The identifiers through which code can reach shared data: every name
    declared by a declaration whose type mentions shared (directly, through a
    typedef of a shared type, or a struct or union that holds one): variables,
    functions, members, typedef names and tags. The translator leaves alone
    code that names none of them and holds no UPC construct: there is nothing
    in it to translate.

    Token level, in source order. A declaration is a statement (the tokens
    between two of ; { }) that does not start with a statement keyword; `for (`
    before it is skipped. Whether its type
    mentions shared is read from `shared` and the type names found so far
    (not from variable names: `int x = p[1];` declares an int, and an
    initialiser does not count). A prototype's parameter names are its own;
    a definition's are added (its body uses them). Over-inclusion costs only
    time."""
    names = set(shared_names)
    types = set(shared_names)  # type names that mention shared: typedefs, tags
    typedefs = set(shared_names)
    stmt = []    # the statement's tokens outside initialisers: (word, depth)
    hit = False  # they mention a shared type
    depth = 0    # parentheses and brackets inside the statement
    in_init = False
    frames = []  # at each '{': [statement before it, hit, record body?, a hit inside]

    def is_declaration(words):
        # a statement that mentions a shared type and does not start as a statement
        # does (size_t f(shared void *p); starts with a typedef of a system header,
        # which this pass does not see)
        i = 0
        while i < len(words) and words[i][0] in ("for", "__extension__", "("):
            i += 1
        return i < len(words) and words[i][0] not in STATEMENT_WORDS

    def end_statement(definition):
        words = [w for w, d in stmt if w not in C_KEYWORDS and w != "("]
        if stmt and stmt[0][0] == "typedef":
            typedefs.update(words)
        if not (hit and is_declaration(stmt)):
            return
        if stmt[0][0] == "typedef":
            types.update(words)
        names.update(w for w, d in stmt if w not in C_KEYWORDS and w != "(" and (definition or d == 0))
        if frames:
            frames[-1][3] = True

    parens = []  # for each open ( or [: whether it opens a parameter list
    params = 0   # parameter lists open: names inside belong to a prototype
    prev = None
    for ti, t in enumerate(toks):
        if t.system or t.kind in ("ws", "nl", "marker"):
            continue
        x = t.text
        before, prev = prev, t
        if t.kind == "id":
            if not in_init:
                stmt.append((x, params))
                if x == "shared" or x in types:
                    hit = True
        elif t.kind == "punct":
            if x in ("(", "["):
                if not in_init and x == "(" and not stmt:
                    stmt.append(("(", 0))  # `for (` and casts start with it
                # `f(` or `(*fp)(`: a function declarator's parameters; `(*p)`, also
                # after a tag or a typedef name (`struct rec (*rp)[3]`), groups
                after = _significant(toks, ti, 1)
                plist = x == "(" and before is not None and (before.text in (")", "]") or (
                    before.kind == "id" and before.text not in C_KEYWORDS)) and not (
                    after < len(toks) and toks[after].text == "*")
                parens.append(plist)
                params += plist
                depth += 1
            elif x in (")", "]"):
                if parens:
                    params -= parens.pop()
                depth -= 1
            elif x == "=" and depth == 0:
                in_init = True
            elif x == "," and depth == 0:
                in_init = False
            elif x in (";", "{", "}"):
                if x == "{" and in_init:  # an initialiser's braces: still the initialiser
                    depth += 1
                    continue
                if x == "}" and in_init and depth > 0:
                    depth -= 1
                    continue
                if x == "{":
                    words = [w for w, d in stmt]
                    # `struct {` or `struct TAG {` opens a record body; a function whose
                    # last parameter has a struct type (`f(struct S *p) {`) does not
                    record = bool(words) and (words[-1] in ("struct", "union") or (
                        len(words) >= 2 and words[-2] in ("struct", "union") and words[-1] not in C_KEYWORDS))
                    if not record:  # a function's parameters, a block: the statement ends here
                        end_statement(definition=True)
                    frames.append([stmt, hit, record, False])
                    stmt, hit, depth, in_init, parens, params = [], False, 0, False, [], 0
                    continue
                end_statement(definition=False)
                stmt, hit, depth, in_init, parens, params = [], False, 0, False, [], 0
                if x == "}" and frames:
                    outer, outer_hit, record, inside = frames.pop()
                    if inside and frames:
                        frames[-1][3] = True
                    if record:  # the declaration goes on after the body: `} a, *b;`
                        if inside:
                            words = [w for w, d in outer]
                            tag = [w for w in words[-2:] if w not in C_KEYWORDS]
                            types.update(tag)
                            names.update(tag)
                        stmt, hit = outer, outer_hit or inside
    end_statement(definition=False)
    return names


class Out(list):
    """The output pieces; their byte length when asked (a pragma's position)."""
    def __init__(self):
        super().__init__()
        self.counted, self.count = 0, 0

    @property
    def bytes(self):
        self.count += sum(len(p.encode("utf-8", "surrogateescape")) for p in self[self.counted:])
        self.counted = len(self)
        return self.count


def prepass(text, static_threads=None):
    """(text, layouts, pragmas, names): pragmas lists (byte offset in text,
    consistency) where the `#pragma upc strict|relaxed` state changes (UPC 1.3
    §6.7.1: to the end of the file, or of the compound statement that contains
    the pragma); names the identifiers through which code can reach shared data
    (_relevant_names)."""
    toks = tokenize(text)
    shared_names = _shared_typedef_names(toks)
    names = _relevant_names(toks, shared_names)  # before the rewrites below change token texts
    _array_parameters(toks, static_threads)
    if not static_threads:
        _pointer_to_rows_threads(toks)
    layouts = Layouts()
    out, pragmas = _rewrite(toks, static_threads, layouts, shared_names)
    return out, layouts, pragmas, names


def _krparam_specifiers_end(toks, i, end):
    """When the `shared` at toks[i] (its block size ending at `end`) begins a
    declaration right after a ')' (a K&R parameter declaration list), the index
    of the first token after its type specifiers: the first `*` or `(`, or the
    declarator's name (an identifier followed by , ; [ ) =). Else None."""
    p = _significant(toks, i, -1)
    if p < 0 or toks[p].text != ")":
        return None
    j = _significant(toks, end - 1, 1)
    seen = False
    while j < len(toks) and toks[j].kind == "id":
        nxt = _significant(toks, j, 1)
        if seen and nxt < len(toks) and toks[nxt].text in (",", ";", "[", ")", "="):
            return j  # j is the declarator's name
        seen = True
        j = nxt
    return j if seen and j < len(toks) and toks[j].text in ("*", "(") else None


def _fragment(toks, a, b, static_threads, layouts, shared_names):
    """The rewrite of the tokens [a, b) (a clause of upc_forall, the operand of
    sizeof or of upc_barrier): the same rules, on the same tokens."""
    return _rewrite(toks[a:b], static_threads, layouts, shared_names)[0] if a < b else ""


def _rewrite(toks, static_threads, layouts, shared_names):
    """(text, pragmas) of the token list rewritten (see the module's docstring)."""
    default_consistency = "relaxed"
    pragmas = [(0, "relaxed")]
    saved = []  # the state at each open brace (outside system headers)
    out = Out()
    i = 0
    n = len(toks)
    removed = set()  # strict/relaxed tokens folded into a shared qualifier
    deferred = {}  # token index -> text to emit before it (a moved shared qualifier)
    while i < n:
        t = toks[i]
        if i in deferred:
            out.append(deferred.pop(i))
        if t.kind == "marker":
            m = re.match(r"#\s*pragma\s+upc\s+(strict|relaxed)\b", t.text)
            if m and not t.system:
                default_consistency = m.group(1)
                pragmas.append((out.bytes, default_consistency))
                out.append("")
            else:
                out.append(t.text)
            i += 1
            continue
        if t.kind == "punct" and not t.system and t.text in "{}":
            if t.text == "{":
                saved.append(default_consistency)
            elif saved:
                before = saved.pop()
                if before != default_consistency:
                    default_consistency = before
                    pragmas.append((out.bytes, before))
        if t.kind != "id" or t.system or i in removed:
            out.append("" if i in removed else t.text)
            i += 1
            continue
        w = t.text
        if w == "shared":
            block, end = "1", i + 1
            j = _significant(toks, i, 1)
            if j < n and toks[j].text == "[":
                k = _balanced(toks, j, "[", "]")
                inner = _text(toks, j + 1, k).strip()
                if inner == "":
                    block = "0"
                elif inner == "*":
                    block = "*"
                else:
                    block = inner
                    if not static_threads and any(toks[z].kind == "id" and toks[z].text == "THREADS"
                                                  for z in range(j + 1, k)):
                        # UPC 1.3 6.5.1.1: the block size is an integer constant
                        # expression, which THREADS is only with a static THREADS
                        raise UpcError(t.file, t.line, f"block size '{inner}' contains THREADS, which is not a "
                                                       f"constant without a static THREADS (upcc -T N)")
                    value = _constant(inner)
                    if value is not None and value > 4294967296:
                        raise UpcError(t.file, t.line, f"block size {inner} is larger than UPC_MAX_BLOCK_SIZE "
                                                       f"(4294967296)")
                    if value is not None and value < 0:
                        raise UpcError(t.file, t.line, f"block size {inner} is negative")
                end = k + 1
            consistency = None
            # strict/relaxed among the neighbouring qualifiers
            for step in (-1, 1):
                j = _significant(toks, i if step < 0 else end - 1, step)
                while 0 <= j < n and toks[j].text in ("const", "volatile", "restrict", "strict", "relaxed",
                                                      "static", "extern"):
                    if toks[j].text in ("strict", "relaxed"):
                        if consistency and consistency != toks[j].text:
                            raise UpcError(t.file, t.line, "a shared type cannot be both strict and relaxed")
                        consistency = toks[j].text
                        removed.add(j)  # one before `shared` was dropped already (below)
                    j = _significant(toks, j, step)
            k_index = layouts.index(block, consistency)  # None: the pragma in effect at the access
            attribute = f"__attribute__((address_space({k_index})))"
            after = _krparam_specifiers_end(toks, i, end)
            if after is not None:
                # The first declaration of a K&R parameter list (`f(v, r) shared [] T *v;`):
                # an attribute right after the ')' would be the function's, so the
                # qualifier goes after the type specifiers (`T attr *v`), where it is the type's.
                deferred[after] = " " + attribute + " "
                out.append(_newlines(toks, i, end))
            else:
                out.append(attribute + _newlines(toks, i, end))
            i = end
            continue
        if w in ("strict", "relaxed"):
            j = _significant(toks, i, 1)
            while j < n and toks[j].text in ("const", "volatile", "restrict", "strict", "relaxed", "static", "extern"):
                j = _significant(toks, j, 1)
            if j < n and toks[j].text == "shared":
                out.append("")  # folded into the shared qualifier that follows (its backward scan)
                i += 1
                continue
            j = _significant(toks, i, 1)
            if j < n and toks[j].text == "[":
                raise UpcError(t.file, t.line, f"a block size applies to shared types only: "
                                               f"'{w} [...]' without 'shared'")
            # `strict` without shared in the same specifiers: shared [default] strict
            # is only meaningful with shared; alone it qualifies nothing we translate.
            out.append(t.text)
            i += 1
            continue
        if w == "THREADS":
            out.append(str(static_threads) if static_threads else "__upcc_THREADS")
            i += 1
            continue
        if w == "MYTHREAD":
            out.append("__upcc_MYTHREAD")
            i += 1
            continue
        if w in ("upc_barrier", "upc_notify", "upc_wait"):
            j = _significant(toks, i, 1)
            k = j
            while k < n and toks[k].text != ";":
                k += 1
            arg = _fragment(toks, j, k, static_threads, layouts, shared_names)
            out.append(f"__upcc_{w[4:]}({arg})" + _newlines(toks, i, j))
            i = k
            continue
        if w in ("upc_blocksizeof", "upc_elemsizeof", "upc_localsizeof"):
            # a type or an expression: (__typeof__(X) *)0 carries either as a type
            j = _significant(toks, i, 1)
            if j < n and toks[j].text == "(":
                k = _balanced(toks, j, "(", ")")
                inner = (j + 1, k)
                end = k + 1
            elif j < n and (toks[j].kind == "id" or toks[j].text in ("*", "&")):
                # a unary expression without parentheses: `upc_blocksizeof *p`,
                # `upc_elemsizeof a[0]`, `upc_localsizeof s.m`
                k = j
                while k < n and toks[k].text in ("*", "&"):
                    k = _significant(toks, k, 1)
                if k < n and toks[k].text == "(":
                    k = _balanced(toks, k, "(", ")") + 1
                elif k < n and toks[k].kind == "id":
                    k += 1
                else:
                    raise UpcError(t.file, t.line, f"{w} needs an operand: a type or an expression")
                while True:
                    q = _significant(toks, k - 1, 1)
                    if q < n and toks[q].text == "[":
                        k = _balanced(toks, q, "[", "]") + 1
                    elif q < n and toks[q].text in (".", "->"):
                        r = _significant(toks, q, 1)
                        if r >= n or toks[r].kind != "id":
                            break
                        k = r + 1
                    else:
                        break
                inner, end = (j, k), k
            else:
                raise UpcError(t.file, t.line, f"{w} needs an operand: a type or an expression")
            x = _fragment(toks, inner[0], inner[1], static_threads, layouts, shared_names)
            out.append(f"__upcc_{w[4:]}((__typeof__({x}) *)0)" + _newlines(toks, i, j))
            i = end
            continue
        if w in ("sizeof", "_Alignof", "__alignof__", "__alignof"):
            # sizeof(T) of a type that mentions shared (or a typedef of one):
            # libclang does not give the operand type of sizeof(type-name), so the
            # operand becomes an expression of that type (still a constant
            # expression; an expression operand keeps its meaning too)
            j = _significant(toks, i, 1)
            if j < n and toks[j].text == "(":
                k = _balanced(toks, j, "(", ")")
                r = _significant(toks, k, 1)
                if (r >= n or toks[r].text != "{") and any(
                        toks[z].kind == "id" and (toks[z].text == "shared" or toks[z].text in shared_names)
                        for z in range(j + 1, k)):
                    first = _significant(toks, j, 1)
                    type_name = first < k and (toks[first].text in DECLARATION_START or
                                               toks[first].text in shared_names)
                    if type_name and not static_threads and any(toks[z].text == "THREADS" for z in range(j + 1, k)):
                        # the parse sees THREADS as 1: the type's size would be wrong
                        raise UpcError(t.file, t.line, f"{w} of a shared type with THREADS in a dimension needs a "
                                                       f"static THREADS (upcc -T N); {w} of the object itself works")
                    x = _fragment(toks, j + 1, k, static_threads, layouts, shared_names)
                    out.append(f"{w}(*(__typeof__({x}) *)0)" + _newlines(toks, i, j))
                    i = k + 1
                    continue
        if w == "upc_fence":
            out.append("__upcc_fence()")
            i += 1
            continue
        if w == "upc_forall":
            j = _significant(toks, i, 1)
            if j >= n or toks[j].text != "(":
                raise UpcError(t.file, t.line, "upc_forall must be followed by '(' and four clauses")
            k = _balanced(toks, j, "(", ")")
            parts, depth, start = [], 0, j + 1
            for q in range(j + 1, k):
                x = toks[q].text
                if x in "([{":
                    depth += 1
                elif x in ")]}":
                    depth -= 1
                elif x == ";" and depth == 0:
                    parts.append((start, q))
                    start = q + 1
            parts.append((start, k))
            if len(parts) != 4:
                raise UpcError(t.file, t.line,
                               f"upc_forall has {len(parts)} clauses; it takes four: "
                               "(init; condition; step; affinity)")
            # Rewrite the clause tokens too (shared, THREADS, ...)
            if _text(toks, *parts[3]).strip() == "continue":
                parts[3] = (parts[3][0], parts[3][0])  # UPC 1.3 §6.6.2: the same as an empty affinity
            sub = [_fragment(toks, s, e, static_threads, layouts, shared_names) for s, e in parts]
            out.append(f"for ({sub[0]};{sub[1]};{sub[2]}) if (__upcc_forall_aff({sub[3].strip()}))")
            i = k + 1
            continue
        out.append(t.text)
        i += 1
    return "".join(out), pragmas
