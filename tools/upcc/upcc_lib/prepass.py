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
import bisect
import itertools
import operator
import re

from .errors import UpcError

# The tokens, in the order tried (a character no other alternative takes is a
# one-character punctuator). Only the texts are found here; their kinds follow
# from their first characters (_kinds).
TOKEN = re.compile(r"""
    [ \t\r\f\v]+                                  # whitespace
  | \n
  | ^\#[^\n]*                                     # a line marker or #pragma
  | L?"(?:[^"\\\n]|\\.)*"|L?'(?:[^'\\\n]|\\.)*'   # a string or character literal
  | [A-Za-z_][A-Za-z_0-9]*                        # an identifier or keyword
  | \.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*         # a number
  | ->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\.\.\.|\#\#|.
""", re.VERBOSE | re.MULTILINE | re.DOTALL)

LINE_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"([ 0-9]*)')

# A token's kind from its first character; "?" where more than it decides.
_KIND_OF_FIRST = dict.fromkeys(" \t\r\f\v", "ws")
_KIND_OF_FIRST.update(dict.fromkeys("ABCDEFGHIJKMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", "id"))
_KIND_OF_FIRST.update(dict.fromkeys("0123456789", "num"))
_KIND_OF_FIRST.update({"\n": "nl", "#": "?", '"': "?", "'": "?", "L": "?", ".": "?"})


_first_char = operator.itemgetter(0)


def _kinds(texts):
    """The kind of each token text: ws, nl, marker, str, id, num or punct."""
    # (map over C functions: a list comprehension's loop costs twice as much)
    kinds = list(map(_KIND_OF_FIRST.get, map(_first_char, texts), itertools.repeat("punct")))
    for i in list(_indices(kinds, "?")):
        t = texts[i]
        c = t[0]
        if c == "#":  # a marker starts a line (a newline is a token of its own)
            kinds[i] = "marker" if i == 0 or texts[i - 1] == "\n" else "punct"
        elif c == "L":
            kinds[i] = "str" if len(t) > 1 and t[1] in "\"'" else "id"
        elif c == ".":
            kinds[i] = "num" if len(t) > 1 and t[1] in "0123456789" else "punct"
        else:  # a quote: a literal, or a lone quote that closes nowhere on its line
            kinds[i] = "str" if len(t) > 1 else "punct"
    return kinds


class Tokens:
    """The tokens of a text, as parallel lists read by index (one Python object
    per token cost more than all the passes over them): kinds[i], texts[i] (a pass
    may blank a token's text, keeping its newlines), system[i] (whether it comes
    from a system header: line-marker flag 3). A token's presumed file and line
    are worked out only for an error message (where)."""

    def __init__(self, kinds, texts, system, markers, line_markers, parent=None, base=0):
        self.kinds, self.texts, self.system = kinds, texts, system
        self.markers = markers  # the indices of the markers (line markers, #pragma), in order
        self.line_markers = line_markers  # [(token index, file, line)], in order
        self.parent, self.base = parent, base

    def __len__(self):
        return len(self.texts)

    def slice(self, a, b):
        """The tokens [a, b) as a list of their own (indices from 0)."""
        markers = self.markers[bisect.bisect_left(self.markers, a):bisect.bisect_left(self.markers, b)]
        return Tokens(self.kinds[a:b], self.texts[a:b], self.system[a:b], [m - a for m in markers], None, self, a)

    def where(self, i):
        """(file, line) of token i, from the last line marker before it and the
        newlines between (the passes keep every token's newlines)."""
        if self.parent is not None:
            return self.parent.where(self.base + i)
        k = bisect.bisect_left(self.line_markers, (i,)) - 1
        if k < 0:
            return "<input>", 1 + "".join(self.texts[:i]).count("\n")
        at, file, line = self.line_markers[k]
        return file, line - 1 + "".join(self.texts[at + 1:i]).count("\n")

    def error(self, i, message):
        return UpcError(*self.where(i), message)


