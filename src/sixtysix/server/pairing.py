"""Quick pairing: a player asks for a game now, and gets the first person who asks for
the same game and has a similar rating; if nobody comes within the wait he chose, the
computer level whose rating is nearest his own.

A request waits (``POST /api/pairing`` is answered when the game exists) in this
process's queue. Two requests match when they ask for the same rules, target, clock
and rated-or-not, their ratings (a guest counts as a new player, 1500) are at most the
reach of the longer wait apart (:func:`reach`: :data:`RANGE` at first, wider by
:data:`WIDEN` points a second of waiting up to :data:`MAX_RANGE`, as lichess widens a
seek's rating range; the queue is looked over again every :data:`STEP` seconds, so that two
players waiting meet once their reach covers them), they are not the same account, and no
limit keeps the two from
that game (sixtysix.server.fairplay: the server counts each request against the
creation rate when it comes, and the game made for it against the caps). The one who waited longer
takes seat 0 and is told by the answer to his request, the newcomer by his own. A
request whose client goes away leaves the queue, and a server that stops answers its
waiting requests 503 (a load balancer takes them to another process). Several server processes each keep
a queue of their own (see docs/web.md, "Running several server processes").
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sixtysix.play.clock import TimeControl
from sixtysix.rules import Rules
from sixtysix.server.errors import GameError, Reason, stopping
from sixtysix.server.fairplay import Starter
from sixtysix.server.games import Game, GameManager
from sixtysix.server.ratings import pool_of
from sixtysix.server.status import GameKind

__all__ = ["MAX_RANGE", "MAX_WAIT", "RANGE", "STEP", "WIDEN", "Paired", "Pairing", "Request", "reach"]

#: The largest rating difference between two people paired at once, and how much wider
#: it grows for each second the longer waiting of the two has waited, up to the most.
RANGE = 300.0
WIDEN = 10.0
MAX_RANGE = 800.0
#: Seconds between two looks over the queue for players whose reach has grown.
STEP = 2.0
#: The longest wait a player may choose, in seconds.
MAX_WAIT = 600.0


@dataclass(frozen=True)
class Request:
    """What a player asks for."""

    rules: Rules
    clock: TimeControl | None
    rated: bool
    #: The account (id and name), or ``None`` for a guest.
    user: tuple[int, str] | None
    name: str
    creator: str

    @property
    def key(self) -> tuple[object, ...]:
        return (self.rules, None if self.clock is None else str(self.clock), self.rated)

    def same_player(self, other: Request) -> bool:
        """Whether ``other`` is this player's too: the same account, or a guest from the
        same address."""
        if self.user is not None or other.user is not None:
            return self.user is not None and other.user is not None and self.user[0] == other.user[0]
        return self.creator == other.creator

    @property
    def starter(self) -> Starter:
        """Who asks, for the limits of games starting (sixtysix.server.fairplay)."""
        return Starter(self.creator, None if self.user is None else self.user[0])


@dataclass(frozen=True)
class Paired:
    """A player's answer: the game, his seat and its token, and whom he plays."""

    game: Game
    seat: int
    token: str
    opponent: GameKind


def reach(waited: float) -> float:
    """The rating difference a player who waited ``waited`` seconds is paired across.

    >>> reach(0), reach(20), reach(600)
    (300.0, 500.0, 800.0)
    """
    return min(RANGE + WIDEN * max(waited, 0.0), MAX_RANGE)


@dataclass
class _Waiting:
    request: Request
    rating: float
    answer: asyncio.Future[Paired]
    order: int = field(default=0)
    #: When he began to wait (the pairing's clock).
    since: float = 0.0


