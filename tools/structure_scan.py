"""The C++ and Python scanning behind tools/check_structure.py (its docstring
says what is checked): C++ tokens without comments, quoted includes, matched
brackets, function bodies at namespace and class scope with the lines of their
data tables, the functions a file declares, its type names and the names it
mentions; Python functions through the ast module. Standard library only.
"""
import ast
import collections
import re

Token = collections.namedtuple("Token", "text kind line")


# ---------------------------------------------------------------- C++ tokens

TOKEN_RE = re.compile(r"""
    (?P<space>(?:[ \t\r\f\v\n]|\\\n)+)
  | (?P<comment>//(?:\\\n|[^\n])*|/\*.*?(?:\*/|\Z))
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)")
  | (?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)
  | (?P<char>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>->\*|<<=|>>=|<=>|\.\.\.|::|->|==|!=|<=|>=|&&|\|\||[-+*/%&|^]=|<<|\+\+|--|\#\#|.)
""", re.VERBOSE | re.DOTALL)


def tokenize(text):
    """Tokens of C++ source without comments and white space, and the set of
    lines that belong to preprocessor directives (a `#` first on its line, and
    the lines its backslashes continue it on)."""
    tokens = []
    directive_starts = []
    line = 1
    line_has_token = False
    new = tuple.__new__
    for m in TOKEN_RE.finditer(text):
        kind = m.lastgroup
        value = m.group()
        if kind == "space" or kind == "comment":
            newlines = value.count("\n")
            if newlines:
                line += newlines
                line_has_token = line_has_token and kind == "comment"
            continue
        if kind == "delim":
            kind = "raw"
        elif kind == "punct" and value == "#" and not line_has_token:
            directive_starts.append(line)
        tokens.append(new(Token, (value, kind, line)))
        line_has_token = True
        if kind == "raw" or kind == "string":
            line += value.count("\n")
    lines = text.split("\n")
    directive = set()
    for n in directive_starts:
        directive.add(n)
        while n <= len(lines) and lines[n - 1].rstrip().endswith("\\"):
            n += 1
            directive.add(n)
    return tokens, directive


def quoted_includes(tokens, directive_lines):
    """(line, path) of each #include "path"."""
    found = []
    for i in range(len(tokens) - 2):
        a, b, c = tokens[i], tokens[i + 1], tokens[i + 2]
        if (a.text == "#" and a.line in directive_lines and b.text == "include"
                and c.kind == "string" and c.line == a.line):
            found.append((a.line, c.text[1:-1]))
    return found


def match_brackets(tokens):
    """Index of the partner of each bracket token, or (None, error line)."""
    pairs = {"}": "{", ")": "(", "]": "["}
    match = {}
    stack = []
    for i, t in enumerate(tokens):
        if t.text in "{([" and t.kind == "punct":
            stack.append(i)
        elif t.text in pairs and t.kind == "punct":
            if not stack or tokens[stack[-1]].text != pairs[t.text]:
                return None, (t.line, "unmatched '%s'" % t.text)
            j = stack.pop()
            match[i], match[j] = j, i
    if stack:
        t = tokens[stack[-1]]
        return None, (t.line, "'%s' never closed" % t.text)
    return match, None


# ----------------------------------------------------- C++ function bodies

NOT_A_NAME = {"alignas", "decltype", "sizeof", "alignof", "noexcept", "throw", "__attribute__",
              "__declspec", "requires", "static_assert", "if", "while", "for", "switch", "catch",
              "return", "typeid"}
QUALIFIERS = {"const", "volatile", "noexcept", "override", "final", "mutable", "&", "&&",
              "constexpr", "try"}
QUALIFIER_CALLS = {"noexcept", "throw", "__attribute__", "alignas"}
BLOCK_KEYWORDS = {"else", "do", "try", "mutable", "noexcept", "const", "override", "final",
                  "constexpr", "consteval"}
CLASS_KEYWORDS = {"class", "struct", "union"}


def top_level(decl, match):
    """Indices of decl's tokens outside (), [], {} and template<...>; the
    brackets themselves are kept, their insides left out."""
    result = []
    i = 0
    while i < len(decl):
        idx, t = decl[i]
        if t.text in "([{" and t.kind == "punct" and idx in match:
            end = match[idx]
            result.append(i)
            while i < len(decl) and decl[i][0] < end:
                i += 1
            continue
        if t.text == "template" and i + 1 < len(decl) and decl[i + 1][1].text == "<":
            i = _skip_angles(decl, i + 1, match)
            continue
        result.append(i)
        i += 1
    return result


def _skip_angles(decl, i, match):
    depth = 0
    while i < len(decl):
        idx, t = decl[i]
        if t.text in "([{" and idx in match:
            end = match[idx]
            while i < len(decl) and decl[i][0] <= end:
                i += 1
            continue
        depth += {"<": 1, ">": -1}.get(t.text, 0)
        i += 1
        if depth == 0:
            break
    return i


