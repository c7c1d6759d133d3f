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

:class:`Game` is one match in memory; :class:`GameManager` is the one place the rest
of the server (and a test) asks, and hands each request to the service of its
concern: making games and taking seats (:mod:`~sixtysix.server.seating`), acting,
resigning and taking back (:mod:`~sixtysix.server.service`), the clocks
(:mod:`~sixtysix.server.clocks`), the computer (:mod:`~sixtysix.server.bot_driver`),
the shards (:mod:`~sixtysix.server.shard_host`), the connections
(:mod:`~sixtysix.server.hall`), chat, hints, rematches and abandoned games.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import hmac
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from sixtysix.errors import ParseError
from sixtysix.game.actions import Action
from sixtysix.game.cards import Card
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match
from sixtysix.game.record import MatchHand, MatchRecord, MatchReplay, record_from_match, replay
from sixtysix.game.result import HandResult
from sixtysix.game.table import Table
from sixtysix.play.clock import Clock, ClockError, TimeControl
from sixtysix.present.wire import finished_hand_json, public_view_json, seat_view_json
from sixtysix.rules import Rules
from sixtysix.server.bot_driver import BotDriver
from sixtysix.server.chat import CHAT_BURST, CHAT_RATE, ChatDesk
from sixtysix.server.clocks import GRACE, HAND_BREAK, ClockScheduler
from sixtysix.server.computers import ComputerPlayers
from sixtysix.server.connection import Connection, Shared, encode
from sixtysix.server.errors import GameError, Reason, error, refusal_message
from sixtysix.server.expiry import Expiry
from sixtysix.server.fairplay import Admission, RatedPlay, Starter
from sixtysix.server.gate import Gate
from sixtysix.server.hall import PRESENCE_INTERVAL, SPECTATORS, Hall
from sixtysix.server.hints import ask_hint
from sixtysix.server.limits import BucketsByKey
from sixtysix.server.messages import ChatLine, ClockInfo, ErrorMessage, GameInfo, Pong, Reply, StateMessage
from sixtysix.server.notices import Notices
from sixtysix.server.offers import Offers, offers_json
from sixtysix.server.opponents import Opponents
from sixtysix.server.players import ComputerPlayer
from sixtysix.server.protocol import (
    Abort,
    Act,
    Chat,
    Decline,
    Hello,
    Hint,
    Message,
    Ping,
    Rematch,
    Resign,
    TakeBack,
)
from sixtysix.server.rating_desk import RatingDesk
from sixtysix.server.ratings import Ratings
from sixtysix.server.rematch import Rematches
from sixtysix.server.seating import Seating, game_kind, hash_token
from sixtysix.server.service import SHORT, GameService
from sixtysix.server.serving import Serving
from sixtysix.server.shard_host import ShardHost
from sixtysix.server.status import Ending, GameKind, GameStatus, Offer
from sixtysix.server.storage import CHAT_KEPT, CHAT_ROOMS, Storage, StoredGame

__all__ = ["CHAT_BURST", "CHAT_RATE", "Connection", "Game", "GameError", "GameManager", "Shared", "encode",
           "hash_token", "parse_clock", "parse_rules", "replay_stored"]

