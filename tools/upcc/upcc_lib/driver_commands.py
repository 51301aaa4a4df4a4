"""The programs upcc runs: CC and CXX from the environment, split as a shell would.

Make passes its command-line variables to the environment of its commands, so
`make CC="gcc -m64"` reaches upcc as CC="gcc -m64": a program and its
arguments. A CC that names upcc itself (a Makefile's `CC = upcc`, exported) is
not used: upcc would run itself for every compile, without end."""
import os
import shlex
import shutil
import subprocess
import sys

from .driver_scratch import deferred_signals
from .errors import DriverError

_SELF = os.path.realpath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "upcc"))


def _is_upcc(program):
    found = shutil.which(program)
    return os.path.basename(program) == "upcc" or (found is not None and os.path.realpath(found) == _SELF)


def tool(variable, default):
    """The command line of the compiler named by `variable` (CC, CXX), else `default`."""
    value = os.environ.get(variable, "")
    try:
        words = shlex.split(value)
    except ValueError as e:
        raise DriverError(f"{variable}='{value}' is not a command a shell could split ({e})") from None
    if not words or _is_upcc(words[0]):
        return [default]
    return words


def run(cmd, stdout=None, stderr=None):
    """subprocess.run(cmd, stdout=, stderr=), except that a program that cannot be
    started is one line, and that the program is killed when upcc is interrupted,
    also while it is being started (subprocess.run leaves it running then)."""
    if os.environ.get("UPCC_VERBOSE"):
        print(shlex.join(cmd), file=sys.stderr)
    p = None
    try:
        with deferred_signals():
            try:
                p = subprocess.Popen(cmd, stdout=stdout, stderr=stderr)
            except OSError as e:
                raise DriverError(f"cannot run '{cmd[0]}': {e.strerror} (CC and CXX name the compilers)") from None
        out, err = p.communicate()
    except BaseException:
        if p is not None:
            p.kill()
            p.wait()
        raise
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)