def function_head(decl, match):
    """The declarator part of decl (constructor initialisers, qualifiers,
    requires-clause and trailing return type removed), or None when decl does
    not end like a function declarator."""
    tops = top_level(decl, match)
    texts = [decl[i][1].text for i in tops]
    for k, text in enumerate(texts):
        if text == ":" and k > 0 and texts[k - 1] in (")", "noexcept"):
            decl = decl[:tops[k]]
            tops = tops[:k]
            texts = texts[:k]
            break
    for k in range(len(texts) - 1, 0, -1):
        if texts[k] in ("->", "requires") and texts[k - 1] in QUALIFIERS | {")"}:
            decl = decl[:tops[k]]
            break
    while decl:
        idx, t = decl[-1]
        if t.text in QUALIFIERS:
            decl = decl[:-1]
        elif t.text == ")" and idx in match and _token_before(decl, match[idx]) in QUALIFIER_CALLS:
            decl = decl[:_position(decl, match[idx]) - 1]
        else:
            break
    if not decl or decl[-1][1].text != ")":
        return None
    return decl


def _position(decl, token_index):
    for k, (idx, _) in enumerate(decl):
        if idx == token_index:
            return k
    raise ValueError(token_index)


def _token_before(decl, token_index):
    k = _position(decl, token_index)
    return decl[k - 1][1].text if k > 0 else None


def function_name(head, match):
    """The (qualified) name before the parameter list of a function head."""
    p = _position(head, match[head[-1][0]])
    texts = [t.text for _, t in head[:p]]
    for back in range(1, min(6, len(texts)) + 1):
        if texts[-back] == "operator":
            j = len(texts) - back
            return _qualifier(texts, j) + "operator" + "".join(texts[j + 1:])
    j = len(texts)
    if j and texts[j - 1] == ">":
        j = _open_angle(texts, j - 1)
    if not j or not re.match(r"[A-Za-z_]", texts[j - 1]) or texts[j - 1] in NOT_A_NAME:
        return None
    name = texts[j - 1]
    j -= 1
    if j and texts[j - 1] == "~":
        name = "~" + name
        j -= 1
    return _qualifier(texts, j) + name


def _open_angle(texts, j):
    depth = 0
    while j >= 0:
        depth += {">": 1, "<": -1}.get(texts[j], 0)
        if depth == 0:
            return j
        j -= 1
    return 0


def _qualifier(texts, j):
    """'a::b::' when texts[:j] ends with a::b::."""
    parts = []
    while j >= 2 and texts[j - 1] == "::":
        k = j - 2
        if texts[k] == ">":
            k = _open_angle(texts, k) - 1
        if k < 0 or not re.match(r"[A-Za-z_]", texts[k]):
            break
        parts.insert(0, texts[k] + "::")
        j = k
    return "".join(parts)


def classify_scope_brace(decl, match):
    """What a `{` at namespace or class scope opens, from the tokens of the
    declaration before it: (kind, name) with kind namespace, linkage, class,
    function, lambda or data."""
    texts = [t.text for _, t in decl]
    if "namespace" in texts and "(" not in texts:
        return "namespace", None
    if len(decl) >= 2 and texts[-2] == "extern" and decl[-1][1].kind == "string":
        return "linkage", None
    tops = top_level(decl, match)
    top_texts = [texts[i] for i in tops]
    assign = [k for k, i in enumerate(tops) if texts[i] == "=" and (i == 0 or texts[i - 1] != "operator")]
    if assign:
        after = tops[assign[0]] + 1
        is_lambda = after < len(texts) and texts[after] == "["
        return ("lambda" if is_lambda else "data"), _declared_name(texts, tops[assign[0]])
    head = function_head(decl, match)
    if head is not None:
        name = function_name(head, match)
        if name:
            return "function", (name, head)
    if CLASS_KEYWORDS & set(top_texts):
        return "class", None
    return "data", _declared_name(texts, len(texts))


def _declared_name(texts, end):
    for k in range(end - 1, -1, -1):
        if re.match(r"[A-Za-z_]\w*$", texts[k]):
            return texts[k]
    return "?"


def _statement_has_trailing_return(tokens, q, match):
    """Whether the `{` at q follows `) -> type` of a lambda in its statement."""
    i = q - 1
    while i >= 0:
        t = tokens[i]
        if t.text in (")", "]", "}") and i in match:
            if t.text == "}":
                return False
            i = match[i] - 1
            continue
        if t.text in (";", "{", "(", ",", "=") and t.kind == "punct":
            return False
        if t.text == "->" and i > 0 and tokens[i - 1].text in (")", "mutable", "noexcept", "constexpr"):
            return True
        i -= 1
    return False


