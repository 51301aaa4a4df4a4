#!/usr/bin/env python3
"""The installed toolchain, used the way a user outside the source tree uses it.

  test_install.py --build-dir B --source-root S [--fresh]

Default (the default suite, a few seconds): `meson install -C B --no-rebuild
--destdir TMP/stage` (the build directory's own prefix, staged under a temporary
folder: nothing outside TMP is written), and pkg-config reads the staged .pc
files through PKG_CONFIG_SYSROOT_DIR, as for any staged install.

--uninstalled (a few seconds): no install; a program built against the build
tree with the uninstalled .pc files meson writes, PKG_CONFIG_PATH=
build/meson-uninstalled (pkg-config --cflags names the source tree's include/
and the build tree's generated headers, --libs the build tree's lib/), run by
the build tree's upcrun; and a Meson project's dependency('upcemu') so.

--fresh (suite 'full', about a minute and a half on two cores): the README's
set-up, `BUILD_DIR=TMP/build tools/setup.sh install --prefix TMP/prefix`, from a
new build directory, and pkg-config finds the files with PKG_CONFIG_PATH alone.

Both then check, in a working folder under TMP (outside the source tree, with
nothing of the source tree on any search path):
  - every header of include/ (and the generated upc_collective_ext.h) is under
    <includedir>/upcemu/ with the same relative path; the libraries, both .pc
    files, upcrun and its man page are installed;
  - `pkg-config --cflags --libs upcemu` gives the include folder, libupcemu_main
    linked whole, -lupcemu, Boost.Thread, -pthread, -lrt, -rdynamic and the
    --wrap flags (in that order where it matters);
  - `c++ -std=c++20 prog.cpp $(pkg-config --cflags --libs upcemu) -o prog`
    builds tests/install/prog.cpp, and the installed `upcrun -n 3 ./prog` runs
    it on both backends with the right answer and status 0; `./prog _exit 5`
    is reported ("thread 1 called _exit(5)") with status 5, which only the
    pkg-config link's --wrap flags make happen;
  - own_main.cpp (its own main(), upc::run) builds with upcemu-nomain and runs;
  - a Meson project with `dependency('upcemu')` and `dependency('upcemu-nomain')`
    configures, builds and runs both programs.
Exit status 77 (skipped) when pkg-config or meson is not installed.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIP = 77
EXPECTED_OUTPUT = "THREADS 3: sum 1..30 = 465, lock 3, reduce 465"

failures = []


def fail(message):
    failures.append(message)
    print(f"FAIL: {message}", flush=True)


def run(cmd, *, env=None, cwd=None, shell=False, timeout=600, check=True, quiet=False):
    shown = cmd if shell else shlex.join(str(c) for c in cmd)
    print(f"$ {shown}", flush=True)
    started = time.monotonic()
    r = subprocess.run(cmd if shell else [str(c) for c in cmd], env=env, cwd=cwd, shell=shell,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    print(f"  (exit {r.returncode}, {time.monotonic() - started:.1f} s)", flush=True)
    for name, text in (("stderr", r.stderr),) if quiet else (("stdout", r.stdout), ("stderr", r.stderr)):
        if text.strip():
            print(f"  {name}:\n" + "".join(f"    {line}\n" for line in text.rstrip().splitlines()[-40:]), end="")
    if check and r.returncode != 0:
        raise SystemExit(f"FAIL: {shown} exited with {r.returncode}")
    return r


def build_options(build_dir, meson):
    r = run([meson, "introspect", build_dir, "--buildoptions"], quiet=True)
    return {o["name"]: o["value"] for o in json.loads(r.stdout)}


def under(prefix, value):
    """Where meson installs a directory option's value for this prefix."""
    return Path(value) if os.path.isabs(value) else Path(prefix) / value


