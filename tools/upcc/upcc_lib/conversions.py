"""Implicit conversions between pointer-to-shared types, made explicit.

Each layout of shared is an address space of clang's, and clang refuses an
implicit conversion between pointers into two address spaces (an assignment,
an initialisation, an argument, a return): it reports an error and keeps no
conversion in its AST. UPC converts them (6.4.3: "the casting or assignment
from one pointer-to-shared to another"), with the same phase rules as a cast.
So the translator finds those errors, writes the cast clang asked for around
the expression (on the same line: no line moves) and parses again; the cast is
then translated like any other.
"""
import re

import clang.cindex as ci

# clang's words for an implicit conversion between address spaces, and which
# quoted type is the target
TEMPLATES = [
    (re.compile(r"^initializing (?P<to>'[^']*'(?: \(aka '[^']*'\))?) with an expression of type "), "to"),
    (re.compile(r"^assigning '[^']*'(?: \(aka '[^']*'\))? to (?P<to>'[^']*'(?: \(aka '[^']*'\))?)"), "to"),
    (re.compile(r"^passing '[^']*'(?: \(aka '[^']*'\))? to parameter of type "
                r"(?P<to>'[^']*'(?: \(aka '[^']*'\))?)"), "to"),
    (re.compile(r"^returning '[^']*'(?: \(aka '[^']*'\))? from a function with result type "
                r"(?P<to>'[^']*'(?: \(aka '[^']*'\))?)"), "to"),
]
AKA = re.compile(r"^'(?P<name>[^']*)'(?: \(aka '(?P<aka>[^']*)'\))?$")


def target_type(message):
    """The type clang wanted, if message is an implicit conversion between two
    pointers-to-shared; None otherwise."""
    if "changes address space" not in message or message.count("address_space(") < 2:
        return None
    for rx, group in TEMPLATES:
        m = rx.match(message)
        if m:
            q = AKA.match(m.group(group))
            if q is None:
                return None
            t = q.group("aka") or q.group("name")
            return t if "(unnamed" not in t and "(anonymous" not in t else None
    return None


def casts_to_insert(diagnostics, in_user_code):
    """[(start, end, type)] for each conversion error of the parse: the cast of
    the byte range [start, end) to type."""
    out = []
    for d in diagnostics:
        if d.severity < ci.Diagnostic.Error or not in_user_code(d):
            continue
        t = target_type(d.spelling)
        if t is None or not d.ranges:
            continue
        r = list(d.ranges)[-1]
        if r.start.file is None or r.start.file.name != "upcc_input.c":
            continue
        out.append((r.start.offset, r.end.offset, t))
    return out


def insert_casts(raw, casts):
    """raw with `((T)(` ... `))` around each range; and the shift of each
    original offset (for the recorded pragma positions)."""
    inserts = []  # (offset, text)
    for a, b, t in casts:
        inserts.append((a, f"(({t})(".encode()))
        inserts.append((b, b"))"))
    inserts.sort(key=lambda x: x[0])
    out, pos = [], 0
    for off, text in inserts:
        out.append(raw[pos:off])
        out.append(text)
        pos = off
    out.append(raw[pos:])

    def shift(offset):
        return offset + sum(len(t) for off, t in inserts if off <= offset)
    return b"".join(out), shift
