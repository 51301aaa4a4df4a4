#!/usr/bin/env python3
"""Generates the extended collectives library (seed 003, Appendix A) from one
table, lib/api/ext/functions.table: one line per function as the appendix
writes it, <<T>>/<<TYPE>> expanded over the eleven reduction types.

usage: gen_extended_collectives.py TABLE --header OUT.h --source OUT.cpp --names OUT.inc
       gen_extended_collectives.py TABLE --docs OUT.md       (the docs index)
       gen_extended_collectives.py TABLE --check-docs DOC.md (exit 1 if DOC.md differs)
       gen_extended_collectives.py TABLE --upc-header OUT.h  (upcc's header in UPC syntax,
                                                              tools/upcc/include/upc_collective_ext.h)
       gen_extended_collectives.py TABLE --check-upc-header H (exit 1 if H differs)
       gen_extended_collectives.py TABLE --c-wrappers OUT.cpp (the extern "C" wrappers that
                                                              upcc's translated C calls)

Every function becomes a few assignments into a upc::ext::call (what each
parameter means is decided by its name and C type, in PARAMS below) and one
call of upc::ext::run, which turns it into an engine request. The variant
comes from the suffixes of the name, the family from its stem.
"""
import re
import sys

TYPES = [("C", "signed char"), ("UC", "unsigned char"), ("S", "short"), ("US", "unsigned short"), ("I", "int"),
         ("UI", "unsigned int"), ("L", "long"), ("UL", "unsigned long"), ("F", "float"), ("D", "double"),
         ("LD", "long double")]

# (C type as the appendix writes it, parameter name) -> (C++ type, assignment into `c`)
def shared_array(cpp, field, signed):
    size = "sizeof(int)" if signed == "true" else "sizeof(size_t)"
    return (cpp, lambda n: f'c.{field} = ext::shared_array({n}.address(), {size}, {signed}, "{n}");')

def private_array(cpp, field, signed):
    return (cpp, lambda n: f'c.{field} = ext::private_array({n}, sizeof(*{n}), {signed}, "{n}");')

ARRAY_FIELD = {"ddisp": "ddisp", "ddisp_local": "ddisp", "ddisp_raw": "ddisp", "sdisp": "sdisp",
               "sdisp_local": "sdisp", "sdisp_raw": "sdisp", "exchange": "exchange", "exchange_local": "exchange",
               "exchange_raw": "exchange", "disp": "disp", "disp_local": "disp", "disp_raw": "disp",
               "perm": "perm", "nelems": "counts", "nbytes": "counts"}

SHARED_INT = "upc::sptr<int, 1, upc::relaxed>"
SHARED_CONST_INT = "upc::sptr<const int, 1, upc::relaxed>"
SHARED_SIZE = "upc::sptr<size_t, 1, upc::relaxed>"