log = logging.getLogger("sixtysix.server")


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
        #: epoch; only the seat to act's runs (sixtysix.play.clock).
        self.clock = clock
        #: How the match ended other than by the target (:class:`Ending`), and its winner then.
        self.ended = ended
        self._ended_winner = winner
        #: Seats of a game against a person that nobody holds a connection for, with the
        #: moment they lose the match if still away (the opponent being at the table).
        self.away: dict[int, float] = {}
        #: The pending check of the clock or of an away player (sixtysix.server.clocks).
        self.timer: asyncio.TimerHandle | None = None
        self.now = now
        #: When the last action was taken since the game was loaded (written to storage when
        #: the game leaves memory, and before each check for abandoned games).
        self.last_action_at: dt.datetime | None = None
        #: The analysis being worked out for a hint (one at a time per game).
        self.hint_task: asyncio.Task[None] | None = None
        #: Whether the player may take actions back (against the computer), and how often he did.
        self.takeback, self.taken_back = takeback, taken_back
        self.rules = rules
        self.kind = kind
        self.level = level
        self.match = match
        self.tokens = list(tokens)
        self.names = list(names)
        self.status = status
        self.rematch = rematch
        #: Offers waiting for the other player's answer: who made each, until when (server.offers).
        self.offers: dict[Offer, tuple[int, float]] = {}
        #: The computer's seat in a game against the computer.
        self.bot_seat: int | None = 1 if kind is GameKind.COMPUTER else None
        #: The computer player, made when it is first to act (sixtysix.server.computers).
        self.player: ComputerPlayer | None = None
        #: The game loop: both seats' actions come from outside (a client, or the computer
        #: asked in its worker thread); the computer player's hooks are seated when it is made.
        self.table = Table([None, None])
        if match.hand is not None:
            self.table.resume(match.hand)
        self.bot_task: asyncio.Task[None] | None = None
        self.connections: set[Connection] = set()
        #: The latest lines of the players' chat and of the spectators' (each line stored too).
        self.chat: dict[str, collections.deque[ChatLine]] = {
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
        #: ``Hall.presence_changed`` of sixtysix.server.hall), and the count the last one told.
        self.presence_timer: asyncio.TimerHandle | None = None
        self.presence_told = 0

    @classmethod
    def restored(cls, stored: StoredGame, *, rng: random.Random,
                 now: Callable[[], float] = time.time) -> Game:
        """The game as ``stored``: its record replayed (every action checked again by the
        engine), its clock and its latest lines of chat; its next hand dealt with ``rng``."""
        match = replay_stored(stored)
        match.rng = rng
        ended = Ending(stored.ended) if stored.ended in set(Ending) else None
        game = cls(stored.id, rules=Rules.from_json(stored.rules), kind=GameKind(stored.kind),
                   level=stored.level, match=match, tokens=stored.tokens, names=stored.names,
                   status=GameStatus(stored.status), rematch=stored.rematch, takeback=stored.takeback,
                   taken_back=stored.taken_back, clock=_stored_clock(stored), ended=ended,
                   winner=stored.winner if ended else None, now=now, users=stored.users, rated=stored.rated,
                   invited=stored.invited, addresses=stored.addresses, unrated=stored.unrated)
        for line in stored.chat:
            if line["room"] in game.chat:
                game.chat[line["room"]].append(ChatLine(type="chat", room=line["room"], seat=line["seat"],
                                                        name=line["name"], text=line["text"]))
        return game

    # Changes -----------------------------------------------------------------------
    def seat(self, seat: int, token: str, name: str, user: int | None, address: str | None) -> None:
        """``seat`` taken: its token's hash, the name shown, the account and client address."""
        self.tokens[seat] = token
        self.names[seat] = name
        self.users[seat] = user
        self.addresses[seat] = address

    def finish(self, ended: Ending, winner: int | None) -> None:
        """The match ended as ``ended`` says, won by ``winner`` (``None``: called off)."""
        self.ended, self._ended_winner = ended, winner
        self.status = ended.status

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

    def clock_json(self, at: float | None = None) -> ClockInfo | None:
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

    def seat_for(self, token: str | None, user: int | None) -> int | None:
        """The seat a client holds: its token's, else the seat its account holds (a seat
        taken by an account belongs to the account on every device; a guest's stays with
        the browser's token). ``None``: a spectator.

        >>> from sixtysix.rules import Rules
        >>> game = Game("g", rules=Rules(), kind=GameKind.PERSON, level=None, match=Match(Rules()),
        ...             tokens=(hash_token("t0"), hash_token("t1")), names=("Ann", "Bob"),
        ...             status=GameStatus.PLAYING, users=(None, 7))
        >>> game.seat_for("t0", None), game.seat_for(None, 7), game.seat_for("t0", 7), game.seat_for(None, 8)
        (0, 1, 0, None)
        """
        seat = self.seat_of(token)
        if seat is None and user is not None:
            held = [seat for seat, holder in enumerate(self.users)
                    if holder == user and seat != self.bot_seat]
            if len(held) == 1:  # (an account at both seats of an unrated game: by token only)
                seat = held[0]
        return seat

    def info(self) -> GameInfo:
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
            "offers": offers_json(self, at),
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

    def present(self) -> set[int | None]:
        """The seats held by a connection (``None``: somebody watches)."""
        return {conn.seat for conn in self.connections if not conn.closed}

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

    def state_for(self, seat: int | None, info: GameInfo | None = None,
                  last_hand: dict[str, Any] | None = None) -> StateMessage:
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
        if self.takeback or self.taken_back:
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
    """The live games in memory, backed by :class:`Storage`: the one object the routes,
    the relay, pairing and tournaments ask, which hands each request to the service of
    its concern (see the module)."""

    def __init__(self, storage: Storage, *, rng: random.Random | None = None,
                 shard: int | None = None, opponents: Opponents | None = None,
                 now: Callable[[], float] = time.time, grace: float = GRACE,
                 hand_break: float = HAND_BREAK, ratings: Ratings | None = None,
                 admission: Admission | None = None, rated_play: RatedPlay | None = None,
                 spectators: int | None = SPECTATORS, presence_interval: float = PRESENCE_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.storage = storage
        #: The players' ratings (``None``: no game is rated), the one limiter of games
        #: starting and the limits of rated play (``None``: no limit).
        self.ratings, self.admission, self.rated_play = ratings, admission, rated_play
        #: The computer opponents offered: the levels and the operator's engines.
        self.opponents = opponents if opponents is not None else Opponents()
        #: The time, in seconds since the epoch (clocks are stored so and survive a restart);
        #: a test passes its own.
        self.now = now
        #: Deals come from the operating system's generator: nobody can predict a deck.
        self.rng = rng if rng is not None else random.SystemRandom()
        self.games: dict[str, Game] = {}
        self.serving = Serving(shard)
        self.notices = Notices()
        self.clocks = ClockScheduler(self.games, now, grace=grace, hand_break=hand_break)
        self.computers = ComputerPlayers(self.opponents, self.rng)
        self.rating_desk = RatingDesk(storage, ratings, rated_play, now)
        self.service = GameService(storage, self.serving, self.clocks, self.rating_desk, self.computers,
                                   self.notices)
        self.hall = Hall(self.games, storage, self.service, self.clocks, self.computers,
                         spectators=spectators, presence_interval=presence_interval)
        self.bots = BotDriver(self.hall, self.service, self.clocks, self.computers)
        self.host = ShardHost(self.hall, self.serving, self.service, self.clocks, self.rating_desk, Game,
                              self.rng)
        self.gate = Gate(admission, rated_play, ratings)
        self.seating = Seating(self.host, self.service, self.gate, self.rating_desk, self.clocks,
                               self.notices, self.opponents, rng=self.rng, game_type=Game)
        self.chat = ChatDesk(storage, self.serving, clock)
        self.rematches = Rematches(self.seating, self.bots)
        self.offers = Offers(self.service, self.rematches, now)
        self.expiry = Expiry(self.hall, self.serving, self.clocks, self.computers, self.notices)
        # Time that changed a game may have given the computer its turn.
        self.clocks.due = self.check_time
        self.service.wake = self.bots.wake
        # Looked up at each match's end, so that it may be replaced (a process stopping
        # between storing a match's end and rating it is one that skips it).
        self.service.rate = lambda game: self._rate(game)

    # What the services share, as the server and the tests read (and set) it ------------
    @property
    def shard(self) -> int | None:
        """This process's number when several serve one database (see docs/web.md)."""
        return self.serving.shard

    @property
    def prefix(self) -> str:
        """How the ids of the games this process creates start (``s{shard}-``)."""
        return self.serving.prefix

    @property
    def held(self) -> dict[int, float]:
        """The shards this process serves, each until a :func:`time.monotonic` moment."""
        return self.serving.held

    @property
    def lobby_hooks(self) -> list[Callable[[], None]]:
        return self.notices.lobby_hooks

    @property
    def finished_hooks(self) -> list[Callable[[Game], None]]:
        return self.notices.finished_hooks

    @property
    def chat_limit(self) -> BucketsByKey:
        """Each seat's (and each spectator address's) budget of lines of chat."""
        return self.chat.limit

    @chat_limit.setter
    def chat_limit(self, limit: BucketsByKey) -> None:
        self.chat.limit = limit

    @property
    def spectators(self) -> int | None:
        """Spectators a game takes at once (``None``: no limit)."""
        return self.hall.spectators

    @property
    def presence_interval(self) -> float:
        """Seconds over which spectators coming and going make one presence message."""
        return self.hall.presence_interval

    @presence_interval.setter
    def presence_interval(self, seconds: float) -> None:
        self.hall.presence_interval = seconds

    # Making games and taking seats (sixtysix.server.seating) ----------------------------
    def create(self, *, rules: Rules, kind: GameKind | str, level: str | None = None, name: str = "",
               rematch_of: Game | None = None, creator: str | None = None, takeback: bool = False,
               clock: TimeControl | None = None, user: tuple[int, str] | None = None, rated: bool = False,
               invited: tuple[int, str] | None = None, counted: bool = False) -> tuple[Game, str]:
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
        return self.seating.create(rules=rules, kind=kind, level=level, name=name, rematch_of=rematch_of,
                                   creator=creator, takeback=takeback, clock=clock, user=user, rated=rated,
                                   invited=invited, counted=counted)

    def join(self, game_id: str, name: str = "", user: tuple[int, str] | None = None,
             address: str | None = None, *, counted: bool = False) -> tuple[Game, int, str]:
        """Take the free seat of a game against a person; returns the seat and its token.
        ``user`` is the account (id and name) of a logged-in player: a rated game needs one,
        and not the creator's. ``address`` is the client's: the game is counted against it
        and the account as a new one (see :meth:`create`, also for ``counted``)."""
        return self.seating.join(game_id, name, user, address, counted=counted)

    def check_start(self, starters: list[Starter], *, rated: bool = False, rate: bool = True) -> None:
        """Refuse, changing nothing, a game between the people ``starters`` (seat 0's first)
        that :meth:`create` and :meth:`join` would refuse for a limit."""
        self.gate.check_start(starters, rated=rated, rate=rate)

    def check_rated(self, rules: Rules, kind: GameKind | str, level: str | None,
                    user: tuple[int, str] | None, takeback: bool) -> None:
        """Refuse a rated game that cannot be rated (see :meth:`create`)."""
        self.gate.check_rated(rules, game_kind(kind), level, user, takeback)

    def make_rematch(self, game: Game, seat: int) -> Game:
        """A new match with the same players and settings; both clients are told its id."""
        return self.rematches.make(game, seat)

    # Shards and games in memory (sixtysix.server.serving, sixtysix.server.shard_host) --
    def holds(self, shard: int | None) -> bool:
        """Whether this process may serve (write) the games of ``shard`` now."""
        return self.serving.holds(shard)

    def serves(self, game_id: str) -> bool:
        """Whether this process serves the game ``game_id`` now."""
        return self.serving.serves(game_id)

    def get(self, game_id: str) -> Game:
        """A game by id, from memory or rebuilt from storage; unknown ids raise :class:`GameError`."""
        return self.host.get(game_id)

    def resume_all(self, abandoned_after: float | None = None) -> int:
        """Rebuild every live game from its record (at start-up); returns how many."""
        return self.host.resume_all(abandoned_after)

    def read_shard(self, shard: int, abandoned_after: float | None = None) -> list[StoredGame]:
        """The unfinished games of ``shard`` as stored (storage only: for a worker thread)."""
        return self.host.read_shard(shard, abandoned_after)

    def take_shard(self, shard: int, abandoned_after: float | None = None,
                   stored: list[StoredGame] | None = None) -> list[StoredGame]:
        """Start serving the games of ``shard``: its unfinished games, to be :meth:`resume`\\ d."""
        return self.host.take_shard(shard, abandoned_after, stored)

    def resume(self, stored: StoredGame) -> Game | None:
        """Rebuild a game :meth:`take_shard` returned (``None``: a client had it rebuilt)."""
        return self.host.resume(stored)

    def resume_shard(self, shard: int, abandoned_after: float | None = None) -> list[Game]:
        """:meth:`take_shard` and every game rebuilt at once; returns them."""
        return [game for stored in self.take_shard(shard, abandoned_after)
                if (game := self.resume(stored)) is not None]

    def give_up(self, shard: int) -> list[str]:
        """Stop serving the games of ``shard`` (handed to another process); their ids."""
        return self.host.give_up(shard)

    def rate_missing(self, limit: int = 200, prefix: str | None = None) -> int:
        """Rate the finished rated matches that were never rated; returns how many."""
        return self.rating_desk.rate_missing(self.prefix if prefix is None else prefix, limit)

    def _rate(self, game: Game) -> None:
        """A rated match ended by the rules: each player's rating updated, once."""
        self.rating_desk.rate(game)

    def expire_idle(self, age: float) -> list[str]:
        """Mark the live games nobody has acted in for ``age`` seconds abandoned; their ids."""
        return self.expiry.expire_idle(age)

    def lobby_changed(self, game: Game | None = None) -> None:
        """Tell the lobby hooks (``game``: the one that changed)."""
        self.notices.lobby_changed(game)

    # Playing (sixtysix.server.service) ---------------------------------------------------
    def act(self, game: Game, seat: int, action: Action, *, hand_number: int | None = None,
            index: int | None = None) -> None:
        """``seat`` takes ``action``: checked, applied, stored, broadcast."""
        self.service.act(game, seat, action, hand_number=hand_number, index=index)
        self.bots.wake(game)
        self.clocks.schedule(game)

    def take_back(self, game: Game, seat: int, *, hand_number: int | None = None,
                  index: int | None = None) -> None:
        """``seat`` takes back its last action of the hand being played (and the computer's after it)."""
        self.service.take_back(game, seat, hand_number=hand_number, index=index)

    def resign(self, game: Game, seat: int) -> None:
        """``seat`` gives up the match: the opponent wins it."""
        self.service.resign(game, seat)

    def abort(self, game: Game, seat: int) -> None:
        """Call the match off (before its first trick is complete): nobody wins."""
        self.service.abort(game, seat)

    def decline(self, game: Game, user_id: int) -> None:
        """The player challenged says no, or the challenger takes the challenge back."""
        self.service.decline(game, user_id)

    def check_time(self, game: Game, at: float | None = None) -> bool:
        """Apply what time decided by ``at`` (now); returns whether the game changed."""
        return self.service.check_time(game, at)

    def wake_bot(self, game: Game) -> None:
        """Let the computer play if it is to act (at most one task per game)."""
        self.bots.wake(game)

    def handle(self, game: Game, seat: int | None, message: Message) -> Reply | None:
        """Apply one client message; returns a direct reply (an error, a pong) or ``None``.
        Refused messages change nothing. A hint and a line of chat are answered on their
        connection (:meth:`ask_hint`, :meth:`say`)."""
        if isinstance(message, Ping):
            return Pong(type="pong") if message.id is None else Pong(type="pong", id=message.id)
        if isinstance(message, Hello):
            return error(Reason.BAD_MESSAGE, problem="already introduced: hello is only the first message")
        if seat is None:
            return error(Reason.SPECTATOR)
        if isinstance(message, Hint | Chat):
            return error(Reason.BAD_MESSAGE, problem="this message needs the connection to answer on")
        try:
            self._play(game, seat, message)
        except GameError as exc:
            return refusal_message(exc)
        return None

    def _play(self, game: Game, seat: int,
              message: Act | Rematch | Resign | Abort | TakeBack | Decline) -> None:
        # Between people a rematch, a takeback and calling off are offers the other accepts.
        if isinstance(message, Rematch):
            self.offers.ask(game, seat, Offer.REMATCH)
        elif isinstance(message, Resign):
            self.resign(game, seat)
        elif isinstance(message, Abort):
            self.offers.ask(game, seat, Offer.ABORT)
        elif isinstance(message, TakeBack):
            self.offers.ask(game, seat, Offer.TAKEBACK, hand_number=message.hand, index=message.index)
        elif isinstance(message, Decline):
            self.offers.decline(game, seat, message.offer)
        else:
            self.act(game, seat, message.action, hand_number=message.hand, index=message.index)

    def say(self, game: Game, seat: int | None, conn: Connection, message: Chat) -> ErrorMessage | None:
        """A line of chat from ``conn`` (sixtysix.server.chat); an error reply, or ``None``."""
        return self.chat.say(game, seat, conn, message)

    def ask_hint(self, game: Game, seat: int | None, conn: Connection) -> ErrorMessage | None:
        """Start working out a hint for ``seat`` (sixtysix.server.hints); an error reply, or ``None``."""
        return ask_hint(game, seat, conn)

    # Connections (sixtysix.server.hall) --------------------------------------------------
    def admit(self, game: Game, seat: int | None) -> None:
        """Refuse a spectator when the game has as many as it takes (a seat is always taken)."""
        self.hall.admit(game, seat)

    def attach(self, game: Game, conn: Connection) -> None:
        """``conn`` joins the game (and the computer plays, if it is to act)."""
        self.hall.attach(game, conn)
        self.bots.wake(game)

    def detach(self, game: Game, conn: Connection) -> None:
        """``conn`` leaves the game (which leaves memory when nobody is at it)."""
        self.hall.detach(game, conn)

    def presence_changed(self, game: Game) -> None:
        """Spectators came or went: told in one ``presence`` message, soon."""
        self.hall.presence_changed(game)

    def tell_presence(self, game: Game) -> None:
        """Send the presence message now, if the count changed."""
        self.hall.tell_presence(game)

    def release(self, game: Game) -> None:
        """Done with a game for now (after a REST request, a last connection): it leaves
        memory if nobody is at it."""
        self.hall.forget(game)

    def arriving(self, game_id: str) -> contextlib.AbstractContextManager[None]:
        """While a client connects to ``game_id``, the game is kept in memory."""
        return self.hall.arriving(game_id)

    async def close(self) -> None:
        """At shutdown: stop the computers' tasks and close every computer player."""
        await self.bots.close(list(self.games.values()))


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


def _stored_clock(stored: StoredGame) -> Clock | None:
    """The stored game's clock, as it stood; ``None`` when it has none, or when it cannot
    be read (logged: the game goes on without)."""
    if stored.clock is None:
        return None
    try:
        control = TimeControl.parse(stored.clock)
        return Clock(control) if stored.clock_state is None else Clock.from_json(control, stored.clock_state)
    except ClockError:
        log.exception("game %s: its stored clock cannot be read; it goes on without", stored.id)
        return None


def parse_clock(text: object) -> TimeControl | None:
    """A time control from a request (``5+3``, ``20/move``), or ``None`` for no clock.
    Each decision gets at least a second.

    >>> parse_clock("3+2"), parse_clock(None)
    (TimeControl(kind=<Kind.MATCH: 'match'>, seconds=180.0, increment=2.0), None)
    """
    if text is None or text == "":
        return None
    if not isinstance(text, str) or len(text) > 16:
        raise GameError(Reason.BAD_CLOCK_TEXT)
    try:
        control = TimeControl.parse(text)
    except ClockError as exc:
        raise GameError(Reason.BAD_CLOCK, problem=exc) from None
    if control.seconds < 1:
        raise GameError(Reason.SHORT_CLOCK)
    return control


def parse_rules(text: object, target: object = None) -> Rules:
    """Rules from a request: a preset and options as text, and an optional target."""
    if text is None:
        text = "classic"
    if not isinstance(text, str) or len(text) > 200:
        raise GameError(Reason.BAD_RULES_TEXT)
    try:
        rules = Rules.parse(text)
        if target is not None:
            if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 100:
                raise GameError(Reason.BAD_TARGET)
            rules = rules.replace(target=target)
    except ParseError as exc:
        raise GameError(Reason.BAD_RULES, problem=exc) from None
    if rules.target < 1 or rules.target > 100:
        raise GameError(Reason.BAD_TARGET)
    return rules
