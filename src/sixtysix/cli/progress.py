"""The progress of a command that plays many games (``arena``, ``simulate``), on standard
error: a bar redrawn in place on a terminal, a line every :data:`LOG_INTERVAL` seconds
in a log, nothing with ``--quiet``.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Protocol

from sixtysix.cli.options import has_module

__all__ = ["LOG_INTERVAL", "Bar", "Lines", "Progress", "Silent", "make_progress"]

#: Seconds between two progress lines when standard error is not a terminal.
LOG_INTERVAL = 30.0


class Progress(Protocol):
    """What a command tells as its games are played."""

    def advance(self, games: int) -> None: ...

    def stop(self) -> None: ...


class Silent:
    """No progress display (``--quiet``)."""

    def advance(self, games: int) -> None:
        pass

    def stop(self) -> None:
        pass


class Lines:
    """A progress line: redrawn in place on a terminal, or printed now and
    then (every :data:`LOG_INTERVAL` seconds) into a log."""

    def __init__(self, total: int, unit: str, stream: IO[str], tty: bool, label: str = "arena") -> None:
        self.total, self.unit, self.stream, self.tty, self.label = total, unit, stream, tty, label
        self.done = 0
        self.start = self.last = time.monotonic()

    def advance(self, games: int) -> None:
        self.done += games
        now = time.monotonic()
        if now - self.last < (0.2 if self.tty else LOG_INTERVAL) and self.done < self.total:
            return
        if not self.tty and self.done >= self.total:
            return  # the report follows at once; a log needs no final line
        self.last = now
        text = (f"{self.label}: {self.done:,}/{self.total:,} {self.unit} "
                f"({100 * self.done / self.total:.0f}%, {now - self.start:.0f} s)")
        if self.tty:
            self.stream.write("\r" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def stop(self) -> None:
        if self.tty and self.done:
            self.stream.write("\r\033[K")
            self.stream.flush()


class Bar:
    """A ``rich`` progress bar on standard error."""

    def __init__(self, total: int, unit: str, label: str = "arena") -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn(f"[bold]{label}[/] {{task.description}}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), TimeRemainingColumn(),
            console=Console(file=sys.stderr), transient=True,
        )
        self.task = self.progress.add_task(unit, total=total)
        self.progress.start()

    def advance(self, games: int) -> None:
        self.progress.advance(self.task, games)

    def stop(self) -> None:
        self.progress.stop()


def make_progress(total: int, unit: str, quiet: bool, label: str) -> Progress:
    """The progress display on standard error: a bar on a terminal (with ``rich``), else
    a line now and then; none with ``quiet``. ``label`` is the command's name."""
    if quiet:
        return Silent()
    tty = sys.stderr.isatty()
    if tty and has_module("rich"):
        return Bar(total, unit, label)
    return Lines(total, unit, sys.stderr, tty, label)