def param(ctype, name):
    """(C++ declaration type, assignment function of the parameter name)."""
    if ctype == "shared void *" and name in ("dst", "buffer"):
        tgt = "c.dst = c.src" if name == "buffer" else "c.dst"
        return ("upc::sptr<void>", lambda n: f"{tgt} = ext::shared_side({n}.address());")
    if ctype == "void *" and name in ("dst", "buffer"):
        tgt = "c.dst = c.src" if name == "buffer" else "c.dst"
        return ("void*", lambda n: f"{tgt} = ext::private_side({n});")
    if ctype == "shared const void *" and name == "src":
        return ("upc::sptr<const void>", lambda n: f"c.src = ext::shared_side({n}.address());")
    if ctype == "const void *" and name == "src":
        return ("const void*", lambda n: f"c.src = ext::private_side(const_cast<void*>({n}));")
    if name in ARRAY_FIELD and ctype in ("shared int *", "shared size_t *", "shared const int *"):
        cpp = {"shared int *": SHARED_INT, "shared size_t *": SHARED_SIZE, "shared const int *": SHARED_CONST_INT}[ctype]
        return shared_array(cpp, ARRAY_FIELD[name], "true" if "int" in ctype else "false")
    if name in ARRAY_FIELD and ctype in ("int *", "size_t *"):
        return private_array(ctype.replace(" *", "*"), ARRAY_FIELD[name], "true" if ctype == "int *" else "false")
    scalars = {
        ("int", "ddisp"): lambda n: f"c.ddisp_scalar = {n};",
        ("size_t", "nbytes"): lambda n: f"c.count = {n};",
        ("size_t", "nelems"): lambda n: f"c.count = {n};",
        ("size_t", "dst_blk"): lambda n: f"c.dst_blk = {n};",
        ("size_t", "dst_blk_raw"): lambda n: f"c.dst_blk = {n};",
        ("size_t", "src_blk"): lambda n: f"c.src_blk = {n};",
        ("size_t", "src_blk_raw"): lambda n: f"c.src_blk = {n};",
        ("size_t", "typesize"): lambda n: f"c.typesize = {n};",
        ("int", "root"): lambda n: f"c.root = {n};",
        ("int", "nchunks"): lambda n: f"c.nchunks = {n};",
        ("size_t", "blk_size"): lambda n: f"c.blk_size = {n};",
        ("upc_op_t", "op"): lambda n: f"c.op = {n};",
        ("team", "t"): lambda n: f"c.thesis_team = &{n};",
        ("upc_flag_t", "sync_mode"): lambda n: f"c.flags = {n};",
    }
    if (ctype, name) in scalars:
        cpp = {"size_t": "size_t", "int": "int", "upc_op_t": "upc_op_t", "team": "team",
               "upc_flag_t": "upc_flag_t"}[ctype]
        return (cpp, scalars[(ctype, name)])
    raise SystemExit(f"gen_extended_collectives: no meaning for parameter '{ctype} {name}'")


FAMILIES = ["gather_all", "broadcast", "scatter", "gather", "exchange", "permute", "vector_copy"]
VARIANTS = ["in_place", "rooted", "v", "local", "raw", "privparam", "merge", "team", "allthr", "all", "get", "put",
            "priv"]


def family_and_variants(name):
    stem = name[len("upc_all_"):]
    for fam in ("prefix_reduce", "reduce"):
        m = re.match(fam + r"(?:<<T>>|[A-Z]+)(.*)$", stem)
        if m:
            rest = m.group(1)
            toks = [t for t in rest.split("_") if t]
            toks = merge_in_place(toks)
            if fam == "reduce" and "all" in toks:
                fam = "allreduce"
            return fam, toks
    for fam in FAMILIES:
        if stem.startswith(fam):
            toks = merge_in_place([t for t in stem[len(fam):].split("_") if t])
            return fam, toks
    raise SystemExit(f"gen_extended_collectives: no family for {name}")


def merge_in_place(toks):
    out = []
    i = 0
    while i < len(toks):
        if toks[i] == "in" and i + 1 < len(toks) and toks[i + 1] == "place":
            out.append("in_place")
            i += 2
        else:
            out.append(toks[i])
            i += 1
    for t in out:
        if t not in VARIANTS:
            raise SystemExit(f"gen_extended_collectives: unknown variant '{t}'")
    return out


def read_table(path):
    rows = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"(\w+(?:<<T>>\w*)?)\((.*)\)$", line)
        if not m:
            raise SystemExit(f"gen_extended_collectives: cannot read line: {line}")
        rows.append((m.group(1), m.group(2)))
    return rows


def split_params(text):
    out = []
    for a in text.replace("<<TYPE>>,<<TYPE>>", "<<TYPE>>@<<TYPE>>").split(","):
        a = a.strip().replace("@", ",")
        if "(*func)" in a:
            out.append(("func", "func"))
            continue
        m = re.match(r"(.*?)(\w+)$", a)
        out.append((" ".join(m.group(1).split()), m.group(2)))
    return out


