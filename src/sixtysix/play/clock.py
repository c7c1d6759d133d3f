"""Time controls and the chess clock that enforces them (the server keeps it).

Two kinds of control, written as players write them:

- ``5+3``: **a match clock**: 5 minutes for each player for the whole match, and 3
  seconds added after each of his decisions (Fischer's increment; ``5+0`` has
  none). A player whose time runs out **loses the match**.
- ``20/move``: **a move clock**: 20 seconds for each decision, and time not used is
  not kept. A player whose time runs out **forfeits the hand** (the opponent scores
  3 game points, as when a program fails: docs/design.md) and the match goes on.

A clock runs only for the seat to act. It reads no time of its own: the caller
passes the moment (:func:`time.monotonic` seconds) to every call, so a clock is a
value that can be stored, restored after a restart and tested.

>>> control = TimeControl.parse("5+3")
>>> str(control), control.kind, control.seconds, control.increment
('5+3', <Kind.MATCH: 'match'>, 300.0, 3.0)
>>> clock = Clock(control)
>>> clock.start(0, at=100.0)
>>> clock.stop(at=112.5)        # seat 0 thought 12.5 s and gets 3 back
290.5
>>> clock.start(1, at=112.5)
>>> clock.remaining(1, at=400.0), clock.flagged(at=400.0), clock.flagged(at=412.6)
(12.5, None, 1)
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass, field

__all__ = ["Clock", "ClockError", "Kind", "MAX_SECONDS", "TimeControl"]

#: The longest time a control may give (a day): more is no clock.
MAX_SECONDS = 86_400.0

_MATCH = re.compile(r"(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)")
_MOVE = re.compile(r"(\d+(?:\.\d+)?)/move")


class ClockError(ValueError):
    """A time control that cannot be read or used, or a clock asked something it
    cannot answer (stopping a clock that does not run)."""


class Kind(enum.Enum):
    """What a time control limits."""

    #: The whole match, with an increment per decision; out of time loses the match.
    MATCH = "match"
    #: Each decision; out of time forfeits the hand.
    MOVE = "move"


@dataclass(frozen=True)
class TimeControl:
    """How much time a player has: ``seconds`` for the match (:attr:`Kind.MATCH`, plus
    ``increment`` after each decision) or for each decision (:attr:`Kind.MOVE`)."""

    kind: Kind
    seconds: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if not 0 < self.seconds <= MAX_SECONDS:
            raise ClockError(f"a time control gives more than 0 and at most {MAX_SECONDS:.0f} seconds, "
                             f"not {self.seconds}")
        if not 0 <= self.increment <= 600:
            raise ClockError(f"an increment is 0 to 600 seconds, not {self.increment}")
        if self.kind is Kind.MOVE and self.increment:
            raise ClockError("a move clock has no increment: unused time is not kept")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``M+S`` (minutes a match, seconds added a decision) or ``S/move``.

        >>> TimeControl.parse("20/move")
        TimeControl(kind=<Kind.MOVE: 'move'>, seconds=20.0, increment=0.0)
        >>> try:
        ...     TimeControl.parse("fast")
        ... except ClockError as exc:
        ...     print(str(exc).split(" (")[0], "...", str(exc).rsplit(", ", 1)[1])
        a time control is minutes+seconds ... not 'fast'
        """
        spelled = text.strip().lower()
        match = _MATCH.fullmatch(spelled)
        if match:
            return cls(Kind.MATCH, float(match.group(1)) * 60.0, float(match.group(2)))
        match = _MOVE.fullmatch(spelled)
        if match:
            return cls(Kind.MOVE, float(match.group(1)))
        raise ClockError("a time control is minutes+seconds (5+3: 5 minutes a match, 3 seconds added a "
                         f"decision) or seconds/move (20/move), not {text!r}")

    def __str__(self) -> str:
        if self.kind is Kind.MOVE:
            return f"{_number(self.seconds)}/move"
        return f"{_number(self.seconds / 60.0)}+{_number(self.increment)}"


def _number(x: float) -> str:
    return f"{x:.0f}" if x == math.floor(x) else f"{x:g}"


