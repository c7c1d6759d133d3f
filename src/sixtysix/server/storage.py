"""Games, their records and players' results in a database (SQLAlchemy 2.x).

The record is the source of truth: every deal and every action is written as
it is applied, and a game is rebuilt by replaying its record. SQLite (a file)
is the default; any SQLAlchemy URL works, PostgreSQL included. All statements
are built by SQLAlchemy with bound parameters; no SQL text is assembled here.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from sixtysix.server.status import Ending, GameStatus

__all__ = ["FAILURES", "ActionRow", "ForfeitRow", "GameRow", "HandRow", "ResultRow", "Storage", "StoredGame",
           "StoredHand", "add_columns", "create_tables"]

#: What a failed read or write of the database raises: the database's own errors (a
#: connection lost, a lock held too long, a constraint), and the system's (a disk full).
FAILURES = (SQLAlchemyError, OSError)


#: The statuses of games still being played or waiting for a player (resumed at start-up).
LIVE = tuple(status for status in GameStatus if status.live)


def now() -> dt.datetime:
    """The time as the database stores it (UTC, without a zone)."""
    return _now()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game (a match) and who sits where."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    updated: Mapped[dt.datetime] = mapped_column(DateTime, default=_now, index=True)
    #: The rules as a record writes them (docs/design.md §4), JSON text.
    rules: Mapped[str] = mapped_column(Text)
    #: ``computer`` or ``person``.
    kind: Mapped[str] = mapped_column(String(16))
    #: The computer's level, for games against the computer.
    level: Mapped[str | None] = mapped_column(String(64), nullable=True)
    first_dealer: Mapped[int] = mapped_column(Integer)
    #: SHA-256 of each seat's token; ``None`` while the seat is free (or the computer's).
    token0: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token1: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name0: Mapped[str] = mapped_column(String(64), default="")
    name1: Mapped[str] = mapped_column(String(64), default="")
    #: ``waiting`` (a seat is free), ``playing`` or ``finished``.
    status: Mapped[str] = mapped_column(String(16), index=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score0: Mapped[int] = mapped_column(Integer, default=0)
    score1: Mapped[int] = mapped_column(Integer, default=0)
    #: The game this one is a rematch of.
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: The rematch of this game, once one was asked for.
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: The client address that created the game (for the per-address cap on unfinished games).
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: Whether the player may take actions back (games against the computer only), and
    #: how many times he did: the record says so (``"undo"``), as the terminal game's does.
    takeback: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    taken_back: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The time control (``5+3``, ``20/move``: sixtysix.play.clock), if the game has a clock, and
    #: the clock as it stood after the last change (JSON: each seat's time left, the seat
    #: whose clock runs and since when, in seconds since the epoch).
    clock: Mapped[str | None] = mapped_column(String(16), nullable=True)
    clock_state: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: How a match ended other than by reaching the target: ``resigned``, ``time`` (a
    #: match clock ran out), ``left`` (a player did not come back in time) or
    #: ``aborted`` (called off before the first trick; the status is then ``aborted``).
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: The account holding each seat (``users.id`` of sixtysix.server.accounts), if any.
    user0: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    user1: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: Whether the match counts for the players' ratings (sixtysix.server.ratings).
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    #: A challenge: the account only which may take the free seat (the game is not listed).
    invited: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: The client address that took seat 1 (counted with ``creator`` by the caps on
    #: unfinished games: sixtysix.server.fairplay).
    joiner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: Why a match made rated was not rated: ``short`` (it ended before both players had
    #: acted; ``rated`` is then false).
    unrated: Mapped[str | None] = mapped_column(String(16), nullable=True)


class HandRow(Base):
    """A deal of a game: the deck (top first) and the dealer."""

    __tablename__ = "hands"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    deck: Mapped[str] = mapped_column(String(96))
    dealer: Mapped[int] = mapped_column(Integer)


class ActionRow(Base):
    """One action of a hand, in the notation of docs/design.md §3."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(8))


class ForfeitRow(Base):
    """A hand lost by forfeit after its recorded actions: the seat of the computer
    opponent's program that failed (a record's ``"forfeit"`` field, docs/design.md §4).

    A table of its own rather than a column of ``hands``: a database made before
    forfeits existed gets it from ``create_all`` and needs no migration."""

    __tablename__ = "forfeits"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)