def expand(rows):
    """(name, family, variants, [(cpp decl, assignment)], type letter, TYPE) for every function."""
    fns = []
    for name, params in rows:
        fam, toks = family_and_variants(name)
        typed = "<<T>>" in name
        for letter, ctype in (TYPES if typed else [(None, None)]):
            n = name.replace("<<T>>", letter) if typed else name
            decls, assigns = [], []
            for pt, pn in split_params(params):
                if pt == "func":
                    decls.append(f"{ctype} (*func)({ctype}, {ctype})")
                    assigns.append("c.func = reinterpret_cast<const void*>(func);")
                    continue
                cpp, assign = param(pt, pn)
                decls.append(f"{cpp} {pn}")
                assigns.append(assign(pn))
            if typed:
                assigns.append(f"c.type = ext::element_type_of<{ctype}>(); c.type_size = sizeof({ctype});")
            fns.append((n, fam, toks, decls, assigns, letter, ctype))
    return fns


def variant_expr(toks):
    return " | ".join(f"ext::variant::{t}" for t in toks) if toks else "0u"


def header(fns):
    out = ["/* <upc_collective_ext.h>: the extended collectives library of seed 003 (Teijeiro's thesis,",
           " * Appendix A): in-place, vector-variant, team-based and get/put/priv collectives, every",
           " * function of the appendix with its parameters. GENERATED from lib/api/ext/functions.table by",
           " * tools/gen_extended_collectives.py: do not edit. Semantics: docs/extended-collectives.md. */",
           "#pragma once", "#include <cstddef>", "#include <source_location>", "", '#include "upc.h"',
           '#include "upc_collective.h"', '#include "upc_types.h"', '#include "teamutil.h"', "",
           "/* nchunks × UPC_EXTCOLLS_VV_CHUNKS asks the computational v-collectives for the cyclic chunk",
           " * order of §3.2.2 (chunk i on thread i % THREADS). */",
           "#define UPC_EXTCOLLS_VV_CHUNKS 65536", "",
           "#define UPCEMU_WHERE const std::source_location& where = std::source_location::current()"]
    for n, fam, toks, decls, assigns, letter, ctype in fns:
        out.append(f"void {n}({', '.join(decls)}, UPCEMU_WHERE);")
    out += ["#undef UPCEMU_WHERE", ""]
    return "\n".join(out)


def source(fns):
    out = ["// GENERATED from lib/api/ext/functions.table by tools/gen_extended_collectives.py: do not edit.",
           "// Each function fills a upc::ext::call by its parameters' names and runs it (lib/api/ext/).",
           '#include "upc_collective_ext.h"', "", '#include "ext/call.hpp"', "", "namespace ext = upc::ext;", ""]
    for n, fam, toks, decls, assigns, letter, ctype in fns:
        out.append(f"void {n}({', '.join(decls)}, const std::source_location& where) {{")
        out.append(f'  ext::call c("{n}", where, ext::family::{fam}, {variant_expr(toks)});')
        for a in assigns:
            out.append("  " + a)
        out.append("  ext::run(c);")
        out.append("}")
        out.append("")
    return "\n".join(out)


def names(fns):
    out = ["// GENERATED: every function of <upc_collective_ext.h> with its address (tests).",
           "#define UPCEMU_EXT_FUNCTIONS(X) \\"]
    for n, *_ in fns:
        out.append(f"  X({n}) \\")
    out.append("")
    return "\n".join(out)


# For the tests: each parameter as an expression of a upc_ext_test::args `a`.
def test_arg(ctype, name):
    if name in ("dst", "buffer", "src"):
        base = "src" if name == "src" else name
        return f"a.{base}_{'private' if 'shared' not in ctype else 'shared'}"
    if name in ARRAY_FIELD and "*" in ctype:
        field = ARRAY_FIELD[name]
        if ctype.startswith("shared"):
            return f"a.{field}_shared_{'size' if 'size_t' in ctype else 'int'}"
        return f"a.{field}_private_{'size' if 'size_t' in ctype else 'int'}"
    return {"ddisp": "a.ddisp_scalar", "nbytes": "a.count", "nelems": "a.count", "dst_blk": "a.dst_blk",
            "dst_blk_raw": "a.dst_blk", "src_blk": "a.src_blk", "src_blk_raw": "a.src_blk", "typesize": "a.typesize",
            "root": "a.root", "nchunks": "a.nchunks", "blk_size": "a.blk_size", "op": "a.op", "t": "a.t",
            "sync_mode": "a.flags"}[name]


