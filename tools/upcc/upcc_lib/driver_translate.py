"""The translator, run where its failures cannot take upcc down with them.

Each translation runs in a child process (fork) on a thread with a large stack:
- A deeply nested source (a sum of 50 000 terms, which gcc compiles) made
  libclang overflow the 8 MB stack of the thread it parses on and crash the
  process: no message at all. With LIBCLANG_NOTHREADS libclang parses on the
  calling thread, whose stack here is STACK_BYTES, and Python's recursion limit
  is raised to match (RECURSION_LIMIT frames measured to fit in less than half
  of it). Should anything still crash, it is the child: upcc says so in one line.
- An exception raised in Python code that libclang calls back (its cursor
  visitor) is only printed by ctypes, "Exception ignored ... Traceback", and
  the walk goes on with children missing. sys.unraisablehook catches it here
  and it fails the translation instead.
- A recursion too deep even so is a one-line error at the file, exit status 1."""
import os
import signal
import sys
import threading

from .driver_scratch import Interrupted, deferred_signals
from .errors import UpcError, internal_error_line

STACK_BYTES = 512 << 20
RECURSION_LIMIT = 100_000
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _emit(line):
    sys.stderr.flush()
    sys.stderr.buffer.write((line + "\n").encode("utf-8", "surrogateescape"))
    sys.stderr.buffer.flush()


def _translate_here(translate, text, src, static_threads, out_path):
    """In the child: translate into out_path; the exit status (0, 1 or 4)."""
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    if os.environ.get("UPCC_DEBUG"):
        import faulthandler
        faulthandler.enable()  # a crash prints the Python stack
    caught = []
    sys.unraisablehook = caught.append
    result = {}

    def work():
        try:
            result["text"] = translate(text, src, static_threads)
        except BaseException as e:
            result["error"] = e
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        threading.stack_size(STACK_BYTES)
        worker = threading.Thread(target=work)
        worker.start()
    except (RuntimeError, ValueError, MemoryError):  # no such thread here: the main thread's stack
        sys.setrecursionlimit(1000)
        work()
    else:
        worker.join()
    error = caught[0].exc_value if caught else result.get("error")
    if error is None:
        with open(out_path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(result["text"])
        return 0
    if isinstance(error, UpcError):
        _emit(str(error))
        return 1
    if isinstance(error, RecursionError):
        _emit(f"upcc: error: {src}: an expression or statement is nested too deeply for upcc's translator "
              f"(more than {RECURSION_LIMIT} Python frames): split it")
        return 1
    if os.environ.get("UPCC_DEBUG"):
        import traceback
        traceback.print_exception(error)
    _emit(internal_error_line(error))
    return 4


def translate_to_file(translate, text, src, static_threads, out_path):
    """Translate `text` (the preprocessed `src`) into out_path; 0, or the exit
    status upcc should end with, the reason already printed."""
    sys.stdout.flush()
    sys.stderr.flush()
    with deferred_signals():  # no signal between the fork and knowing the child's pid
        pid = os.fork()
        if pid == 0:
            status = 4
            try:
                for s in _SIGNALS:  # the child dies of a signal; the parent cleans up
                    if signal.getsignal(s) != signal.SIG_IGN:
                        signal.signal(s, signal.SIG_DFL)
                status = _translate_here(translate, text, src, static_threads, out_path)
            except BaseException as e:
                _emit(internal_error_line(e))
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
    # Wait for the child without reaping it, then reap it with the signals held:
    # a signal that arrives just after the wait returned finds the child still a
    # zombie, whose pid kill may not yet reuse (os.waitpid reaped it first, and
    # a SIGTERM right then made the kill fail: exit status 4, not 143).
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    with deferred_signals():
        _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    signum = os.WTERMSIG(status)
    if signum in _SIGNALS:  # stopped by someone, not by a fault
        raise Interrupted(signum)
    _emit(f"upcc: internal error: the translator stopped with {signal.Signals(signum).name} while translating "
          f"{src} (please report; rerun with UPCC_DEBUG=1 to see where)")
    return 4