class ResultRow(Base):
    """A player's result in a finished game."""

    __tablename__ = "results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game_points: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column()
    finished: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


#: Lines of chat kept for each room of a game (sent to a client that connects).
CHAT_KEPT = 50
#: The rooms of a game's chat: the two players', and the spectators' (which players never see).
CHAT_ROOMS = ("players", "spectators")


class ChatRow(Base):
    """A line of a game's chat, so that a game resumed after a restart, or taken over by
    another process, shows its latest lines as before. Never in any public answer."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    room: Mapped[str] = mapped_column(String(16))
    #: The player's seat; ``None`` for a spectator's line.
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    text: Mapped[str] = mapped_column(String(1000))
    said: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


@dataclass
class StoredHand:
    deck: str
    dealer: int
    actions: list[str] = field(default_factory=list)
    #: The seat that lost the hand by forfeit after ``actions``, if one did.
    forfeit: int | None = None


@dataclass
class StoredGame:
    """A game as read back: its settings and its record."""

    id: str
    rules: Any
    kind: str
    level: str | None
    first_dealer: int
    tokens: tuple[str | None, str | None]
    names: tuple[str, str]
    status: str
    rematch: str | None
    hands: list[StoredHand]
    takeback: bool = False
    taken_back: int = 0
    clock: str | None = None
    clock_state: dict[str, Any] | None = None
    ended: str | None = None
    winner: int | None = None
    users: tuple[int | None, int | None] = (None, None)
    rated: bool = False
    invited: int | None = None
    #: The client addresses that took the seats (seat 0's made the game), if known.
    addresses: tuple[str | None, str | None] = (None, None)
    #: Why a match made rated was not rated (``GameRow.unrated``).
    unrated: str | None = None
    #: The latest lines of chat (at most :data:`CHAT_KEPT` a room), oldest first: each with
    #: its ``room``, ``seat``, ``name`` and ``text``.
    chat: list[dict[str, Any]] = field(default_factory=list)


def _as_list(value: str | tuple[str, ...] | None) -> list[str]:
    """A URL query value as a list (a key given twice is a tuple; absent, ``None``)."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