def invokers(rows):
    out = ["// GENERATED: every untyped function of <upc_collective_ext.h>, callable from one argument set",
           "// (the tests' args). Entry: name, family, variant bits, parameter names, arguments.",
           "#define UPCEMU_EXT_INVOKERS(X) \\"]
    for name, params in rows:
        if "<<T>>" in name:
            continue
        fam, toks = family_and_variants(name)
        args = ", ".join(test_arg(pt, pn) for pt, pn in split_params(params))
        bits = " | ".join(f"upc::ext::variant::{t}" for t in toks) if toks else "0u"
        pnames = ",".join(pn for _, pn in split_params(params))
        out.append(f'  X({name}, upc::ext::family::{fam}, {bits}, "{pnames}", {args}) \\')
    out.append("")
    out += ["// GENERATED: every typed function, with its type letter; func is a.func cast to the type's form.",
            "#define UPCEMU_EXT_TYPED_INVOKERS(X) \\"]
    for name, params in rows:
        if "<<T>>" not in name:
            continue
        fam, toks = family_and_variants(name)
        bits = " | ".join(f"upc::ext::variant::{t}" for t in toks) if toks else "0u"
        pnames = ",".join(pn for _, pn in split_params(params))
        for letter, ctype in TYPES:
            args = []
            for pt, pn in split_params(params):
                if pt == "func":
                    args.append(f"reinterpret_cast<{ctype} (*)({ctype}, {ctype})>(a.func)")
                else:
                    args.append(test_arg(pt, pn))
            n = name.replace("<<T>>", letter)
            out.append(f'  X({n}, upc::ext::family::{fam}, {bits}, "{letter}", "{pnames}", {", ".join(args)}) \\')
    out.append("")
    return "\n".join(out)


# ---- upcc (docs/upcc.md "Library headers") ----
# The UPC-syntax header declares every function as the table writes it; upcc
# translates the prototypes (each pointer-to-shared becomes upcemu_sptr, `team`
# is teamutil.h's C struct), and the C wrappers turn those C arguments into the
# C++ ones and call the C++ function (with the wrapper's source_location, which
# picks the C++ overload).
C_WRAP = {  # table type -> (C parameter type, C++ argument expression of the name)
    "shared void *": ("upcemu_sptr", lambda n: f"upcc_ext::vptr({n})"),
    "shared const void *": ("upcemu_sptr", lambda n: f"upcc_ext::cvptr({n})"),
    "shared int *": ("upcemu_sptr", lambda n: f"{SHARED_INT}(upcc_ext::addr({n}))"),
    "shared const int *": ("upcemu_sptr", lambda n: f"{SHARED_CONST_INT}(upcc_ext::addr({n}))"),
    "shared size_t *": ("upcemu_sptr", lambda n: f"{SHARED_SIZE}(upcc_ext::addr({n}))"),
    "team": ("upcc_c_team", lambda n: f"upcc_team_to_cpp({n})"),
}


def upc_params(params, ctype):
    """The table's parameters with <<TYPE>> and func spelled out, as UPC."""
    out = []
    for pt, pn in split_params(params):
        if pt == "func":
            out.append(f"{ctype} (*func)({ctype}, {ctype})")
        else:
            out.append(f"{pt} {pn}" if not pt.endswith("*") else f"{pt}{pn}")
    return out


def expand_upc(rows):
    for name, params in rows:
        typed = "<<T>>" in name
        for letter, ctype in (TYPES if typed else [(None, None)]):
            yield (name.replace("<<T>>", letter) if typed else name), params, ctype


def untyped_variants(rows):
    """The untyped rows as (name suffix after the family, parameters, [families]), in the
    table's order of first appearance: the families that have that variant with those
    parameters."""
    groups = {}
    for name, params in rows:
        if "<<T>>" in name:
            continue
        stem = name[len("upc_all_"):]
        fam = next(f for f in FAMILIES if stem.startswith(f))
        groups.setdefault((stem[len(fam):], params), []).append(fam)
    return [(suffix, params, families) for (suffix, params), families in groups.items()]


