"""How the command line words its errors: one line, ``sixtysix: error: …`` (the
caller exits with status 2 for bad input), the same in every command.

>>> read_error("nosuch.json", FileNotFoundError(2, "No such file or directory", "nosuch.json"))
'cannot read nosuch.json: No such file or directory'
>>> error_line(ValueError("--hint-time must be positive"))
'sixtysix: error: --hint-time must be positive'
"""

from __future__ import annotations

__all__ = ["error_line", "read_error"]


def read_error(name: str, exc: OSError) -> str:
    """A file that cannot be read, without Python's ``[Errno 2]``."""
    return f"cannot read {name}: {exc.strerror or exc}"


def error_line(exc: Exception) -> str:
    """The one line printed for ``exc``; a file error names the file and the reason."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"sixtysix: error: {exc.filename}: {exc.strerror}"
    return f"sixtysix: error: {exc}"
