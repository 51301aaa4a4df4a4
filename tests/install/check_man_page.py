#!/usr/bin/env python3
"""A man page against its program's --help: the page must keep up
(docs/man/upcrun.1 and `upcrun --help`, docs/man/upcc.1 and `upcc --help`).

  check_man_page.py PROGRAM MAN_PAGE

Fails when an option that `PROGRAM --help` lists has no entry (.TP) in the man
page's OPTIONS, when a UPCEMU_* variable it lists is not in the man page, when
the man page's OPTIONS describe an option that --help no longer lists, or when
the man page's version (.TH) is not `PROGRAM --version`'s. When groff is
installed, the page must also render without warnings (groff -man -ww).

--help's options are those of its "Options:" section (upcrun: one option line
starts with its spellings, the description follows after two spaces); a --help
without that section (upcc) lists its options on lines that start with "  -",
every option-looking word of such a line counting.
"""
import os
import re
import shutil
import subprocess
import sys


def help_options(help_text):
    """The options of --help's "Options:" section: "-n", "--threads", "--report", ..."""
    if "\nOptions:\n" not in help_text:
        return bare_help_options(help_text)
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


def bare_help_options(help_text):
    """The options of a --help without an "Options:" section: every option word
    ("-o", "-fupc-threads", "-Wl", "--keep") of each line that starts with "  -"."""
    options = set()
    for line in help_text.splitlines():
        if line.startswith("  -"):
            options.update(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", line))
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
    program, man_path = sys.argv[1], sys.argv[2]
    name = os.path.basename(program)
    help_text = subprocess.run([program, "--help"], check=True, stdout=subprocess.PIPE, text=True).stdout
    version_text = subprocess.run([program, "--version"], check=True, stdout=subprocess.PIPE, text=True).stdout
    # "upcrun (upcemu) 0.1.0", "upcc (upcemu) 0.1: UPC 1.3 subset, ...": the first version number
    m = re.search(r"\(upcemu\) (\d+(?:\.\d+)*)", version_text)
    version = m.group(1) if m else version_text.split()[-1]
    roff = open(man_path, encoding="utf-8").read()
    text = man_text(roff)
    problems = []

    listed = help_options(help_text)
    if len(listed) < 10:
        problems.append(f"found only {sorted(listed)} in {name} --help's options: has its layout changed?")
    described = man_options(text)
    for option in sorted(listed - described):
        problems.append(f"{name} --help lists {option}, the man page's OPTIONS do not describe it")
    for option in sorted(described - listed):
        problems.append(f"the man page's OPTIONS describe {option}, {name} --help does not list it")

    variables = set(re.findall(r"UPCEMU_[A-Z_]+", help_text))
    for variable in sorted(variables - set(re.findall(r"UPCEMU_[A-Z_]+", text))):
        problems.append(f"{name} --help lists {variable}, the man page does not")

    th = re.search(r"^\.TH .*$", roff, flags=re.M)
    if not th or f"upcemu {version}" not in th.group(0):
        problems.append(f"the man page's .TH line does not say 'upcemu {version}' ({name} --version): "
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
    print(f"ok: {len(listed)} options and {len(variables)} variables of {name} --help are in {man_path}"
          + ("" if groff else " (groff not installed: rendering not checked)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