def upc_header(rows):
    out = ["/* <upc_collective_ext.h> for UPC source compiled by upcc (docs/upcc.md, \"Library headers\"):",
           " * the extended collectives of seed 003 (Teijeiro's thesis, Appendix A) in UPC syntax. GENERATED",
           " * from lib/api/ext/functions.table by tools/gen_extended_collectives.py --upc-header: do not",
           " * edit. upcc translates the prototypes (pointers-to-shared become upcemu_sptr); the C wrappers",
           " * (gen_extended_collectives.py --c-wrappers) call the C++ library. Semantics:",
           " * docs/extended-collectives.md. */",
           "#ifndef UPCC_UPC_COLLECTIVE_EXT_H", "#define UPCC_UPC_COLLECTIVE_EXT_H", "#include <stddef.h>",
           "#include <upc_collective.h>", "#include <upc_types.h>", "#include <teamutil.h>", "",
           "/* nchunks x UPC_EXTCOLLS_VV_CHUNKS asks the computational v-collectives for the cyclic chunk",
           " * order of section 3.2.2 (chunk i on thread i % THREADS). */",
           "#define UPC_EXTCOLLS_VV_CHUNKS 65536", "",
           "/* The eleven reduction types, X(letter, TYPE) each: a typed function is declared once for all of",
           " * them by a macro of the letter and TYPE (upc_all_reduceI_team is upc_all_reduce<<T>>_team's I,",
           " * with int). */",
           "#define UPCC_EXT_TYPES(X) " + " ".join(f"X({letter}, {ctype})" for letter, ctype in TYPES), ""]
    out += ["/* A variant several families have with the same parameters is declared once, by a macro of",
            " * the family (upc_all_scatter_team_get is UPCC_EXT_DECLARE_team_get(scatter)). */"]
    for suffix, params, families in untyped_variants(rows):
        if len(families) == 1:
            out.append(f"void upc_all_{families[0]}{suffix}({', '.join(upc_params(params, None))});")
            continue
        macro = "UPCC_EXT_DECLARE" + suffix
        out.append(f"#define {macro}(F) void upc_all_##F##{suffix}({', '.join(upc_params(params, None))});")
        out.append(" ".join(f"{macro}({f})" for f in families))
    for name, params in rows:
        if "<<T>>" not in name:
            continue
        before, after = name.split("<<T>>")
        macro = "UPCC_EXT_DECLARE_" + name.replace("<<T>>", "T")
        typed = f"{before}##T_LETTER##{after}" if after else f"{before}##T_LETTER"
        out.append(f"#define {macro}(T_LETTER, T) void {typed}({', '.join(upc_params(params, 'T'))});")
        out.append(f"UPCC_EXT_TYPES({macro})")
    out += ["", "/* Each call with the caller's file and line (upcemu_site_enter/leave, as in <upc_collective.h>),",
            " * so that a report (a mismatch between threads, a bad argument) names the UPC program's line.",
            " * The macro's own name is not expanded again: the call inside is the real function, which",
            " * also stays callable through its address. */"]
    out += [f"#define {n}(...) (upcemu_site_enter(__FILE__, __LINE__), {n}(__VA_ARGS__), upcemu_site_leave())"
            for n, _, _ in expand_upc(rows)]
    return "\n".join(out + ["#endif", ""])


