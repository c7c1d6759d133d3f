"""How the command line words its errors: one line, ``sixtysix: error: …`` (the
caller exits with status 2 for bad input), the same in every command, whether the
parser finds the fault (:class:`Parser`: a word where a number belongs, a missing
FILE) or the command does (:func:`error_line`).

>>> read_error("nosuch.json", FileNotFoundError(2, "No such file or directory", "nosuch.json"))
'cannot read nosuch.json: No such file or directory'
>>> error_line(ValueError("--hint-time must be positive"))
'sixtysix: error: --hint-time must be positive'
"""

from __future__ import annotations

import argparse
from typing import NoReturn

__all__ = ["Parser", "error_line", "read_error"]

#: Where a command's parser error points to: its ``--help``.
_SEE_HELP = "(see '{prog} --help')"


class Parser(argparse.ArgumentParser):
    """The command's argument parser: a usage error is one line in the common form,
    pointing to the command's ``--help``, with status 2 (as argparse's own)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"sixtysix: error: {message} {_SEE_HELP.format(prog=self.prog)}\n")


def read_error(name: str, exc: OSError) -> str:
    """A file that cannot be read, without Python's ``[Errno 2]``."""
    return f"cannot read {name}: {exc.strerror or exc}"


def error_line(exc: Exception) -> str:
    """The one line printed for ``exc``; a file error names the file and the reason."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"sixtysix: error: {exc.filename}: {exc.strerror}"
    return f"sixtysix: error: {exc}"
