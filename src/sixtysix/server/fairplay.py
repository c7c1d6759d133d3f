"""Fair play: one limiter for every game that starts, and the limits of rated play.

**Games.** Every way a game starts — made in the lobby (``POST /api/games``), a seat
taken (an open game, a challenge accepted), quick pairing (also with ``wait: 0``), a
rematch, a tournament's match — goes through :class:`Admission` for each person who
takes a seat in it, by his client address and his account (a guest by his address
alone): at most :attr:`GameLimits.per_address` games waiting or being played that the
address made or sat down in, at most :attr:`GameLimits.per_account` that the account
holds a seat in (``too_many_games``), and new games at a rate (``rate_limited``): a
burst, then one every ``1 / rate`` seconds, per address and per account.

**Rated play** (:class:`RatedPlay`), as lichess does it:

- a rated match that ends before both players acted (before its first trick is
  complete: resigned, out of time, left) is not rated (``GameManager`` decides so);
- at most :attr:`RatedLimits.per_pair` rated games a day between the same two
  accounts, and at most :attr:`RatedLimits.per_address` rated games between people a
  day in which one client address holds a seat (``too_many_rated``); games against
  the computer levels are not counted (their ratings are fixed: nothing to farm);
- an abort budget: a player who calls off (or resigns, or lets his clock run out, or
  leaves) more than :attr:`RatedLimits.abort_budget` rated matches before their first
  trick was complete within a day is barred from rated play (``rated_barred``) for
  :attr:`RatedLimits.bar` seconds; each further bar within a day of the last lasts
  twice as long, up to a day. Unrated play stays open to him.

"A day" is the day before the moment asked about (a rolling window), in the server's
clock (``now``: a test passes its own).

>>> limits = RatedLimits(bar=900.0)
>>> [limits.bar_after(n) for n in range(4)]
[900.0, 1800.0, 3600.0, 7200.0]
>>> limits.bar_after(20) == limits.day
True
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import Float, Integer, String, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from sixtysix.server.errors import LimitError, Reason
from sixtysix.server.limits import BucketsByKey
from sixtysix.server.storage import Storage, create_tables

__all__ = ["Admission", "GameLimits", "RatedLimits", "RatedPlay", "Starter"]

DAY = 86_400.0


@dataclass(frozen=True)
class Starter:
    """A person taking a seat in a game that starts: his client's address and his
    account's id (``None`` for a guest)."""

    address: str | None = None
    user: int | None = None

    def buckets(self) -> list[str]:
        """His buckets of the creation rate: one for the address, one for the account."""
        keys = [] if self.address is None else [f"a:{self.address}"]
        return keys if self.user is None else [*keys, f"u:{self.user}"]


@dataclass(frozen=True)
class GameLimits:
    """How many games a person may start (``Settings`` of the server)."""

    #: New games: ``burst`` at once, then ``rate`` a second (per address and per account).
    rate: float = 0.5
    burst: float = 40.0
    #: Games waiting or being played that one client address made or sat down in.
    per_address: int = 20
    #: Games waiting or being played that one account holds a seat in.
    per_account: int = 10


class Admission:
    """The one limiter of games starting (see the module's docstring): it counts
    unfinished games in ``storage`` and new games in token buckets on ``clock``."""

    def __init__(self, storage: Storage, limits: GameLimits | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.storage = storage
        self.limits = limits if limits is not None else GameLimits()
        self._buckets = BucketsByKey(self.limits.rate, self.limits.burst, clock=clock)

    def check(self, starter: Starter, *, rate: bool = True) -> None:
        """Refuse (:class:`LimitError`) a game ``starter`` may not start now; nothing is
        counted. ``rate=False``: his new game was counted already (quick pairing counts it
        when the request comes)."""
        if rate:
            for key in starter.buckets():
                if self._buckets.wait(key) > 0:
                    address = key.startswith("a:")
                    raise LimitError(Reason.NEW_GAMES_ADDRESS if address else Reason.NEW_GAMES_ACCOUNT)
        limits = self.limits
        if starter.address is not None and self.storage.unfinished_by(starter.address) >= limits.per_address:
            raise LimitError(Reason.UNFINISHED_ADDRESS, n=limits.per_address)
        if starter.user is not None and self.storage.unfinished_of(starter.user) >= limits.per_account:
            raise LimitError(Reason.UNFINISHED_ACCOUNT, n=limits.per_account)

    def count(self, starter: Starter) -> None:
        """Count a new game of ``starter``'s against the creation rate (after :meth:`check`)."""
        for key in starter.buckets():
            self._buckets.take(key)

    def admit(self, starter: Starter) -> None:
        """:meth:`check`, then :meth:`count`."""
        self.check(starter)
        self.count(starter)


@dataclass(frozen=True)
class RatedLimits:
    """The limits of rated play (``Settings`` of the server)."""

    #: Rated games a day between the same two accounts.
    per_pair: int = 10
    #: Rated games between people a day in which one client address holds a seat.
    per_address: int = 50
    #: Rated matches a player may call off (before the first trick is complete) in a day
    #: without consequence; the next one bars him from rated play.
    abort_budget: int = 3
    #: Seconds the first bar lasts; each further one within a day twice the last.
    bar: float = 15 * 60.0
    #: The window the limits count in, in seconds.
    day: float = DAY

    def bar_after(self, bars: int) -> float:
        """How long a bar lasts after ``bars`` others within a day: doubling, at most a day."""
        return min(self.bar * 2.0 ** min(bars, 64), self.day)


class _Base(DeclarativeBase):
    pass


class RatedStartRow(_Base):
    """A rated game between people that started (both seats taken), by whom and from where."""

    __tablename__ = "rated_starts"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The two accounts, the lower id first (a pair, whichever seat each held).
    low: Mapped[int] = mapped_column(Integer, index=True)
    high: Mapped[int] = mapped_column(Integer, index=True)
    address0: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    address1: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: Seconds since the epoch.
    at: Mapped[float] = mapped_column(Float, index=True)


class AbortRow(_Base):
    """A rated match a player called off before its first trick was complete."""

    __tablename__ = "rated_aborts"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    at: Mapped[float] = mapped_column(Float, index=True)


class BarRow(_Base):
    """A player barred from rated play until ``until`` (seconds since the epoch)."""

    __tablename__ = "rated_bars"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Integer, index=True)
    at: Mapped[float] = mapped_column(Float)
    until: Mapped[float] = mapped_column(Float)


