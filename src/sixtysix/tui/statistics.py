"""Statistics across sessions, in an SQLite file in the data directory.

One row per match (level, rules preset, whether undo was on, the final
score and winner, or none while unfinished) and one per finished hand (who
won, why, the game points and whether the loser was Schneider — under 33 —
or Schwarz — without a trick). :meth:`Statistics.summary` adds them up per
level and preset, with streaks of matches won and lost.

The schema carries a version (``PRAGMA user_version``); a newer file than
this code knows is refused rather than changed.

>>> stats = Statistics(":memory:")
>>> match = stats.start_match(level="medium", preset="classic", rules="classic", undo=False)
>>> stats.add_hand(match, number=1, won=True, game_points=2, reason="declared",
...                schneider=True, schwarz=False)
>>> stats.finish_match(match, won=True, score=(7, 3))
>>> [(row.level, row.matches, row.matches_won, row.hands, row.schneider_for) for row in stats.summary()]
[('medium', 1, 1, 1, 1)]
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sixtysix.game.result import HandResult
from sixtysix.i18n import _
from sixtysix.kernel.tables import SCHNEIDER

__all__ = ["SCHEMA_VERSION", "Line", "Statistics", "StatisticsError", "loser_scale"]

#: The version of the tables below; raise it with a migration when they change.
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    level TEXT NOT NULL,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    undo INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    won INTEGER,
    score_you INTEGER NOT NULL DEFAULT 0,
    score_computer INTEGER NOT NULL DEFAULT 0,
    record TEXT
);
CREATE TABLE IF NOT EXISTS hands (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    number INTEGER NOT NULL,
    won INTEGER,
    game_points INTEGER NOT NULL,
    reason TEXT NOT NULL,
    schneider INTEGER NOT NULL,
    schwarz INTEGER NOT NULL,
    PRIMARY KEY (match_id, number)
);
"""


#: A match counts once a hand of it is finished (a match left at once is not one played).
_PLAYED = "(finished = 1 OR EXISTS (SELECT 1 FROM hands WHERE hands.match_id = matches.id))"


class StatisticsError(RuntimeError):
    """The statistics file cannot be used (written by a newer version, or damaged)."""


def loser_scale(result: HandResult) -> tuple[bool, bool]:
    """Whether the loser of a won hand was Schneider (under 33) and Schwarz (no trick),
    for the hands whose game points follow the loser's take (R9.1)."""
    if result.winner is None or result.reason not in ("declared", "played_out", "closed_succeeded"):
        return False, False
    loser = 1 - result.winner
    schwarz = result.tricks[loser] == 0
    return schwarz or result.points[loser] < SCHNEIDER, schwarz


@dataclass(frozen=True)
class Line:
    """The statistics of one level and preset."""

    level: str
    preset: str
    matches: int
    matches_won: int
    #: Matches played to the end (the others were stopped early).
    matches_finished: int
    hands: int
    hands_won: int
    #: Game points won and lost in all hands (tie bonuses excluded).
    points_won: int
    points_lost: int
    schneider_for: int
    schneider_against: int
    schwarz_for: int
    schwarz_against: int
    #: The longest run of finished matches won and lost, and the current run
    #: (positive: won, negative: lost).
    best_streak: int
    worst_streak: int
    current_streak: int

    @property
    def points_per_hand(self) -> float:
        """Net game points per hand (won minus lost)."""
        return (self.points_won - self.points_lost) / self.hands if self.hands else 0.0


