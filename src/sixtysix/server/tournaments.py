"""Tournaments on the game server: arenas and round robins, people and computer levels.

- **Arena**: for a time window (``minutes`` from its start), entrants play as many
  matches as they can. A player who asks for his next match is paired with a waiting
  entrant of the nearest score, else with a computer entrant, else waits. A match won
  scores 2 points, a match lost 0; a match called off (aborted), or ended (resigned, out
  of time, left) before its first trick was complete, counts nothing, so that a second
  account cannot hand its owner points (as lichess counts no game before both moved). Matches
  still being played when the window closes count when they end.
- **Round robin**: every entrant plays every other once; a player asking for his next
  match meets a waiting entrant he has not played, or a computer entrant he has not
  played. It is over when every pair has played (or was called off).

Computer entrants are the server's levels, named when the tournament is made; they
play any number of matches at once and never against each other. Standings: points,
then matches won, then fewer matches played. A tournament's matches are ordinary
games (rated if the tournament is), so each opens in the analysis board afterwards;
they start through the game manager's one limiter of games (sixtysix.server.fairplay),
counted against both players' addresses and accounts like any other game.

Making tournaments is limited (:class:`TournamentLimits`): a rate per account and per
address, and a cap on the tournaments one account or address has coming or being
played. The list shows the tournaments with the most people entered first, so that
empty ones never bury those being played.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, DateTime, Integer, String, Text, func, inspect, or_, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from sixtysix.play.clock import TimeControl
from sixtysix.rules import Rules
from sixtysix.server.account_api import ActingUser
from sixtysix.server.errors import GameError, Reason, stopping
from sixtysix.server.fairplay import Starter
from sixtysix.server.games import Game, GameManager, parse_clock, parse_rules
from sixtysix.server.limits import BucketsByKey
from sixtysix.server.status import GameKind, GameStatus
from sixtysix.server.storage import create_tables

__all__ = ["KINDS", "POINTS_FOR_A_WIN", "Next", "TournamentLimits", "Tournaments", "tournament_router"]

KINDS = ("arena", "round_robin")
POINTS_FOR_A_WIN = 2
#: The longest arena, and the latest start, in minutes.
MAX_MINUTES = 24 * 60
#: Tournaments listed in each part of the list (coming, being played, finished).
LISTED = 50
#: Seconds after its start a round robin nobody finished stops counting as being played
#: (for the cap on the tournaments one may have).
ROUND_ROBIN_DAY = 86_400.0


@dataclass(frozen=True)
class TournamentLimits:
    """How many tournaments one may make (``Settings`` of the server)."""

    #: New tournaments: ``burst`` at once, then ``rate`` a second (per account and per address).
    rate: float = 1 / 600
    burst: float = 3.0
    #: Tournaments coming or being played that one account, or one address, has made.
    per_account: int = 3
    per_address: int = 5


class Base(DeclarativeBase):
    pass


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(Text)
    clock: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    starts: Mapped[dt.datetime] = mapped_column(DateTime)
    #: When an arena's window closes (``None`` for a round robin).
    ends: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    creator: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The client address it was made from (for the cap on tournaments per address).
    address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: Set when a round robin has played every pair.
    finished: Mapped[bool] = mapped_column(Boolean, default=False)


class EntrantRow(Base):
    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: ``u:ID`` for a player with an account, ``c:LEVEL`` for a computer level.
    key: Mapped[str] = mapped_column(String(48), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    points: Mapped[int] = mapped_column(Integer, default=0)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)


class MatchRow(Base):
    __tablename__ = "tournament_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(16), index=True)
    key0: Mapped[str] = mapped_column(String(48))
    key1: Mapped[str] = mapped_column(String(48))
    #: ``playing``, ``won0``, ``won1`` or ``aborted``.
    result: Mapped[str] = mapped_column(String(8), default="playing")


@dataclass(frozen=True)
class Next:
    """A player's next match: the game, his seat and its token."""

    game: Game
    seat: int
    token: str


