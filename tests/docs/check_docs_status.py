#!/usr/bin/env python3
"""Docs say what exists now, as fact; they do not report progress.

The rule for everyone who writes docs here: a feature that is built is
described as built, with no "in progress", "under way", "not yet", "for now"
or "Status (issue N, ...)" around it; a real limitation is written as a limit
("Known limits", "... is not available across hosts"), not as a promise. A
backticked path to a file of this tree must exist. This script checks both
over docs/*.md, docs/man/*, README.md and every other README (not the dated
records under bench/results/), and fails listing file:line for each finding:

  check_docs_status.py [--root DIR] [--allowlist FILE]

Progress words are looked for outside code (inline `code` and ``` blocks are
skipped: a program's own message may say "yet"). A path is checked when it is
in backticks, a Markdown link, or a bare word starting with one of the tree's
top folders (lib/, tests/, ...); `a.{hpp,cpp}` is both files; a name without
an extension whose folder's meson.build names it ('name') is a build target
and passes; paths with *, <...>, $ or ... are patterns and are not checked.

A legitimate use (an API whose test returns "0 not yet", a file the reader is
asked to create) goes in the allowlist (tests/docs/docs_status_allowlist.txt):
one line `FILE | TEXT ON THE LINE | REASON`. An entry that matches nothing
fails too, so the list stays short and current.
"""
import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Words that report progress instead of stating what is there.
CI = re.IGNORECASE
PROGRESS = [
    (re.compile(r"\bstatus\b\s*\(\s*(?:issue|#)\s*\d+", CI), "a status line naming an issue"),
    (re.compile(r"^#{1,6}\s+(?:current\s+)?(?:status|progress|road\s?map|to\s?do)\s*$", CI | re.M),
     "a status section"),
    (re.compile(r"\b(?:work\s+)?in\s+progress\b|\bunder\s?way\b|\bfor\s+now\b|\bplanned\b|"
                r"\bstill\s+to\s+come\b|\bcoming\s+soon\b|\bfuture\s+work\b|\bas\s+(?:it|they)\s+arrives?\b", CI),
     "a progress word"),
    (re.compile(r"\b(?:not|no)\s+(?:\w+\s+){0,3}yet\b|n't\s+(?:\w+\s+){0,3}yet\b", CI), "'not ... yet'"),
    (re.compile(r"(?<!what )(?<!how )(?<!where )\bto\s+do\b", CI), "'to do'"),
    (re.compile(r"\b(?:TODO|TBD|FIXME|XXX|WIP)\b"), "a to-do marker"),
]

