#!/usr/bin/python3
"""A SIGTERM that reaches upcc just as the translator's child process ends
(tools/upcc/upcc_lib/driver_translate.py) stops upcc as any SIGTERM does
(Interrupted: exit status 143, the temporary folder removed), never with an
internal error. Before, the child was reaped by os.waitpid and a signal right
after it made upcc kill a pid that was no longer its child (ProcessLookupError:
exit status 4; the test 'upcc driver - signals leave no folder' failed so now
and then on a busy machine). Here the signal is sent at exactly that moment:
right after the wait that reaps the child returns."""
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "upcc"))

from upcc_lib import driver_translate  # noqa: E402
from upcc_lib.driver_scratch import Interrupted, scratch_dir  # noqa: E402


def main():
    real_waitpid = os.waitpid

    def waitpid_then_sigterm(pid, options):
        r = real_waitpid(pid, options)
        if r[0] == pid:
            os.kill(os.getpid(), signal.SIGTERM)  # lands once the child is reaped
        return r
    os.waitpid = waitpid_then_sigterm
    folder = None
    try:
        with scratch_dir() as folder:  # upcc's handlers: SIGTERM raises Interrupted
            driver_translate.translate_to_file(lambda text, src, threads: "int x;\n", "", "x.upc", None,
                                               os.path.join(folder, "x.c"))
        print("FAIL: the SIGTERM was lost")
        return 1
    except Interrupted as e:
        if e.signum != signal.SIGTERM:
            print(f"FAIL: interrupted by {e}, not SIGTERM")
            return 1
    except BaseException as e:  # noqa: B902 (what the old code raised: ProcessLookupError)
        print(f"FAIL: {type(e).__name__}: {e} (upcc would exit with status 4, not 143)")
        return 1
    if folder is None or os.path.exists(folder):
        print(f"FAIL: the temporary folder {folder} is left")
        return 1
    print("ok: SIGTERM right after the translator's child ended is Interrupted, the folder removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
