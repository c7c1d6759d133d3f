"""The games in memory and the clients at them: connections attached and detached,
spectators counted and told how many watch, and a game nobody is at dropped from
memory (it is all in storage, and rebuilt when asked for)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sixtysix.server.clocks import ClockScheduler
from sixtysix.server.computers import ComputerPlayers
from sixtysix.server.connection import Connection, Shared
from sixtysix.server.errors import GameError, Reason, error
from sixtysix.server.messages import Presence
from sixtysix.server.service import GameService
from sixtysix.server.storage import FAILURES, Storage

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["PRESENCE_INTERVAL", "SPECTATORS", "Hall"]

log = logging.getLogger("sixtysix.server")

#: Spectators one game takes at once (``sixtysix serve --spectators-per-game``).
SPECTATORS = 200
#: Seconds over which spectators coming and going are gathered into one presence message.
PRESENCE_INTERVAL = 1.0


class Hall:
    """The games in memory (``games``, by id) and their connections."""

    def __init__(self, games: dict[str, Game], storage: Storage, service: GameService, clocks: ClockScheduler,
                 computers: ComputerPlayers, *, spectators: int | None = SPECTATORS,
                 presence_interval: float = PRESENCE_INTERVAL) -> None:
        self.games = games
        self.storage = storage
        self.service = service
        self.clocks = clocks
        self.computers = computers
        #: Spectators a game takes at once (``None``: no limit); seats are always taken.
        self.spectators = spectators
        #: Seconds over which spectators' arrivals and departures make one presence message.
        self.presence_interval = presence_interval
        #: Games with clients connecting (see :meth:`arriving`), and how many.
        self._arriving: collections.Counter[str] = collections.Counter()

    def admit(self, game: Game, seat: int | None) -> None:
        """Refuse a spectator when the game has as many as it takes (a seat is always taken)."""
        if seat is None and self.spectators is not None and game.spectators >= self.spectators:
            raise GameError(Reason.TOO_MANY_SPECTATORS, n=self.spectators)

    def attach(self, game: Game, conn: Connection) -> None:
        """``conn`` joins the game: told the state and the chat of its room, and a player
        back in time is no longer away."""
        game.connections.add(conn)
        at = self.clocks.now()
        away = set(game.away)
        self.clocks.update_away(game, at)
        self.service.check_time(game, at)  # a clock that ran out while nobody was at the table
        if set(game.away) != away:
            game.broadcast()  # a player came back: everybody told, this connection too
        else:
            conn.push(game.state_for(conn.seat))
            if conn.seat is None:
                self.presence_changed(game)  # one spectator more: told with the others, later
        for line in game.chat["players" if conn.seat is not None else "spectators"]:
            conn.push(line)
        if game.bot_seat is not None and not self.computers.offered(game) and not game.over:
            conn.push(error(Reason.LEVEL_NOT_OFFERED, level=str(game.level)))

    def detach(self, game: Game, conn: Connection) -> None:
        """``conn`` leaves the game: a player gone is away from now, and a game nobody is
        at any more leaves memory."""
        game.connections.discard(conn)
        conn.close()
        if not game.connections:
            self.forget(game)
            return
        away = set(game.away)
        self.clocks.update_away(game, self.clocks.now())
        if set(game.away) != away:
            game.broadcast()  # a player left
        elif conn.seat is None:
            self.presence_changed(game)  # one spectator fewer
        self.clocks.schedule(game)

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
        message = Shared(Presence(type="presence", spectators=count))
        for conn in game.connections:
            conn.tell_presence(message)

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

    def forget(self, game: Game) -> None:
        """Drop a game nobody is connected to from memory: it is all in storage, and is rebuilt
        when asked for. Never while the computer is thinking, which would leave two copies."""
        if not game.connections and (game.bot_task is None or game.bot_task.done()) and \
                game.id not in self._arriving and self.games.get(game.id) is game:
            self.drop(game)

    def drop(self, game: Game) -> None:
        """Take a game out of memory: its computer player closed, its timers stopped, when it
        was last played stored."""
        del self.games[game.id]
        self.computers.close(game)
        self.clocks.cancel(game)
        if game.presence_timer is not None:
            game.presence_timer.cancel()
            game.presence_timer = None
        game.away.clear()
        if game.last_action_at is not None:
            self.touch(game)

    def touch(self, game: Game) -> None:
        """Store when the game's last action was taken (actions are stored without a time)."""
        assert game.last_action_at is not None
        try:
            self.storage.touch(game.id, game.last_action_at)
        except FAILURES:  # the time of a last action is not worth a failed request
            log.exception("could not store when game %s was last played", game.id)