@dataclass
class _Waiting:
    key: str
    user: tuple[int, str]
    answer: asyncio.Future[Next]
    address: str | None = None


def _level(key: str) -> str | None:
    """The computer level an entrant's key names (``c:LEVEL``), or ``None`` for a person.

    >>> _level("c:easy"), _level("u:7")
    ('easy', None)
    """
    return key[2:] if key.startswith("c:") else None


def _utc(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).replace(tzinfo=None)


class Tournaments:
    """The tournaments in a database beside the games, played through ``manager``."""

    def __init__(self, engine: Engine, manager: GameManager, *, now: Callable[[], float] = time.time,
                 limits: TournamentLimits | None = None) -> None:
        self.manager = manager
        self.now = now
        #: How many tournaments one may make; ``None``: no limit.
        self.limits = limits
        self._made = None if limits is None else BucketsByKey(limits.rate, limits.burst, clock=now)
        create_tables(Base.metadata, engine)
        _add_address_column(engine)
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._waiting: dict[str, list[_Waiting]] = {}
        self._stopped = False
        manager.finished_hooks.append(self.game_over)

    def stop(self) -> None:
        """The server stops: every player waiting for his next match is answered 503
        (``stopping``; a load balancer asks another process), and nobody new waits here."""
        self._stopped = True
        for queue in self._waiting.values():
            for waiting in queue:
                if not waiting.answer.done():
                    waiting.answer.set_exception(stopping())

    # Making and joining ----------------------------------------------------------
    def create(self, *, name: str, kind: str, rules: Rules, clock: TimeControl | None, rated: bool,
               starts_in: float, minutes: float | None, creator: tuple[int, str],
               computers: list[str], address: str | None = None) -> str:
        """A new tournament starting in ``starts_in`` minutes, made by the account
        ``creator`` from the client ``address``; returns its id."""
        shown = " ".join("".join(ch for ch in name if ch.isprintable()).split())[:60]
        if not shown:
            raise GameError(Reason.BAD_TOURNAMENT_NAME)
        if kind not in KINDS:
            raise GameError(Reason.BAD_TOURNAMENT_KIND, kinds=", ".join(KINDS))
        if not 0 <= starts_in <= MAX_MINUTES:
            raise GameError(Reason.BAD_TOURNAMENT_START, n=MAX_MINUTES)
        if kind == "arena" and (minutes is None or not 1 <= minutes <= MAX_MINUTES):
            raise GameError(Reason.BAD_ARENA, n=MAX_MINUTES)
        for level in computers:
            if level not in self.manager.opponents or self.manager.opponents.is_engine(level):
                raise GameError(Reason.BAD_TOURNAMENT_LEVEL, level=level)
            if rated and (self.manager.ratings is None or level not in self.manager.ratings.levels):
                raise GameError(Reason.TOURNAMENT_LEVEL_UNRATED, level=level)
        if rated:
            self.manager.check_rated(rules, GameKind.PERSON, None, creator, False)
        self._check_limits(creator[0], address)
        tid = secrets.token_urlsafe(6)
        start = self.now() + starts_in * 60.0
        with self._sessions.begin() as s:
            s.add(TournamentRow(id=tid, name=shown, kind=kind, rules=json.dumps(rules.to_json()),
                                clock=None if clock is None else str(clock), rated=rated, starts=_utc(start),
                                ends=_utc(start + minutes * 60.0) if kind == "arena" and minutes else None,
                                creator=creator[0], address=address, finished=False))
            for level in dict.fromkeys(computers):
                s.add(EntrantRow(tournament_id=tid, key=f"c:{level}", name=f"Computer ({level})",
                                 points=0, played=0, won=0))
        return tid

    def _check_limits(self, user_id: int, address: str | None) -> None:
        """Refuse a new tournament over the limits (``rate_limited``, ``too_many_tournaments``),
        else count it against the rate."""
        limits, made = self.limits, self._made
        if limits is None or made is None:
            return
        keys = [f"u:{user_id}"] + ([] if address is None else [f"a:{address}"])
        if any(made.wait(key) > 0 for key in keys):
            raise GameError(Reason.NEW_TOURNAMENTS)
        with self._sessions() as s:
            live = self._live()
            mine = s.scalar(select(func.count()).select_from(TournamentRow)
                            .where(live, TournamentRow.creator == user_id)) or 0
            here = 0 if address is None else s.scalar(select(func.count()).select_from(TournamentRow)
                                                      .where(live, TournamentRow.address == address)) or 0
        if mine >= limits.per_account or here >= limits.per_address:
            if mine >= limits.per_account:
                raise GameError(Reason.YOUR_TOURNAMENTS, n=limits.per_account)
            raise GameError(Reason.ADDRESS_TOURNAMENTS, n=limits.per_address)
        for key in keys:
            made.take(key)

    def _live(self) -> Any:
        """The condition of a tournament coming or being played (a round robin for a day
        after its start at most)."""
        at = _utc(self.now())
        day_ago = _utc(self.now() - ROUND_ROBIN_DAY)
        fresh_round_robin = TournamentRow.ends.is_(None) & (TournamentRow.starts > day_ago)
        return TournamentRow.finished.is_(False) & or_(TournamentRow.ends > at, fresh_round_robin)

    def _row(self, s: Session, tid: str) -> TournamentRow:
        row = s.get(TournamentRow, tid) if isinstance(tid, str) and len(tid) <= 16 else None
        if row is None:
            raise GameError(Reason.NO_TOURNAMENT)
        return row

    def status(self, row: TournamentRow) -> str:
        """``upcoming``, ``running`` or ``finished``."""
        at = _utc(self.now())
        if at < row.starts:
            return "upcoming"
        if row.finished or (row.ends is not None and at >= row.ends):
            return "finished"
        return "running"

    def forget(self, user_id: int, shown: str) -> None:
        """A deleted account's entries keep their points (the standings stay right) under
        the name ``shown``."""
        with self._sessions.begin() as s:
            s.execute(update(EntrantRow).where(EntrantRow.key == f"u:{user_id}").values(name=shown))

    def join(self, tid: str, user: tuple[int, str]) -> None:
        with self._sessions.begin() as s:
            row = self._row(s, tid)
            if self.status(row) == "finished":
                raise GameError(Reason.TOURNAMENT_OVER)
            if row.kind == "round_robin" and self.status(row) == "running":
                raise GameError(Reason.TOURNAMENT_STARTED)
            if s.get(EntrantRow, (tid, f"u:{user[0]}")) is None:
                s.add(EntrantRow(tournament_id=tid, key=f"u:{user[0]}", name=user[1], points=0, played=0,
                                 won=0))

    # Reading ------------------------------------------------------------------------
    def to_json(self, tid: str) -> dict[str, Any]:
        with self._sessions() as s:
            row = self._row(s, tid)
            entrants = s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == tid)).all()
            matches = s.scalars(select(MatchRow).where(MatchRow.tournament_id == tid)).all()
            names = {e.key: e.name for e in entrants}
            standings = sorted(entrants, key=lambda e: (-e.points, -e.won, e.played, e.name))
            at = _utc(self.now())
            return {
                "id": row.id, "name": row.name, "kind": row.kind, "rules": json.loads(row.rules),
                "clock": row.clock, "rated": row.rated, "status": self.status(row),
                "starts": row.starts.isoformat() + "Z",
                "ends": None if row.ends is None else row.ends.isoformat() + "Z",
                "seconds_to_start": max(0.0, (row.starts - at).total_seconds()),
                "seconds_left": None if row.ends is None else max(0.0, (row.ends - at).total_seconds()),
                # A computer entrant's level (``None``: a person), for a page to name it in its language.
                "standings": [{"name": e.name, "computer": e.key.startswith("c:"), "level": _level(e.key),
                               "points": e.points, "played": e.played, "won": e.won} for e in standings],
                "games": [{"id": m.game_id, "players": [names.get(m.key0, "?"), names.get(m.key1, "?")],
                           "levels": [_level(m.key0), _level(m.key1)], "result": m.result} for m in matches],
            }

    def listing(self) -> dict[str, list[dict[str, Any]]]:
        """The tournaments coming, being played and finished: in each part those with the
        most people entered first (then the latest to start), at most :data:`LISTED`."""
        at = _utc(self.now())
        people = (select(EntrantRow.tournament_id, func.count().label("people"))
                  .where(EntrantRow.key.startswith("u:")).group_by(EntrantRow.tournament_id).subquery())
        count = func.coalesce(people.c.people, 0)
        ended = TournamentRow.ends.is_not(None) & (TournamentRow.ends <= at)
        over = TournamentRow.finished.is_(True) | ended
        parts = {"upcoming": TournamentRow.starts > at,
                 "running": (TournamentRow.starts <= at) & ~over,
                 "finished": (TournamentRow.starts <= at) & over}
        out: dict[str, list[dict[str, Any]]] = {}
        with self._sessions() as s:
            for part, where in parts.items():
                rows = s.execute(select(TournamentRow, count)
                                 .outerjoin(people, people.c.tournament_id == TournamentRow.id)
                                 .where(where).order_by(count.desc(), TournamentRow.starts.desc())
                                 .limit(LISTED)).all()
                out[part] = [{"id": row.id, "name": row.name, "kind": row.kind,
                              "rules": json.loads(row.rules), "clock": row.clock, "rated": row.rated,
                              "players": int(n)} for row, n in rows]
        return out

    # Playing --------------------------------------------------------------------------
    async def next_match(self, tid: str, user: tuple[int, str], wait: float,
                         address: str | None = None) -> Next | None:
        """The player's next match: with a waiting entrant (nearest score in an arena, not
        yet met in a round robin), else a computer entrant, else after waiting up to
        ``wait`` seconds for one; ``None`` if nobody came. ``address`` is the client's: the
        match is counted against it and the account like any new game."""
        key = f"u:{user[0]}"
        with self._sessions() as s:
            row = self._row(s, tid)
            if self.status(row) != "running":
                raise GameError(Reason.TOURNAMENT_NOT_RUNNING)
            if s.get(EntrantRow, (tid, key)) is None:
                raise GameError(Reason.NOT_ENTERED)
            busy = s.scalars(select(MatchRow).where(
                MatchRow.tournament_id == tid, MatchRow.result == "playing",
                (MatchRow.key0 == key) | (MatchRow.key1 == key))).first()
            if busy is not None:
                raise GameError(Reason.IN_A_MATCH, game=busy.game_id)
            opponent = self._opponent(s, row, key)
        self.manager.check_start([Starter(address, user[0])])  # refused now, not after a wait
        if opponent is not None:
            found = self._start(tid, key, user, address, opponent)
            if found is not None:
                return found
        if self._stopped:
            raise stopping()
        queue = self._waiting.setdefault(tid, [])
        if any(w.key == key for w in queue):
            raise GameError(Reason.ALREADY_WAITING)
        waiting = _Waiting(key, user, asyncio.get_running_loop().create_future(), address)
        queue.append(waiting)
        try:
            return await asyncio.wait_for(asyncio.shield(waiting.answer), max(0.0, min(wait, 600.0)))
        except TimeoutError:
            return waiting.answer.result() if waiting.answer.done() else None
        finally:
            if waiting in queue:
                queue.remove(waiting)

    def _met(self, s: Session, tid: str, key: str) -> set[str]:
        rows = s.scalars(select(MatchRow).where(MatchRow.tournament_id == tid,
                                                (MatchRow.key0 == key) | (MatchRow.key1 == key))).all()
        return {r.key1 if r.key0 == key else r.key0 for r in rows}

    def _opponent(self, s: Session, row: TournamentRow, key: str) -> _Waiting | str | None:
        """A waiting person, or a computer entrant's key, or ``None``."""
        met = self._met(s, row.id, key) if row.kind == "round_robin" else set()
        entrants = {e.key: e for e in s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == row.id))}
        mine = entrants[key].points
        people = [w for w in self._waiting.get(row.id, []) if w.key != key and w.key not in met
                  and not w.answer.done()]
        if people:
            return min(people, key=lambda w: abs(entrants[w.key].points - mine) if w.key in entrants else 0)
        computers = [k for k in entrants if k.startswith("c:") and k not in met]
        if computers:
            return min(computers, key=lambda k: (abs(entrants[k].points - mine), k))
        return None

    def _start(self, tid: str, key: str, user: tuple[int, str], address: str | None,
               opponent: _Waiting | str) -> Next | None:
        """The match with ``opponent``; ``None`` if a limit refused the waiting opponent (he
        is told so, and the player waits for another)."""
        with self._sessions() as s:
            row = self._row(s, tid)
            rules = Rules.from_json(json.loads(row.rules))
            clock = None if row.clock is None else TimeControl.parse(row.clock)
            rated = row.rated
        manager = self.manager
        if isinstance(opponent, str):
            level = opponent[2:]
            game, token = manager.create(rules=rules, kind=GameKind.COMPUTER, level=level, user=user,
                                         clock=clock, rated=rated, creator=address)
            self._record(tid, game.id, key, opponent)
            manager.wake_bot(game)
            return Next(game, 0, token)
        try:
            manager.check_start([Starter(opponent.address, opponent.user[0]), Starter(address, user[0])],
                                rated=rated)
        except GameError as exc:
            if not opponent.answer.done():
                opponent.answer.set_exception(exc)
            return None
        game, token = manager.create(rules=rules, kind=GameKind.PERSON, user=opponent.user, clock=clock,
                                     rated=rated, creator=opponent.address)
        _, seat, mine = manager.join(game.id, user=user, address=address)
        self._record(tid, game.id, opponent.key, key)
        opponent.answer.set_result(Next(game, 0, token))
        return Next(game, seat, mine)

    def _record(self, tid: str, game_id: str, key0: str, key1: str) -> None:
        with self._sessions.begin() as s:
            s.add(MatchRow(game_id=game_id, tournament_id=tid, key0=key0, key1=key1, result="playing"))

    def game_over(self, game: Game) -> None:
        """A game ended (the manager's hook): if it is a tournament's match, score it."""
        with self._sessions.begin() as s:
            match = s.get(MatchRow, game.id)
            if match is None or match.result != "playing":
                return
            winner = game.winner
            called_off = game.status is GameStatus.ABORTED or winner is None or game.ended_early
            match.result = "aborted" if called_off else f"won{winner}"
            if match.result == "aborted":
                return
            for seat, key in enumerate((match.key0, match.key1)):
                entrant = s.get(EntrantRow, (match.tournament_id, key))
                if entrant is not None:
                    entrant.played += 1
                    if seat == winner:
                        entrant.won += 1
                        entrant.points += POINTS_FOR_A_WIN
            row = s.get(TournamentRow, match.tournament_id)
            if row is not None and row.kind == "round_robin":
                self._maybe_finished(s, row)

    @staticmethod
    def _maybe_finished(s: Session, row: TournamentRow) -> None:
        keys = [e.key for e in s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == row.id))]
        matches = s.scalars(select(MatchRow).where(MatchRow.tournament_id == row.id)).all()
        done = {frozenset((m.key0, m.key1)) for m in matches if m.result != "playing"}
        pairs = {frozenset((a, b)) for i, a in enumerate(keys) for b in keys[i + 1:]
                 if not (a.startswith("c:") and b.startswith("c:"))}
        if pairs and pairs <= done:
            row.finished = True


