"""Why a link failed over main, said in UPC terms instead of the linker's.

The runtime's main() (libupcemu_main) starts the threads and calls the UPC
program's main, which the translator names upcemu_c_program_main. So a program
without main, with two, or with a main that was compiled as plain C (a .c file
without -x upc, an object from another compiler) fails to link with
"undefined reference to upcemu_c_program_main" or "multiple definition of
main": names the user never wrote. nm says which input defines what."""
import subprocess

from .driver_commands import run

UPC_MAIN = "upcemu_c_program_main"


def _defined(obj):
    """The global symbols an object or archive defines (empty when nm cannot say)."""
    try:
        r = run(["nm", "-g", "--defined-only", obj], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except Exception:
        return set()
    return {line.split()[-1] for line in r.stdout.decode(errors="replace").splitlines()
            if len(line.split()) >= 2 and line.split()[-2] in ("T", "W", "D", "B", "R")}


def _names(xs):
    return " and ".join(xs) if len(xs) < 3 else ", ".join(xs[:-1]) + " and " + xs[-1]


def explain(linker_output, linked):
    """One line (without `upcc: error: `) saying why the link failed over main,
    or None when it failed for another reason. `linked` is [(object, shown name,
    kind)], kind "upc", "c", "gcc", "object" or "empty" (a UPC input without bytes)."""
    no_upc_main = f"undefined reference to `{UPC_MAIN}'" in linker_output
    two_mains = "multiple definition of `main'" in linker_output
    two_upc_mains = f"multiple definition of `{UPC_MAIN}'" in linker_output
    if not (no_upc_main or two_mains or two_upc_mains):
        return None
    plain_mains, upc_mains = [], []
    for obj, shown, kind in linked:
        symbols = _defined(obj)
        if "main" in symbols:
            plain_mains.append((shown, kind))
        if UPC_MAIN in symbols:
            upc_mains.append(shown)
    if plain_mains:
        shown, kind = plain_mains[0]
        if kind == "c":
            return (f"{shown} defines main, but it was compiled as plain C (-x c): a UPC program's main "
                    f"must be compiled as UPC (drop -x c, or put -x upc before {shown})")
        return (f"{shown} defines main, but it is not a UPC program (it was not compiled by upcc as UPC): "
                f"compile its source with upcc as UPC")
    if len(upc_mains) > 1:
        return f"main is defined more than once: in {_names(upc_mains)}"
    if no_upc_main:
        empty = [shown for _, shown, kind in linked if kind == "empty"]
        why = f" ({_names(empty)} {'is' if len(empty) == 1 else 'are'} empty)" if empty else ""
        return (f"no input defines main{why}: a UPC program needs a main in a .upc or .c file "
                f"compiled as UPC")
    return "main is defined more than once"