class Statistics:
    """The statistics file; ``path`` may be ``":memory:"``."""

    def __init__(self, path: str | Path) -> None:
        try:
            self._db = sqlite3.connect(str(path))
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StatisticsError(_("the statistics file {path} is from a newer version "
                                        "(schema {version}, this one knows {known})").format(
                    path=path, version=version, known=SCHEMA_VERSION))
            with self._db:
                self._db.executescript(_SCHEMA)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise StatisticsError(_("the statistics file {path} cannot be used: {problem}").format(
                path=path, problem=exc)) from None

    def close(self) -> None:
        self._db.close()

    # Writing ----------------------------------------------------------------------
    def start_match(self, *, level: str, preset: str, rules: str, undo: bool,
                    record: str | None = None, started: datetime | None = None) -> int:
        """A new match; returns its id for :meth:`add_hand` and :meth:`finish_match`."""
        when = (started or datetime.now()).isoformat(timespec="seconds")
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO matches (started, level, preset, rules, undo, record) VALUES (?, ?, ?, ?, ?, ?)",
                (when, level, preset, rules, int(undo), record))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_hand(self, match: int, *, number: int, won: bool | None, game_points: int, reason: str,
                 schneider: bool, schwarz: bool) -> None:
        """A finished hand; ``won`` is ``None`` for a tie. Recording a hand twice keeps the last."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO hands VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match, number, None if won is None else int(won), game_points, reason,
                 int(schneider), int(schwarz)))

    def add_result(self, match: int, number: int, result: HandResult, human_seat: int) -> None:
        """A finished hand from its result, seen from the human's seat."""
        schneider, schwarz = loser_scale(result)
        won = None if result.winner is None else result.winner == human_seat
        self.add_hand(match, number=number, won=won, game_points=result.game_points + result.bonus,
                      reason=result.reason, schneider=schneider, schwarz=schwarz)

    def finish_match(self, match: int, *, won: bool | None, score: tuple[int, int]) -> None:
        """The end of a match (``won`` ``None``: stopped before anyone reached the target)."""
        with self._db:
            self._db.execute(
                "UPDATE matches SET finished = ?, won = ?, score_you = ?, score_computer = ? WHERE id = ?",
                (int(won is not None), None if won is None else int(won), score[0], score[1], match))

    def match_of(self, record: str) -> int | None:
        """The latest match written to the record file ``record`` (to go on counting a
        match that is continued), or ``None``."""
        row = self._db.execute("SELECT MAX(id) FROM matches WHERE record = ?", (record,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def set_undo(self, match: int) -> None:
        """Mark a match as played with undo turned on."""
        with self._db:
            self._db.execute("UPDATE matches SET undo = 1 WHERE id = ?", (match,))

    # Reading -------------------------------------------------------------------------
    def summary(self) -> list[Line]:
        """One line per level and preset that has a match played, by level then preset."""
        db = self._db
        keys = db.execute(f"SELECT DISTINCT level, preset FROM matches WHERE {_PLAYED}").fetchall()
        order = {name: i for i, name in enumerate(("random", "easy", "medium", "hard", "expert"))}
        keys.sort(key=lambda k: (order.get(k[0], 99), k[0], k[1]))
        lines = []
        for level, preset in keys:
            m = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(won = 1), 0), COALESCE(SUM(finished), 0) FROM matches "
                f"WHERE level = ? AND preset = ? AND {_PLAYED}", (level, preset)).fetchone()
            h = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(h.won = 1), 0), "
                "COALESCE(SUM(CASE WHEN h.won = 1 THEN h.game_points END), 0), "
                "COALESCE(SUM(CASE WHEN h.won = 0 THEN h.game_points END), 0), "
                "COALESCE(SUM(h.won = 1 AND h.schneider), 0), COALESCE(SUM(h.won = 0 AND h.schneider), 0), "
                "COALESCE(SUM(h.won = 1 AND h.schwarz), 0), COALESCE(SUM(h.won = 0 AND h.schwarz), 0) "
                "FROM hands AS h JOIN matches AS m ON m.id = h.match_id "
                "WHERE m.level = ? AND m.preset = ?", (level, preset)).fetchone()
            outcomes = [bool(won) for (won,) in db.execute(
                "SELECT won FROM matches WHERE level = ? AND preset = ? AND finished = 1 ORDER BY id",
                (level, preset))]
            best, worst, current = _streaks(outcomes)
            lines.append(Line(level, preset, m[0], m[1], m[2], hands=h[0], hands_won=h[1],
                              points_won=h[2], points_lost=h[3], schneider_for=h[4],
                              schneider_against=h[5], schwarz_for=h[6], schwarz_against=h[7],
                              best_streak=best, worst_streak=worst, current_streak=current))
        return lines

    def unfinished(self) -> int:
        """Matches left before their end (with a hand played): neither won nor lost."""
        return int(self._db.execute(f"SELECT COUNT(*) FROM matches WHERE finished = 0 AND {_PLAYED}"
                                    ).fetchone()[0])

    def totals(self) -> tuple[int, int, int, int]:
        """Matches played and won, hands played and won, over everything."""
        m = self._db.execute(f"SELECT COUNT(*), COALESCE(SUM(won = 1), 0) FROM matches WHERE {_PLAYED}"
                             ).fetchone()
        h = self._db.execute("SELECT COUNT(*), COALESCE(SUM(won = 1), 0) FROM hands").fetchone()
        return m[0], m[1], h[0], h[1]


def _streaks(outcomes: list[bool]) -> tuple[int, int, int]:
    """Longest winning run, longest losing run, and the current run (negative: losing)."""
    best = worst = run = 0
    for won in outcomes:
        if won:
            run = run + 1 if run > 0 else 1
            best = max(best, run)
        else:
            run = run - 1 if run < 0 else -1
            worst = max(worst, -run)
    return best, worst, run
