"""Errors reported in UPC terms, at the user's file and line."""


class UpcError(Exception):
    def __init__(self, file, line, message):
        super().__init__(f"{file}:{line}: error: {message}")
        self.file, self.line, self.message = file, line, message