def tokenize(text):
    """The Tokens of a text, with what its line markers say."""
    texts = TOKEN.findall(text)
    kinds = _kinds(texts)
    markers = list(_indices(kinds, "marker"))
    line_markers, system, flag = [], [], False
    for i in markers:
        lm = LINE_MARKER.match(texts[i])
        if lm:
            system += [flag] * (i + 1 - len(system))  # (the marker itself is before it)
            flag = "3" in lm.group(3).split()
            line_markers.append((i, lm.group(2), int(lm.group(1))))
    system += [flag] * (len(texts) - len(system))
    return Tokens(kinds, texts, system, markers, line_markers)


class Layouts:
    def __init__(self):
        self.table = []  # K-1 -> (block, consistency)

    def index(self, block, consistency):
        key = (block, consistency)
        if key not in self.table:
            self.table.append(key)
        return self.table.index(key) + 1


def _significant(kinds, i, step):
    """The index of the next token from i in direction step that is not
    whitespace (len(kinds) or -1 at the end)."""
    j = i + step
    n = len(kinds)
    while 0 <= j < n and (kinds[j] == "ws" or kinds[j] == "nl"):
        j += step
    return j


def _newlines(toks, a, b):
    """The newlines of the tokens [a, b): what stays of them when they are replaced."""
    return "\n" * "".join(toks.texts[a:b]).count("\n")


def _balanced(toks, i, open_, close):
    """Index of the token closing the group opened at toks[i]."""
    texts = toks.texts
    depth = 0
    for j in range(i, len(texts)):
        if texts[j] == open_:
            depth += 1
        elif texts[j] == close:
            depth -= 1
            if depth == 0:
                return j
    raise toks.error(i, f"unbalanced '{open_}'")


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
    return "".join(toks.texts[a:b])


def _indices(texts, word):
    """The indices of the tokens whose text is word, in order (found by the
    list's own search: most passes look for a few words among all tokens)."""
    i = -1
    try:
        while True:
            i = texts.index(word, i + 1)
            yield i
    except ValueError:
        return


def _array_parameters(toks, static_threads):
    """A parameter declared as an array of shared (`void f(strict shared int
    a[2][10*THREADS])`) is a pointer to its element (C11 6.7.6.3p7), but clang
    rejects an address space on an array parameter: rewrite `a[2]` to `(*a)`
    before parsing (the removed tokens' newlines are kept). Only parameter lists
    at file scope: a '(' after an identifier or ')' outside braces."""
    kinds, texts, system = toks.kinds, toks.texts, toks.system
    braces = 0
    stack = []  # for each open '(' outside braces: is it a parameter list
    brackets = ("{", "}", "(", ")")
    for i, x in enumerate(texts):
        if x not in brackets or system[i] or kinds[i] != "punct":
            continue
        if x == "{":
            braces += 1
        elif x == "}":
            braces -= 1
        elif braces == 0 and x == "(":
            j = _significant(kinds, i, -1)
            stack.append(j >= 0 and (kinds[j] == "id" or texts[j] == ")"))
        elif braces == 0 and x == ")" and stack:
            is_params = stack.pop()
            if is_params:
                o = _matching_open(texts, i)
                if o is not None:
                    _rewrite_params(toks, o, i, static_threads)


def _matching_open(texts, close):
    depth = 0
    for j in range(close, -1, -1):
        if texts[j] == ")":
            depth += 1
        elif texts[j] == "(":
            depth -= 1
            if depth == 0:
                return j
    return None


def _rewrite_params(toks, o, c, static_threads):
    kinds, texts = toks.kinds, toks.texts
    # split the list at its top-level commas
    params, depth, start = [], 0, o + 1
    for q in range(o + 1, c):
        x = texts[q]
        if x in ("(", "["):
            depth += 1
        elif x in (")", "]"):
            depth -= 1
        elif x == "," and depth == 0:
            params.append((start, q))
            start = q + 1
    params.append((start, c))
    for a, b in params:
        if not any(kinds[q] == "id" and texts[q] == "shared" for q in range(a, b)):
            continue
        depth = 0
        for q in range(a, b):
            x = texts[q]
            if x in ("(", "["):
                depth += 1
            elif x in (")", "]"):
                depth -= 1
            elif depth == 0 and kinds[q] == "id" and x != "shared":  # not `shared [B]`
                r = _significant(kinds, q, 1)
                if r < b and texts[r] == "[":
                    k = _balanced(toks, r, "[", "]")
                    rest = [z for z in range(k + 1, b) if texts[z] == "THREADS"]
                    if rest and not static_threads:
                        raise toks.error(q, f"parameter '{x}': an array of shared whose inner dimension "
                                            f"contains THREADS needs a static THREADS (upcc -T N)")
                    texts[q] = f"(*{x})"
                    for z in range(q + 1, k + 1):
                        if kinds[z] != "nl":
                            texts[z] = "\n" * texts[z].count("\n") if kinds[z] in ("str", "punct") else ""
                    break