@dataclass
class Clock:
    """Both players' time under ``control``; only the seat to act's runs.

    :meth:`start` gives a seat the turn, :meth:`stop` ends it (the time spent is
    taken off, the increment added). :meth:`flagged` names the seat whose time ran
    out; the game must then apply the control's rule (:class:`Kind`)."""

    control: TimeControl
    #: Each seat's time left when its clock last stopped (the running one's: at ``since``).
    left: list[float] = field(default_factory=list)
    #: The seat whose clock runs, or ``None``.
    running: int | None = None
    #: When the running clock started.
    since: float = 0.0

    def __post_init__(self) -> None:
        if not self.left:
            self.left = [self.control.seconds, self.control.seconds]
        if len(self.left) != 2:
            raise ClockError(f"a clock keeps two players' times, not {len(self.left)}")

    def start(self, seat: int, at: float) -> None:
        """``seat`` is to act from ``at`` on (a move clock gives it its whole time anew)."""
        if seat not in (0, 1):
            raise ClockError(f"a seat is 0 or 1, not {seat}")
        if self.running is not None:
            raise ClockError(f"seat {self.running}'s clock runs: stop it first")
        if self.control.kind is Kind.MOVE:
            self.left[seat] = self.control.seconds
        self.running, self.since = seat, at

    def stop(self, at: float) -> float:
        """The running seat acted at ``at``: its time left (the increment added), which
        is below zero if it acted too late (see :meth:`flagged`)."""
        seat = self.running
        if seat is None:
            raise ClockError("no clock runs")
        spent = max(at - self.since, 0.0)
        self.left[seat] -= spent
        if self.left[seat] >= 0:
            self.left[seat] += self.control.increment
        self.running = None
        return self.left[seat]

    def pause(self, at: float) -> None:
        """Stop the running clock at ``at`` without a decision (no increment): the time
        spent so far is charged, and :meth:`start` goes on from there."""
        seat = self.running
        if seat is None:
            raise ClockError("no clock runs")
        self.left[seat] -= max(at - self.since, 0.0)
        self.running = None

    def remaining(self, seat: int, at: float) -> float:
        """``seat``'s time left at ``at`` (at most 0 once it ran out)."""
        if seat == self.running:
            return self.left[seat] - max(at - self.since, 0.0)
        if self.control.kind is Kind.MOVE and self.left[seat] >= 0:
            return self.control.seconds  # its next decision gets the whole time
        return self.left[seat]

    def flagged(self, at: float) -> int | None:
        """The seat whose time ran out by ``at``, if any: the running one past its time,
        or one that stopped too late."""
        for seat in (0, 1):
            left = self.remaining(seat, at)
            if left < 0 or (seat == self.running and left <= 0):
                return seat
        return None

    def copy(self) -> Clock:
        """An independent copy (to try a change before it is stored)."""
        return Clock(self.control, list(self.left), self.running, self.since)

    def to_json(self) -> dict[str, object]:
        """The clock's state as JSON (the control is kept apart, as text).

        >>> clock = Clock(TimeControl.parse("5+3"))
        >>> clock.start(1, at=50.0)
        >>> state = clock.to_json()
        >>> state
        {'left': [300.0, 300.0], 'running': 1, 'since': 50.0}
        >>> Clock.from_json(clock.control, state) == clock
        True
        """
        return {"left": list(self.left), "running": self.running, "since": self.since}

    @classmethod
    def from_json(cls, control: TimeControl, obj: object) -> Clock:
        """A clock under ``control`` in the state :meth:`to_json` wrote."""
        if not isinstance(obj, dict):
            raise ClockError(f"a clock's state is an object, not {type(obj).__name__}")
        left, running, since = obj.get("left"), obj.get("running"), obj.get("since", 0.0)
        if not (isinstance(left, list) and len(left) == 2 and
                all(isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                    for x in left)):
            raise ClockError(f"a clock's state gives two times left, not {left!r}")
        if running not in (None, 0, 1) or isinstance(running, bool):
            raise ClockError(f"a clock runs for seat 0, 1 or nobody, not {running!r}")
        if not isinstance(since, int | float) or isinstance(since, bool) or not math.isfinite(since):
            raise ClockError(f"a clock's start is a number of seconds, not {since!r}")
        return cls(control, [float(x) for x in left], running, float(since))

    def deadline(self) -> float | None:
        """When the running seat's time runs out (the moment to check the flag), or ``None``."""
        if self.running is None:
            return None
        return self.since + self.left[self.running]
