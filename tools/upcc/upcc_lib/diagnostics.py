"""clang's diagnostics of the parse, reported in UPC's words at the user's line.

Only errors in user code count: gcc's preprocessed system headers use a few
GCC-only attributes clang rejects. The first error (clang's order is the
source's) is the one reported: a later one may only follow from it. clang
speaks of address spaces where UPC speaks of shared: messages are translated,
and a message still naming an address space is rewritten with `shared`.
"""
import re

import clang.cindex as ci

from .errors import UpcError

MAIN_SIGNATURE = re.compile(r"'main' must return 'int'|parameter of 'main'|'main' takes only|of 'main' must be")
AS_NAME = re.compile(r"__attribute__\(\(address_space\((\d+)\)\)\)\s*")


def upc_words(translator, message):
    """clang's message with its address spaces spelled as UPC's shared qualifiers."""
    def qual(m):
        k = int(m.group(1))
        try:
            block, cons = translator.layout(k)
        except IndexError:
            return "shared "
        lay = {"1": "", "0": " []", "*": " [*]"}.get(block, f" [{block}]")
        return (f"{cons} " if cons else "") + f"shared{lay} "
    message = AS_NAME.sub(qual, message)
    message = re.sub(r"address space (\d+)", "shared", message)
    return message.replace("address space", "shared qualifier")


def where(translator, d):
    line = d.location.line
    if line and line - 1 < len(translator.presumed_of_line):
        f, l0, _ = translator.presumed_of_line[line - 1]
        return f, l0
    return translator.filename, 0


def in_user_code(translator, d):
    return d.location.line and d.location.line - 1 < len(translator.presumed_of_line) and \
        not translator.presumed_of_line[d.location.line - 1][2]


def check_diagnostics(translator, tu):
    errs = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error and in_user_code(translator, d)]
    # Pointers-to-shared of different layouts convert (shared void * in particular):
    # clang sees different address spaces, UPC the same kind of pointer.
    errs = [d for d in errs if not ("changes address space" in d.spelling and
                                    d.spelling.count("address_space(") >= 2)]
    # gcc accepts an unusual main (`void main()`, `char *argv`) with a warning, as
    # old UPC codes expect; clang refuses it. upcc renames main anyway
    # (declarations.py warns about a result that is not int).
    errs = [d for d in errs if not MAIN_SIGNATURE.search(d.spelling)]
    if not errs:
        return
    d = errs[0]
    if "automatic variable qualified with an address space" in d.spelling:
        raise UpcError(*where(translator, d), "a shared variable declared in a function must be static "
                       "(UPC has no automatic shared objects)")
    if "changes address space" in d.spelling:
        raise UpcError(*where(translator, d), "a pointer-to-shared and a private pointer do not convert "
                       "implicitly (cast a pointer-to-shared with local affinity to a private pointer)")
    msg = upc_words(translator, d.spelling)
    for n in d.children:  # "previous definition is here": say where
        if n.location.line and n.location.line - 1 < len(translator.presumed_of_line) and \
                n.location.file and n.location.file.name == "upcc_input.c":
            pf, pl = where(translator, n)
            msg += f" ({n.spelling.replace(' is here', '')} at {pf}:{pl})"
            break
    raise UpcError(*where(translator, d), msg)
