#!/usr/bin/env python3
"""The structure rules of issue 28 ("one engine boundary and one vocabulary"),
checked over the sources, with a baseline of what the issue still has to remove.

  check_structure.py [--root DIR] [--baseline FILE] [--update-baseline] [--duplicates]

What is checked (kinds as printed):

include-cycle   A cycle of quoted includes (#include "...") between files of lib/.
                An include is resolved as the compiler resolves it for lib/'s
                targets (lib/meson.build, compile_commands.json): relative to the
                including file, then lib/ (meson's implicit source-dir path),
                include/, lib/api/. Includes that land outside lib/ (include/,
                generated headers in the build tree, system headers) are no edges.
                Each elementary cycle is reported once, starting at its smallest
                path (with #pragma once such a cycle compiles, and is still one).
call-circle     A circle of function uses between units of lib/. A unit is a file
                name without its extension (lib/coll/team.hpp and team.cpp are one
                unit). Unit A uses unit B when a file of A names, outside a
                declaration, a function that is defined in B and in no other
                unit, that A's file can see declared (in itself or in a header it
                reaches through quoted includes, include/ too), and that A does
                not define a function of that name itself. Uses are calls and
                function pointers alike. Each use A -> B where B also leads back
                to A (same strongly connected set) is one violation, so breaking
                a circle only removes lines. Not followed (documented limits of a
                scan without a compiler): member functions and anything named
                after `.`, `->` or a class's `::`; names defined in two or more
                units (overloads across files); names inside #define bodies;
                virtual calls and calls through pointers stored elsewhere; a
                local variable that shadows a visible function's name counts as a
                use.
engine-boundary A file under lib/api/ whose quoted include lands in lib/coll/ other
                than the engine's public header (ENGINE_PUBLIC_HEADER). Direct
                includes only.
upccoll-in-engine
                "upccoll" (any case) in an identifier, string or character literal
                or preprocessor line of a file under lib/coll/. Comments are not
                code and are skipped.
long-function   A function of lib/ or tools/ longer than MAX_FUNCTION_LINES lines,
                not counting the lines of data tables. C++ (.cpp .hpp .h .cc): a
                function is a body `{` at namespace or class scope after a
                declarator ending in `)` (with const, noexcept, override, final,
                &, requires, `-> type`, constructor initialisers), or a lambda
                assigned at namespace scope; lambdas and local classes inside a
                function count toward it. Its length runs from the line of its
                name to its closing brace. Python (tools/, *.py and scripts with a
                python #! line): every def not inside another def (methods too),
                from `def` to its last line, through the ast module; nested defs
                count toward the def that holds them.
                Data tables: the lines of a braced initializer list or of a
                list/dict/tuple/set display (Python), from the line after it opens
                to the line it closes, are data and do not count; lambda bodies
                and other blocks inside such a list count again. So a function
                that is mostly one table is not long, and its logic still counts.
                In a C++ function a `{` opens an initializer list after `=`,
                `return`, `(`, `,`, `?`, `<<`, `>` (`std::vector<T>{`), the `]` of
                an array declarator, or a name that is not a keyword (`T x{`,
                `T{`); inside a list, a `{` after `)`, `]`, `mutable`, `noexcept`
                or `-> type` opens a lambda body; every other `{` is a block.
scan-error      A file the scanner cannot read: unbalanced braces, parentheses or
                brackets (for instance #if branches that each open a brace), or a
                Python file ast cannot parse. Its functions are then not measured,
                so it fails until fixed.

The C++ scanner tokenises (comments dropped; strings, raw strings, character
literals and digit separators handled), leaves out preprocessor lines when it
matches braces, and does not evaluate #if (both branches are read). Functions
written inside #define bodies (wrappers stamped out per type) are not measured.

Output: one line per violation, `path:line: kind: detail`, then the violations
not in the baseline, the baseline entries that no longer occur, and a count per
kind. The baseline (tools/structure_baseline.txt) has one line per known
violation, its kind and a key without line numbers (the path and the function,
include, word or cycle), so that edits elsewhere do not move it; a line
repeated N times stands for N violations. Exit status 1 when a
violation is not in the baseline or a baseline entry no longer occurs (so the
baseline only shrinks and always states the truth), 2 on bad usage, else 0.
--update-baseline rewrites the baseline with what is found now.

--duplicates also runs the `duplicates` command (a developer tool, not on CI
machines: then "skipped") on lib/, tools/ and apps/ and prints the pair counts
against the issue's limits. Those counts are information and do not change the
exit status: the command is not everywhere and takes seconds.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

from structure_scan import (ScopeScan, match_brackets, mentions, python_functions,
                            quoted_includes, tokenize)

MAX_FUNCTION_LINES = 120
# The one lib/coll/ header a front-end (lib/api/) may include (issue 28). It does
# not exist yet: every lib/coll/ include from lib/api/ is reported until it does.
ENGINE_PUBLIC_HEADER = "lib/coll/engine.hpp"
# Where a quoted include of lib/ is looked for after the including file's folder,
# in the order of the compiler's -I flags for libupcemu (lib/meson.build: the
# implicit source folder lib/, then `inc` = include/, then lib/api/).
INCLUDE_SEARCH = ["lib", "include", "lib/api"]
CPP_EXTENSIONS = (".cpp", ".hpp", ".h", ".cc")
BASELINE_DEFAULT = "tools/structure_baseline.txt"
BASELINE_HEADER = """\
# What issue 28 ("one engine boundary and one vocabulary") still has to remove:
# every violation tools/check_structure.py finds in the tree today, one a line,
# its kind and a key without line numbers (the check's docstring says what each
# kind is). The check fails on a violation not listed
# here and on a line here that no longer occurs, so this list only shrinks.
# Rewrite it with `python3 tools/check_structure.py --update-baseline` after
# removing a violation; never to hide a new one.
"""
DUPLICATE_LIMITS = [("lib", 8), ("tools", 20), ("apps", 30)]
MAX_CYCLES = 500

Violation = collections.namedtuple("Violation", "kind path line detail key")


# ------------------------------------------------------------------- the tree

def source_files(root, folder, extensions):
    """Paths (relative to root, with /) of the files under folder with one of
    the extensions; extensions=None: Python scripts (.py or a python #! line)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for name in sorted(filenames):
            path = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if extensions is not None and name.endswith(extensions):
                found.append(path)
            elif extensions is None and (name.endswith(".py") or _python_script(root, path, name)):
                found.append(path)
    return found


def _python_script(root, path, name):
    if "." in name:
        return False
    try:
        with open(os.path.join(root, path), "rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        return f.read()


class CppFile:
    """One C++ file: includes, functions (None: not scannable), the functions
    it declares, the type names it declares, the names it mentions."""

    def __init__(self, root, path):
        self.path = path
        self.tokens, directive = tokenize(read(root, path))
        self.includes = quoted_includes(self.tokens, directive)
        code = [t for t in self.tokens if t.line not in directive]
        match, self.error = match_brackets(code)
        try:
            scan = ScopeScan(code, match) if match is not None else None
        except (ValueError, KeyError, IndexError) as e:
            # A form the scanner does not know: say so rather than guess.
            scan, self.error = None, (0, "the scanner cannot read it (%s: %s)" % (type(e).__name__, e))
        self.functions = scan.functions if scan else None
        self.declared = scan.declared if scan else set()
        self.types = scan.types if scan else set()
        self.mentions = mentions(code, scan.name_indices) if scan else []


def resolve_include(root, including, name):
    """The path (relative to root) a quoted include of a lib/ file names: the
    existing file, else where the first candidate would be."""
    candidates = [os.path.dirname(including)] + INCLUDE_SEARCH
    paths = [os.path.normpath(os.path.join(folder, name)).replace(os.sep, "/") for folder in candidates]
    for path in paths:
        if os.path.isfile(os.path.join(root, path)):
            return path
    return paths[0]


def include_graph(root, files):
    """{file: [(line, included file)]} for quoted includes between the files."""
    graph = {}
    for path, f in files.items():
        graph[path] = []
        for line, name in f.includes:
            target = resolve_include(root, path, name)
            if target in files:
                graph[path].append((line, target))
    return graph


def unit_of(path):
    return os.path.splitext(path)[0]


def _closure(graph, path):
    seen = {path}
    todo = [path]
    while todo:
        for _, target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def unit_graph(root, lib, public):
    """The include graph of lib/ and include/, and {unit: {unit: (path, line,
    name)}}: where a file of one lib/ unit uses a function of another (see the
    docstring, call-circle)."""
    files = {**lib, **public}
    graph = include_graph(root, files)
    types = set().union(*(f.types for f in files.values()))
    defined_in = collections.defaultdict(set)
    own = collections.defaultdict(set)
    for path, f in lib.items():
        for fn in f.functions or ():
            *qualifiers, simple = fn.name.split("::")
            own[unit_of(path)].add(simple)
            if fn.linkage == "free" and not types.intersection(qualifiers):
                defined_in[simple].add(unit_of(path))
    edges = collections.defaultdict(dict)
    for path in sorted(lib):
        unit = unit_of(path)
        visible = set().union(*(files[p].declared for p in _closure(graph, path)))
        for line, name, qualifier in lib[path].mentions:
            where = defined_in.get(name, ())
            if (len(where) == 1 and name in visible and name not in own[unit]
                    and qualifier not in types):
                (other,) = where
                edges[unit].setdefault(other, (path, line, name))
    return graph, edges


# --------------------------------------------------------------------- cycles

def elementary_cycles(edges):
    """Every elementary cycle of a graph {node: nodes}, each once, as a list of
    nodes starting at its smallest; None when there are more than MAX_CYCLES."""
    cycles = []
    for start in sorted(edges):
        stack = [iter(sorted(edges.get(start, ())))]
        path = [start]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                path.pop()
            elif child == start:
                cycles.append(list(path))
                if len(cycles) > MAX_CYCLES:
                    return None
            elif child > start and child not in path:
                path.append(child)
                stack.append(iter(sorted(edges.get(child, ()))))
    return cycles


def components(edges):
    """{node: id of its strongly connected component} (Kosaraju, iterative)."""
    nodes = sorted(set(edges) | {b for targets in edges.values() for b in targets})
    order, seen = [], set()
    for node in nodes:
        if node in seen:
            continue
        seen.add(node)
        stack = [(node, iter(sorted(edges.get(node, ()))))]
        while stack:
            child = next(stack[-1][1], None)
            if child is None:
                order.append(stack.pop()[0])
            elif child not in seen:
                seen.add(child)
                stack.append((child, iter(sorted(edges.get(child, ())))))
    reverse = collections.defaultdict(set)
    for a, targets in edges.items():
        for b in targets:
            reverse[b].add(a)
    component = {}
    for node in reversed(order):
        if node not in component:
            todo = [node]
            component[node] = node
            while todo:
                for other in reverse[todo.pop()]:
                    if other not in component:
                        component[other] = node
                        todo.append(other)
    return component


def shortest_path(edges, start, goal):
    """Nodes from start to goal, both included (breadth first)."""
    before = {start: None}
    todo = collections.deque([start])
    while todo:
        node = todo.popleft()
        if node == goal:
            break
        for child in sorted(edges.get(node, ())):
            if child not in before:
                before[child] = node
                todo.append(child)
    path = [goal]
    while path[-1] != start:
        path.append(before[path[-1]])
    return path[::-1]


def include_cycle_violations(graph, lib):
    """Each elementary cycle of includes between lib/ files, once."""
    file_edges = {a: {b for _, b in graph[a] if b in lib} for a in lib}
    cycles = elementary_cycles(file_edges)
    if cycles is None:
        return [Violation("include-cycle", "lib", 0, "more than %d cycles: too many to list" % MAX_CYCLES,
                          "lib: too many to list")]
    found = []
    for cycle in cycles:
        chain = " -> ".join(cycle + [cycle[0]])
        line = min(n for n, target in graph[cycle[0]] if target == cycle[1])
        found.append(Violation("include-cycle", cycle[0], line, chain, chain))
    return found


def call_circle_violations(units):
    """Each use of another unit's function that closes a circle: the using
    unit is reached back from the used one."""
    component = components(units)
    found = []
    for a in sorted(units):
        for b, (path, line, name) in sorted(units[a].items()):
            if component[a] == component[b]:
                back = " -> ".join(shortest_path(units, b, a))
                found.append(Violation("call-circle", path, line,
                                       "%s uses %s of %s, which leads back: %s" % (a, name, b, back),
                                       "%s -> %s" % (a, b)))
    return found


# ---------------------------------------------------------------- the checks

def boundary_violations(root, files):
    engine_dir = "lib/coll/"
    found = []
    for path, f in sorted(files.items()):
        if not path.startswith("lib/api/"):
            continue
        for line, name in f.includes:
            target = resolve_include(root, path, name)
            if target.startswith(engine_dir) and target != ENGINE_PUBLIC_HEADER:
                found.append(Violation("engine-boundary", path, line,
                                       '#include "%s": a front-end includes only %s of lib/coll/'
                                       % (name, ENGINE_PUBLIC_HEADER), path + " " + target))
    return found


def upccoll_violations(files):
    found = []
    for path, f in sorted(files.items()):
        if not path.startswith("lib/coll/"):
            continue
        for t in f.tokens:
            if t.kind in ("ident", "string", "raw", "char") and "upccoll" in t.text.lower():
                word = t.text if len(t.text) <= 60 else t.text[:57] + "..."
                found.append(Violation("upccoll-in-engine", path, t.line,
                                       "%s names the front-end in the engine" % word, path + " " + word))
    return found


def long_function_violations(root, cpp_files, python_paths):
    found = []
    measured = []
    for path, f in sorted(cpp_files.items()):
        if f.functions is None:
            line, why = f.error
            found.append(Violation("scan-error", path, line, why + ": functions not measured", path + " braces"))
        else:
            measured.extend((path, fn) for fn in f.functions)
    for path in python_paths:
        try:
            measured.extend((path, fn) for fn in python_functions(read(root, path)))
        except SyntaxError as e:
            found.append(Violation("scan-error", path, e.lineno or 0, "python: %s" % e.msg, path + " python"))
    for path, fn in measured:
        counted = fn.lines - fn.data
        if counted > MAX_FUNCTION_LINES:
            data = " (%d, %d of them data)" % (fn.lines, fn.data) if fn.data else ""
            found.append(Violation("long-function", path, fn.line, "%s is %d lines%s, limit %d"
                                   % (fn.name, counted, data, MAX_FUNCTION_LINES), path + " " + fn.name))
    return found


def all_violations(root):
    lib_files = {p: CppFile(root, p) for p in source_files(root, "lib", CPP_EXTENSIONS)}
    tool_files = {p: CppFile(root, p) for p in source_files(root, "tools", CPP_EXTENSIONS)}
    public = {p: CppFile(root, p) for p in source_files(root, "include", CPP_EXTENSIONS)}
    graph, units = unit_graph(root, lib_files, public)
    found = include_cycle_violations(graph, lib_files) + call_circle_violations(units)
    found += boundary_violations(root, lib_files)
    found += upccoll_violations(lib_files)
    found += long_function_violations(root, {**lib_files, **tool_files}, source_files(root, "tools", None))
    return found


# ------------------------------------------------------------------ baseline

def key_of(v):
    return "%s %s" % (v.kind, v.key)


def read_baseline(path):
    if not os.path.exists(path):
        return collections.Counter()
    with open(path, encoding="utf-8") as f:
        return collections.Counter(line.strip() for line in f
                                   if line.strip() and not line.startswith("#"))


def write_baseline(path, violations):
    with open(path, "w", encoding="utf-8") as f:
        f.write(BASELINE_HEADER)
        for key in sorted(key_of(v) for v in violations):
            f.write(key + "\n")


def duplicate_counts(root):
    """Lines reporting `duplicates` pair counts against the issue's limits."""
    if shutil.which("duplicates") is None:
        return ["duplicates: skipped (no duplicates command on PATH)"]
    lines = []
    for folder, limit in DUPLICATE_LIMITS:
        if not os.path.isdir(os.path.join(root, folder)):
            continue
        out = subprocess.run(["duplicates", "--repo", os.path.join(root, folder)],
                             capture_output=True, text=True, check=False).stdout
        m = re.match(r"(\d+) pairs", out)
        pairs = int(m.group(1)) if m else 0 if out.startswith("no duplicates") else None
        if pairs is None:
            lines.append("duplicates: %s/: no count in its answer: %r" % (folder, out[:80]))
        else:
            verdict = "within" if pairs <= limit else "OVER"
            lines.append("duplicates: %s/ %d pairs, limit %d: %s" % (folder, pairs, limit, verdict))
    return lines


def report(violations, baseline, baseline_path):
    """Print the findings; returns the exit status."""
    for v in sorted(violations, key=lambda v: (v.kind, v.path, v.line)):
        print("%s:%d: %s: %s" % (v.path, v.line, v.kind, v.detail))
    current = collections.Counter(key_of(v) for v in violations)
    new = current - baseline
    stale = baseline - current
    if new:
        print("\nnot in the baseline (%s): new violations, fix them:" % baseline_path)
        left = collections.Counter(new)
        for v in sorted(violations, key=lambda v: (v.kind, v.path, v.line)):
            if left[key_of(v)] > 0:
                left[key_of(v)] -= 1
                print("  %s:%d: %s: %s" % (v.path, v.line, v.kind, v.detail))
    if stale:
        print("\nin the baseline but gone: remove these lines (--update-baseline):")
        for key in sorted(stale.elements()):
            print("  " + key)
    print("\nsummary:")
    kinds = collections.Counter(v.kind for v in violations)
    for kind in ("include-cycle", "call-circle", "engine-boundary", "upccoll-in-engine",
                 "long-function", "scan-error"):
        print("  %-18s %d" % (kind, kinds[kind]))
    status = 1 if new or stale else 0
    print("  %d new, %d gone from the baseline: %s" % (sum(new.values()), sum(stale.values()),
                                                       "FAIL" if status else "ok"))
    return status


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(here), help="the source tree")
    parser.add_argument("--baseline", help="default: ROOT/" + BASELINE_DEFAULT)
    parser.add_argument("--update-baseline", action="store_true")
    parser.add_argument("--duplicates", action="store_true", help="also run `duplicates`")
    args = parser.parse_args(argv)
    baseline_path = args.baseline or os.path.join(args.root, BASELINE_DEFAULT)
    violations = all_violations(args.root)
    if args.update_baseline:
        write_baseline(baseline_path, violations)
        print("wrote %d entries to %s" % (len(violations), baseline_path))
        return 0
    status = report(violations, read_baseline(baseline_path), baseline_path)
    for line in duplicate_counts(args.root) if args.duplicates else ["duplicates: not run (--duplicates)"]:
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