def clean_env():
    """The caller's environment without anything that could let the build see the
    source tree or the run take other settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("UPCEMU_", "PKG_CONFIG")) and k not in ("CPATH", "CPLUS_INCLUDE_PATH",
                                                                       "LIBRARY_PATH", "LD_LIBRARY_PATH")}
    return env


def check_files(source_root, root, opts):
    """root: what comes before the prefix on disk ("", or the DESTDIR of a staged install)."""
    prefix = opts["prefix"]

    def on_disk(option):
        return Path(root + str(under(prefix, opts[option])))

    include = on_disk("includedir") / "upcemu"
    wanted = [p.relative_to(source_root / "include") for p in (source_root / "include").rglob("*")
              if p.is_file() and p.name != "meson.build"]
    wanted.append(Path("upc_collective_ext.h"))  # generated (include/meson.build)
    missing = [str(p) for p in wanted if not (include / p).is_file()]
    if missing:
        fail(f"headers not installed under {include}: {', '.join(sorted(missing))}")
    libdir = on_disk("libdir")
    for f in ("libupcemu.a", "libupcemu_main.a", "pkgconfig/upcemu.pc", "pkgconfig/upcemu-nomain.pc"):
        if not (libdir / f).is_file():
            fail(f"{libdir / f} not installed")
    upcrun = on_disk("bindir") / "upcrun"
    if not os.access(upcrun, os.X_OK):
        fail(f"{upcrun} not installed")
    upcc = on_disk("bindir") / "upcc"
    if not os.access(upcc, os.X_OK):
        fail(f"{upcc} not installed")
    man = on_disk("mandir") / "man1" / "upcrun.1"
    if not man.is_file():
        fail(f"{man} not installed")
    print(f"installed: {len(wanted)} headers under {include}, libraries and .pc files in {libdir}, {upcrun}, {man}")
    # The mpi backend's module, where the build has one (Open MPI found): the
    # installed upcrun names it for the ranks, so the stage's own is used.
    if (libdir / "upcemu" / "libupcemu_mpi.so").is_file() and shutil.which("mpirun") and "mpi" not in BACKENDS:
        BACKENDS.append("mpi")
        print(f"installed: {libdir / 'upcemu' / 'libupcemu_mpi.so'} (runs on the mpi backend too)")
    return upcrun, libdir / "pkgconfig"


# The backends the installed programs are run on: threads and processes, and
# mpi when the install has its module (check_files).
BACKENDS = ["threads", "processes"]


def check_pkg_config(env, include_dir_suffix):
    cflags = run(["pkg-config", "--cflags", "upcemu"], env=env).stdout.split()
    libs = run(["pkg-config", "--libs", "upcemu"], env=env).stdout.split()
    if not any(f.startswith("-I") and f.endswith(include_dir_suffix) for f in cflags):
        fail(f"pkg-config --cflags upcemu has no -I...{include_dir_suffix}: {cflags}")
    needed = ["-Wl,--whole-archive", "-lupcemu_main", "-Wl,--no-whole-archive", "-lupcemu", "-lboost_thread",
              "-pthread", "-lrt", "-rdynamic", "-Wl,--wrap=_exit", "-Wl,--wrap=_Exit", "-Wl,--wrap=quick_exit"]
    absent = [f for f in needed if f not in libs]
    if absent:
        fail(f"pkg-config --libs upcemu lacks {absent}: {libs}")
    else:
        i = libs.index
        if not (i("-Wl,--whole-archive") < i("-lupcemu_main") < i("-Wl,--no-whole-archive") < i("-lupcemu")
                < i("-lboost_thread")):
            fail(f"pkg-config --libs upcemu: libupcemu_main must be whole, before -lupcemu, before Boost: {libs}")
    nomain = run(["pkg-config", "--libs", "upcemu-nomain"], env=env).stdout.split()
    if "-lupcemu_main" in nomain or "-lupcemu" not in nomain:
        fail(f"pkg-config --libs upcemu-nomain must link libupcemu without libupcemu_main: {nomain}")


def check_programs(work, env, upcrun, with_upcc=True):
    shutil.copy(HERE / "prog.cpp", work)
    shutil.copy(HERE / "own_main.cpp", work)
    cxx = os.environ.get("CXX", "c++")
    # Exactly what a user types (through a shell, with the $(...)).
    run(f"{cxx} -std=c++20 prog.cpp $(pkg-config --cflags --libs upcemu) -o prog", shell=True, env=env, cwd=work)
    run(f"{cxx} -std=c++20 own_main.cpp $(pkg-config --cflags --libs upcemu-nomain) -o own_main", shell=True,
        env=env, cwd=work)
    check_runs(work, env, upcrun, "./prog", "./own_main")
    if not with_upcc:
        return
    # A UPC program through the installed upcc (which finds the stage's headers and
    # libraries relative to itself), run by the installed upcrun on both backends.
    shutil.copy(HERE / "hello.upc", work)
    upcc = Path(upcrun).parent / "upcc"
    run([upcc, "hello.upc", "-o", "hello_upc"], env=env, cwd=work)
    for backend in BACKENDS:
        r = run([upcrun, "-n", "3", "--backend", backend, "--timeout", "60", "./hello_upc"], env=env, cwd=work,
                check=False)
        if r.returncode != 0 or "upc hello: 3 threads" not in r.stdout:
            fail(f"upcrun -n 3 --backend {backend} ./hello_upc (built by the installed upcc): exit {r.returncode}")


def check_runs(work, env, upcrun, prog, own_main):
    for backend in BACKENDS:
        r = run([upcrun, "-n", "3", "--backend", backend, "--timeout", "60", prog], env=env, cwd=work, check=False)
        if r.returncode != 0 or EXPECTED_OUTPUT not in r.stdout:
            fail(f"upcrun -n 3 --backend {backend} {prog}: exit {r.returncode}, want 0 and '{EXPECTED_OUTPUT}'")
        r = run([upcrun, "-n", "3", "--backend", backend, "--timeout", "60", prog, "_exit", "5"], env=env, cwd=work,
                check=False)
        if r.returncode != 5 or "thread 1 called _exit(5)" not in r.stderr:
            fail(f"upcrun -n 3 --backend {backend} {prog} _exit 5: exit {r.returncode}, want 5 and the report "
                 "'thread 1 called _exit(5)' (are the --wrap flags in the link?)")
        r = run([upcrun, "-n", "4", "--backend", backend, "--timeout", "60", own_main], env=env, cwd=work,
                check=False)
        if r.returncode != 0 or "own main: 4 threads, exit code 0" not in r.stdout:
            fail(f"upcrun -n 4 --backend {backend} {own_main}: exit {r.returncode}, want 0 and 'own main: 4 threads'")


def check_meson_project(work, env, upcrun, meson):
    project = work / "meson_project"
    project.mkdir()
    shutil.copy(HERE / "prog.cpp", project)
    shutil.copy(HERE / "own_main.cpp", project)
    (project / "meson.build").write_text(
        "project('uses_upcemu', 'cpp', default_options : ['cpp_std=c++20'])\n"
        "executable('prog', 'prog.cpp', dependencies : dependency('upcemu'))\n"
        "executable('own_main', 'own_main.cpp', dependencies : dependency('upcemu-nomain'))\n")
    run([meson, "setup", "build"], env=env, cwd=project)
    run(["ninja", "-C", "build"], env=env, cwd=project)
    check_runs(project, env, upcrun, "build/prog", "build/own_main")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    ap.add_argument("--source-root", required=True, type=Path)
    ap.add_argument("--fresh", action="store_true", help="a new build directory and prefix via tools/setup.sh install")
    ap.add_argument("--uninstalled", action="store_true",
                    help="no install: the build tree's uninstalled .pc files (build/meson-uninstalled)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()
    source_root = args.source_root.resolve()

    meson = shutil.which("meson")
    if not shutil.which("pkg-config") or not meson or not shutil.which("ninja"):
        print("skipped: pkg-config, meson or ninja is not installed")
        return SKIP

    tmp = Path(tempfile.mkdtemp(prefix="upcemu-install-"))
    if source_root in tmp.parents:
        raise SystemExit(f"the temporary folder {tmp} is inside the source tree")
    try:
        env = clean_env()
        if args.uninstalled:
            # A program built against the build tree, as `meson devenv` or a
            # neighbouring project would: PKG_CONFIG_PATH=build/meson-uninstalled
            # (pkg-config prefers NAME-uninstalled.pc), the build tree's upcrun.
            env["PKG_CONFIG_PATH"] = str(args.build_dir.resolve() / "meson-uninstalled")
            work = tmp / "work"
            work.mkdir()
            check_pkg_config(env, "/include")
            check_programs(work, env, args.build_dir.resolve() / "tools" / "upcrun", with_upcc=False)
            check_meson_project(work, env, args.build_dir.resolve() / "tools" / "upcrun", meson)
        elif args.fresh:
            prefix = tmp / "prefix"
            build_dir = tmp / "build"
            run([source_root / "tools/setup.sh", "install", "--prefix", prefix],
                env=dict(env, BUILD_DIR=str(build_dir)), timeout=3000)
            opts = build_options(build_dir, meson)
            if opts["prefix"] != str(prefix):
                fail(f"setup.sh install --prefix {prefix}: the build directory's prefix is {opts['prefix']}")
            upcrun, pcdir = check_files(source_root, "", opts)
            env["PKG_CONFIG_PATH"] = str(pcdir)
        else:
            stage = tmp / "stage"
            run([meson, "install", "-C", args.build_dir, "--no-rebuild", "--quiet", "--destdir", stage], env=env)
            opts = build_options(args.build_dir, meson)
            upcrun, pcdir = check_files(source_root, str(stage), opts)
            # The .pc files name the real prefix; the sysroot maps its -I and -L into the stage,
            # and PKG_CONFIG_LIBDIR makes the stage's .pc files the only ones found.
            env["PKG_CONFIG_SYSROOT_DIR"] = str(stage)
            env["PKG_CONFIG_LIBDIR"] = str(pcdir)
        if not failures and not args.uninstalled:
            work = tmp / "work"
            work.mkdir()
            check_pkg_config(env, "/include/upcemu")
            check_programs(work, env, upcrun)
            check_meson_project(work, env, upcrun, meson)
    finally:
        if args.keep or failures:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
