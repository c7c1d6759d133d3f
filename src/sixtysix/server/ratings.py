"""Players' ratings on the game server: Glicko-2 per rule set, against people and the
calibrated computer levels alike.

Every rated match is a rating period of its own for each player in it (as lichess
does): the players' ratings as they stood before the match, the result (1 a win, 0 a
loss), :meth:`sixtysix.measure.glicko.Rating.update`. Between matches a player's deviation
grows with the days he did not play (one rating period a day,
:meth:`~sixtysix.measure.glicko.Rating.idle`), so a long-absent player's next results count
more. Ratings are kept per *pool*: the preset the match was played under (``classic``,
``santase``, ...); only a preset's own rules are rated (the match's target may
differ), since other options make another game.

The computer levels have **fixed** ratings, measured by the arena against each other
(``benchmarks/calibrate_levels.py`` writes ``level_ratings.json`` beside this
module): a person's match against a level moves only the person's rating, so playing
the computer alone tells a person his strength on the scale people are rated on.

Each rated match is written once, in one transaction with the new ratings: the row
``(game, player)`` of ``rated_games`` is the guard (a second attempt to rate the same
game changes nothing).

>>> pool_of(Rules.parse("santase,target=11")), pool_of(Rules.parse("classic,tie_bonus=0"))
('santase', None)
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from sqlalchemy import DateTime, Float, Integer, String, delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from sixtysix.measure.glicko import DEFAULT_VOLATILITY, Rating
from sixtysix.rules import PRESETS, Rules
from sixtysix.server.storage import create_tables

__all__ = ["LEVEL_RATINGS", "PROVISIONAL", "Change", "Computer", "Person", "Ratings", "Standing",
           "level_ratings", "pool_of"]

#: A deviation above this marks a rating as provisional (shown with a "?"), as lichess
#: does.
PROVISIONAL = 110.0
#: Seconds in a rating period (a player's deviation grows for each one without a game).
PERIOD = 86_400.0
#: The volatility given to a computer level's fixed rating (it never moves anyway).
_COMPUTER_VOLATILITY = DEFAULT_VOLATILITY


def pool_of(rules: Rules) -> str | None:
    """The rating pool of a match under ``rules``: its preset's name, when the rules are
    the preset's own (the target aside); else ``None`` (the match cannot be rated)."""
    preset = PRESETS.get(rules.base)
    if preset is None or rules.replace(target=preset.target) != preset:
        return None
    return rules.base


def level_ratings(text: str | None = None) -> dict[str, Rating]:
    """The computer levels' fixed ratings, from ``level_ratings.json`` (or ``text``)."""
    if text is None:
        text = resources.files("sixtysix.server").joinpath("level_ratings.json").read_text("utf-8")
    document = json.loads(text)
    return {name: Rating(entry["rating"], entry["deviation"], _COMPUTER_VOLATILITY)
            for name, entry in document["ratings"].items()}


#: The calibrated levels (see :func:`level_ratings`).
LEVEL_RATINGS: Mapping[str, Rating] = level_ratings()


class Base(DeclarativeBase):
    pass


class RatingRow(Base):
    """A player's rating in one pool."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pool: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    #: When the player last played a rated match in the pool (his deviation grows after).
    updated: Mapped[dt.datetime] = mapped_column(DateTime)


class RatedGameRow(Base):
    """How one rated match changed one player's rating (his history; the guard against
    rating a match twice)."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    pool: Mapped[str] = mapped_column(String(16))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    #: The opponent as shown (a person's name, or ``computer:LEVEL``) and his rating then.
    opponent: Mapped[str] = mapped_column(String(64))
    opponent_rating: Mapped[float] = mapped_column(Float)
    score: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime)


@dataclass(frozen=True)
class Person:
    """A seat held by a player with an account."""

    user_id: int
    name: str


@dataclass(frozen=True)
class Computer:
    """A seat held by a computer level with a calibrated rating."""

    level: str


Side = Person | Computer


@dataclass(frozen=True)
class Change:
    """How a rated match moved one player's rating."""

    user_id: int
    before: Rating
    after: Rating


@dataclass(frozen=True)
class Standing:
    """A player's place in a pool: his rating (deviation grown to now) and record."""

    user_id: int
    pool: str
    rating: Rating
    games: int
    wins: int

    @property
    def provisional(self) -> bool:
        return self.rating.deviation > PROVISIONAL

    def to_json(self) -> dict[str, Any]:
        return {"pool": self.pool, "rating": round(self.rating.rating),
                "deviation": round(self.rating.deviation), "provisional": self.provisional,
                "games": self.games, "wins": self.wins}


def _utc(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).replace(tzinfo=None)