class Storage:
    """The database behind the game server."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = url
        kwargs: dict[str, Any] = {"echo": echo, "future": True}
        if url.startswith("postgresql"):
            # Commits return without waiting for the write-ahead log to reach the disk. The
            # game server calls the database from its event loop, so a flush per action would
            # hold up every game; a killed game server still loses nothing (the database has
            # it), and a crash of the database server itself may lose the last moments but
            # never leaves a game inconsistent: it resumes a few actions earlier. SQLite's
            # synchronous=NORMAL below makes the same trade.
            # Options the URL itself gives (``?options=-csearch_path%3Dgames``) are kept.
            given = make_url(url).query.get("options")
            kwargs["connect_args"] = {"options": " ".join([*_as_list(given), "-c synchronous_commit=off"])}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        create_tables(Base.metadata, self.engine)
        _again_if_raced(self._add_missing_columns)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def _add_missing_columns(self) -> None:
        """Bring a database made by an earlier version up to date: columns added since
        (all nullable) are added to its tables."""
        present = {c["name"] for c in inspect(self.engine).get_columns("games")}
        if "creator" not in present:
            with self.engine.begin() as conn:
                conn.execute(text("ALTER TABLE games ADD COLUMN creator VARCHAR(64)"))
                conn.execute(text("CREATE INDEX IF NOT EXISTS ix_games_creator ON games (creator)"))
        for name, kind in (("takeback", "BOOLEAN"), ("taken_back", "INTEGER"), ("clock", "VARCHAR(16)"),
                           ("clock_state", "TEXT"), ("ended", "VARCHAR(16)"), ("user0", "INTEGER"),
                           ("user1", "INTEGER"), ("rated", "BOOLEAN"), ("invited", "INTEGER"),
                           ("joiner", "VARCHAR(64)"), ("unrated", "VARCHAR(16)")):
            if name not in present:
                with self.engine.begin() as conn:
                    conn.execute(text(f"ALTER TABLE games ADD COLUMN {name} {kind}"))
                    if name == "joiner":
                        conn.execute(text("CREATE INDEX IF NOT EXISTS ix_games_joiner ON games (joiner)"))

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions.begin() as session:
            yield session

    # Writing --------------------------------------------------------------------
    def create_game(self, game_id: str, *, rules: Any, kind: str, level: str | None, first_dealer: int,
                    tokens: tuple[str | None, str | None], names: tuple[str, str], status: str,
                    rematch_of: str | None = None, creator: str | None = None,
                    takeback: bool = False, clock: str | None = None,
                    clock_state: dict[str, Any] | None = None,
                    users: tuple[int | None, int | None] = (None, None), rated: bool = False,
                    invited: int | None = None, joiner: str | None = None) -> None:
        with self._session() as s:
            s.add(GameRow(id=game_id, rules=json.dumps(rules), kind=kind, level=level,
                          first_dealer=first_dealer, token0=tokens[0], token1=tokens[1],
                          name0=names[0], name1=names[1], status=status, rematch_of=rematch_of,
                          creator=creator, takeback=takeback, taken_back=0, clock=clock,
                          clock_state=_json_or_none(clock_state), user0=users[0], user1=users[1],
                          rated=rated, invited=invited, joiner=joiner))
            if rematch_of is not None:
                s.execute(update(GameRow).where(GameRow.id == rematch_of).values(rematch=game_id))

    def take_seat(self, game_id: str, seat: int, token: str, name: str, status: str,
                  clock_state: dict[str, Any] | None = None, user: int | None = None,
                  address: str | None = None) -> None:
        """Seat ``seat`` (1) taken: its token's hash, name, account and client ``address``."""
        values: dict[str, Any] = {f"token{seat}": token, f"name{seat}": name, "status": status,
                                  "updated": _now(), f"user{seat}": user}
        if seat == 1:
            values["joiner"] = address
        if clock_state is not None:
            values["clock_state"] = _json_or_none(clock_state)
        with self.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    def add_hand(self, game_id: str, number: int, deck: str, dealer: int,
                 score: tuple[int, int] | None = None) -> None:
        """Store a new deal; with ``score``, the match's score after the hands before it,
        in the same transaction."""
        values: dict[str, Any] = {"updated": _now()}
        if score is not None:
            values.update(score0=score[0], score1=score[1])
        # Core statements, as for actions: the end of every hand comes here.
        with self.engine.begin() as conn:
            conn.execute(insert(HandRow), {"game_id": game_id, "number": number, "deck": deck,
                                           "dealer": dealer})
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    def add_action(self, game_id: str, hand: int, index: int, action: str,
                   clock_state: dict[str, Any] | None = None) -> None:
        """Store an action; with ``clock_state``, the game's clock after it, in the same
        transaction (a restarted server finds the clock as the action left it)."""
        # The hot path (every action): Core statements, no ORM unit of work. The game's
        # ``updated`` time moves with its hands (add_hand, finish_game).
        with self.engine.begin() as conn:
            conn.execute(insert(ActionRow), {"game_id": game_id, "hand": hand, "index": index,
                                             "action": action})
            if clock_state is not None:
                conn.execute(update(GameRow).where(GameRow.id == game_id)
                             .values(clock_state=_json_or_none(clock_state)))

    def add_forfeit(self, game_id: str, hand: int, seat: int,
                    clock_state: dict[str, Any] | None = None) -> None:
        """``seat`` lost hand ``hand`` by forfeit (after the actions stored for it): its
        program failed, or its move clock ran out."""
        values: dict[str, Any] = {"updated": _now()}
        if clock_state is not None:
            values["clock_state"] = _json_or_none(clock_state)
        with self.engine.begin() as conn:
            conn.execute(insert(ForfeitRow), {"game_id": game_id, "hand": hand, "seat": seat})
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    def add_chat(self, game_id: str, room: str, seat: int | None, name: str | None, text: str) -> None:
        """Store a line of chat of ``room`` (one of :data:`CHAT_ROOMS`)."""
        with self.engine.begin() as conn:
            conn.execute(insert(ChatRow), {"game_id": game_id, "room": room, "seat": seat, "name": name,
                                           "text": text, "said": _now()})

    def set_clock(self, game_id: str, clock_state: dict[str, Any]) -> None:
        """The game's clock as it stands now (it started for a new hand, or was resumed)."""
        with self.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id)
                         .values(clock_state=_json_or_none(clock_state)))

    def remove_action(self, game_id: str, hand: int, index: int) -> None:
        """Undo :meth:`add_action` (used only when applying the action failed afterwards)."""
        with self._session() as s:
            s.execute(delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.hand == hand,
                                              ActionRow.index == index))

    def take_back(self, game_id: str, hand: int, keep: int) -> None:
        """Forget the actions of hand ``hand`` from index ``keep`` on (a takeback), and
        count it, in one transaction."""
        with self._session() as s:
            s.execute(delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.hand == hand,
                                              ActionRow.index >= keep))
            s.execute(update(GameRow).where(GameRow.id == game_id).values(
                taken_back=func.coalesce(GameRow.taken_back, 0) + 1, updated=_now()))

    def finish_game(self, game_id: str, winner: int | None, score: tuple[int, int],
                    names: tuple[str, str], *, ended: str | None = None,
                    clock_state: dict[str, Any] | None = None, unrated: str | None = None) -> None:
        """The match is over: won by ``winner`` at ``score``, by reaching the target or as
        ``ended`` says (resigned, time, left); ``ended="aborted"`` calls it off (status
        ``aborted``, no winner, no results). With ``unrated`` (why), a match made rated
        is not rated after all."""
        status = GameStatus.ABORTED if ended == Ending.ABORTED else GameStatus.FINISHED
        values: dict[str, Any] = {"status": status, "winner": winner, "score0": score[0],
                                  "score1": score[1], "updated": _now(), "ended": ended}
        if unrated is not None:
            values.update(rated=False, unrated=unrated)
        if clock_state is not None:
            values["clock_state"] = _json_or_none(clock_state)
        with self.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(**values))
            if status is GameStatus.ABORTED:
                return
            conn.execute(insert(ResultRow), [{"game_id": game_id, "seat": seat, "name": names[seat],
                                              "game_points": score[seat], "won": winner == seat}
                                             for seat in (0, 1)])

    # Reading --------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        with self._session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            return self._stored(s, row)

    def exists(self, game_id: str) -> bool:
        """Whether a game of that id was ever made."""
        with self.engine.connect() as conn:
            return conn.execute(select(GameRow.id).where(GameRow.id == game_id)).first() is not None

    def expire(self, age: float, prefix: str = "") -> list[str]:
        """Mark the live games (whose id starts with ``prefix``) untouched for ``age``
        seconds as abandoned: they are kept, but no longer resumed. Returns their ids."""
        before = _now() - dt.timedelta(seconds=age)
        with self._session() as s:
            query = select(GameRow.id).where(GameRow.status.in_(LIVE), GameRow.updated < before)
            if prefix:
                query = query.where(GameRow.id.startswith(prefix, autoescape=True))
            ids = list(s.scalars(query).all())
            if ids:
                s.execute(update(GameRow).where(GameRow.id.in_(ids), GameRow.status.in_(LIVE))
                          .values(status=GameStatus.ABANDONED))
            return ids

    def touch(self, game_id: str, when: dt.datetime) -> None:
        """Record that game ``game_id`` was last played at ``when`` (if that is later than
        what is stored): actions are written without a time, so the game's last action is
        written when the game leaves memory, and before every check for abandoned games."""
        with self._session() as s:
            s.execute(update(GameRow).where(GameRow.id == game_id, GameRow.updated < when)
                      .values(updated=when))

    def unfinished_by(self, address: str) -> int:
        """How many live (waiting or playing) games the client ``address`` has made or
        taken a seat in."""
        with self._session() as s:
            return int(s.scalar(select(func.count()).select_from(GameRow).where(
                (GameRow.creator == address) | (GameRow.joiner == address), GameRow.status.in_(LIVE))) or 0)

    def unfinished_of(self, user_id: int) -> int:
        """How many live (waiting or playing) games the account ``user_id`` holds a seat in."""
        with self._session() as s:
            return int(s.scalar(select(func.count()).select_from(GameRow).where(
                (GameRow.user0 == user_id) | (GameRow.user1 == user_id), GameRow.status.in_(LIVE))) or 0)

    def forget_user(self, user_id: int, shown: str) -> list[str]:
        """Anonymise what a deleted account played (lichess's way: the games stay, for the
        other players' histories): each seat it held shows ``shown`` and no account, its
        results too, and its lines in the players' chat are deleted. The ids of its games."""
        with self._session() as s:
            games: list[str] = []
            for seat, user, name in ((0, GameRow.user0, GameRow.name0), (1, GameRow.user1, GameRow.name1)):
                ids = list(s.scalars(select(GameRow.id).where(user == user_id)).all())
                if not ids:
                    continue
                games += ids
                s.execute(update(GameRow).where(GameRow.id.in_(ids)).values({user: None, name: shown}))
                s.execute(update(ResultRow).where(ResultRow.game_id.in_(ids), ResultRow.seat == seat)
                          .values(name=shown))
                s.execute(delete(ChatRow).where(ChatRow.game_id.in_(ids), ChatRow.seat == seat))
            return games

    def unfinished(self, prefix: str = "") -> list[StoredGame]:
        """Every live game (whose id starts with ``prefix``), to be resumed at start-up."""
        with self._session() as s:
            query = select(GameRow).where(GameRow.status.in_(LIVE))
            if prefix:
                query = query.where(GameRow.id.startswith(prefix, autoescape=True))
            return self._stored_many(s, s.scalars(query).all())

    def listing(self, *, status: Sequence[str], limit: int = 50, kind: str | None = None) -> list[GameRow]:
        """Recent games with one of the given statuses (and of ``kind``, if given), newest first."""
        with self._session() as s:
            # A challenge waiting for its answer is for the one player invited: not listed
            # open; once taken it is a game like any other, listed being played and finished.
            query = select(GameRow).where(GameRow.status.in_(list(status)),
                                          GameRow.invited.is_(None) | (GameRow.status != GameStatus.WAITING))
            if kind is not None:
                query = query.where(GameRow.kind == kind)
            rows = s.scalars(query.order_by(GameRow.updated.desc()).limit(limit)).all()
            return list(rows)

    def rated_finished(self, prefix: str = "", limit: int = 200) -> list[GameRow]:
        """The latest finished rated games (whose id starts with ``prefix``), newest first."""
        with self._session() as s:
            query = select(GameRow).where(GameRow.status == GameStatus.FINISHED, GameRow.rated.is_(True))
            if prefix:
                query = query.where(GameRow.id.startswith(prefix, autoescape=True))
            return list(s.scalars(query.order_by(GameRow.updated.desc()).limit(limit)).all())

    def games_of(self, user_id: int, limit: int = 50) -> list[GameRow]:
        """The finished games a player with an account played, newest first."""
        with self._session() as s:
            query = select(GameRow).where((GameRow.user0 == user_id) | (GameRow.user1 == user_id),
                                          GameRow.status == GameStatus.FINISHED)
            return list(s.scalars(query.order_by(GameRow.updated.desc()).limit(limit)).all())

    def challenges(self, user_id: int) -> tuple[list[GameRow], list[GameRow]]:
        """The challenges waiting for an answer: those to ``user_id``, and his own."""
        with self._session() as s:
            waiting = select(GameRow).where(GameRow.status == GameStatus.WAITING,
                                            GameRow.invited.is_not(None))
            incoming = s.scalars(waiting.where(GameRow.invited == user_id).order_by(GameRow.created)).all()
            outgoing = s.scalars(waiting.where(GameRow.user0 == user_id).order_by(GameRow.created)).all()
            return list(incoming), list(outgoing)

    def results(self, game_id: str) -> list[ResultRow]:
        with self._session() as s:
            return list(s.scalars(select(ResultRow).where(ResultRow.game_id == game_id)
                                  .order_by(ResultRow.seat)).all())

    @staticmethod
    def _stored(s: Session, row: GameRow) -> StoredGame:
        return Storage._stored_many(s, [row])[0]

    @staticmethod
    def _stored_many(s: Session, rows: Sequence[GameRow]) -> list[StoredGame]:
        """The games of ``rows`` with their records and latest chat: a few statements for all
        of them (a shard taken over reads hundreds of games while its players wait), in
        chunks that keep each statement's list of ids short."""
        hands: dict[str, dict[int, StoredHand]] = {row.id: {} for row in rows}
        chat: dict[str, list[dict[str, Any]]] = {row.id: [] for row in rows}
        ids = list(hands)
        for at in range(0, len(ids), _CHUNK):
            chunk = ids[at:at + _CHUNK]
            for h in s.execute(select(HandRow.game_id, HandRow.number, HandRow.deck, HandRow.dealer)
                               .where(HandRow.game_id.in_(chunk))):
                hands[h.game_id][h.number] = StoredHand(h.deck, h.dealer)
            for a in s.execute(select(ActionRow.game_id, ActionRow.hand, ActionRow.action)
                               .where(ActionRow.game_id.in_(chunk))
                               .order_by(ActionRow.game_id, ActionRow.hand, ActionRow.index)):
                hands[a.game_id][a.hand].actions.append(a.action)
            for f in s.execute(select(ForfeitRow.game_id, ForfeitRow.hand, ForfeitRow.seat)
                               .where(ForfeitRow.game_id.in_(chunk))):
                hands[f.game_id][f.hand].forfeit = f.seat
            # Each room's latest lines: numbered from the newest within (game, room).
            latest = select(ChatRow.game_id, ChatRow.room, ChatRow.seat, ChatRow.name, ChatRow.text,
                            ChatRow.id, func.row_number().over(
                                partition_by=(ChatRow.game_id, ChatRow.room),
                                order_by=ChatRow.id.desc()).label("age")) \
                .where(ChatRow.game_id.in_(chunk)).subquery()
            for c in s.execute(select(latest).where(latest.c.age <= CHAT_KEPT)
                               .order_by(latest.c.game_id, latest.c.room, latest.c.id)):
                chat[c.game_id].append({"room": c.room, "seat": c.seat, "name": c.name, "text": c.text})
        return [StoredGame(
            id=row.id, rules=json.loads(row.rules), kind=row.kind, level=row.level,
            first_dealer=row.first_dealer, tokens=(row.token0, row.token1),
            names=(row.name0, row.name1), status=row.status, rematch=row.rematch,
            hands=[hands[row.id][n] for n in sorted(hands[row.id])],
            takeback=bool(row.takeback), taken_back=row.taken_back or 0,
            clock=row.clock, clock_state=None if row.clock_state is None else json.loads(row.clock_state),
            ended=row.ended, winner=row.winner, users=(row.user0, row.user1), rated=bool(row.rated),
            invited=row.invited, addresses=(row.creator, row.joiner), unrated=row.unrated,
            chat=sorted(chat[row.id], key=lambda line: CHAT_ROOMS.index(line["room"])),
        ) for row in rows]