class RatedPlay:
    """The limits of rated play (see the module's docstring), in tables of ``engine``
    beside the games; ``now`` gives seconds since the epoch."""

    def __init__(self, engine: Engine, limits: RatedLimits | None = None, *,
                 now: Callable[[], float] = time.time) -> None:
        self.limits = limits if limits is not None else RatedLimits()
        self.now = now
        create_tables(_Base.metadata, engine)
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def barred_until(self, user_id: int) -> float | None:
        """When the player's bar from rated play ends, if he is barred now."""
        with self._sessions() as s:
            until = s.scalar(select(func.max(BarRow.until)).where(BarRow.user_id == user_id))
        return until if until is not None and until > self.now() else None

    def check_player(self, user_id: int, *, mine: bool = True) -> None:
        """Refuse a player barred from rated play (``rated_barred``); ``mine``: he is the
        one asking (else his opponent is)."""
        until = self.barred_until(user_id)
        if until is not None:
            minutes = math.ceil((until - self.now()) / 60.0)
            raise LimitError(Reason.BARRED if mine else Reason.OPPONENT_BARRED, minutes=minutes)

    def check_pair(self, users: tuple[int, int], addresses: Sequence[str | None], mine: int = 1) -> None:
        """Refuse a rated game between ``users`` from ``addresses`` (seat 0's, seat 1's) over
        the day's limits (``too_many_rated``); ``mine`` is the seat of the one asking."""
        limits = self.limits
        since = self.now() - limits.day
        low, high = sorted(users)
        with self._sessions() as s:
            pair = s.scalar(select(func.count()).select_from(RatedStartRow).where(
                RatedStartRow.low == low, RatedStartRow.high == high, RatedStartRow.at > since)) or 0
            if pair >= limits.per_pair:
                raise LimitError(Reason.RATED_PAIR, n=limits.per_pair)
            for seat in sorted({mine, 1 - mine}, key=lambda seat: seat != mine):
                address = addresses[seat]
                if address is None:
                    continue
                count = s.scalar(select(func.count()).select_from(RatedStartRow).where(
                    (RatedStartRow.address0 == address) | (RatedStartRow.address1 == address),
                    RatedStartRow.at > since)) or 0
                if count >= limits.per_address:
                    raise LimitError(Reason.RATED_ADDRESS if seat == mine else Reason.RATED_OPPONENT_ADDRESS,
                                     n=limits.per_address)

    def started(self, game_id: str, users: tuple[int, int], addresses: Sequence[str | None]) -> None:
        """Count a rated game between ``users`` that has started, once: a game already
        counted (by another process, or before a restart) is not counted again."""
        low, high = sorted(users)
        with contextlib.suppress(IntegrityError), self._sessions.begin() as s:
            s.add(RatedStartRow(game_id=game_id, low=low, high=high, address0=addresses[0],
                                address1=addresses[1], at=self.now()))

    def aborted(self, game_id: str, user_id: int) -> float | None:
        """Count a rated match ``user_id`` called off; returns when his bar from rated play
        ends if this one was over the budget (``None`` otherwise)."""
        limits = self.limits
        at = self.now()
        since = at - limits.day
        try:
            with self._sessions.begin() as s:
                s.add(AbortRow(game_id=game_id, user_id=user_id, at=at))
                s.flush()
                aborts = s.scalar(select(func.count()).select_from(AbortRow).where(
                    AbortRow.user_id == user_id, AbortRow.at > since)) or 0
                if aborts <= limits.abort_budget:
                    return None
                bars = s.scalar(select(func.count()).select_from(BarRow).where(
                    BarRow.user_id == user_id, BarRow.at > since)) or 0
                until = at + limits.bar_after(bars)
                s.add(BarRow(user_id=user_id, at=at, until=until))
                return until
        except IntegrityError:
            return None  # counted already