def _add_address_column(engine: Engine) -> None:
    """A database made before tournaments kept their creator's address gets the column
    (another server process starting at the same moment may add it first)."""
    def present() -> bool:
        return "address" in {c["name"] for c in inspect(engine).get_columns("tournaments")}

    if present():
        return
    try:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE tournaments ADD COLUMN address VARCHAR(64)"))
            conn.execute(text("CREATE INDEX IF NOT EXISTS ix_tournaments_address ON tournaments (address)"))
    except (OperationalError, ProgrammingError):
        if not present():
            raise


class NewTournament(BaseModel):
    model_config = ConfigDict(strict=True)

    name: str = Field(max_length=100)
    kind: str = Field("arena", max_length=16)
    rules: str = Field("classic", max_length=200)
    target: int | None = Field(None, ge=1, le=100)
    clock: str | None = Field(None, max_length=16)
    rated: bool = False
    starts_in: float = Field(0.0, ge=0, le=MAX_MINUTES)
    minutes: float | None = Field(None, ge=1, le=MAX_MINUTES)
    computers: list[str] = Field(default_factory=list, max_length=5)


class NextMatch(BaseModel):
    model_config = ConfigDict(strict=True)

    wait: float = Field(60.0, ge=0, le=600)


def _address(request: Request) -> str:
    return str(getattr(request.client, "host", None) or "unknown")