#: Games read back in one statement at most (a list of ids well within every database's limit).
_CHUNK = 500


def _json_or_none(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)


def create_tables(metadata: MetaData, engine: Engine) -> None:
    """Create the tables of ``metadata`` that are missing. Several server processes
    starting at once on a new database race to create them: the losers' statements fail
    (a name already taken) and they look again."""
    _again_if_raced(lambda: metadata.create_all(engine))


def add_columns(engine: Engine, table: str, columns: Mapping[str, str], indexed: Sequence[str] = ()) -> None:
    """Bring a table made by an earlier version up to date: add the columns of ``columns``
    (name -> SQL type; nullable) that ``table`` lacks, with an index on each of ``indexed``
    added. Several processes starting at once race as in :func:`create_tables`."""
    def add() -> None:
        present = {c["name"] for c in inspect(engine).get_columns(table)}
        for name, kind in columns.items():
            if name in present:
                continue
            with engine.begin() as conn:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))
                if name in indexed:
                    conn.execute(text(f"CREATE INDEX IF NOT EXISTS ix_{table}_{name} ON {table} ({name})"))
    _again_if_raced(add)


def _again_if_raced(make: Callable[[], None], attempts: int = 5) -> None:
    for attempt in range(attempts):
        try:
            make()
            return
        except (IntegrityError, OperationalError, ProgrammingError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))  # the other process is finishing its own


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with normal syncing: a killed server process loses nothing committed
    # (a power cut may lose the last moments); foreign keys on, so that deleting
    # a game deletes its hands and actions.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
