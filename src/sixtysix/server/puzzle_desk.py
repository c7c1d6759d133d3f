"""Puzzle ratings in the database: every puzzle and every solver (an account, or a
guest's browser) has a Glicko-2 rating, and each solver's first attempt at a puzzle
updates both, as on lichess (:func:`sixtysix.puzzles.rating.attempt`). A later attempt
at the same puzzle is judged but not rated.

A puzzle's rating starts at its calibrated one (the shipped file's); a solver's at
Glicko-2's newcomer (1500, deviation 350). Tables of their own beside the games':
``puzzle_ratings``, ``puzzle_solvers`` and ``puzzle_attempts`` (the history, and the
guard against rating an attempt twice).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, Integer, String, delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from sixtysix.measure.glicko import Rating
from sixtysix.puzzles.puzzle import Puzzle
from sixtysix.puzzles.rating import UNRATED, attempt
from sixtysix.server.storage import create_tables

__all__ = ["Attempt", "PuzzleDesk", "Solver"]


class Base(DeclarativeBase):
    pass


class PuzzleRatingRow(Base):
    """A puzzle's rating once a person has tried it (before: the calibrated one)."""

    __tablename__ = "puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class SolverRow(Base):
    """A solver's puzzle rating: ``user:ID`` for an account, ``guest:HASH`` for a browser."""

    __tablename__ = "puzzle_solvers"

    solver: Mapped[str] = mapped_column(String(80), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[dt.datetime] = mapped_column(DateTime)


class AttemptRow(Base):
    """A solver's rated attempt at a puzzle (one per solver and puzzle)."""

    __tablename__ = "puzzle_attempts"

    solver: Mapped[str] = mapped_column(String(80), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    action: Mapped[str] = mapped_column(String(8))
    solved: Mapped[bool] = mapped_column(Boolean)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    puzzle_before: Mapped[float] = mapped_column(Float)
    puzzle_after: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime, index=True)


@dataclass(frozen=True)
class Solver:
    """Who attempts: an account's id, or a guest browser's key (a hash of its token)."""

    key: str

    @classmethod
    def account(cls, user_id: int) -> Solver:
        return cls(f"user:{user_id}")

    @classmethod
    def guest(cls, digest: str) -> Solver:
        return cls(f"guest:{digest}")


@dataclass(frozen=True)
class Attempt:
    """What one attempt did to the ratings (``rated`` false: a repeat, nothing moved)."""

    rated: bool
    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating

    def to_json(self) -> dict[str, Any]:
        def one(r: Rating) -> dict[str, float]:
            return {"rating": r.rating, "deviation": r.deviation, "volatility": r.volatility}
        return {"rated": self.rated,
                "player": {"before": one(self.player_before), "after": one(self.player_after)},
                "puzzle": {"before": one(self.puzzle_before), "after": one(self.puzzle_after)}}


def _utc(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).replace(tzinfo=None)


def _rating(row: PuzzleRatingRow | SolverRow) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


class PuzzleDesk:
    """The puzzle ratings of one database; ``now`` gives seconds since the epoch."""

    def __init__(self, engine: Engine, *, now: Callable[[], float] | None = None) -> None:
        self.now = now if now is not None else time.time
        create_tables(Base.metadata, engine)
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @staticmethod
    def _puzzle(s: Session, puzzle: Puzzle, *, lock: bool = False) -> tuple[Rating, PuzzleRatingRow | None]:
        query = select(PuzzleRatingRow).where(PuzzleRatingRow.puzzle_id == puzzle.id)
        row = s.scalars(query.with_for_update() if lock else query).first()
        if row is None:
            return (puzzle.rating if puzzle.rating is not None else UNRATED), None
        return _rating(row), row

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        """The puzzle's rating now."""
        with self._sessions() as s:
            return self._puzzle(s, puzzle)[0]

    def puzzle_ratings(self) -> dict[str, Rating]:
        """Every rating moved by an attempt, by puzzle id (the others are the shipped ones)."""
        with self._sessions() as s:
            return {row.puzzle_id: _rating(row) for row in s.scalars(select(PuzzleRatingRow))}

    def rating(self, solver: Solver) -> tuple[Rating, int]:
        """A solver's rating and rated attempts (a newcomer's: 1500, 0)."""
        with self._sessions() as s:
            row = s.get(SolverRow, solver.key)
            return (UNRATED, 0) if row is None else (_rating(row), row.plays)

    def done(self, solver: Solver) -> set[str]:
        """The puzzles the solver has had a rated attempt at."""
        with self._sessions() as s:
            return set(s.scalars(select(AttemptRow.puzzle_id).where(AttemptRow.solver == solver.key)))

    def forget(self, user_id: int, shown: str) -> None:
        """A deleted account leaves the puzzles: its rating and its attempts go; the puzzles
        keep the ratings its attempts gave them. (``shown`` is unused: no other solver's
        record names it.)"""
        key = Solver.account(user_id).key
        with self._sessions.begin() as s:
            s.execute(delete(AttemptRow).where(AttemptRow.solver == key))
            s.execute(delete(SolverRow).where(SolverRow.solver == key))

    def record(self, solver: Solver, puzzle: Puzzle, action: str, solved: bool) -> Attempt:
        """Rate the solver's attempt (only his first at this puzzle moves the ratings)."""
        at = _utc(self.now())
        try:
            with self._sessions.begin() as s:
                player_row = s.scalars(select(SolverRow).where(SolverRow.solver == solver.key)
                                       .with_for_update()).first()
                player = UNRATED if player_row is None else _rating(player_row)
                puzzle_rating, puzzle_row = self._puzzle(s, puzzle, lock=True)
                if s.get(AttemptRow, (solver.key, puzzle.id)) is not None:
                    return Attempt(False, player, player, puzzle_rating, puzzle_rating)
                player_after, puzzle_after = attempt(player, puzzle_rating, solved)
                if player_row is None:
                    player_row = SolverRow(solver=solver.key, plays=0)
                    s.add(player_row)
                player_row.rating, player_row.deviation = player_after.rating, player_after.deviation
                player_row.volatility, player_row.updated = player_after.volatility, at
                player_row.plays = (player_row.plays or 0) + 1
                if puzzle_row is None:
                    puzzle_row = PuzzleRatingRow(puzzle_id=puzzle.id, plays=0, solved=0)
                    s.add(puzzle_row)
                puzzle_row.rating, puzzle_row.deviation = puzzle_after.rating, puzzle_after.deviation
                puzzle_row.volatility = puzzle_after.volatility
                puzzle_row.plays = (puzzle_row.plays or 0) + 1
                puzzle_row.solved = (puzzle_row.solved or 0) + int(solved)
                s.add(AttemptRow(solver=solver.key, puzzle_id=puzzle.id, action=action[:8], solved=solved,
                                 before=player.rating, after=player_after.rating,
                                 deviation=player_after.deviation, volatility=player_after.volatility,
                                 puzzle_before=puzzle_rating.rating, puzzle_after=puzzle_after.rating, at=at))
        except IntegrityError:
            # The same attempt rated at once by another request: nothing moves twice.
            player, _ = self.rating(solver)
            current = self.puzzle_rating(puzzle)
            return Attempt(False, player, player, current, current)
        return Attempt(True, player, player_after, puzzle_rating, puzzle_after)

    def history(self, solver: Solver, limit: int = 50) -> list[dict[str, Any]]:
        """The solver's rated attempts, newest first."""
        with self._sessions() as s:
            rows = s.scalars(select(AttemptRow).where(AttemptRow.solver == solver.key)
                             .order_by(AttemptRow.at.desc(), AttemptRow.puzzle_id).limit(limit)).all()
            return [{"puzzle": r.puzzle_id, "solved": r.solved, "before": round(r.before, 1),
                     "after": round(r.after, 1), "puzzle_rating": round(r.puzzle_before, 1),
                     "at": r.at.isoformat() + "Z"} for r in rows]

    def count(self) -> int:
        """Rated attempts in all."""
        with self._sessions() as s:
            return int(s.scalar(select(func.count()).select_from(AttemptRow)) or 0)