KEYWORDS_BEFORE_PAREN = ("sizeof", "if", "while", "for", "switch", "return", "_Alignof", "__typeof__", "typeof",
                         "__typeof", "_Generic", "__attribute__", "case")


def _pointer_to_rows_threads(toks):
    """Without -T: a pointer to an array of shared whose row contains THREADS
    (`shared int (*a)[10*THREADS]`) cannot be translated (the row's length is
    not a constant; the parse would see THREADS as 1): the same error as for the
    array-spelled parameter, or, for a variable or a type name, its own."""
    kinds, texts, system = toks.kinds, toks.texts, toks.system
    n = len(texts)
    for i in _indices(texts, "("):
        if system[i]:
            continue
        j = _significant(kinds, i, 1)
        if j >= n or texts[j] != "*":
            continue
        close = _balanced(toks, i, "(", ")")
        name = None
        for z in range(j + 1, close):  # the declared name: the first identifier not a qualifier
            if kinds[z] == "id" and texts[z] not in ("const", "volatile", "restrict", "__restrict",
                                                     "__restrict__", "shared", "strict", "relaxed"):
                name = texts[z]
                break
            if texts[z] in ("(", "["):
                break
        r = _significant(kinds, close, 1)
        if r >= n or texts[r] != "[":
            continue
        threads = False
        while r < n and texts[r] == "[":  # the row's dimensions
            k = _balanced(toks, r, "[", "]")
            threads = threads or any(texts[z] == "THREADS" for z in range(r + 1, k))
            r = _significant(kinds, k, 1)
        if not threads:
            continue
        # the specifiers before the '(': back to the start of the declaration
        depth, b, shared, param = 0, i - 1, False, False
        while b >= 0:
            x = texts[b]
            if x in (")", "]"):
                depth += 1
            elif x in ("(", "["):
                if depth == 0:
                    p = _significant(kinds, b, -1)
                    param = x == "(" and p >= 0 and (texts[p] == ")" or (
                        kinds[p] == "id" and texts[p] not in KEYWORDS_BEFORE_PAREN))
                    break
                depth -= 1
            elif depth == 0 and x in (";", "{", "}", ","):
                if x == ",":  # another parameter, or another declarator: find which
                    d2, e = 0, b - 1
                    while e >= 0 and not (d2 == 0 and texts[e] in (";", "{", "}", "(")):
                        d2 += texts[e] in (")", "]")
                        d2 -= texts[e] in ("(", "[")
                        e -= 1
                    if e >= 0 and texts[e] == "(":
                        p = _significant(kinds, e, -1)
                        param = p >= 0 and (texts[p] == ")" or (
                            kinds[p] == "id" and texts[p] not in KEYWORDS_BEFORE_PAREN))
                    if not param:  # `shared int a, (*p)[..]`: the specifiers are before the first
                        b = e
                        while b >= 0 and texts[b] not in (";", "{", "}"):
                            shared = shared or texts[b] == "shared"
                            b -= 1
                break
            shared = shared or (kinds[b] == "id" and x == "shared")
            b -= 1
        if not shared:
            continue
        if param and name:
            raise toks.error(i, f"parameter '{name}': an array of shared whose inner dimension "
                                f"contains THREADS needs a static THREADS (upcc -T N)")
        what = f"'{name}': a" if name else "a"
        raise toks.error(i, f"{what} pointer to an array of shared whose dimension contains THREADS "
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
    kinds, texts, system = toks.kinds, toks.texts, toks.system
    names = set()
    n = len(texts)
    after = -1  # the end of the typedef read last
    for i in _indices(texts, "typedef"):
        if i <= after or kinds[i] != "id" or system[i]:
            continue
        depth, j, ids, shared = 0, i + 1, [], False
        while j < n and not (depth == 0 and texts[j] == ";"):
            x = texts[j]
            if x in ("{", "(", "["):
                depth += 1
            elif x in ("}", ")", "]"):
                depth -= 1
            elif kinds[j] == "id":
                if x == "shared" or x in names:
                    shared = True
                elif x not in C_KEYWORDS and depth == 0 or x not in C_KEYWORDS and \
                        texts[j - 1] in ("*", "("):
                    ids.append(x)
            j += 1
        if shared:
            names.update(ids)
        after = j
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
    kinds, texts, system = toks.kinds, toks.texts, toks.system
    n = len(texts)
    prev = -1  # the index of the last token that is not whitespace
    for ti, k in enumerate(kinds):
        if k == "ws" or k == "nl" or k == "marker" or system[ti]:
            continue
        x = texts[ti]
        before, prev = prev, ti
        if k == "id":
            if not in_init:
                stmt.append((x, params))
                if x == "shared" or x in types:
                    hit = True
        elif k == "punct":
            if x in ("(", "["):
                if not in_init and x == "(" and not stmt:
                    stmt.append(("(", 0))  # `for (` and casts start with it
                # `f(` or `(*fp)(`: a function declarator's parameters; `(*p)`, also
                # after a tag or a typedef name (`struct rec (*rp)[3]`), groups
                after = _significant(kinds, ti, 1)
                plist = x == "(" and before >= 0 and (texts[before] in (")", "]") or (
                    kinds[before] == "id" and texts[before] not in C_KEYWORDS)) and not (
                    after < n and texts[after] == "*")
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
    out, pragmas = Rewrite(toks, static_threads, layouts, shared_names).run()
    return out, layouts, pragmas, names


def _krparam_specifiers_end(toks, i, end):
    """When the `shared` at toks[i] (its block size ending at `end`) begins a
    declaration right after a ')' (a K&R parameter declaration list), the index
    of the first token after its type specifiers: the first `*` or `(`, or the
    declarator's name (an identifier followed by , ; [ ) =). Else None."""
    kinds, texts = toks.kinds, toks.texts
    n = len(texts)
    p = _significant(kinds, i, -1)
    if p < 0 or texts[p] != ")":
        return None
    j = _significant(kinds, end - 1, 1)
    seen = False
    while j < n and kinds[j] == "id":
        nxt = _significant(kinds, j, 1)
        if seen and nxt < n and texts[nxt] in (",", ";", "[", ")", "="):
            return j  # j is the declarator's name
        seen = True
        j = nxt
    return j if seen and j < n and texts[j] in ("*", "(") else None


QUALIFIERS_BESIDE_SHARED = ("const", "volatile", "restrict", "strict", "relaxed", "static", "extern")


class Rewrite:
    """The rewrite of a token list (the whole text, or a fragment: a clause of
    upc_forall, the operand of sizeof or of upc_barrier), token by token: the
    text of each token, or, for a UPC word outside system headers, the text its
    rule gives for it and the tokens it takes (a rule's method returns the index
    after them, or None to keep the word as it is)."""

    RULES = {"shared": "shared_qualifier", "strict": "consistency_word", "relaxed": "consistency_word",
             "THREADS": "threads", "MYTHREAD": "mythread",
             "upc_barrier": "barrier", "upc_notify": "barrier", "upc_wait": "barrier",
             "upc_blocksizeof": "upc_sizeof", "upc_elemsizeof": "upc_sizeof", "upc_localsizeof": "upc_sizeof",
             "sizeof": "sizeof_type", "_Alignof": "sizeof_type", "__alignof__": "sizeof_type",
             "__alignof": "sizeof_type", "upc_fence": "fence", "upc_forall": "forall"}
    RULE_WORDS = frozenset(RULES).union(("{", "}"))

    def __init__(self, toks, static_threads, layouts, shared_names):
        self.toks, self.kinds, self.texts = toks, toks.kinds, toks.texts
        self.static_threads, self.layouts, self.shared_names = static_threads, layouts, shared_names
        self.consistency = "relaxed"  # the `#pragma upc` state in effect
        self.pragmas = [(0, "relaxed")]
        self.saved = []  # the state at each open brace (outside system headers)
        self.out = Out()
        self.removed = set()  # strict/relaxed tokens folded into a shared qualifier
        self.deferred = {}  # token index -> text to emit before it (a moved shared qualifier)

    def run(self):
        """(text, pragmas) of the tokens rewritten. Only the tokens a rule may
        apply to are looked at one by one; the text between them is copied
        whole."""
        pos = 0  # the tokens before it are done
        for i in self.candidates():
            if i >= pos:
                self.copy(pos, i)
                pos = self.token(i)
        self.copy(pos, len(self.texts))
        return "".join(self.out), self.pragmas

    def candidates(self):
        """The indices of the markers, the braces and the words with a rule, in order."""
        words = self.RULE_WORDS
        found = [i for i, x in enumerate(self.texts) if x in words]
        return sorted(found + self.toks.markers) if self.toks.markers else found

    def copy(self, a, b):
        """The tokens [a, b), which no rule applies to, as they are (with a
        qualifier moved before one of them)."""
        if a >= b:
            return
        texts, deferred = self.texts, self.deferred
        if deferred and any(a <= j < b for j in deferred):
            for j in range(a, b):
                if j in deferred:
                    self.out.append(deferred.pop(j))
                self.out.append(texts[j])
        else:
            self.out.append("".join(texts[a:b]))

    def token(self, i):
        """Rewrite the token at i (a marker, a brace or a word with a rule); the
        index after what it took."""
        kinds, texts, out, removed = self.kinds, self.texts, self.out, self.removed
        if i in self.deferred:
            out.append(self.deferred.pop(i))
        k = kinds[i]
        if k == "id" and not self.toks.system[i] and i not in removed:
            after = getattr(self, self.RULES[texts[i]])(i)
            if after is not None:
                return after
        elif k == "marker":
            self.marker(i)
            return i + 1
        elif k == "punct" and not self.toks.system[i] and texts[i] in ("{", "}"):
            self.brace(texts[i])
        out.append("" if i in removed else texts[i])
        return i + 1

    def fragment(self, a, b):
        """The rewrite of the tokens [a, b): the same rules, on the same tokens."""
        if a >= b:
            return ""
        return Rewrite(self.toks.slice(a, b), self.static_threads, self.layouts, self.shared_names).run()[0]

    def next_significant(self, i, step=1):
        return _significant(self.kinds, i, step)

    # ---- the consistency in effect: #pragma upc and the braces that end it ----
    def marker(self, i):
        m = re.match(r"#\s*pragma\s+upc\s+(strict|relaxed)\b", self.texts[i])
        if m and not self.toks.system[i]:
            self.consistency = m.group(1)
            self.pragmas.append((self.out.bytes, self.consistency))
            self.out.append("")
        else:
            self.out.append(self.texts[i])

    def brace(self, x):
        if x == "{":
            self.saved.append(self.consistency)
        elif self.saved:
            before = self.saved.pop()
            if before != self.consistency:
                self.consistency = before
                self.pragmas.append((self.out.bytes, before))

    # ---- shared [B] strict|relaxed ----
    def shared_qualifier(self, i):
        """`shared`, its block size and a neighbouring strict/relaxed: an address space."""
        block, end = self.block_size(i)
        k_index = self.layouts.index(block, self.neighbour_consistency(i, end))  # None: the pragma's, at the access
        attribute = f"__attribute__((address_space({k_index})))"
        after = _krparam_specifiers_end(self.toks, i, end)
        if after is not None:
            # The first declaration of a K&R parameter list (`f(v, r) shared [] T *v;`):
            # an attribute right after the ')' would be the function's, so the
            # qualifier goes after the type specifiers (`T attr *v`), where it is the type's.
            self.deferred[after] = " " + attribute + " "
            self.out.append(_newlines(self.toks, i, end))
        else:
            self.out.append(attribute + _newlines(self.toks, i, end))
        return end

    def block_size(self, i):
        """(block, index after the qualifier) of the `shared` at i: '1' without
        [B], '0' for [], '*' for [*], else the text of B (checked when constant)."""
        texts, n = self.texts, len(self.texts)
        j = self.next_significant(i)
        if j >= n or texts[j] != "[":
            return "1", i + 1
        k = _balanced(self.toks, j, "[", "]")
        inner = _text(self.toks, j + 1, k).strip()
        if inner == "":
            return "0", k + 1
        if inner == "*":
            return "*", k + 1
        if not self.static_threads and any(self.kinds[z] == "id" and texts[z] == "THREADS" for z in range(j + 1, k)):
            # UPC 1.3 6.5.1.1: the block size is an integer constant
            # expression, which THREADS is only with a static THREADS
            raise self.toks.error(i, f"block size '{inner}' contains THREADS, which is not a "
                                     f"constant without a static THREADS (upcc -T N)")
        value = _constant(inner)
        if value is not None and value > 4294967296:
            raise self.toks.error(i, f"block size {inner} is larger than UPC_MAX_BLOCK_SIZE (4294967296)")
        if value is not None and value < 0:
            raise self.toks.error(i, f"block size {inner} is negative")
        return inner, k + 1

    def neighbour_consistency(self, i, end):
        """strict or relaxed among the qualifiers around the shared qualifier [i,
        end) (those tokens are dropped), or None."""
        texts, n = self.texts, len(self.texts)
        consistency = None
        for step in (-1, 1):
            j = self.next_significant(i if step < 0 else end - 1, step)
            while 0 <= j < n and texts[j] in QUALIFIERS_BESIDE_SHARED:
                if texts[j] in ("strict", "relaxed"):
                    if consistency and consistency != texts[j]:
                        raise self.toks.error(i, "a shared type cannot be both strict and relaxed")
                    consistency = texts[j]
                    self.removed.add(j)  # one before `shared` was dropped already (consistency_word)
                j = self.next_significant(j, step)
        return consistency

    def consistency_word(self, i):
        """strict or relaxed: folded into a shared qualifier that follows; else kept."""
        texts, n = self.texts, len(self.texts)
        j = self.next_significant(i)
        while j < n and texts[j] in QUALIFIERS_BESIDE_SHARED:
            j = self.next_significant(j)
        if j < n and texts[j] == "shared":
            self.out.append("")  # folded into the shared qualifier that follows (its backward scan)
            return i + 1
        j = self.next_significant(i)
        if j < n and texts[j] == "[":
            raise self.toks.error(i, f"a block size applies to shared types only: "
                                     f"'{texts[i]} [...]' without 'shared'")
        # `strict` without shared in the same specifiers: shared [default] strict
        # is only meaningful with shared; alone it qualifies nothing we translate.
        return None

    # ---- THREADS, MYTHREAD, upc_fence, barriers ----
    def threads(self, i):
        self.out.append(str(self.static_threads) if self.static_threads else "__upcc_THREADS")
        return i + 1

    def mythread(self, i):
        self.out.append("__upcc_MYTHREAD")
        return i + 1

    def fence(self, i):
        self.out.append("__upcc_fence()")
        return i + 1

    def barrier(self, i):
        """upc_barrier/upc_notify/upc_wait [e]; -> __upcc_barrier(e); ..."""
        texts, n = self.texts, len(self.texts)
        j = self.next_significant(i)
        k = j
        while k < n and texts[k] != ";":
            k += 1
        self.out.append(f"__upcc_{texts[i][4:]}({self.fragment(j, k)})" + _newlines(self.toks, i, j))
        return k

    # ---- upc_*sizeof and sizeof of a shared type name ----
    def upc_sizeof(self, i):
        """upc_blocksizeof/elemsizeof/localsizeof of a type or an expression:
        (__typeof__(X) *)0 carries either as a type."""
        texts, n = self.texts, len(self.texts)
        w = texts[i]
        j = self.next_significant(i)
        if j < n and texts[j] == "(":
            k = _balanced(self.toks, j, "(", ")")
            inner, end = (j + 1, k), k + 1
        elif j < n and (self.kinds[j] == "id" or texts[j] in ("*", "&")):
            end = self.unary_operand_end(i, j)
            inner = (j, end)
        else:
            raise self.toks.error(i, f"{w} needs an operand: a type or an expression")
        x = self.fragment(*inner)
        self.out.append(f"__upcc_{w[4:]}((__typeof__({x}) *)0)" + _newlines(self.toks, i, j))
        return end

    def unary_operand_end(self, i, j):
        """The end of a unary expression without parentheses starting at j, the
        operand of the upc_*sizeof at i: `upc_blocksizeof *p`, `upc_elemsizeof
        a[0]`, `upc_localsizeof s.m`."""
        kinds, texts, n = self.kinds, self.texts, len(self.texts)
        k = j
        while k < n and texts[k] in ("*", "&"):
            k = self.next_significant(k)
        if k < n and texts[k] == "(":
            k = _balanced(self.toks, k, "(", ")") + 1
        elif k < n and kinds[k] == "id":
            k += 1
        else:
            raise self.toks.error(i, f"{texts[i]} needs an operand: a type or an expression")
        while True:
            q = self.next_significant(k - 1)
            if q < n and texts[q] == "[":
                k = _balanced(self.toks, q, "[", "]") + 1
            elif q < n and texts[q] in (".", "->"):
                r = self.next_significant(q)
                if r >= n or kinds[r] != "id":
                    break
                k = r + 1
            else:
                break
        return k

    def sizeof_type(self, i):
        """sizeof(T) of a type that mentions shared (or a typedef of one):
        libclang does not give the operand type of sizeof(type-name), so the
        operand becomes an expression of that type (still a constant
        expression; an expression operand keeps its meaning too). Any other
        sizeof stays as it is (None)."""
        kinds, texts, n = self.kinds, self.texts, len(self.texts)
        w, shared_names = texts[i], self.shared_names
        j = self.next_significant(i)
        if j >= n or texts[j] != "(":
            return None
        k = _balanced(self.toks, j, "(", ")")
        r = self.next_significant(k)
        if (r < n and texts[r] == "{") or not any(
                kinds[z] == "id" and (texts[z] == "shared" or texts[z] in shared_names) for z in range(j + 1, k)):
            return None
        first = self.next_significant(j)
        type_name = first < k and (texts[first] in DECLARATION_START or texts[first] in shared_names)
        if type_name and not self.static_threads and any(texts[z] == "THREADS" for z in range(j + 1, k)):
            # the parse sees THREADS as 1: the type's size would be wrong
            raise self.toks.error(i, f"{w} of a shared type with THREADS in a dimension needs a "
                                     f"static THREADS (upcc -T N); {w} of the object itself works")
        self.out.append(f"{w}(*(__typeof__({self.fragment(j + 1, k)}) *)0)" + _newlines(self.toks, i, j))
        return k + 1

    # ---- upc_forall ----
    def forall(self, i):
        """upc_forall (a; b; c; d) -> for (a; b; c) if (__upcc_forall_aff(d)),
        the clauses rewritten too."""
        j = self.next_significant(i)
        if j >= len(self.texts) or self.texts[j] != "(":
            raise self.toks.error(i, "upc_forall must be followed by '(' and four clauses")
        k = _balanced(self.toks, j, "(", ")")
        parts = self.forall_clauses(i, j, k)
        if _text(self.toks, *parts[3]).strip() == "continue":
            parts[3] = (parts[3][0], parts[3][0])  # UPC 1.3 §6.6.2: the same as an empty affinity
        sub = [self.fragment(s, e) for s, e in parts]
        self.out.append(f"for ({sub[0]};{sub[1]};{sub[2]}) if (__upcc_forall_aff({sub[3].strip()}))")
        return k + 1

    def forall_clauses(self, i, j, k):
        """The four clauses [start, end) between the parentheses at j and k of
        the upc_forall at i: split at the ';' outside nested brackets."""
        texts = self.texts
        parts, depth, start = [], 0, j + 1
        for q in range(j + 1, k):
            x = texts[q]
            if x in "([{":
                depth += 1
            elif x in ")]}":
                depth -= 1
            elif x == ";" and depth == 0:
                parts.append((start, q))
                start = q + 1
        parts.append((start, k))
        if len(parts) != 4:
            raise self.toks.error(i, f"upc_forall has {len(parts)} clauses; it takes four: "
                                     "(init; condition; step; affinity)")
        return parts