def tournament_router(tournaments: Tournaments) -> APIRouter:
    """The HTTP routes: ``GET /api/tournaments``, ``POST /api/tournaments`` (logged in),
    ``GET /api/tournaments/{id}``, ``POST /api/tournaments/{id}/join`` and
    ``POST /api/tournaments/{id}/next`` (the player's next match, when it exists)."""
    router = APIRouter()

    def account(user: Any) -> tuple[int, str]:
        if user is None:
            raise GameError(Reason.TOURNAMENT_NEEDS_ACCOUNT)
        return int(user.id), str(user.name)

    @router.get("/api/tournaments")
    async def listing() -> dict[str, Any]:
        return tournaments.listing()

    @router.post("/api/tournaments", status_code=201)
    async def create(body: NewTournament, request: Request, user: ActingUser) -> dict[str, Any]:
        tid = tournaments.create(name=body.name, kind=body.kind, rules=parse_rules(body.rules, body.target),
                                 clock=parse_clock(body.clock), rated=body.rated, starts_in=body.starts_in,
                                 minutes=body.minutes, creator=account(user), computers=body.computers,
                                 address=_address(request))
        return tournaments.to_json(tid)

    @router.get("/api/tournaments/{tid}")
    async def one(tid: str) -> dict[str, Any]:
        return tournaments.to_json(tid)

    @router.post("/api/tournaments/{tid}/join")
    async def join(tid: str, user: ActingUser) -> dict[str, Any]:
        tournaments.join(tid, account(user))
        return tournaments.to_json(tid)

    @router.post("/api/tournaments/{tid}/next")
    async def next_match(tid: str, body: NextMatch, request: Request, user: ActingUser) -> dict[str, Any]:
        me = account(user)
        task = asyncio.get_running_loop().create_task(tournaments.next_match(tid, me, body.wait,
                                                                             _address(request)))
        while not task.done():
            await asyncio.wait({task}, timeout=0.5)
            if not task.done() and await request.is_disconnected():
                task.cancel()
                return {"waiting": False}
        found = task.result()
        if found is None:
            return {"waiting": True}
        return {"id": found.game.id, "seat": found.seat, "token": found.token,
                "link": f"/game/{found.game.id}", "game": found.game.info()}

    return router