def c_wrappers(rows):
    out = ["// GENERATED from lib/api/ext/functions.table by tools/gen_extended_collectives.py --c-wrappers:",
           "// do not edit. The extern \"C\" side of upcc's <upc_collective_ext.h> (docs/upcc.md \"Library",
           "// headers\"): each function takes the C arguments of the translated UPC prototype and calls the",
           "// C++ function of the same name.",
           "#include <source_location>", "", '#include "upcemu_c.h"', '#include "upc_collective_ext.h"',
           '#include "capi/headers_team.hpp"', "",
           "namespace upcc_ext {",
           "inline upc::shared_address addr(upcemu_sptr p) { return upc::shared_address{p.offset, p.thread, p.phase}; }",
           "inline upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(addr(p)); }",
           "inline upc::sptr<const void> cvptr(upcemu_sptr p) { return upc::sptr<const void>(addr(p)); }",
           "}  // namespace upcc_ext", "", 'extern "C" {']
    for n, params, ctype in expand_upc(rows):
        cdecl, args = [], []
        for pt, pn in split_params(params):
            if pt == "func":
                cdecl.append(f"{ctype} (*func)({ctype}, {ctype})")
                args.append("func")
            elif pt in C_WRAP:
                t, conv = C_WRAP[pt]
                cdecl.append(f"{t} {pn}")
                args.append(conv(pn))
            else:
                cdecl.append(f"{pt} {pn}" if not pt.endswith("*") else f"{pt}{pn}")
                args.append(pn)
        out.append(f"void {n}({', '.join(cdecl)}) {{")
        out.append(f"  {n}({', '.join(args + ['std::source_location::current()'])});")
        out.append("}")
    out += ['}  // extern "C"', ""]
    return "\n".join(out)


FAMILY_TITLE = {"broadcast": "broadcast", "scatter": "scatter", "gather": "gather", "gather_all": "allgather",
                "exchange": "exchange", "permute": "permute", "vector_copy": "vector copy", "reduce": "reduce",
                "allreduce": "allreduce", "prefix_reduce": "prefix reduce"}


def docs(rows):
    out = ["<!-- GENERATED by tools/gen_extended_collectives.py from lib/api/ext/functions.table: do not edit. -->",
           "# Extended collectives: the index", "",
           "Every function of `<upc_collective_ext.h>` (seed 003, Appendix A), by family, with its parameters;",
           "`T` stands for the eleven type letters (C UC S US I UI L UL F D LD) and `TYPE` for their C types.",
           "What the families and variants mean: [extended-collectives.md](extended-collectives.md).", ""]
    by_family = {}
    for name, params in rows:
        fam, toks = family_and_variants(name)
        by_family.setdefault(fam, []).append((name, params, toks))
    total = 0
    for fam in ["broadcast", "scatter", "gather", "gather_all", "exchange", "permute", "vector_copy", "reduce",
                "allreduce", "prefix_reduce"]:
        items = by_family.get(fam, [])
        count = sum(11 if "<<T>>" in n else 1 for n, _, _ in items)
        total += count
        out += [f"## {FAMILY_TITLE[fam]} ({count} functions)", "", "| function | parameters |", "|---|---|"]
        for n, p, toks in items:
            shown = n.replace("<<T>>", "T")
            out.append(f"| `{shown}` | `{p.replace('<<TYPE>>', 'TYPE').replace('|', '&#124;')}` |")
        out.append("")
    out.insert(6, f"{total} functions in all.")
    out.insert(7, "")
    while out[8] == "":
        del out[8]
    return "\n".join(out)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    rows = read_table(argv[1])
    args = dict(zip(argv[2::2], argv[3::2]))
    fns = expand(rows)
    if "--header" in args:
        open(args["--header"], "w").write(header(fns))
    if "--source" in args:
        open(args["--source"], "w").write(source(fns))
    if "--names" in args:
        # (the last X line ends in a backslash: the file must not end there)
        open(args["--names"], "w").write(names(fns) + "\n" + invokers(rows) + "\n// end of the generated lists\n")
    if "--docs" in args:
        open(args["--docs"], "w").write(docs(rows))
    if "--upc-header" in args:
        open(args["--upc-header"], "w").write(upc_header(rows))
    if "--c-wrappers" in args:
        open(args["--c-wrappers"], "w").write(c_wrappers(rows))
    if "--check-upc-header" in args:
        if open(args["--check-upc-header"]).read() != upc_header(rows):
            print(f"{args['--check-upc-header']} is out of date: run tools/gen_extended_collectives.py "
                  f"lib/api/ext/functions.table --upc-header {args['--check-upc-header']}")
            return 1
    if "--check-docs" in args:
        if open(args["--check-docs"]).read() != docs(rows):
            print(f"{args['--check-docs']} is out of date: run tools/gen_extended_collectives.py "
                  f"lib/api/ext/functions.table --docs {args['--check-docs']}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
