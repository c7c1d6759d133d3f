"""Live games: the engine's :class:`Match` in memory, every change written to storage.

The server is authoritative. A client names an action; the game checks that
the client's seat is to act and lets :meth:`Hand.push` decide legality (the
rules live in the engine only). Every deal and action is stored as it is
applied, so that a game can be rebuilt by replaying its record after a
restart. Each connection is sent only what its seat may see: its own view, or
the public view for a spectator (docs/design.md §6).

All changes to a game happen on the event loop between two awaits, so they
are atomic with respect to each other; a computer player thinks in a worker
thread on its own view and its choice is applied on the loop. Messages to a
connection go through its queue, in the order the changes happened.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import hashlib
import hmac
import json
import logging
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from typing import Any

from sixtysix.actions import Action
from sixtysix.analysis import Budget, analyse
from sixtysix.bots import make_bot
from sixtysix.bots.net_bot import shipped_network
from sixtysix.cards import Card
from sixtysix.clock import Clock, ClockError, Kind, TimeControl
from sixtysix.errors import BotError, Forfeit, IllegalActionError, ParseError
from sixtysix.hand import Hand, HandResult
from sixtysix.match import Match
from sixtysix.player import Event, Hooks
from sixtysix.record import MatchHand, MatchRecord, MatchReplay, record_from_match, replay
from sixtysix.rules import Rules
from sixtysix.server.fairplay import Admission, LimitError, RatedPlay, Starter
from sixtysix.server.limits import BucketsByKey
from sixtysix.server.opponents import COMPUTER_LEVELS, DEFAULT_LEVEL, SEARCH_LEVELS, Opponents
from sixtysix.server.players import ComputerPlayer
from sixtysix.server.protocol import Abort, Chat, Hello, Hint, Message, Ping, Rematch, Resign, TakeBack, error
from sixtysix.server.ratings import Computer, Person, Ratings, Side, pool_of
from sixtysix.server.status import Ending, GameKind, GameStatus
from sixtysix.server.storage import CHAT_KEPT, CHAT_ROOMS, Storage, StoredGame
from sixtysix.server.storage import now as storage_now
from sixtysix.table import Table
from sixtysix.views import View
from sixtysix.wire import finished_hand_json, public_view_json, seat_view_json

__all__ = ["COMPUTER_LEVELS", "SEARCH_LEVELS", "Connection", "Game", "GameError", "GameManager",
           "Shared", "encode", "hash_token"]

log = logging.getLogger("sixtysix.server")

#: What a hint may cost: about a second of one core (the terminal game's hint budget).
HINT_BUDGET = Budget(worlds=200, time=1.0)
#: Seconds between a hand's deal (or the start of the match) and the moment the first
#: player's clock starts: time to read the last hand's result.
HAND_BREAK = 5.0
#: Seconds a player of a game against a person may be away (no connection) while the
#: opponent is at the table, before losing the match (``left``); a setting of the server.
GRACE = 60.0
#: Why a match made rated was not rated: it ended before both players had acted (before
#: its first trick was complete), as on lichess.
SHORT = "short"
#: Lines of chat one seat of a game (however many connections hold it), or the spectators
#: of a game from one address, may send: a burst, then one every ``1 / CHAT_RATE`` seconds.
CHAT_BURST = 5.0
CHAT_RATE = 0.5
#: Spectators one game takes at once (``sixtysix serve --spectators-per-game``).
SPECTATORS = 200
#: Seconds over which spectators coming and going are gathered into one presence message.
PRESENCE_INTERVAL = 1.0


class GameError(ValueError):
    """A request the game refuses; ``code`` names the kind, ``status`` the HTTP status."""

    def __init__(self, reason: str, code: str, status: int = 400) -> None:
        super().__init__(reason)
        self.code = code
        self.status = status


def stopping() -> GameError:
    """The answer to a player waiting on a server that stops (for quick pairing, for a
    tournament's next match): 503, so that a load balancer asks another process."""
    return GameError("this server is stopping: ask again", "stopping", 503)


def game_kind(kind: object) -> GameKind:
    """The kind of game a request names; another word is refused (``bad_kind``).

    >>> game_kind("person")
    <GameKind.PERSON: 'person'>
    """
    if isinstance(kind, str) and kind in set(GameKind):
        return GameKind(kind)
    raise GameError(f"kind must be one of {', '.join(GameKind)}", "bad_kind")


def hash_token(token: str) -> str:
    """What is stored of a seat's token: its SHA-256 (a leaked database holds no usable token)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Shared(dict[str, Any]):
    """A message that goes alike to many connections (the spectators' state, a presence
    message): written as JSON once (:func:`encode`), however many it goes to. Nobody
    changes it once it is queued.

    >>> message = Shared(type="presence", spectators=3)
    >>> encode(message), encode(message) is encode(message)
    ('{"type":"presence","spectators":3}', True)
    """

    _text: str | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = _dumps(self)
        return self._text


def encode(message: dict[str, Any]) -> str:
    """A message as a WebSocket carries it: compact JSON text, UTF-8 unescaped."""
    return message.text() if isinstance(message, Shared) else _dumps(message)


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One client's connection to a game: a seat (0 or 1) or a spectator (``None``).

    Messages are queued and sent in order by :meth:`run_writer`; a client that
    falls too far behind is dropped (``hang_up`` is called) rather than holding
    up the game. Who is watching (:meth:`tell_presence`) is not queued: only the
    latest count is kept, in a slot of its own, and sent once the queue is empty, so
    that spectators coming and going never fill a connection's queue (a player's
    connection is closed only for its own lag, never for the gallery's traffic).
    """

    QUEUE = 256

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]], seat: int | None,
                 hang_up: Callable[[], Awaitable[None]] | None = None,
                 end: Callable[[int], Awaitable[None]] | None = None, *,
                 address: str | None = None) -> None:
        self._send = send
        self._hang_up = hang_up
        #: Closes the client's connection with a WebSocket close code, when the server
        #: queues ``{"type": "_close", "code": ...}``; without it, that message is sent on
        #: (a relayed client's process closes it: sixtysix.server.relay).
        self._end = end
        self.seat = seat
        #: The client's address (a spectator's lines of chat count against it), if known.
        self.address = address
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(self.QUEUE)
        self.closed = False
        self.overflowed = False
        #: The latest presence message not sent yet (see :meth:`tell_presence`).
        self._presence: dict[str, Any] | None = None

    def push(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            self.closed = True
            self._drain()
            self.queue.put_nowait(None)

    def tell_presence(self, message: dict[str, Any]) -> None:
        """Who is watching now: replaces a presence message not sent yet, and goes after
        everything queued (it never takes a place in the queue but to wake the writer)."""
        if self.closed:
            return
        self._presence = message
        if self.queue.empty():
            self.queue.put_nowait(_WAKE)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def _drain(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()

    async def _next(self) -> dict[str, Any] | None:
        """The next message to send: the queue's, else the presence message waiting."""
        while True:
            presence = self._presence
            if presence is not None and self.queue.empty() and not self.closed:
                self._presence = None
                return presence
            message = await self.queue.get()
            if message is not _WAKE:
                return message

    async def run_writer(self) -> None:
        while True:
            message = await self._next()
            if message is None:
                if self.overflowed and self._hang_up is not None:
                    with contextlib.suppress(Exception):
                        await self._hang_up()
                return
            if message.get("type") == "_close":
                # Nothing follows a close: the writer ends (also for a relayed client, whose
                # process is sent the close and closes it).
                self.closed = True
                with contextlib.suppress(Exception):
                    if self._end is not None:
                        await self._end(int(message.get("code", 1000)))
                    else:
                        await self._send(message)
                return
            try:
                await self._send(message)
            except Exception:  # the client went away: stop writing to it
                self.closed = True
                return


#: Put in a connection's empty queue to wake its writer for a presence message.
_WAKE: dict[str, Any] = {"type": "_wake"}


class Game:
    """One match being played (or finished) on the server."""

    def __init__(self, game_id: str, *, rules: Rules, kind: GameKind, level: str | None, match: Match,
                 tokens: tuple[str | None, str | None], names: tuple[str, str], status: GameStatus,
                 rematch: str | None = None, takeback: bool = False, taken_back: int = 0,
                 clock: Clock | None = None, ended: Ending | None = None, winner: int | None = None,
                 now: Callable[[], float] = time.time, users: tuple[int | None, int | None] = (None, None),
                 rated: bool = False, invited: int | None = None,
                 addresses: tuple[str | None, str | None] = (None, None), unrated: str | None = None) -> None:
        self.id = game_id
        #: The client address that took each seat, if known (the game's creator's first):
        #: a rematch is counted against them (sixtysix.server.fairplay).
        self.addresses = list(addresses)
        #: Why the match, made rated, was not rated (:data:`SHORT`); ``rated`` is then false.
        self.unrated = unrated
        #: Whether the match ended (resigned, out of time, left) before its first trick was
        #: complete, rated or not: a tournament scores it as called off.
        self.ended_early = unrated == SHORT
        #: A challenge: the only account that may take the free seat.
        self.invited = invited
        #: The account holding each seat (an id of sixtysix.server.accounts), if any.
        self.users = list(users)
        #: Whether the match counts for the ratings; each player's rating before it (shown
        #: beside the names) and, once rated, before and after.
        self.rated = rated
        self.ratings_before: dict[int, float] = {}
        self.rating_changes: dict[int, tuple[float, float]] = {}
        #: The players' clock (``None``: the game has no time control), in seconds since the
        #: epoch; only the seat to act's runs (sixtysix.clock).
        self.clock = clock
        #: How the match ended other than by the target (:class:`Ending`), and its winner then.
        self.ended = ended
        self._ended_winner = winner
        #: Seats of a game against a person that nobody holds a connection for, with the
        #: moment they lose the match if still away (the opponent being at the table).
        self.away: dict[int, float] = {}
        #: The pending check of the clock or of an away player (see ``GameManager._schedule``).
        self.timer: asyncio.TimerHandle | None = None
        self.now = now
        #: When the last action was taken since the game was loaded (written to storage when
        #: the game leaves memory, and before each check for abandoned games).
        self.last_action_at: dt.datetime | None = None
        #: The analysis being worked out for a hint (one at a time per game).
        self.hint_task: asyncio.Task[None] | None = None
        #: Whether the player may take actions back (against the computer), and how often he did.
        self.takeback = takeback
        self.taken_back = taken_back
        self.rules = rules
        self.kind = kind
        self.level = level
        self.match = match
        self.tokens = list(tokens)
        self.names = list(names)
        self.status = status
        self.rematch = rematch
        #: The computer's seat in a game against the computer.
        self.bot_seat: int | None = 1 if kind is GameKind.COMPUTER else None
        #: The computer player, made when it is first to act (see ``GameManager._player``).
        self.player: ComputerPlayer | None = None
        #: The game loop: both seats' actions come from outside (a client, or the computer
        #: asked in its worker thread); the computer player's hooks are seated when it is made.
        self.table = Table([None, None])
        if match.hand is not None:
            self.table.resume(match.hand)
        self.bot_task: asyncio.Task[None] | None = None
        self.connections: set[Connection] = set()
        #: The latest lines of the players' chat and of the spectators' (each line stored too).
        self.chat: dict[str, collections.deque[dict[str, Any]]] = {
            room: collections.deque(maxlen=CHAT_KEPT) for room in CHAT_ROOMS}
        self._rules_json = rules.to_json()
        self._rules_text = str(rules)
        self._results: list[HandResult] = []
        self._results_key: tuple[int, bool] | None = None
        #: The spectators' view of the position now, worked out once for all of them (see
        #: :meth:`public_view`), and how the latest finished hand ended (see :meth:`last_hand`).
        self._public: tuple[tuple[int, int, bool], dict[str, Any] | None] | None = None
        self._last_hand: tuple[tuple[int, bool], dict[str, Any] | None] | None = None
        #: The coming presence message (spectators came or went: see
        #: ``GameManager.presence_changed``), and the count the last one told.
        self.presence_timer: asyncio.TimerHandle | None = None
        self.presence_told = 0

    # Queries ---------------------------------------------------------------------
    @property
    def hand(self) -> Hand | None:
        return self.match.hand

    def results(self) -> list[HandResult]:
        """The finished hands' results with their tie bonuses (R9.2), recomputed only when a hand ends."""
        hand = self.hand
        key = (len(self.match.hands), hand is not None and hand.is_over())
        if key != self._results_key:
            self._results = self.match.results()
            self._results_key = key
        return self._results

    @property
    def score(self) -> tuple[int, int]:
        score = [0, 0]
        for r in self.results():
            if r.winner is not None:
                score[r.winner] += r.game_points + r.bonus
        return score[0], score[1]

    @property
    def over(self) -> bool:
        """Whether the match is over: a player reached the target (R9.3), or it ended
        otherwise (resigned, out of time, left, aborted)."""
        return self.ended is not None or max(self.score) >= self.rules.target

    @property
    def winner(self) -> int | None:
        """The match's winner once it is over (``None`` while it goes on, or aborted)."""
        if self.ended is not None:
            return self._ended_winner
        return self.match.winner if max(self.score) >= self.rules.target else None

    @property
    def abortable(self) -> bool:
        """Whether the match may still be called off: being played (or waiting for the
        second player) and its first trick not complete."""
        if self.status is GameStatus.WAITING:
            return True
        hand = self.hand
        return (self.status is GameStatus.PLAYING and len(self.match.hands) == 1 and hand is not None
                and not hand.is_over() and hand.tricks_won(0) + hand.tricks_won(1) == 0)

    def clock_json(self, at: float | None = None) -> dict[str, Any] | None:
        """The clock as a client shows it: the control, each seat's seconds left at ``at``,
        the seat whose clock runs and in how many seconds it starts (after a deal)."""
        clock = self.clock
        if clock is None:
            return None
        at = self.now() if at is None else at
        return {"control": str(clock.control), "kind": clock.control.kind.value,
                "left": [round(max(clock.remaining(seat, at), 0.0), 2) for seat in (0, 1)],
                "running": clock.running,
                "starts_in": round(max(clock.since - at, 0.0), 2) if clock.running is not None else 0.0}

    @property
    def to_act(self) -> int | None:
        hand = self.hand
        if hand is None or hand.is_over():
            return None
        return hand.to_act

    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` holds, or ``None``; compared in constant time."""
        if not token:
            return None
        digest = hash_token(token)
        found = None
        for seat, stored in enumerate(self.tokens):
            if stored is not None and hmac.compare_digest(stored, digest):
                found = seat
        return found

    def info(self) -> dict[str, Any]:
        """The public facts of the game, for the lobby and every client."""
        hand = self.hand
        results = self.results()
        score = self.score
        ties = 0
        for r in results:
            ties = ties + 1 if r.winner is None else 0
        at = self.now()
        return {
            "id": self.id,
            "kind": self.kind,
            "level": self.level,
            "rules": self._rules_json,
            "rules_text": self._rules_text,
            "target": self.rules.target,
            "players": list(self.names),
            "seats_taken": [t is not None or s == self.bot_seat for s, t in enumerate(self.tokens)],
            "status": self.status,
            "score": list(score),
            "pending_bonus": ties * self.rules.tie_bonus,
            "hand_number": len(self.match.hands),
            "actions": 0 if hand is None else len(hand.actions),
            "results": [r.to_json() for r in results],
            "winner": self.winner,
            "ended": self.ended,
            "abortable": self.abortable,
            "clock": self.clock_json(at),
            "away": {str(seat): round(max(when - at, 0.0), 1) for seat, when in sorted(self.away.items())},
            "rematch": self.rematch,
            "spectators": self.spectators,
            "takeback": self.takeback,
            "taken_back": self.taken_back,
            "rated": self.rated,
            "unrated": self.unrated,
            # Which seats an account holds (its name is then the account's): a guest's name
            # is only what he typed.
            "accounts": [user is not None for user in self.users],
            "challenge": self.invited is not None,
            "ratings": {str(seat): round(r) for seat, r in sorted(self.ratings_before.items())},
            "rating_changes": {str(seat): [round(a), round(b)]
                               for seat, (a, b) in sorted(self.rating_changes.items())},
        }

    @property
    def spectators(self) -> int:
        """How many connections watch the game (and are not closed)."""
        return sum(1 for c in self.connections if c.seat is None and not c.closed)

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        hand = self.hand
        if hand is None:
            return None
        return self.public_view() if seat is None else seat_view_json(hand, seat)

    def _position(self) -> tuple[int, int, bool]:
        hand = self.hand
        return (len(self.match.hands), -1 if hand is None else len(hand.actions),
                hand is not None and hand.is_over())

    def public_view(self) -> dict[str, Any] | None:
        """The spectators' view, worked out once for each change and shared by all of them
        (read-only): hundreds of spectators cost one view, not hundreds. :meth:`broadcast`
        forgets it (every change is broadcast); the position is checked as well."""
        key = self._position()
        if self._public is None or self._public[0] != key:
            hand = self.hand
            self._public = (key, None if hand is None else public_view_json(hand))
        return self._public[1]

    def last_hand(self) -> dict[str, Any] | None:
        """How the latest finished hand ended (public once it is over), or ``None``; worked
        out once for each hand that ends (a finished hand never changes)."""
        hand = self.hand
        key = (len(self.match.hands), hand is not None and hand.is_over())
        if self._last_hand is None or self._last_hand[0] != key:
            self._last_hand = (key, self._find_last_hand())
        return self._last_hand[1]

    def _find_last_hand(self) -> dict[str, Any] | None:
        for number in range(len(self.match.hands), 0, -1):
            hand = self.match.hands[number - 1]
            if hand.is_over():
                results = self.results()
                bonus = results[number - 1].bonus if number <= len(results) else 0
                return finished_hand_json(hand, number, bonus)
        return None

    def state_for(self, seat: int | None, info: dict[str, Any] | None = None,
                  last_hand: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state message for a seat (or a spectator): public facts, that seat's view, and
        how the latest finished hand ended."""
        return {"type": "state", "you": seat, "game": info or self.info(), "view": self.view_for(seat),
                "last_hand": last_hand if last_hand is not None else self.last_hand()}

    def broadcast(self) -> None:
        """Queue the new state for every connection, each with its own view: the players'
        first, then one message shared by every spectator (its view worked out once)."""
        self._public = None  # the game changed: worked out again when asked for
        info = self.info()
        last_hand = self.last_hand()
        watching: Shared | None = None
        for conn in sorted(self.connections, key=lambda c: c.seat is None):
            if conn.closed:
                self.connections.discard(conn)
            elif conn.seat is not None:
                conn.push(self.state_for(conn.seat, info, last_hand))
            else:
                if watching is None:
                    watching = Shared(self.state_for(None, info, last_hand))
                conn.push(watching)
        self.presence_told = info["spectators"]

    def record(self) -> MatchRecord:
        """The game's record; a match played with takebacks says so, as the terminal
        game's records do (``"undo"``)."""
        extra: dict[str, Any] = {"players": list(self.names)}
        if self.takeback:
            extra["undo"] = {"allowed": True, "taken_back": self.taken_back}
        if self.clock is not None:
            extra["clock"] = str(self.clock.control)
        if self.ended is not None:
            extra["end"] = {"reason": self.ended, "winner": self._ended_winner}
        if self.rated:
            extra["rated"] = True
        elif self.unrated is not None:
            extra["rated"] = False
            extra["unrated"] = self.unrated
        return record_from_match(self.match, **extra)


class GameManager:
    """Holds the live games in memory, backed by :class:`Storage`."""

    def __init__(self, storage: Storage, *, rng: random.Random | None = None,
                 shard: int | None = None, opponents: Opponents | None = None,
                 now: Callable[[], float] = time.time, grace: float = GRACE,
                 hand_break: float = HAND_BREAK, ratings: Ratings | None = None,
                 admission: Admission | None = None, rated_play: RatedPlay | None = None,
                 spectators: int | None = SPECTATORS, presence_interval: float = PRESENCE_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.storage = storage
        #: Spectators a game takes at once (``None``: no limit); seats are always taken.
        self.spectators = spectators
        #: Seconds over which spectators' arrivals and departures make one presence message.
        self.presence_interval = presence_interval
        #: Lines of chat: each seat of a game, and each address among a game's spectators,
        #: has its budget (:data:`CHAT_BURST`, :data:`CHAT_RATE`), however many connections
        #: it holds. ``clock``: seconds that only go forward (a test moves them by hand).
        self.chat_limit = BucketsByKey(CHAT_RATE, CHAT_BURST, size=100_000, clock=clock)
        #: The players' ratings; ``None``: no game is rated.
        self.ratings = ratings
        #: The one limiter of games starting, every way they start (``None``: no limit).
        self.admission = admission
        #: The limits of rated play: a day's rated games per pair and address, the abort
        #: budget (``None``: none).
        self.rated_play = rated_play
        #: Called with each game whose match has ended (by the rules or called off), after
        #: it is stored and rated: tournaments score their matches so.
        self.finished_hooks: list[Callable[[Game], None]] = []
        #: Called when the lobby's lists change: a game between people made, joined, its
        #: score changed, ended or abandoned (the lobby pushes it to its pages: it says
        #: only that something changed, never what).
        self.lobby_hooks: list[Callable[[], None]] = []
        #: The time, in seconds since the epoch (clocks are stored so and survive a restart);
        #: a test passes its own.
        self.now = now
        #: Seconds an absent player of a game against a person has to come back (:data:`GRACE`).
        self.grace = grace
        #: Seconds before the first player's clock of a hand starts (:data:`HAND_BREAK`).
        self.hand_break = hand_break
        #: The computer opponents offered: the levels and the operator's engines.
        self.opponents = opponents if opponents is not None else Opponents()
        #: With several server processes on one database, this process's number: the ids of
        #: the games it creates start with ``s{shard}-``, a load balancer sends every request
        #: naming a game to the process of its prefix, and each process serves only its own.
        self.shard = shard
        self.prefix = "" if shard is None else f"s{shard}-"
        #: The shards this process serves, each until a :func:`time.monotonic` moment: its
        #: own for ever, unless leases decide (sixtysix.server.shards: then also those it
        #: took over from a stopped process, each while its lease is valid).
        self.held: dict[int, float] = {} if shard is None else {shard: math.inf}
        #: Deals come from the operating system's generator: nobody can predict a deck.
        self.rng = rng if rng is not None else random.SystemRandom()
        self.games: dict[str, Game] = {}
        #: Games with clients connecting (see :meth:`arriving`), and how many.
        self._arriving: collections.Counter[str] = collections.Counter()
        #: Games of a shard just taken over and not rebuilt yet: whoever rebuilds one first
        #: (:meth:`resume`, or a client asking for it) restarts its clock (see :meth:`_rebuild`).
        self._restart: set[str] = set()
        #: Computer players being closed (their last calls still running): waited for at shutdown.
        self._closing: set[Future[None]] = set()

    # Creating and joining -----------------------------------------------------------
    def create(self, *, rules: Rules, kind: GameKind | str, level: str | None = None, name: str = "",
               rematch_of: Game | None = None, creator: str | None = None,
               takeback: bool = False,
               clock: TimeControl | None = None, user: tuple[int, str] | None = None,
               rated: bool = False, invited: tuple[int, str] | None = None,
               counted: bool = False) -> tuple[Game, str]:
        """A new game with the creator in seat 0; returns it and the creator's token.

        ``creator`` is the client's address; the game manager's :attr:`admission` counts
        the game against his address and account (for a rematch: both players'), and
        refuses one over the limits (``too_many_games``, ``rate_limited``); ``counted``:
        its creation rate was counted already (quick pairing counts a request when it
        comes). With ``clock``, the players play under that time control. ``user`` is the
        creator's account (id and name), if he is logged in; a ``rated`` match needs one, a
        preset's own rules, no takebacks, and against the computer a level with a rating.
        With ``invited`` (an account's id and name), the game is a challenge: only that
        player may take the free seat."""
        if not self.holds(self.shard):
            raise GameError("this server process is starting: try again in a moment", "starting", 503)
        addresses: tuple[str | None, str | None] = (creator, None)
        if rematch_of is not None:
            addresses = (rematch_of.addresses[0], rematch_of.addresses[1])
            starters = [Starter(addresses[seat], rematch_of.users[seat]) for seat in (0, 1)
                        if seat != rematch_of.bot_seat]
        else:
            starters = [Starter(creator, None if user is None else user[0])]
        self._admit(starters, rate=not counted)
        kind = game_kind(kind)
        if kind is GameKind.COMPUTER:
            level = level or DEFAULT_LEVEL
            if level not in self.opponents:
                raise GameError(f"unknown level {level!r}: expected one of {', '.join(self.opponents.names)}",
                                "bad_level")
        else:
            level = None
            if takeback:
                raise GameError("takebacks are only for games against the computer", "bad_takeback")
        if rematch_of is not None:
            takeback = rematch_of.takeback
            clock = None if rematch_of.clock is None else rematch_of.clock.control
        if takeback and clock is not None:
            raise GameError("a game with a clock takes no takebacks", "bad_takeback")
        users: tuple[int | None, int | None] = (None if user is None else user[0], None)
        if rematch_of is not None:
            # Made rated as the match it follows was (rated or, ended too soon, not rated after all).
            rated = rematch_of.rated or rematch_of.unrated is not None
            users = (rematch_of.users[0], rematch_of.users[1])
        elif rated:
            self.check_rated(rules, kind, level, user, takeback)
        if rated:
            self._check_rated_play(users, addresses)
        if invited is not None and rematch_of is None:
            if kind is not GameKind.PERSON:
                raise GameError("a challenge is a game between people", "bad_kind")
            if user is None:
                raise GameError("a challenge needs an account: log in first", "needs_account", 403)
            if invited[0] == user[0]:
                raise GameError("you cannot challenge yourself", "same_player", 409)
        elif rematch_of is not None:
            invited = None
        token = new_token()
        game_id = self.prefix + secrets.token_urlsafe(9)
        match = Match(rules, rng=self.rng)
        names = (user[1] if user is not None else _clean_name(name) or "Player 1",
                 f"Computer ({level})" if kind is GameKind.COMPUTER
                 else "" if invited is None else invited[1])
        tokens: tuple[str | None, str | None] = (hash_token(token), None)
        if rematch_of is not None:
            names = (rematch_of.names[0], rematch_of.names[1])
            tokens = (rematch_of.tokens[0], rematch_of.tokens[1])
        seated = kind is GameKind.COMPUTER or tokens[1] is not None
        status = GameStatus.PLAYING if seated else GameStatus.WAITING
        game = Game(game_id, rules=rules, kind=kind, level=level, match=match, tokens=tokens,
                    names=names, status=status, takeback=takeback,
                    clock=None if clock is None else Clock(clock), now=self.now, users=users, rated=rated,
                    invited=None if invited is None else invited[0], addresses=addresses)
        self.storage.create_game(game_id, rules=rules.to_json(), kind=kind, level=level,
                                 first_dealer=match.first_dealer, tokens=tokens, names=names,
                                 status=status, rematch_of=None if rematch_of is None else rematch_of.id,
                                 creator=addresses[0], takeback=takeback,
                                 clock=None if clock is None else str(clock),
                                 clock_state=None if game.clock is None else game.clock.to_json(),
                                 users=users, rated=rated, invited=game.invited, joiner=addresses[1])
        self.games[game_id] = game
        if rated and status is GameStatus.PLAYING:
            self._rated_started(game)
        self._note_ratings(game)
        self._deal(game)
        self._run_clock(game, self.now())
        self.lobby_changed(game)
        return game, token

    def join(self, game_id: str, name: str = "", user: tuple[int, str] | None = None,
             address: str | None = None, *, counted: bool = False) -> tuple[Game, int, str]:
        """Take the free seat of a game against a person; returns the seat and its token.
        ``user`` is the account (id and name) of a logged-in player: a rated game needs one,
        and not the creator's. ``address`` is the client's: the game is counted against it
        and the account as a new one (see :meth:`create`, also for ``counted``)."""
        game = self.get(game_id)
        self._check_serving(game)
        if game.kind is not GameKind.PERSON or game.tokens[1] is not None or \
                game.status is not GameStatus.WAITING:
            raise GameError("this game has no free seat: you can watch it", "no_seat", 409)
        if game.invited is not None and (user is None or user[0] != game.invited):
            raise GameError("this game is a challenge to another player", "not_invited", 403)
        if game.rated and user is None:
            raise GameError("a rated game needs an account: log in to take the seat", "needs_account", 403)
        if game.rated and user is not None and user[0] == game.users[0]:
            raise GameError("you cannot play yourself in a rated game", "same_player", 409)
        self._admit([Starter(address, None if user is None else user[0])], rate=not counted)
        if game.rated:
            self._check_rated_play((game.users[0], None if user is None else user[0]),
                                   (game.addresses[0], address), mine=1)
        token = new_token()
        digest = hash_token(token)
        shown = user[1] if user is not None else _clean_name(name) or "Player 2"
        at = self.now()
        clock = None
        if game.clock is not None:
            clock = game.clock.copy()  # starts now that both are seated
            self._start_clock(game, clock, at)
        # Stored first: a failure changes nothing.
        self.storage.take_seat(game.id, 1, digest, shown, GameStatus.PLAYING,
                               clock_state=None if clock is None else clock.to_json(),
                               user=None if user is None else user[0], address=address)
        game.tokens[1] = digest
        game.names[1] = shown
        game.users[1] = None if user is None else user[0]
        game.addresses[1] = address
        if game.rated:
            self._rated_started(game)
        self._note_ratings(game)
        game.status = GameStatus.PLAYING
        game.clock = clock
        self._update_away(game, at)
        game.broadcast()
        self._schedule(game)
        self.lobby_changed(game)
        return game, 1, token

    # Limits -----------------------------------------------------------------------
    def _admit(self, starters: list[Starter], *, rate: bool = True) -> None:
        """Refuse a game one of ``starters`` may not start (sixtysix.server.fairplay), else
        count it against each of them (against the creation rate unless ``rate`` is false)."""
        if self.admission is None:
            return
        try:
            for starter in starters:
                self.admission.check(starter, rate=rate)
        except LimitError as exc:
            raise GameError(str(exc), exc.code, exc.status) from None
        if rate:
            for starter in starters:
                self.admission.count(starter)

    def check_start(self, starters: list[Starter], *, rated: bool = False, rate: bool = True) -> None:
        """Refuse, changing nothing, a game between the people ``starters`` (seat 0's first)
        that :meth:`create` and :meth:`join` would refuse for a limit: quick pairing and
        tournaments ask before they make the game and seat the second player."""
        if self.admission is not None:
            try:
                for starter in starters:
                    self.admission.check(starter, rate=rate)
            except LimitError as exc:
                raise GameError(str(exc), exc.code, exc.status) from None
        if rated and len(starters) == 2:
            self._check_rated_play((starters[0].user, starters[1].user),
                                   (starters[0].address, starters[1].address), mine=1)

    def _check_rated_play(self, users: tuple[int | None, int | None],
                          addresses: tuple[str | None, str | None], mine: int = 0) -> None:
        """Refuse a rated game a player of it is barred from, or one over the day's limits
        for its two accounts or their addresses (:class:`RatedPlay`); ``mine``: the seat of
        the one asking."""
        rated_play = self.rated_play
        if rated_play is None:
            return
        try:
            for seat in sorted((0, 1), key=lambda seat: seat != mine):
                user = users[seat]
                if user is not None:
                    rated_play.check_player(user, mine=seat == mine)
            first, second = users
            if first is not None and second is not None:
                rated_play.check_pair((first, second), addresses, mine)
        except LimitError as exc:
            raise GameError(str(exc), exc.code, exc.status) from None

    def _rated_started(self, game: Game) -> None:
        """Count a rated game between two accounts that has started (both seats taken)."""
        first, second = game.users
        if self.rated_play is None or first is None or second is None or game.bot_seat is not None:
            return
        try:
            self.rated_play.started(game.id, (first, second), game.addresses)
        except Exception:  # the count is not worth a failed game
            log.exception("could not count the rated game %s", game.id)

    def _count_abort(self, game: Game, seat: int) -> None:
        """``seat`` called off the rated ``game`` before its first trick was complete (or
        resigned, ran out of time, left then): counted against his abort budget."""
        user = game.users[seat]
        if self.rated_play is None or user is None or seat == game.bot_seat:
            return
        try:
            until = self.rated_play.aborted(game.id, user)
        except Exception:
            log.exception("could not count the abort of game %s", game.id)
            return
        if until is not None:
            log.info("game %s: account %d barred from rated play for %.0f s (aborts)", game.id, user,
                     until - self.now())

    # Shards -----------------------------------------------------------------------
    def holds(self, shard: int | None) -> bool:
        """Whether this process may serve (write) the games of ``shard`` now."""
        if self.shard is None:
            return True
        return shard is not None and self.held.get(shard, 0.0) > time.monotonic()

    def serves(self, game_id: str) -> bool:
        """Whether this process serves the game ``game_id`` now (its shard's lease is valid)."""
        return self.shard is None or self.holds(owner_shard(game_id))

    def _check_serving(self, game: Game) -> None:
        if not self.serves(game.id):
            # Never two processes writing one game: its shard's lease is no longer valid here.
            raise GameError("this game moved to another server process: reconnect", "moved", 503)

    def read_shard(self, shard: int, abandoned_after: float | None = None) -> list[StoredGame]:
        """The unfinished games of ``shard`` as stored (those untouched for
        ``abandoned_after`` seconds marked abandoned first). Storage only: a server may
        run it in a thread while it goes on answering."""
        prefix = f"s{shard}-"
        if abandoned_after is not None:
            self.storage.expire(abandoned_after, prefix=prefix)
        return self.storage.unfinished(prefix=prefix)

    def take_shard(self, shard: int, abandoned_after: float | None = None,
                   stored: list[StoredGame] | None = None) -> list[StoredGame]:
        """Start serving the games of ``shard`` (its lease was just taken): returns its
        unfinished games as stored (``stored``, if :meth:`read_shard` was called already),
        each to be rebuilt by :meth:`resume` (a server taking over hundreds of games
        rebuilds them a few at a time, answering its clients between). Until then a game
        asked for is rebuilt at once, the same way."""
        if stored is None:
            stored = self.read_shard(shard, abandoned_after)
        stored = [one for one in stored if one.id not in self.games]
        self._restart.update(one.id for one in stored)
        self.rate_missing(prefix=f"s{shard}-")
        return stored

    def resume(self, stored: StoredGame) -> Game | None:
        """Rebuild a game :meth:`take_shard` returned, the clock of its seat to act starting
        now (time with no server is nobody's); ``None`` if a client had it rebuilt already."""
        if stored.id not in self._restart or stored.id in self.games:
            return None
        self._restart.discard(stored.id)
        game = self.games[stored.id] = self._rebuild(stored)
        return game

    def resume_shard(self, shard: int, abandoned_after: float | None = None) -> list[Game]:
        """:meth:`take_shard` and every game rebuilt at once; returns them."""
        return [game for stored in self.take_shard(shard, abandoned_after)
                if (game := self.resume(stored)) is not None]

    def give_up(self, shard: int) -> list[str]:
        """Stop serving the games of ``shard`` (handed to another process): each game's
        running clock is stored as it stands, its clients are told to reconnect (they
        reach the new holder), and it leaves memory. Returns the games' ids."""
        self.held.pop(shard, None)
        prefix = f"s{shard}-"
        self._restart = {game_id for game_id in self._restart if not game_id.startswith(prefix)}
        at = self.now()
        gone = [game for game in self.games.values() if game.id.startswith(prefix)]
        for game in gone:
            if game.bot_task is not None and not game.bot_task.done():
                game.bot_task.cancel()
            clock = game.clock
            if clock is not None and clock.running is not None and game.status is GameStatus.PLAYING and \
                    not game.over:
                stopped = clock.copy()
                stopped.pause(at)
                try:
                    self.storage.set_clock(game.id, stopped.to_json())
                except Exception:
                    log.exception("could not store the clock of game %s", game.id)
            for conn in list(game.connections):
                conn.push(error("this game moves to another server process: reconnecting", "moved"))
                conn.push({"type": "_close", "code": 1012})
            game.connections.clear()
            self._drop(game)
        return [game.id for game in gone]

    def get(self, game_id: str) -> Game:
        """A game by id, from memory or rebuilt from storage; unknown ids raise :class:`GameError`."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 32:
            raise GameError("no such game", "no_game", 404)
        if not self.serves(game_id):
            # Never two processes writing one game: this one is another process's. A load
            # balancer may try the next process (deploy/nginx.conf).
            raise GameError("this game is served by another server process", "misdirected", 503)
        stored = self.storage.load(game_id)
        if stored is None:
            raise GameError("no such game", "no_game", 404)
        restart = game_id in self._restart  # of a shard just taken over, not rebuilt yet
        self._restart.discard(game_id)
        game = self._rebuild(stored, restart=restart)
        self.games[game_id] = game
        return game

    def resume_all(self, abandoned_after: float | None = None) -> int:
        """Rebuild every live game from its record (at start-up); returns how many. With
        ``abandoned_after`` (seconds), games untouched for that long are first marked
        abandoned and not resumed."""
        if abandoned_after is not None:
            expired = self.storage.expire(abandoned_after, prefix=self.prefix)
            if expired:
                log.info("%d games untouched for %s s marked abandoned", len(expired), abandoned_after)
        count = 0
        for stored in self.storage.unfinished(prefix=self.prefix):
            if stored.id not in self.games:
                self.games[stored.id] = self._rebuild(stored)
                count += 1
        self.rate_missing()
        return count

    def rate_missing(self, limit: int = 200, prefix: str | None = None) -> int:
        """Rate the latest rated matches that finished but were never rated (the process
        stopped between storing the end and rating it); returns how many. Each match is
        rated once however often this runs (sixtysix.server.ratings)."""
        ratings = self.ratings
        if ratings is None:
            return 0
        done = 0
        prefix = self.prefix if prefix is None else prefix
        for row in self.storage.rated_finished(prefix=prefix, limit=limit):
            pool = pool_of(Rules.from_json(json.loads(row.rules)))
            if pool is None or row.winner not in (0, 1) or ratings.changes(row.id):
                continue
            sides: list[Side] = []
            for seat, user, name in ((0, row.user0, row.name0), (1, row.user1, row.name1)):
                if row.kind == GameKind.COMPUTER and seat == 1 and row.level is not None:
                    sides.append(Computer(row.level))
                elif user is not None:
                    sides.append(Person(user, name))
            if len(sides) != 2 or not all(ratings.rateable(side) for side in sides):
                continue
            try:
                if ratings.rate(row.id, pool, (sides[0], sides[1]), row.winner):
                    done += 1
            except Exception:
                log.exception("could not rate game %s", row.id)
        if done:
            log.info("%d finished rated matches rated at start-up", done)
        return done

    def _rebuild(self, stored: StoredGame, restart: bool = True) -> Game:
        """The game from its record. Its clock is as stored, and keeps running for a game
        that was only out of memory; after a restart (``restart``) the seat to act's clock
        starts again now: time the server was down is nobody's."""
        rules = Rules.from_json(stored.rules)
        match = replay_stored(stored)
        match.rng = self.rng
        clock = None
        if stored.clock is not None:
            try:
                control = TimeControl.parse(stored.clock)
                clock = Clock(control) if stored.clock_state is None else \
                    Clock.from_json(control, stored.clock_state)
            except ClockError:
                log.exception("game %s: its stored clock cannot be read; it goes on without", stored.id)
        ended = Ending(stored.ended) if stored.ended in set(Ending) else None
        game = Game(stored.id, rules=rules, kind=GameKind(stored.kind), level=stored.level, match=match,
                    tokens=stored.tokens, names=stored.names, status=GameStatus(stored.status),
                    rematch=stored.rematch, takeback=stored.takeback, taken_back=stored.taken_back,
                    clock=clock, ended=ended, winner=stored.winner if ended else None, now=self.now,
                    users=stored.users, rated=stored.rated, invited=stored.invited,
                    addresses=stored.addresses, unrated=stored.unrated)
        for line in stored.chat:
            if line["room"] in game.chat:
                game.chat[line["room"]].append({"type": "chat", **line})
        self._note_ratings(game)
        if not match.is_over() and ended is None:
            hand = match.hand
            if hand is None or hand.is_over():
                self._deal(game)  # stopped between the end of a hand and the next deal
        if clock is not None and (restart or clock.running is None):
            clock.running = None
            self._run_clock(game, self.now())
        return game

    def _player(self, game: Game) -> ComputerPlayer | None:
        """The game's computer player, made the first time it is to act (after a restart,
        too): it is shown the current hand from its seat, action by action, as the
        runner would have (:func:`sixtysix.runner.play_hand`). ``None`` when the game
        has none, or when its opponent is not offered by this server (any more)."""
        if game.player is not None:
            return game.player
        if game.bot_seat is None or game.level is None or game.level not in self.opponents:
            return None
        seat = game.bot_seat
        bot = make_bot(self.opponents.spec(game.level), seed=self.rng.randrange(2**32))
        player = ComputerPlayer(bot, seat, f"game {game.id}")
        game.table.seat_hooks(seat, player.hooks)
        if game.hand is not None:
            game.table.retell(seat)  # what it remembers of the hand is then exactly the hand
        game.player = player
        return player

    def _close_player(self, game: Game) -> None:
        """Close the computer player (an engine's program is stopped) once it has heard everything."""
        player, game.player = game.player, None
        if player is not None:
            game.table.seat_hooks(player.seat, Hooks())
            # Kept until done (pruned here, on the event loop: the set is never touched by a thread).
            self._closing = {f for f in self._closing if not f.done()}
            self._closing.add(player.close())

    # Ratings ----------------------------------------------------------------------------
    def check_rated(self, rules: Rules, kind: GameKind | str, level: str | None, user: tuple[int, str] | None,
                     takeback: bool) -> None:
        kind = game_kind(kind)
        if self.ratings is None:
            raise GameError("this server rates no games", "not_rated")
        if user is None:
            raise GameError("a rated game needs an account: log in first", "needs_account", 403)
        if pool_of(rules) is None:
            raise GameError("a rated game is played under a preset's own rules (only the target may "
                            "differ)", "bad_rated")
        if takeback:
            raise GameError("a rated game takes no takebacks", "bad_takeback")
        levels = self.ratings.levels
        if kind is GameKind.COMPUTER and (level is None or level not in levels):
            rated = ", ".join(sorted(levels, key=lambda name: levels[name].rating))
            raise GameError(f"the computer level {level!r} has no rating yet: rated levels are {rated}",
                            "bad_rated")

    def lobby_changed(self, game: Game | None = None) -> None:
        """Tell the lobby hooks (``game``: the one that changed; only games between people
        are listed)."""
        if game is not None and game.kind is not GameKind.PERSON:
            return
        for hook in self.lobby_hooks:
            try:
                hook()
            except Exception:  # the lobby never stops a game
                log.exception("a lobby hook failed")

    def _finished(self, game: Game) -> None:
        self.lobby_changed(game)
        for hook in self.finished_hooks:
            try:
                hook(game)
            except Exception:  # a tournament's bookkeeping never stops a game
                log.exception("a hook failed at the end of game %s", game.id)

    def _sides(self, game: Game) -> tuple[Side, Side] | None:
        sides: list[Side] = []
        for seat in (0, 1):
            user = game.users[seat]
            if seat == game.bot_seat and game.level is not None:
                sides.append(Computer(game.level))
            elif user is not None:
                sides.append(Person(user, game.names[seat]))
            else:
                return None
        return sides[0], sides[1]

    def _note_ratings(self, game: Game) -> None:
        """Each side's rating as the match starts (shown beside the names), and for a
        match rated already, how it moved them."""
        pool = pool_of(game.rules)
        sides = self._sides(game) if game.rated else None
        if self.ratings is None or pool is None or sides is None:
            return
        try:
            changes = self.ratings.changes(game.id)
            for seat, side in enumerate(sides):
                if isinstance(side, Person) and side.user_id in changes:
                    game.rating_changes[seat] = changes[side.user_id]
                    game.ratings_before[seat] = changes[side.user_id][0]
                else:
                    game.ratings_before[seat] = self.ratings.rating_of(side, pool).rating
        except Exception:  # the ratings are shown, not needed: the game goes on
            log.exception("could not read the ratings of game %s", game.id)

    def _rate(self, game: Game) -> None:
        """A rated match ended by the rules (its target, resigned, time, left): each
        player's rating updated, once. Aborted and abandoned matches are never rated."""
        pool = pool_of(game.rules)
        sides = self._sides(game)
        winner = game.winner
        if not game.rated or self.ratings is None or pool is None or sides is None or winner is None:
            return
        try:
            changes = self.ratings.rate(game.id, pool, sides, winner)
        except Exception:
            log.exception("could not rate game %s", game.id)
            return
        for change in changes:
            seat = game.users.index(change.user_id)
            game.rating_changes[seat] = (change.before.rating, change.after.rating)

    # Clocks and absent players ---------------------------------------------------------
    def _start_clock(self, game: Game, clock: Clock, at: float) -> None:
        """Start ``clock`` for the seat to act, if nobody's runs: after :data:`HAND_BREAK`
        when the hand has just been dealt."""
        seat = game.to_act
        hand = game.hand
        if seat is None or hand is None or clock.running is not None:
            return
        clock.start(seat, at + (self.hand_break if not hand.actions else 0.0))

    def _run_clock(self, game: Game, at: float) -> None:
        """After a change: the seat to act's clock runs (if the game has one and is played)."""
        if game.clock is not None and game.status is GameStatus.PLAYING and not game.over:
            self._start_clock(game, game.clock, at)

    def _update_away(self, game: Game, at: float) -> None:
        """Note which players of a game against a person hold no connection (since ``at``,
        for those newly gone) and forget the ones back."""
        if game.kind is not GameKind.PERSON or game.status is not GameStatus.PLAYING or game.over:
            game.away.clear()
            return
        present = {conn.seat for conn in game.connections if not conn.closed}
        for seat in (0, 1):
            if seat in present:
                game.away.pop(seat, None)
            elif seat not in game.away:
                game.away[seat] = at + self.grace

    def _schedule(self, game: Game) -> None:
        """Arrange for :meth:`check_time` to run when the next clock may fall or an absent
        player's grace period ends (one timer per game, replaced at each change)."""
        if game.timer is not None:
            game.timer.cancel()
            game.timer = None
        if game.status is not GameStatus.PLAYING or game.over:
            return
        moments = list(game.away.values())
        if game.clock is not None and (deadline := game.clock.deadline()) is not None:
            moments.append(deadline)
        if not moments:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving the manager): checks are called
            return
        delay = max(min(moments) - self.now(), 0.0) + 0.005
        game.timer = loop.call_later(delay, self._timer_fired, game)

    def _timer_fired(self, game: Game) -> None:
        game.timer = None
        if self.games.get(game.id) is game:
            self.check_time(game)

    def check_time(self, game: Game, at: float | None = None) -> bool:
        """Apply what time decided by ``at`` (now): a player whose clock ran out loses the
        match (a match clock) or the hand (a move clock); a player away past the grace
        period while the opponent is at the table loses the match; either before the first
        trick is complete calls the match off instead. Returns whether the game changed."""
        at = self.now() if at is None else at
        changed = False
        if not self.serves(game.id):
            return False
        if game.status is GameStatus.PLAYING and not game.over and game.clock is not None:
            seat = game.clock.flagged(at)
            if seat is not None:
                self._out_of_time(game, seat, at)
                changed = True
        if game.status is GameStatus.PLAYING and not game.over:
            present = {conn.seat for conn in game.connections if not conn.closed}
            for seat, until in sorted(game.away.items()):
                if at >= until and 1 - seat in present:
                    log.info("game %s: seat %d did not come back in time", game.id, seat)
                    self._end(game, Ending.ABORTED if game.abortable else Ending.LEFT, loser=seat, at=at)
                    changed = True
                    break
        if changed:
            game.broadcast()
            self.wake_bot(game)
        self._schedule(game)
        return changed

    def _out_of_time(self, game: Game, seat: int, at: float) -> None:
        clock = game.clock
        assert clock is not None
        log.info("game %s: seat %d ran out of time (%s)", game.id, seat, clock.control)
        if game.abortable:
            self._end(game, Ending.ABORTED, loser=seat, at=at)
        elif clock.control.kind is Kind.MATCH:
            self._end(game, Ending.TIME, loser=seat, at=at)
        else:
            # A move clock: the hand is lost by forfeit (3 game points to the opponent, as
            # for a failed program) and the match goes on.
            clock.stop(at)
            clock.left[seat] = clock.control.seconds
            if not self._forfeit(game, seat):
                raise GameError("the server could not save the end of the hand; try again", "storage", 503)

    def _end(self, game: Game, ended: Ending, *, loser: int, at: float) -> None:
        """The match ends as ``ended`` says: ``loser`` loses it, or
        nobody wins if it was called off. Stored, then the computer player is closed."""
        self._check_serving(game)
        winner = None if ended is Ending.ABORTED else 1 - loser
        # Before both players acted: a rated match is not rated (lichess's rule), and it
        # counts against the abort budget of the player who ended it.
        game.ended_early = game.status is GameStatus.PLAYING and game.abortable
        early = game.rated and game.ended_early
        unrated = SHORT if early and ended is not Ending.ABORTED else None
        clock = game.clock
        if clock is not None and clock.running is not None:
            clock.stop(at)
        self.storage.finish_game(game.id, winner, game.score, (game.names[0], game.names[1]),
                                 ended=ended, clock_state=None if clock is None else clock.to_json(),
                                 unrated=unrated)
        game.ended, game._ended_winner = ended, winner
        game.status = ended.status
        if unrated is not None:
            game.rated, game.unrated = False, unrated
        if early:
            self._count_abort(game, loser)
        if ended is not Ending.ABORTED:
            self._rate(game)
        self._finished(game)
        game.away.clear()
        task = game.bot_task
        if task is not None and not task.done() and task is not _current_task():
            task.cancel()  # the computer was thinking; its loop ends itself otherwise
        self._close_player(game)
        self._schedule(game)

    def resign(self, game: Game, seat: int) -> None:
        """``seat`` gives up the match: the opponent wins it (the score stays as it is)."""
        if game.status is not GameStatus.PLAYING or game.over:
            raise GameError("only a match being played can be resigned", "over")
        self._end(game, Ending.RESIGNED, loser=seat, at=self.now())
        game.broadcast()

    def decline(self, game: Game, user_id: int) -> None:
        """The player challenged says no, or the challenger takes the challenge back: the
        game is called off."""
        if game.invited is None or game.status is not GameStatus.WAITING:
            raise GameError("there is no challenge waiting in this game", "no_challenge", 409)
        if user_id not in (game.invited, game.users[0]):
            raise GameError("this challenge is not yours to answer", "not_invited", 403)
        self._end(game, Ending.ABORTED, loser=0, at=self.now())
        game.broadcast()

    def abort(self, game: Game, seat: int) -> None:
        """Call the match off (before its first trick is complete): nobody wins."""
        if not game.abortable:
            raise GameError("a match can be called off only before its first trick is complete",
                            "not_abortable")
        self._end(game, Ending.ABORTED, loser=seat, at=self.now())
        game.broadcast()

    def _deal(self, game: Game, score: tuple[int, int] | None = None) -> None:
        """Deal the next hand and store it (with ``score``, the match's score after the
        hands before, in the same transaction)."""
        hand = game.match.deal()
        number = len(game.match.hands)
        self.storage.add_hand(game.id, number, " ".join(str(c) for c in hand.deck), hand.dealer, score)
        game.table.start(hand)

    # Playing ----------------------------------------------------------------------
    def handle(self, game: Game, seat: int | None, message: Message) -> dict[str, Any] | None:
        """Apply one client message; returns a direct reply (an error, a pong) or ``None``.

        Refused messages change nothing.
        """
        if isinstance(message, Ping):
            return {"type": "pong"} if message.id is None else {"type": "pong", "id": message.id}
        if isinstance(message, Hello):
            return error("already introduced: hello is only the first message", "bad_message")
        if seat is None:
            return error("spectators cannot act", "spectator")
        if isinstance(message, Rematch):
            try:
                self.make_rematch(game, seat)
            except GameError as exc:
                return error(str(exc), exc.code)
            return None
        if isinstance(message, Hint | Chat):
            return error("this message needs the connection to answer on", "bad_message")
        try:
            if isinstance(message, Resign):
                self.resign(game, seat)
            elif isinstance(message, Abort):
                self.abort(game, seat)
            elif isinstance(message, TakeBack):
                self.take_back(game, seat, hand_number=message.hand, index=message.index)
            else:
                self.act(game, seat, message.action, hand_number=message.hand, index=message.index)
        except GameError as exc:
            return error(str(exc), exc.code)
        return None

    def say(self, game: Game, seat: int | None, conn: Connection, message: Chat) -> dict[str, Any] | None:
        """A line of chat from ``conn``: a player's goes to the two players (only in a game
        between people), a spectator's to the spectators. Players never see the
        spectators' chat, so nobody at the table hears help from the gallery. Returns an
        error reply, or ``None``."""
        if seat is not None and game.kind is not GameKind.PERSON:
            return error("the players' chat is between two people", "no_chat")
        if not self.chat_limit.allow(chat_key(game, conn)):
            return error("too many lines of chat: wait a little", "chat_rate_limited")
        try:
            self._check_serving(game)
        except GameError as exc:
            return error(str(exc), exc.code)
        room = "players" if seat is not None else "spectators"
        name = game.names[seat] if seat is not None else None
        line = {"type": "chat", "room": room, "seat": seat, "name": name, "text": message.text}
        try:  # kept for a restart or another process taking the game over
            self.storage.add_chat(game.id, room, seat, name, message.text)
        except Exception:  # said all the same: a line of chat is not worth a refusal
            log.exception("could not store a line of chat of game %s", game.id)
        game.chat[room].append(line)
        for other in list(game.connections):
            if (other.seat is not None) == (seat is not None):
                other.push(line)
        return None

    def ask_hint(self, game: Game, seat: int | None, conn: Connection) -> dict[str, Any] | None:
        """Start working out a hint for ``seat`` (the analysis the terminal game gives:
        every legal action with the game points it is worth, from the seat's own view,
        :func:`sixtysix.analysis.analyse`); it reaches ``conn`` as a ``hint`` message.
        Only against the computer (against a person it would be help from outside), only
        at the seat's turn, one at a time per game. Returns an error reply, or ``None``."""
        if seat is None:
            return error("spectators cannot ask for hints", "spectator")
        if game.rated:
            return error("no hints in a rated game", "no_hints")
        if game.kind is not GameKind.COMPUTER:
            return error("hints are only for games against the computer", "no_hints")
        hand = game.hand
        if game.status is not GameStatus.PLAYING or hand is None or hand.is_over() or hand.to_act != seat:
            return error("it is not your turn", "not_your_turn")
        if game.hint_task is not None and not game.hint_task.done():
            return error("a hint is being worked out", "busy")
        view = hand.view(seat)
        where = (len(game.match.hands), len(hand.actions))
        game.hint_task = asyncio.get_running_loop().create_task(self._hint(game, view, where, conn))
        return None

    async def _hint(self, game: Game, view: View, where: tuple[int, int], conn: Connection) -> None:
        rng = random.Random(f"sixtysix-hint-{game.id}-{where[0]}-{where[1]}")
        try:
            lines = await asyncio.to_thread(analyse, view, HINT_BUDGET, rng=rng, network=shipped_network())
        except Exception:
            log.exception("the hint for game %s failed", game.id)
            conn.push(error("no hint could be worked out", "hint_failed"))
            return
        conn.push({"type": "hint", "hand": where[0], "index": where[1],
                   "lines": [{"action": str(line.action), "value": round(line.value, 3),
                              "error": round(line.error, 3), "samples": line.samples,
                              "exact": line.exact,
                              "network": None if line.network is None else round(line.network, 3)}
                             for line in lines]})

    def take_back(self, game: Game, seat: int, *, hand_number: int | None = None,
                  index: int | None = None) -> None:
        """``seat`` takes back its last action of the hand being played, and the computer's
        actions after it (a game against the computer that allows takebacks): forgotten
        by the database, the hand and the computer player alike, and counted in the record.
        Only the hand being played; only when it is the player's turn (the computer is not
        thinking)."""
        hand = game.hand
        if not game.takeback:
            raise GameError("takebacks are not allowed in this game", "no_takeback")
        if game.status is not GameStatus.PLAYING or hand is None or hand.is_over():
            raise GameError("the match is over", "over")
        if (hand_number is not None and hand_number != len(game.match.hands)) or \
                (index is not None and index != len(hand.actions)):
            raise GameError("stale takeback: the game has moved on", "stale")
        if hand.to_act != seat:
            raise GameError("it is not your turn", "not_your_turn")
        actors = hand.actors()
        if seat not in actors:
            raise GameError("there is nothing of yours to take back in this hand", "nothing_to_take_back")
        keep = max(i for i, who in enumerate(actors) if who == seat)
        self._check_serving(game)
        try:
            self.storage.take_back(game.id, len(game.match.hands), keep)
        except Exception:
            log.exception("could not store a takeback of game %s", game.id)
            raise GameError("the server could not save the takeback; try again", "storage", 503) from None
        while len(hand.actions) > keep:
            hand.pop()
        game.taken_back += 1
        game.last_action_at = storage_now()
        if game.player is not None:
            game.table.retell(game.player.seat)
        game.broadcast()

    def act(self, game: Game, seat: int, action: Action, *, hand_number: int | None = None,
            index: int | None = None) -> None:
        """``seat`` takes ``action``: checked, applied, stored, broadcast."""
        hand = game.hand
        if game.status is GameStatus.WAITING:
            raise GameError("the game has not started: the second player has not joined yet", "not_started")
        if game.status is GameStatus.ABANDONED:
            raise GameError("the game was abandoned: nobody moved in it for too long", "abandoned")
        if hand is None or game.over or game.status is not GameStatus.PLAYING:
            raise GameError("the match is over", "over")
        if (hand_number is not None and hand_number != len(game.match.hands)) or \
                (index is not None and index != len(hand.actions)):
            raise GameError("stale action: the game has moved on", "stale")
        if hand.to_act != seat:
            raise GameError("it is not your turn", "not_your_turn")
        self._apply(game, seat, action)
        game.broadcast()
        self.wake_bot(game)
        self._schedule(game)

    def _apply(self, game: Game, seat: int, action: Action) -> None:
        """Play ``action`` at the table: checked by the engine, stored, then every player told."""
        hand = game.hand
        assert hand is not None
        self._check_serving(game)
        number, index = len(game.match.hands), len(hand.actions)
        at = self.now()
        clock: Clock | None = None
        if game.clock is not None:
            if game.clock.flagged(at) is not None:
                self.check_time(game, at)  # too late: the clock's rule applies, not the action
                raise GameError("your time ran out", "time")
            clock = game.clock.copy()
            if clock.running is not None:
                clock.stop(at)

        def store(_: Event) -> None:
            # The clock as the action leaves it (the next seat's running) goes with it.
            if clock is not None:
                self._start_clock(game, clock, at)
            self.storage.add_action(game.id, number, index, str(action),
                                    clock_state=None if clock is None else clock.to_json())

        try:
            game.table.play(action, commit=store)
        except IllegalActionError as exc:
            raise GameError(str(exc), "illegal") from None
        except Exception:
            log.exception("could not store an action of game %s", game.id)
            raise GameError("the server could not save the action; try again", "storage", 503) from None
        if clock is not None:
            game.clock = clock
        game.last_action_at = storage_now()
        if hand.is_over():
            self._hand_over(game)

    def _forfeit(self, game: Game, seat: int) -> bool:
        """``seat`` (the computer, whose program failed) loses the hand in play by forfeit:
        stored, applied, the next hand dealt. Returns whether it could be stored."""
        hand = game.hand
        assert hand is not None and not hand.is_over()
        if not self.serves(game.id):
            return False
        try:
            self.storage.add_forfeit(game.id, len(game.match.hands), seat,
                                     clock_state=None if game.clock is None else game.clock.to_json())
        except Exception:
            log.exception("could not store a forfeit of game %s", game.id)
            return False
        game.table.forfeit(seat)
        self._hand_over(game)
        return True

    def _hand_over(self, game: Game) -> None:
        """After the last action (or a forfeit) of a hand: the score stored, then the next
        deal or the end of the match (the computer player is told it and closed)."""
        score = game.score
        if game.over:
            game.status = GameStatus.FINISHED
            clock = game.clock
            if clock is not None and clock.running is not None:
                clock.stop(self.now())
            self.storage.finish_game(game.id, game.match.winner, score, (game.names[0], game.names[1]),
                                     clock_state=None if clock is None else clock.to_json())
            game.table.match_over(game.match.score)
            self._close_player(game)
            game.away.clear()
            self._rate(game)
            self._finished(game)
        else:
            self._deal(game, score)
            self._run_clock(game, self.now())
            self.lobby_changed(game)

    def wake_bot(self, game: Game) -> None:
        """Let the computer play if it is to act (at most one task per game)."""
        if game.bot_seat is None or game.status is not GameStatus.PLAYING or game.to_act != game.bot_seat:
            return
        if game.level not in self.opponents:
            return  # the opponent is not offered here (see attach)
        if game.bot_task is not None and not game.bot_task.done():
            return
        game.bot_task = asyncio.get_running_loop().create_task(self._bot_moves(game))

    async def _bot_moves(self, game: Game) -> None:
        try:
            await self._bot_plays(game)
        finally:
            if not game.connections:
                game.bot_task = None  # this task is ending: nothing holds the game any more
                self._forget(game)

    async def _bot_plays(self, game: Game) -> None:
        while game.bot_seat is not None and game.status is GameStatus.PLAYING and \
                game.to_act == game.bot_seat:
            seat = game.bot_seat
            player = self._player(game)
            hand = game.hand
            if player is None or hand is None:
                return
            seen = (len(game.match.hands), len(hand.actions))
            view = hand.view(seat)
            try:
                action = await player.choose(view)
            except Forfeit as exc:
                # An external engine failed (crashed, timed out, sent an illegal action):
                # it loses the hand, and the match goes on (docs/protocol.md).
                # The server's count of the hand: the engine's own may start later (a game
                # resumed after a restart, a hand told again after a takeback).
                log.warning("game %s: %s", game.id, exc.at(seen[0]))
                if game.hand is not hand or hand.is_over() or not self._forfeit(game, seat):
                    return
                game.broadcast()
                self._schedule(game)
                continue
            except Exception:
                log.exception("the computer failed in game %s", game.id)
                self._computer_stuck(game)
                return
            if game.hand is not hand or (len(game.match.hands), len(hand.actions)) != seen:
                continue  # cannot happen (only the computer acts now); never apply a stale choice
            try:
                game.table.check(seat, action)  # a choice outside the legal ones: BotError
                self._apply(game, seat, action)
            except GameError as exc:
                if exc.code == "time":  # it thought too long: the clock's rule was applied
                    continue
                if exc.code == "moved":  # another process serves the game now
                    return
                log.error("the computer's action %s was refused in game %s: %s", action, game.id, exc)
                self._computer_stuck(game)
                return
            except BotError as exc:
                log.error("the computer's action %s was refused in game %s: %s", action, game.id, exc)
                self._computer_stuck(game)
                return
            game.broadcast()
            self._schedule(game)

    @staticmethod
    def _computer_stuck(game: Game) -> None:
        """Tell the people at the table that the computer could not move (logged already):
        the game is kept as it was, and the computer tries again when a client connects."""
        for conn in game.connections:
            conn.push(error("the computer could not move: reload the page to let it try again",
                            "computer_failed"))

    def make_rematch(self, game: Game, seat: int) -> Game:
        """A new match with the same players and settings; both clients are told its id."""
        if not game.over or game.status is GameStatus.ABORTED:
            raise GameError("a rematch can be asked for only when the match is over", "not_over")
        if game.rematch is not None:
            new = self.get(game.rematch)
        else:
            new, _ = self.create(rules=game.rules, kind=game.kind, level=game.level, rematch_of=game)
            game.rematch = new.id
            self.wake_bot(new)
        for conn in game.connections:
            conn.push({"type": "rematch", "game": new.id})
        return new

    # Connections ------------------------------------------------------------------
    def admit(self, game: Game, seat: int | None) -> None:
        """Refuse a spectator when the game has as many as it takes (a seat is always taken)."""
        if seat is None and self.spectators is not None and game.spectators >= self.spectators:
            raise GameError(f"this game has as many spectators as it takes ({self.spectators}): "
                            "try again later", "too_many_spectators", 429)

    def attach(self, game: Game, conn: Connection) -> None:
        game.connections.add(conn)
        at = self.now()
        away = set(game.away)
        self._update_away(game, at)
        self.check_time(game, at)  # a clock that ran out while nobody was at the table
        if set(game.away) != away:
            game.broadcast()  # a player came back: everybody told, this connection too
        else:
            conn.push(game.state_for(conn.seat))
            if conn.seat is None:
                self.presence_changed(game)  # one spectator more: told with the others, later
        for line in game.chat["players" if conn.seat is not None else "spectators"]:
            conn.push(line)
        if game.bot_seat is not None and game.level not in self.opponents and not game.over:
            conn.push(error(f"the computer opponent {game.level!r} is not offered by this server now: "
                            "the game goes on when it is again", "no_opponent"))
        self.wake_bot(game)

    def detach(self, game: Game, conn: Connection) -> None:
        game.connections.discard(conn)
        conn.close()
        if game.connections:
            away = set(game.away)
            self._update_away(game, self.now())
            if set(game.away) != away:
                game.broadcast()  # a player left
            elif conn.seat is None:
                self.presence_changed(game)  # one spectator fewer
            self._schedule(game)
        else:
            self.release(game)

    def presence_changed(self, game: Game) -> None:
        """Spectators came or went: everybody at the game is told how many watch in one
        small ``presence`` message, at most once a :attr:`presence_interval` (never the
        whole state: hundreds of spectators coming and going cost the players nothing)."""
        if game.presence_timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving the manager): told at once
            self.tell_presence(game)
            return
        game.presence_timer = loop.call_later(self.presence_interval, self.tell_presence, game)

    def tell_presence(self, game: Game) -> None:
        """Send the presence message now, if the count changed since the game last told it."""
        game.presence_timer = None
        count = game.spectators
        if count == game.presence_told or self.games.get(game.id) is not game:
            return
        game.presence_told = count
        message = Shared(type="presence", spectators=count)
        for conn in game.connections:
            conn.tell_presence(message)

    def release(self, game: Game) -> None:
        """Done with a game for now (after a REST request, a last connection): see :meth:`_forget`."""
        self._forget(game)

    @contextlib.contextmanager
    def arriving(self, game_id: str) -> Iterator[None]:
        """While a client connects to ``game_id`` (from the WebSocket's opening to its
        hello), the game is kept in memory: dropping it then (the computer's move ending
        with nobody attached yet) would stop its computer player for nothing and rebuild
        the game from storage a moment later."""
        self._arriving[game_id] += 1
        try:
            yield
        finally:
            self._arriving[game_id] -= 1
            if not self._arriving[game_id]:
                del self._arriving[game_id]

    def _forget(self, game: Game) -> None:
        """Drop a game nobody is connected to from memory: it is all in storage, and is rebuilt
        when asked for. Never while the computer is thinking, which would leave two copies."""
        if not game.connections and (game.bot_task is None or game.bot_task.done()) and \
                game.id not in self._arriving and self.games.get(game.id) is game:
            self._drop(game)

    def _drop(self, game: Game) -> None:
        """Take a game out of memory: its computer player closed, its timer stopped, when it
        was last played stored."""
        del self.games[game.id]
        self._close_player(game)
        if game.timer is not None:
            game.timer.cancel()
            game.timer = None
        if game.presence_timer is not None:
            game.presence_timer.cancel()
            game.presence_timer = None
        game.away.clear()
        if game.last_action_at is not None:
            self._touch(game)

    def _touch(self, game: Game) -> None:
        assert game.last_action_at is not None
        try:
            self.storage.touch(game.id, game.last_action_at)
        except Exception:  # the time of a last action is not worth a failed request
            log.exception("could not store when game %s was last played", game.id)

    def expire_idle(self, age: float) -> list[str]:
        """Mark the live games nobody has acted in for ``age`` seconds abandoned (a setting,
        ``Settings.abandoned_after``): in storage, so that the lobby shows them so and they
        are not resumed, and in memory, where their players see it at once. Returns their ids."""
        for game in list(self.games.values()):
            if game.last_action_at is not None and game.status.live:
                self._touch(game)
        expired = []
        for shard in sorted(self.held) if self.shard is not None else [None]:
            if self.holds(shard):
                expired += self.storage.expire(age, prefix="" if shard is None else f"s{shard}-")
        for game_id in expired:
            left = self.games.get(game_id)
            if left is not None and left.status.live:
                left.status = GameStatus.ABANDONED
                if left.bot_task is not None:
                    left.bot_task.cancel()
                self._close_player(left)
                self._schedule(left)
                left.broadcast()
        if expired:
            log.info("%d games nobody moved in for %s s marked abandoned", len(expired), age)
            self.lobby_changed()
        return expired

    async def close(self) -> None:
        """At shutdown: stop the computers' tasks and close every computer player; an
        engine's program is killed at once, also one that is thinking (its game resumes
        after the restart at the same turn: an action not made is not stored)."""
        tasks = [g.bot_task for g in self.games.values() if g.bot_task is not None]
        for task in tasks:
            task.cancel()  # first: a choice the kill below ends is no forfeit
        for game in self.games.values():
            if game.player is not None:
                game.player.interrupt()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for game in list(self.games.values()):
            self._close_player(game)
        await asyncio.gather(*(asyncio.wrap_future(f) for f in list(self._closing)),
                             return_exceptions=True)


def chat_key(game: Game, conn: Connection) -> str:
    """Whose budget a line of chat counts against: the seat's (every connection holding it),
    or a spectator's address's in this game (one with no known address: its own).

    >>> game = type("G", (), {"id": "g1"})()
    >>> chat_key(game, Connection(None, 1)), chat_key(game, Connection(None, None, address="10.0.0.7"))
    ('g1 seat 1', 'g1 watching from 10.0.0.7')
    """
    if conn.seat is not None:
        return f"{game.id} seat {conn.seat}"
    return f"{game.id} watching from {conn.address or f'connection {id(conn)}'}"


def owner_shard(game_id: str) -> int | None:
    """The shard a game belongs to (its id's ``sK-`` prefix), if any.

    >>> owner_shard("s12-abc"), owner_shard("abc"), owner_shard("sx-abc")
    (12, None, None)
    """
    head, sep, _ = game_id.partition("-")
    if not sep or len(head) < 2 or head[0] != "s" or not head[1:].isdigit():
        return None
    return int(head[1:])


def replay_stored(stored: StoredGame) -> Match:
    """The match a stored game holds, every action (and forfeit) checked again by the engine."""
    record = MatchRecord(
        hands=[MatchHand(deck=tuple(Card.parse(c) for c in h.deck.split()),
                         actions=[Action.parse(a) for a in h.actions], dealer=h.dealer,
                         extra={} if h.forfeit is None else {"forfeit": h.forfeit})
               for h in stored.hands],
        first_dealer=stored.first_dealer, rules=Rules.from_json(stored.rules))
    replayed = replay(record)
    assert isinstance(replayed, MatchReplay)
    return replayed.match


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


def _clean_name(name: object) -> str:
    if not isinstance(name, str):
        return ""
    return " ".join("".join(ch for ch in name if ch.isprintable()).split())[:40]


def parse_clock(text: object) -> TimeControl | None:
    """A time control from a request (``5+3``, ``20/move``), or ``None`` for no clock.
    Each decision gets at least a second.

    >>> parse_clock("3+2"), parse_clock(None)
    (TimeControl(kind=<Kind.MATCH: 'match'>, seconds=180.0, increment=2.0), None)
    """
    if text is None or text == "":
        return None
    if not isinstance(text, str) or len(text) > 16:
        raise GameError("clock must be text such as \"5+3\" or \"20/move\"", "bad_clock")
    try:
        control = TimeControl.parse(text)
    except ClockError as exc:
        raise GameError(str(exc), "bad_clock") from None
    if control.seconds < 1:
        raise GameError("a clock gives at least one second", "bad_clock")
    return control


def parse_rules(text: object, target: object = None) -> Rules:
    """Rules from a request: a preset and options as text, and an optional target."""
    if text is None:
        text = "classic"
    if not isinstance(text, str) or len(text) > 200:
        raise GameError("rules must be text such as \"classic\" or \"santase,target=11\"", "bad_rules")
    try:
        rules = Rules.parse(text)
        if target is not None:
            if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 100:
                raise GameError("target must be a whole number from 1 to 100", "bad_rules")
            rules = rules.replace(target=target)
    except ParseError as exc:
        raise GameError(f"bad rules: {exc}", "bad_rules") from None
    if rules.target < 1 or rules.target > 100:
        raise GameError("target must be a whole number from 1 to 100", "bad_rules")
    return rules
