"""The games this process serves, brought into memory: a game asked for is rebuilt from
its stored record (every action checked again by the engine), every unfinished game at
start-up, a whole shard when this process takes it over, and a shard's games let go
when another process takes it."""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING

from sixtysix.server.clocks import ClockScheduler
from sixtysix.server.errors import GameError, Reason, error
from sixtysix.server.hall import Hall
from sixtysix.server.messages import CloseOrder
from sixtysix.server.rating_desk import RatingDesk
from sixtysix.server.service import GameService
from sixtysix.server.serving import Serving, shard_prefix
from sixtysix.server.status import GameStatus
from sixtysix.server.storage import FAILURES, StoredGame

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["ShardHost"]

log = logging.getLogger("sixtysix.server")


class ShardHost:
    """Loads the games of the shards ``serving`` holds into ``hall``; ``game_type`` makes
    a live game of a stored one (``Game.restored``: given by the live games' module,
    sixtysix.server.games, which assembles this one)."""

    def __init__(self, hall: Hall, serving: Serving, service: GameService, clocks: ClockScheduler,
                 ratings: RatingDesk, game_type: type[Game], rng: random.Random) -> None:
        self.hall = hall
        self.games = hall.games
        self.storage = hall.storage
        self.serving = serving
        self.service = service
        self.clocks = clocks
        self.ratings = ratings
        self.game_type = game_type
        #: Deals the rebuilt matches' next hands.
        self.rng = rng
        #: Games of a shard just taken over and not rebuilt yet: whoever rebuilds one first
        #: (:meth:`resume`, or a client asking for it) restarts its clock (see :meth:`rebuild`).
        self._restart: set[str] = set()

    def get(self, game_id: str) -> Game:
        """A game by id, from memory or rebuilt from storage; unknown ids raise :class:`GameError`."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 32:
            raise GameError(Reason.NO_GAME)
        if not self.serving.serves(game_id):
            # Never two processes writing one game: this one is another process's. A load
            # balancer may try the next process (deploy/nginx.conf).
            raise GameError(Reason.MISDIRECTED)
        stored = self.storage.load(game_id)
        if stored is None:
            raise GameError(Reason.NO_GAME)
        restart = game_id in self._restart  # of a shard just taken over, not rebuilt yet
        self._restart.discard(game_id)
        game = self.games[game_id] = self.rebuild(stored, restart=restart)
        return game

    def resume_all(self, abandoned_after: float | None = None) -> int:
        """Rebuild every live game from its record (at start-up); returns how many. With
        ``abandoned_after`` (seconds), games untouched for that long are first marked
        abandoned and not resumed."""
        prefix = self.serving.prefix
        if abandoned_after is not None:
            expired = self.storage.expire(abandoned_after, prefix=prefix)
            if expired:
                log.info("%d games untouched for %s s marked abandoned", len(expired), abandoned_after)
        count = 0
        for stored in self.storage.unfinished(prefix=prefix):
            if stored.id not in self.games:
                self.games[stored.id] = self.rebuild(stored)
                count += 1
        self.ratings.rate_missing(prefix)
        return count

    def rebuild(self, stored: StoredGame, restart: bool = True) -> Game:
        """The game from its record. Its clock is as stored, and keeps running for a game
        that was only out of memory; after a restart (``restart``) the seat to act's clock
        starts again now: time the server was down is nobody's."""
        game = self.game_type.restored(stored, rng=self.rng, now=self.clocks.now)
        self.ratings.note(game)
        if not game.match.is_over() and game.ended is None:
            hand = game.hand
            if hand is None or hand.is_over():
                self.service.deal(game)  # stopped between the end of a hand and the next deal
        clock = game.clock
        if clock is not None and (restart or clock.running is None):
            clock.running = None
            self.clocks.run_clock(game, self.clocks.now())
        return game

    # Shards ------------------------------------------------------------------------
    def read_shard(self, shard: int, abandoned_after: float | None = None) -> list[StoredGame]:
        """The unfinished games of ``shard`` as stored (those untouched for
        ``abandoned_after`` seconds marked abandoned first). Storage only: a server may
        run it in a thread while it goes on answering."""
        prefix = shard_prefix(shard)
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
        self.ratings.rate_missing(shard_prefix(shard))
        return stored

    def resume(self, stored: StoredGame) -> Game | None:
        """Rebuild a game :meth:`take_shard` returned, the clock of its seat to act starting
        now (time with no server is nobody's); ``None`` if a client had it rebuilt already."""
        if stored.id not in self._restart or stored.id in self.games:
            return None
        self._restart.discard(stored.id)
        game = self.games[stored.id] = self.rebuild(stored)
        return game

    def give_up(self, shard: int) -> list[str]:
        """Stop serving the games of ``shard`` (handed to another process): each game's
        running clock is stored as it stands, its clients are told to reconnect (they
        reach the new holder), and it leaves memory. Returns the games' ids."""
        self.serving.held.pop(shard, None)
        prefix = shard_prefix(shard)
        self._restart = {game_id for game_id in self._restart if not game_id.startswith(prefix)}
        gone = [game for game in self.games.values() if game.id.startswith(prefix)]
        for game in gone:
            self._let_go(game)
        return [game.id for game in gone]

    def _let_go(self, game: Game) -> None:
        if game.bot_task is not None and not game.bot_task.done():
            game.bot_task.cancel()
        clock = game.clock
        if clock is not None and clock.running is not None and game.status is GameStatus.PLAYING and \
                not game.over:
            stopped = clock.copy()
            stopped.pause(self.clocks.now())
            try:
                self.storage.set_clock(game.id, stopped.to_json())
            except FAILURES:  # the clock goes on as last stored: the game itself is safe
                log.exception("could not store the clock of game %s", game.id)
        for conn in list(game.connections):
            conn.push(error(Reason.MOVED))
            conn.push(CloseOrder(type="_close", code=1012))
        game.connections.clear()
        self.hall.drop(game)
