"""What the game writes down about a match: its record and its statistics.

:class:`MatchBook` saves the game record in the data directory after each
hand — finished hands only while the match is on, so the file never tells the
computer's cards of the hand in play — and whole when the match ends or the
player leaves (play is then over, nothing is hidden any more); it adds each
finished hand and the match's end to the statistics.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sixtysix.play.session import HandOver, MatchOver, PlaySession
from sixtysix.tui.statistics import Statistics
from sixtysix.tui.storage import write_record

__all__ = ["MatchBook"]


class MatchBook:
    """The record file and statistics rows of one match of ``session``."""

    def __init__(self, session: PlaySession, path: Path, statistics: Statistics | None, *,
                 name: str, level: str, preset: str, undo: bool, seed: int,
                 also: Path | None = None, resumed: bool = False) -> None:
        self.session = session
        self.path = path
        #: Another file the record is written to (``--save``).
        self.also = also
        self.statistics = statistics
        self.name = name
        self.level = level
        self.undo = undo
        self.seed = seed
        self.closed = False
        self.match_id: int | None = None
        if statistics is not None and resumed:
            # A match continued goes on being counted as the same match.
            self.match_id = statistics.match_of(str(path))
        if statistics is not None and self.match_id is None:
            self.match_id = statistics.start_match(level=level, preset=preset, rules=str(session.rules),
                                                   undo=undo, record=str(path))

    def extra(self) -> dict[str, Any]:
        """The record's optional fields: players, seed, and the undo mark."""
        players = ["", ""]
        players[self.session.human_seat] = self.name
        players[self.session.bot_seat] = f"computer ({self.level})"
        extra: dict[str, Any] = {"players": players, "seed": self.seed}
        if self.undo:
            extra["undo"] = {"allowed": True, "taken_back": self.session.undos}
        return extra

    def save(self, *, finished_only: bool) -> None:
        """Write the record (raises :class:`OSError` when it cannot)."""
        record = self.session.record(finished_only=finished_only, **self.extra())
        for path in (self.path, self.also):
            if path is not None:
                write_record(path, record)

    def hand_over(self, event: HandOver) -> None:
        if self.statistics is not None and self.match_id is not None:
            self.statistics.add_result(self.match_id, event.number, event.result, self.session.human_seat)
        self.save(finished_only=True)

    def match_over(self, event: MatchOver) -> None:
        self.closed = True
        me = self.session.human_seat
        if self.statistics is not None and self.match_id is not None:
            won = None if event.winner is None else event.winner == me
            self.statistics.finish_match(self.match_id, won=won,
                                         score=(event.score[me], event.score[1 - me]))
        self.save(finished_only=False)

    def leave(self) -> None:
        """The player leaves before the end: the whole record, the match counted as stopped."""
        if self.closed:
            return
        self.closed = True
        if self.session.hand_number == 0:
            return
        if self.statistics is not None and self.match_id is not None:
            score, me = self.session.score, self.session.human_seat
            self.statistics.finish_match(self.match_id, won=None, score=(score[me], score[1 - me]))
        self.save(finished_only=False)
