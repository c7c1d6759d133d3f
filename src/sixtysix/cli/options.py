"""What the subcommands share on the command line: an option's old spelling, kept
working with a one-line warning that names the new one.

An option means one thing in every subcommand (``--json`` prints JSON on standard
output, ``--hands N`` plays N single hands, ``--engine`` names an external
program). Where a subcommand once used a name otherwise, the old spelling still
works and warns (:class:`DeprecatedOptionWarning`) for a while before it goes.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

__all__ = ["DeprecatedOptionWarning", "HelpFormatter", "Renamed", "deprecated", "one_line_warnings"]


class DeprecatedOptionWarning(FutureWarning):
    """An option spelled the old way: it still works, and the message gives the new spelling.

    A :class:`FutureWarning`, which Python shows by default: it is meant for the
    person who typed the command (``-W ignore::FutureWarning`` silences it).
    """


def deprecated(message: str) -> None:
    """Warn that an old spelling was used; ``message`` says what to write instead."""
    warnings.warn(message, DeprecatedOptionWarning, stacklevel=3)


class Renamed(argparse.Action):
    """An option's old name: stores its value where the new name does, and warns.

    Hidden from ``--help``; ``new`` is the spelling to use instead.
    """

    def __init__(self, option_strings: Sequence[str], dest: str, *, new: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", argparse.SUPPRESS)
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        deprecated(f"{option_string} is deprecated here: use {self.new}")
        setattr(namespace, self.dest, values)


class HelpFormatter(argparse.HelpFormatter):
    """Shows an option that still reads its old spelling's value (``nargs="?"``) in
    the new spelling only: an action's ``shown_metavar`` is what ``--help`` writes
    after the option (``""``: nothing, a switch; ``"N"``: a number that is not optional)."""

    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        shown: str | None = getattr(action, "shown_metavar", None)
        if shown is not None:
            return shown
        return super()._format_args(action, default_metavar)

    def _format_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                      groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None) -> str:
        return super()._format_usage(usage, actions, groups, prefix).replace(" ]", "]")

    def _format_action_invocation(self, action: argparse.Action) -> str:
        return super()._format_action_invocation(action).rstrip()


ShowWarning = Callable[[Warning | str, type[Warning], str, int, TextIO | None, str | None], None]


@contextmanager
def one_line_warnings(prog: str = "sixtysix") -> Iterator[None]:
    """Within the block, a :class:`DeprecatedOptionWarning` prints as one line on
    standard error, ``sixtysix: warning: ...``, like the command's errors; other
    warnings are shown as before. Filters (``-W``) apply as usual."""
    with warnings.catch_warnings():
        previous: ShowWarning = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None) -> None:
            if issubclass(category, DeprecatedOptionWarning):
                print(f"{prog}: warning: {message}", file=sys.stderr)
            else:
                previous(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        yield
