#!/usr/bin/env python3
"""docs/man/upcrun.1 against `upcrun --help`: the man page must keep up.

  check_man_page.py UPCRUN MAN_PAGE

Fails when an option that `upcrun --help` lists has no entry (.TP) in the man
page's OPTIONS, when a UPCEMU_* variable it lists is not in the man page, when
the man page's OPTIONS describe an option that --help no longer lists, or when
the man page's version (.TH) is not `upcrun --version`'s. When groff is
installed, the page must also render without warnings (groff -man -ww).
"""
import re
import shutil
import subprocess
import sys


def help_options(help_text):
    """The options of --help's "Options:" section: "-n", "--threads", "--report", ..."""
    section = help_text.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    options = set()
    for line in section.splitlines():
        m = re.match(r"  (-\S.*?)(?:\s{2,}|$)", line)  # an option line, not a continuation
        if not m:
            continue
        for spelling in m.group(1).split(", "):
            name = re.match(r"(--?[A-Za-z][\w-]*|--)", spelling)
            if name:
                options.add(name.group(1))
    return options


def man_text(roff):
    """The page's words: escapes of '-' undone, font changes and comments dropped."""
    lines = [line for line in roff.splitlines() if not line.startswith('.\\"')]
    text = "\n".join(lines)
    text = text.replace("\\-", "-").replace("\\%", "").replace("\\&", "")
    text = re.sub(r"\\f[BIRP]", "", text)
    return text


def man_options(text):
    """The options the OPTIONS section describes (each .TP's tag line)."""
    section = text.split("\n.SH OPTIONS\n", 1)[1].split("\n.SH ", 1)[0]
    tags = re.findall(r"^\.TP\n(.*)$", section, flags=re.M)
    options = set()
    for tag in tags:
        for name in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*|--)(?![\w-])", tag):
            options.add(name)
    return options


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    upcrun, man_path = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([upcrun, "--help"], check=True, stdout=subprocess.PIPE, text=True).stdout
    version = subprocess.run([upcrun, "--version"], check=True, stdout=subprocess.PIPE, text=True).stdout.split()[-1]
    roff = open(man_path, encoding="utf-8").read()
    text = man_text(roff)
    problems = []

    listed = help_options(help_text)
    if len(listed) < 10:
        problems.append(f"found only {sorted(listed)} in upcrun --help's Options: has its layout changed?")
    described = man_options(text)
    for option in sorted(listed - described):
        problems.append(f"upcrun --help lists {option}, the man page's OPTIONS do not describe it")
    for option in sorted(described - listed):
        problems.append(f"the man page's OPTIONS describe {option}, upcrun --help does not list it")

    variables = set(re.findall(r"UPCEMU_[A-Z_]+", help_text))
    for variable in sorted(variables - set(re.findall(r"UPCEMU_[A-Z_]+", text))):
        problems.append(f"upcrun --help lists {variable}, the man page does not")

    th = re.search(r"^\.TH .*$", roff, flags=re.M)
    if not th or f"upcemu {version}" not in th.group(0):
        problems.append(f"the man page's .TH line does not say 'upcemu {version}' (upcrun --version): "
                        f"{th.group(0) if th else 'no .TH'}")

    groff = shutil.which("groff")
    if groff:
        r = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", man_path], stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or r.stderr.strip():
            problems.append(f"groff -man -ww warns: {r.stderr.strip()}")

    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        return 1
    print(f"ok: {len(listed)} options and {len(variables)} variables of upcrun --help are in {man_path}"
          + ("" if groff else " (groff not installed: rendering not checked)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
