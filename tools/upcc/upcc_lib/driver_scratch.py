"""upcc's temporary folder, removed however the run ends.

SIGINT, SIGTERM and SIGHUP become the exception Interrupted, so the folder is
removed on the way out like on any error, and the compiler upcc waits for is
killed (driver_commands.run). Two moments must not be interrupted: creating the
folder (the signals are held until it is owned) and starting a compiler (a
signal is deferred until the child's pid is known, else the child would be
left running, writing into a folder that is gone). Removing the folder holds
the signals too."""
import contextlib
import shutil
import signal
import tempfile

_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_state = {"deferring": False, "pending": None}


class Interrupted(BaseException):
    """A signal asked upcc to stop (BaseException: no `except Exception` swallows it)."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _on_signal(signum, frame):
    if _state["deferring"]:
        _state["pending"] = _state["pending"] or signum
    else:
        raise Interrupted(signum)


@contextlib.contextmanager
def deferred_signals():
    """A signal that arrives inside the block is raised (Interrupted) when it ends."""
    _state["deferring"] = True
    try:
        yield
    finally:
        _state["deferring"] = False
    signum, _state["pending"] = _state["pending"], None
    if signum:
        raise Interrupted(signum)


@contextlib.contextmanager
def scratch_dir():
    """A new folder under TMPDIR (or /tmp), removed when the block ends: on
    success, on an error, on SIGINT, SIGTERM or SIGHUP."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    previous = {}
    tmp = None
    _state["pending"] = None
    try:
        for s in _SIGNALS:
            if signal.getsignal(s) != signal.SIG_IGN:  # ignored by our parent (nohup, &): stays ignored
                previous[s] = signal.signal(s, _on_signal)
        tmp = tempfile.mkdtemp(prefix="upcc-")
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)  # a signal already pending is raised here
        yield tmp
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
        for s, handler in previous.items():
            signal.signal(s, handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