TOP_FOLDERS = ("apps/", "bench/", "docs/", "examples/", "include/", "lib/", "tests/", "tools/", ".ci/")
# Possessive (*+): "tests/upc/lib_<name>.upc" is a pattern, not "tests/upc/lib".
BARE_PATH = re.compile(r"(?<![\w/.`-])((?:apps|bench|docs|examples|include|lib|tests|tools)/[\w./{},+-]*+)(?![*<$])")
CODE_SPAN = re.compile(r"`[^`]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def doc_files(root):
    """docs/*.md, docs/man/*, README.md and every README of the tree."""
    found = set(glob.glob("docs/*.md", root_dir=root)) | set(glob.glob("docs/man/*", root_dir=root))
    for folder, subfolders, names in os.walk(root):
        here = os.path.relpath(folder, root)
        # build trees, git's folder and the dated measurement records are not docs
        subfolders[:] = [s for s in subfolders if not s.startswith((".", "build"))
                         and os.path.join(here, s) != os.path.join("bench", "results")]
        found |= {os.path.normpath(os.path.join(here, n)) for n in names if n.startswith("README")}
    return sorted(p for p in found if os.path.isfile(os.path.join(root, p)))


def blank_code(text):
    """The text with fenced blocks and inline code spans emptied, newlines kept
    (so offsets still give the right line)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    kept = "\n".join(out)
    return CODE_SPAN.sub(lambda m: "``" + "\n" * m.group(0).count("\n"), kept)


def progress_findings(text):
    """(first line, last line, what, words) for each progress word outside code."""
    prose = blank_code(text)
    for pattern, what in PROGRESS:
        for m in pattern.finditer(prose):
            first = prose.count("\n", 0, m.start()) + 1
            last = prose.count("\n", 0, m.end()) + 1
            yield first, last, what, " ".join(m.group(0).split())


def expand_braces(path):
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [p for alt in m.group(1).split(",") for p in expand_braces(path[:m.start()] + alt + path[m.end():])]


def is_build_target(root, path):
    """A program name (no extension) that its folder's meson.build builds."""
    folder, name = os.path.split(path)
    if "." in name:
        return False
    meson = os.path.join(root, folder, "meson.build")
    return os.path.isfile(meson) and f"'{name}'" in open(meson, encoding="utf-8").read()


def reference_findings(root, doc, text):
    """(line, line, what, path) for each path of the tree a doc names that is not there."""
    doc_dir = os.path.dirname(doc)
    for number, line in enumerate(text.split("\n"), 1):
        names = []  # (path, relative to the doc's folder?)
        for m in CODE_SPAN.finditer(line):
            token = m.group(0).strip("`").strip()
            if " " not in token and token.startswith(TOP_FOLDERS):
                names.append((token, False))
        names += [(m.group(1), False) for m in BARE_PATH.finditer(line)]
        for m in LINK.finditer(line):
            target = m.group(1).split("#")[0]
            if target and not re.match(r"[a-z][a-z0-9+.-]*:", target, CI):
                names.append((target, True))
        for name, relative in names:
            name = re.sub(r":\d+(?:-\d+)?$", "", name).rstrip(".,;:)")
            if any(c in name for c in "*<>$") or "..." in name or "\u2026" in name:
                continue
            for path in expand_braces(name):
                base = os.path.join(root, doc_dir) if relative else root
                if os.path.exists(os.path.normpath(os.path.join(base, path))) or is_build_target(root, path):
                    continue
                yield number, number, "names a file that does not exist", path


def read_allowlist(path):
    entries = []
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or not all(parts):
            sys.exit(f"{path}:{number}: an entry is 'FILE | TEXT ON THE LINE | REASON', got: {line.strip()}")
        entries.append({"file": parts[0], "text": parts[1], "where": f"{path}:{number}", "used": False})
    return entries


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.normpath(os.path.join(HERE, "..", "..")))
    parser.add_argument("--allowlist", default=os.path.join(HERE, "docs_status_allowlist.txt"))
    args = parser.parse_args()
    allowlist = read_allowlist(args.allowlist) if os.path.exists(args.allowlist) else []

    problems = []
    files = doc_files(args.root)
    for doc in files:
        text = open(os.path.join(args.root, doc), encoding="utf-8").read()
        lines = text.split("\n")
        findings = list(progress_findings(text)) + list(reference_findings(args.root, doc, text))
        for first, last, what, words in sorted(findings):
            span = "\n".join(lines[first - 1:last])
            allowed = [e for e in allowlist if e["file"] == doc and e["text"] in span]
            for e in allowed:
                e["used"] = True
            if not allowed:
                problems.append(f"{doc}:{first}: {what}: {words!r}")

    for e in allowlist:
        if not e["used"]:
            problems.append(f"{e['where']}: allowlist entry for {e['file']} ('{e['text']}') matches nothing: remove it")
    if not files:
        problems.append(f"{args.root}: no docs found (wrong --root?)")
    for p in problems:
        print(p)
    if problems:
        print(f"\n{len(problems)} finding(s). Say what exists now as fact, write a real limit as a limit, "
              f"fix the path; or, for a legitimate use, add 'FILE | TEXT | REASON' to {args.allowlist}.")
        return 1
    print(f"{len(files)} docs checked: no progress reports, every named path exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
