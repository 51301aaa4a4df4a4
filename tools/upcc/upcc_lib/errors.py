"""Errors reported in UPC terms, at the user's file and line, or by the driver."""


class UpcError(Exception):
    def __init__(self, file, line, message):
        super().__init__(f"{file}:{line}: error: {message}")
        self.file, self.line, self.message = file, line, message


class DriverError(Exception):
    """A failure that is not at a line of the user's source (a missing input, a
    compiler that cannot be run, a link without main): printed as the one line
    `upcc: error: MESSAGE`, exit status 1 (several messages: one line each)."""

    status = 1

    def __init__(self, *messages):
        super().__init__("\n".join(f"upcc: error: {m}" for m in messages))
        self.messages = messages


class UsageError(DriverError):
    """A wrong command line (an unknown option, a missing or bad option value):
    `upcc: error: MESSAGE`, exit status 2, as the option parsers of cc and gcc."""

    status = 2


def internal_error_line(e):
    """The one line for an exception upcc did not expect, naming where it was raised."""
    import os
    import traceback
    frames = traceback.extract_tb(e.__traceback__)
    where = f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    what = " ".join(f"{type(e).__name__}: {e}".split())
    if len(what) > 300:
        what = what[:300] + "..."
    return f"upcc: internal error: {what}{where} (please report; rerun with UPCC_DEBUG=1 for the traceback)"