def brace_kind(tokens, q, enclosing, match):
    """'init' when the `{` at q opens a braced initializer list, 'block' when it
    opens a compound statement, lambda body or local class."""
    prev = tokens[q - 1] if q > 0 else Token(";", "punct", 0)
    if prev.text in (")", "mutable", "noexcept", "constexpr") or _statement_has_trailing_return(tokens, q, match):
        return "block"
    if enclosing == "init":
        return "block" if prev.text == "]" else "init"
    if prev.text in ("=", "return", "(", ",", "?", "co_return", "co_yield", "<<"):
        return "init"
    if prev.text == "]":
        before = tokens[match[q - 1] - 1] if match[q - 1] > 0 else None
        is_array = before is not None and (before.kind == "ident" and before.text not in NOT_A_NAME
                                           or before.text == "]")
        return "init" if is_array else "block"
    if prev.text == ">":
        return "init"
    if prev.kind == "ident" and prev.text not in BLOCK_KEYWORDS and not _opens_local_class(tokens, q):
        return "init"
    return "block"


def _opens_local_class(tokens, q):
    i = q - 1
    while i >= 0 and tokens[i].text not in (";", "{", "}"):
        if tokens[i].text in CLASS_KEYWORDS:
            return True
        i -= 1
    return False


def data_lines(tokens, match, open_index):
    """Lines inside braced initializer lists of the block opened at open_index
    (blocks nested in those lists count as code again)."""
    transitions = []
    stack = ["block"]
    for i in range(open_index + 1, match[open_index]):
        t = tokens[i]
        if t.kind != "punct":
            continue
        if t.text == "{":
            kind = brace_kind(tokens, i, stack[-1], match)
            if kind != stack[-1]:
                transitions.append((kind, t.line, tokens[match[i]].line))
            stack.append(kind)
        elif t.text == "}":
            stack.pop()
    data = set()
    for kind, first, last in transitions:
        if kind == "init":
            data.update(range(first + 1, last + 1))
        else:
            data.difference_update(range(first, last + 1))
    return data


# How a function is reached from elsewhere: "member" (defined in a class, or
# qualified by a class name: the checker decides that), "internal" (static or in
# an unnamed namespace) or "free".
Function = collections.namedtuple("Function", "name line lines data linkage")


def _function_at(tokens, match, name, name_line, open_index, linkage):
    end_line = tokens[match[open_index]].line
    data = {n for n in data_lines(tokens, match, open_index) if name_line <= n <= end_line}
    return Function(name, name_line, end_line - name_line + 1, len(data), linkage)


def _lambdas_in_data(tokens, match, open_index, owner):
    """Lambda bodies inside a braced initializer at namespace scope."""
    found = []
    stack = ["init"]
    i = open_index + 1
    while i < match[open_index]:
        t = tokens[i]
        if t.text == "{" and t.kind == "punct":
            if brace_kind(tokens, i, stack[-1], match) == "block":
                found.append(_function_at(tokens, match, owner + " lambda", t.line, i, "internal"))
                i = match[i] + 1
                continue
            stack.append("init")
        elif t.text == "}" and t.kind == "punct":
            stack.pop()
        i += 1
    return found