class Pairing:
    """The queue of players waiting for an opponent (in one server process)."""

    def __init__(self, manager: GameManager, clock: Callable[[], float] = time.monotonic,
                 step: float = STEP) -> None:
        self.manager = manager
        self.waiting: list[_Waiting] = []
        self._order = itertools.count()
        self.stopped = False
        #: Seconds that only go forward (a test moves them by hand), and between two looks
        #: over the queue (:meth:`widen`).
        self.clock = clock
        self.step = step
        self._widened: float | None = None

    def stop(self) -> None:
        """The server stops: every waiting player is answered 503 (``stopping``; a load
        balancer asks another process, where he waits again), and nobody new waits here."""
        self.stopped = True
        for waiting in self.waiting:
            if not waiting.answer.done():
                waiting.answer.set_exception(stopping())

    def rating_of(self, request: Request) -> float:
        """The player's rating in the pool of the rules asked for (1500 for a guest)."""
        ratings = self.manager.ratings
        pool = pool_of(request.rules)
        if ratings is None or request.user is None or pool is None:
            return 1500.0
        return ratings.standing(request.user[0], pool).rating.rating

    def check(self, request: Request) -> None:
        """Refuse at once what could never be paired: a rated request without an account
        or under other rules than a preset's."""
        if request.rated:
            if request.user is None:
                raise GameError(Reason.RATED_NEEDS_ACCOUNT)
            if pool_of(request.rules) is None:
                raise GameError(Reason.RATED_PRESET)

    async def seek(self, request: Request, wait: float) -> Paired:
        """A game for ``request``: with a person who asks for the same game, else after
        ``wait`` seconds with the computer level rated nearest the player."""
        self.check(request)
        if self.stopped:
            raise stopping()
        wait = min(max(wait, 0.0), MAX_WAIT)
        rating = self.rating_of(request)
        now = self.clock()
        for other in self.waiting:
            if self._matches(other, request, rating, now) and self._may_play(other.request, request):
                self.waiting.remove(other)
                return self._pair(other, request)
        loop = asyncio.get_running_loop()
        waiting = _Waiting(request, rating, loop.create_future(), next(self._order), now)
        self.waiting.append(waiting)
        deadline = loop.time() + wait
        try:
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    break
                try:
                    return await asyncio.wait_for(asyncio.shield(waiting.answer), min(left, self.step))
                except TimeoutError:
                    self._widen_once_a_step()  # reaches grew: someone waiting may be near enough now
            if waiting.answer.done():  # paired in the very moment the wait ended
                return waiting.answer.result()
            return self._computer(request, rating)
        finally:
            if waiting in self.waiting:
                self.waiting.remove(waiting)  # answered, gone, or given the computer

    def widen(self) -> None:
        """Pair two players waiting whose ratings the longer wait's reach now covers (the
        longer waiting takes seat 0), each game wished for apart."""
        now = self.clock()
        by_game: dict[tuple[object, ...], list[_Waiting]] = {}
        for waiting in sorted(self.waiting, key=lambda w: w.order):
            by_game.setdefault(waiting.request.key, []).append(waiting)
        for queue in by_game.values():
            for i, first in enumerate(queue):
                if first.answer.done() or first not in self.waiting:
                    continue
                for second in queue[i + 1:]:
                    if second.answer.done() or second not in self.waiting:
                        continue
                    if self._matches(first, second.request, second.rating, now) and \
                            self._may_play(first.request, second.request):
                        self.waiting.remove(first)
                        self.waiting.remove(second)
                        second.answer.set_result(self._pair(first, second.request))
                        break

    def _widen_once_a_step(self) -> None:
        """:meth:`widen`, once a step however many players' tasks ask."""
        now = self.clock()
        if self._widened is None or now - self._widened >= self.step / 2:
            self._widened = now
            self.widen()

    def outlook(self, request: Request, waited: float) -> dict[str, Any]:
        """What a player waiting ``waited`` seconds for ``request`` is told: his rating,
        the ratings he is paired across now, how many others wait for the same game, and
        the computer level he gets if nobody comes (``None``: none is rated)."""
        rating = self.rating_of(request)
        span = reach(waited)
        others = sum(1 for w in self.waiting
                     if w.request.key == request.key and not w.request.same_player(request))
        return {"rating": round(rating), "low": round(rating - span), "high": round(rating + span),
                "widens": span < MAX_RANGE, "waiting": others, "computer": self._nearest_level(rating)}

    def _matches(self, other: _Waiting, request: Request, rating: float, now: float) -> bool:
        mine, theirs = request.user, other.request.user
        return (other.request.key == request.key and not other.answer.done()
                and abs(other.rating - rating) <= reach(now - other.since)
                and (mine is None or theirs is None or mine[0] != theirs[0]))

    def _may_play(self, first: Request, second: Request) -> bool:
        """Whether no limit stops a game between the two (the one limiter of games
        starting, the rated games a pair may play a day: sixtysix.server.fairplay). Each
        request was counted against the creation rate when it came."""
        try:
            self.manager.check_start([first.starter, second.starter], rated=first.rated, rate=False)
        except GameError:
            return False  # not these two now: each may meet another, or the computer
        return True

    def _pair(self, first: _Waiting, second: Request) -> Paired:
        request = first.request
        game, token = self.manager.create(rules=request.rules, kind=GameKind.PERSON, name=request.name,
                                          user=request.user, clock=request.clock, rated=request.rated,
                                          creator=request.creator, counted=True)
        _, seat, other_token = self.manager.join(game.id, second.name, user=second.user,
                                                 address=second.creator, counted=True)
        first.answer.set_result(Paired(game, 0, token, GameKind.PERSON))
        return Paired(game, seat, other_token, GameKind.PERSON)

    def _nearest_level(self, rating: float) -> str | None:
        """The computer level offered here whose rating is nearest ``rating``."""
        manager = self.manager
        levels = {} if manager.ratings is None else manager.ratings.levels
        offered = [level for level in levels if level in manager.opponents]
        return min(offered, key=lambda name: abs(levels[name].rating - rating)) if offered else None

    def _computer(self, request: Request, rating: float) -> Paired:
        manager = self.manager
        level = self._nearest_level(rating)
        if level is None:
            raise GameError(Reason.NO_OPPONENT)  # not 503: a load balancer would try again
        game, token = manager.create(rules=request.rules, kind=GameKind.COMPUTER, level=level,
                                     name=request.name, user=request.user, clock=request.clock,
                                     rated=request.rated, creator=request.creator, counted=True)
        manager.wake_bot(game)
        return Paired(game, 0, token, GameKind.COMPUTER)
