"""upcc's temporary folder, removed however the run ends.

SIGTERM and SIGHUP become the exception Interrupted (SIGINT is Python's
KeyboardInterrupt already), so the folder is removed on the way out like on any
error; subprocess.run kills the compiler it is waiting for when an exception
passes through it. The signals are held while the folder is created and while
it is removed, so that no signal falls between creating it and owning it."""
import contextlib
import shutil
import signal
import tempfile

_CAUGHT = (signal.SIGTERM, signal.SIGHUP)
_HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    """A signal asked upcc to stop (BaseException: no `except Exception` swallows it)."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_interrupted(signum, frame):
    raise Interrupted(signum)


@contextlib.contextmanager
def scratch_dir():
    """A new folder under TMPDIR (or /tmp), removed when the block ends, on
    success, on an error, on SIGINT, SIGTERM or SIGHUP."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    previous = {}
    tmp = None
    try:
        for s in _CAUGHT:
            if signal.getsignal(s) != signal.SIG_IGN:  # ignored by our parent (nohup): stays ignored
                previous[s] = signal.signal(s, _raise_interrupted)
        tmp = tempfile.mkdtemp(prefix="upcc-")
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # a signal already pending is raised here
        yield tmp
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
        for s, handler in previous.items():
            signal.signal(s, handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