class ScopeScan:
    """One walk over a file's tokens (preprocessor lines left out, brackets
    matched) at namespace and class scope: the functions it defines, the
    functions it declares at namespace scope, and the type names it declares."""

    def __init__(self, tokens, match):
        self.tokens = tokens
        self.match = match
        self.functions = []
        self.declared = set()
        self.types = set()
        self.name_indices = set()
        self.scopes = []
        self._walk()

    def _walk(self):
        tokens, match = self.tokens, self.match
        decl = []
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t.kind != "punct" or t.text not in ";{}:":
                decl.append((i, t))
            elif t.text == ";":
                self._declaration(decl)
                decl = []
            elif t.text == ":":
                is_access = decl and decl[-1][1].text in ("public", "private", "protected")
                decl = [] if is_access and self._in_class() else decl + [(i, t)]
            elif t.text == "}":
                if self.scopes:
                    self.scopes.pop()
                decl = []
            elif _inside_brackets(decl, match, i) or _is_member_initializer(decl, match):
                decl += [(k, tokens[k]) for k in range(i, match[i] + 1)]
                i = match[i] + 1
                continue
            else:
                i, decl = self._open_brace(i, decl)
                continue
            i += 1

    def _in_class(self):
        return bool(self.scopes) and self.scopes[-1] == "class"

    def _linkage(self, decl):
        if self._in_class():
            return "member"
        texts = [self.tokens[i].text for i in (k for k, _ in decl)]
        return "internal" if "anon" in self.scopes or "static" in texts else "free"

    def _declaration(self, decl):
        """A declaration ending in `;`: a function's, a type's or an alias's name."""
        texts = [t.text for _, t in decl]
        self.types.update(_type_names(decl))
        if len(texts) >= 3 and texts[0] == "using" and texts[2] == "=":
            self.types.add(texts[1])
        if not decl or "typedef" in texts or "using" in texts:
            return
        head = function_head(decl, self.match)
        name = function_name(head, self.match) if head else None
        if name:
            self.name_indices.add(head[_position(head, self.match[head[-1][0]]) - 1][0])
            if self._linkage(decl) == "free":
                self.declared.add(name.split("::")[-1])

    def _open_brace(self, i, decl):
        """The `{` at i at namespace or class scope; returns (next index, decl)."""
        tokens, match = self.tokens, self.match
        kind, what = classify_scope_brace(decl, match)
        self.types.update(_type_names(decl))
        if kind in ("namespace", "linkage", "class"):
            names = [t for _, t in decl if t.kind == "ident" and t.text not in ("namespace", "inline")]
            self.scopes.append("anon" if kind == "namespace" and not names else kind)
            return i + 1, []
        if kind == "function":
            name, head = what
            name_index, name_token = head[_position(head, match[head[-1][0]]) - 1]
            self.name_indices.add(name_index)
            linkage = self._linkage(decl)
            self.functions.append(_function_at(tokens, match, name, name_token.line, i, linkage))
            if linkage == "free":
                self.declared.add(name.split("::")[-1])
            return match[i] + 1, []
        if kind == "lambda":
            start = decl[0][1].line if decl else tokens[i].line
            self.functions.append(_function_at(tokens, match, what, start, i, "internal"))
        else:
            self.functions.extend(_lambdas_in_data(tokens, match, i, what))
        return match[i] + 1, decl + [(i, tokens[i])]


def _type_names(decl):
    """Names after class/struct/union/enum in a declaration (not in template<>),
    past alignas(...) and [[...]]."""
    names = set()
    texts = [t.text for _, t in decl]
    for k, text in enumerate(texts):
        if text not in CLASS_KEYWORDS | {"enum"} or (k and texts[k - 1] in ("<", ",", "template")):
            continue
        j, depth = k + 1, 0
        while j < len(texts):
            depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(texts[j], 0)
            if depth == 0 and texts[j] not in ("class", "struct", "alignas", ")", "]"):
                break
            j += 1
        if j < len(texts) and re.match(r"[A-Za-z_]\w*$", texts[j]):
            names.add(texts[j])
    return names


def cpp_functions(tokens, match):
    """Functions defined at namespace or class scope, each once."""
    return ScopeScan(tokens, match).functions


def _inside_brackets(decl, match, i):
    """Whether the `{` at i is inside a ( or [ of decl (a lambda argument)."""
    return any(t.text in "([" and match.get(k, -1) > i for k, t in decl)


def _is_member_initializer(decl, match):
    """Whether a `{` after decl is `name{...}` in a constructor's initialisers."""
    if not decl or not (decl[-1][1].kind == "ident" or decl[-1][1].text == ">"):
        return False
    texts = [decl[k][1].text for k in top_level(decl, match)]
    return any(texts[k] == ":" and texts[k - 1] in (")", "noexcept") for k in range(1, len(texts)))


def mentions(tokens, name_indices):
    """(line, name, qualifier) of each identifier not reached through `.` or
    `->` and not the name of a declaration or definition (name_indices);
    qualifier is the name before a `::` in front of it, or None."""
    found = []
    for i, t in enumerate(tokens):
        if t.kind != "ident" or i in name_indices:
            continue
        prev = tokens[i - 1].text if i else ""
        if prev in (".", "->"):
            continue
        qualifier = tokens[i - 2].text if prev == "::" and i >= 2 else None
        found.append((t.line, t.text, qualifier))
    return found


# ----------------------------------------------------------- Python functions

def python_functions(source):
    """Every def not inside another def, with its data-display lines."""
    tree = ast.parse(source)
    found = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append(_python_function(child, prefix + child.name))
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            elif not isinstance(child, ast.Lambda):
                visit(child, prefix)

    visit(tree, "")
    return found


def _python_function(node, name):
    data = set()
    displays = (ast.Dict, ast.List, ast.Tuple, ast.Set)

    def mark(n, inside_display):
        if isinstance(n, displays) and not inside_display and n.end_lineno > n.lineno:
            data.update(range(n.lineno + 1, n.end_lineno + 1))
            inside_display = True
        for child in ast.iter_child_nodes(n):
            mark(child, inside_display)

    mark(node, False)
    return Function(name, node.lineno, node.end_lineno - node.lineno + 1, len(data), "free")