class Ratings:
    """The ratings in a database (its own tables beside the games'): ``now`` gives the
    time in seconds since the epoch, ``levels`` the computer levels' fixed ratings."""

    def __init__(self, engine: Engine, *, now: Callable[[], float] | None = None,
                 levels: Mapping[str, Rating] | None = None) -> None:
        self.engine = engine
        self.now = now if now is not None else time.time
        self.levels = dict(LEVEL_RATINGS if levels is None else levels)
        create_tables(Base.metadata, engine)
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def rateable(self, side: Side) -> bool:
        """Whether a seat can be in a rated match: a person, or a calibrated level."""
        return isinstance(side, Person) or side.level in self.levels

    def _current(self, s: Session, user_id: int, pool: str,
                 at: dt.datetime) -> tuple[Rating, RatingRow | None]:
        row = s.get(RatingRow, (user_id, pool))
        if row is None:
            return Rating(), None
        periods = max((at - row.updated).total_seconds(), 0.0) / PERIOD
        return Rating(row.rating, row.deviation, row.volatility).idle(periods), row

    def standing(self, user_id: int, pool: str) -> Standing:
        """A player's rating in ``pool`` now (a new player's if he has none)."""
        at = _utc(self.now())
        with self._sessions() as s:
            rating, row = self._current(s, user_id, pool, at)
            return Standing(user_id, pool, rating, 0 if row is None else row.games,
                            0 if row is None else row.wins)

    def standings(self, user_id: int) -> list[Standing]:
        """A player's ratings, one per pool he played rated matches in."""
        at = _utc(self.now())
        with self._sessions() as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.user_id == user_id)
                             .order_by(RatingRow.pool)).all()
            return [Standing(user_id, row.pool, self._current(s, user_id, row.pool, at)[0], row.games,
                             row.wins) for row in rows]

    def rating_of(self, side: Side, pool: str) -> Rating:
        if isinstance(side, Computer):
            return self.levels[side.level]
        return self.standing(side.user_id, pool).rating

    def rate(self, game_id: str, pool: str, sides: tuple[Side, Side], winner: int) -> list[Change]:
        """Rate a finished match of ``pool`` between ``sides`` won by seat ``winner``:
        each person's rating updated against the other side's as it stood before. Returns
        the changes; none if the match was rated already."""
        if winner not in (0, 1):
            raise ValueError(f"the winner is seat 0 or 1, not {winner!r}")
        for side in sides:
            if not self.rateable(side):
                raise ValueError(f"{side} has no rating")
        when = self.now()
        at = _utc(when)
        changes: list[Change] = []
        try:
            with self._sessions.begin() as s:
                before: list[tuple[Rating, RatingRow | None]] = []
                for side in sides:
                    if isinstance(side, Person):
                        before.append(self._current(s, side.user_id, pool, at))
                    else:
                        before.append((self.levels[side.level], None))
                for seat, side in enumerate(sides):
                    if not isinstance(side, Person):
                        continue
                    mine, row = before[seat]
                    theirs = before[1 - seat][0]
                    score = 1.0 if winner == seat else 0.0
                    after = mine.update([(theirs, score)])
                    if row is None:
                        row = RatingRow(user_id=side.user_id, pool=pool, games=0, wins=0)
                        s.add(row)
                    row.rating, row.deviation = after.rating, after.deviation
                    row.volatility = after.volatility
                    row.games = (row.games or 0) + 1
                    row.wins = (row.wins or 0) + int(score == 1.0)
                    row.updated = at
                    other = sides[1 - seat]
                    shown = other.name if isinstance(other, Person) else f"computer:{other.level}"
                    s.add(RatedGameRow(game_id=game_id, user_id=side.user_id, pool=pool, before=mine.rating,
                                       after=after.rating, deviation=after.deviation, opponent=shown[:64],
                                       opponent_rating=theirs.rating, score=score, at=at))
                    changes.append(Change(side.user_id, mine, after))
        except IntegrityError:
            return []  # rated already (by this process or another): nothing changes twice
        return changes

    def changes(self, game_id: str) -> dict[int, tuple[float, float]]:
        """How a rated match moved its players' ratings: user id -> (before, after)."""
        with self._sessions() as s:
            rows = s.scalars(select(RatedGameRow).where(RatedGameRow.game_id == game_id)).all()
            return {row.user_id: (row.before, row.after) for row in rows}

    def leaderboard(self, pool: str, limit: int = 50, *, established: bool = False) -> list[Standing]:
        """The best ratings of ``pool``, highest first; with ``established``, provisional
        ones are left off (the page marks them instead)."""
        at = _utc(self.now())
        with self._sessions() as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.pool == pool)
                             .order_by(RatingRow.rating.desc()).limit(max(limit * 4, 100))).all()
            out = []
            for row in rows:
                rating, _ = self._current(s, row.user_id, pool, at)
                standing = Standing(row.user_id, pool, rating, row.games, row.wins)
                if not (established and standing.provisional):
                    out.append(standing)
            return out[:limit]

    def history(self, user_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """A player's rated matches, newest first: the game, pool, rating before and
        after, the opponent and the score."""
        with self._sessions() as s:
            rows = s.scalars(select(RatedGameRow).where(RatedGameRow.user_id == user_id)
                             .order_by(RatedGameRow.at.desc()).limit(limit)).all()
            return [{"game": r.game_id, "pool": r.pool, "before": round(r.before), "after": round(r.after),
                     "opponent": r.opponent, "opponent_rating": round(r.opponent_rating),
                     "score": r.score, "at": r.at.isoformat() + "Z"} for r in rows]

    def forget(self, user_id: int, shown: str) -> None:
        """A deleted account leaves the ratings: its ratings and history go (it leaves
        every leaderboard), and its opponents' histories show it as ``shown``. Their
        ratings stay as its matches made them."""
        with self._sessions.begin() as s:
            games = select(RatedGameRow.game_id).where(RatedGameRow.user_id == user_id).scalar_subquery()
            s.execute(update(RatedGameRow).where(RatedGameRow.game_id.in_(games),
                                                 RatedGameRow.user_id != user_id).values(opponent=shown))
            s.execute(delete(RatedGameRow).where(RatedGameRow.user_id == user_id))
            s.execute(delete(RatingRow).where(RatingRow.user_id == user_id))

    def count(self, pool: str) -> int:
        with self._sessions() as s:
            return int(s.scalar(select(func.count()).select_from(RatingRow)
                                .where(RatingRow.pool == pool)) or 0)
