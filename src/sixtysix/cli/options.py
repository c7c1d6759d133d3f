"""What the subcommands share on the command line: what BOT may be (:data:`BOT_HELP`),
the checks of numbers and output files, the default number of worker processes, and
an option's old spelling, kept working with a one-line warning that names the new one.

An option means one thing in every subcommand (``--json`` prints JSON on standard
output, ``--hands N`` plays N single hands, ``--engine`` names an external
program). Where a subcommand once used a name otherwise, the old spelling still
works and warns (:class:`DeprecatedOptionWarning`) for a while before it goes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from sixtysix.bots import BOTS

__all__ = ["BOT_HELP", "DeprecatedOptionWarning", "HelpFormatter", "Renamed", "at_least", "check_output",
           "default_jobs", "deprecated", "has_module", "one_line_warnings"]

def _bot_help() -> str:
    names = textwrap.wrap(", ".join(name for name in BOTS if name != "engine"), width=54,
                          break_on_hyphens=False)
    return "\n".join([
        "BOT is one of:",
        f"  NAME                    a bot of ours: {names[0]}",
        *(f"{'':26}{line}" for line in names[1:]),
        "  NAME:KEY=VALUE,...      the same with options, e.g. pimc:worlds=64,time=0.5",
        "  FILE.py:Class           a class of your own in a Python file (docs/bots.md)",
        "  FILE.py:Class:KEY=VALUE,...",
        "                          the same, the options passed to the class",
        "  module:Class            a class in an importable module",
        "  engine:CMD              an external program speaking the bot protocol",
        "                          (docs/protocol.md), e.g. engine:python mybot.py",
    ]) + "\n"


#: What a BOT argument may be, shown under ``--help`` of the commands that take bots
#: (the names are those :func:`sixtysix.bots.make_bot` knows).
BOT_HELP = _bot_help()


def at_least(value: int, option: str, minimum: int) -> int:
    """``value``, checked: too small a number is a one-line error (the parser read it as a number).

    >>> at_least(3, "--jobs", 1)
    3
    """
    if value < minimum:
        raise ValueError(f"{option} must be at least {minimum}, not {value}")
    return value


def has_module(module: str) -> bool:
    """Whether an optional module (``rich``, ``matplotlib``) is installed."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def check_output(path: str | None, option: str) -> None:
    """Refuse an output file that cannot be written before any work is done."""
    if path is None:
        return
    if path == "-":
        if option == "--save":
            raise ValueError("--save takes a file name; --json prints the JSON on standard output")
        return
    parent = Path(path).parent
    if not parent.is_dir():
        raise ValueError(f"{option}: no directory {str(parent)!r} to write {path!r} in")


def default_jobs(processes: int) -> int:
    """Worker processes when ``--jobs`` is not given: one per CPU, divided by the
    processes one bot uses (a bot searching on two cores gets them)."""
    return max(1, (os.cpu_count() or 1) // processes)


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
    """Keeps a text laid out in lines as written (the list of what BOT may be). Shows
    an option that still reads its old spelling's value (``nargs="?"``) in the new
    spelling only: an action's ``shown_metavar`` is what ``--help`` writes
    after the option (``""``: nothing, a switch; ``"N"``: a number that is not optional)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """A text laid out in lines (:data:`BOT_HELP`) is shown as written; others are filled."""
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)

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


def _ours(category: type[Warning]) -> bool:
    """Whether a warning is one of this package's, meant for the person at the command line."""
    return category.__module__.partition(".")[0] == "sixtysix"


ShowWarning = Callable[[Warning | str, type[Warning], str, int, TextIO | None, str | None], None]


@contextmanager
def one_line_warnings(prog: str = "sixtysix") -> Iterator[None]:
    """Within the block, a warning of ours (an old option's spelling, a
    :class:`DeprecatedOptionWarning`; a level playing without its learned network, a
    :class:`~sixtysix.bots.levels.LearnedWarning`) prints as one line on standard error,
    ``sixtysix: warning: ...``, like the command's errors, without Python's source line;
    other warnings are shown as before. Filters (``-W``) apply as usual."""
    with warnings.catch_warnings():
        previous: ShowWarning = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None) -> None:
            if _ours(category):
                print(f"{prog}: warning: {message}", file=sys.stderr)
            else:
                previous(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        yield
