"""The computer at the table: when it is to act, it thinks in a worker thread on its
own view (sixtysix.server.players) and its choice is applied on the event loop, like
any player's. One task per game at most."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from sixtysix.errors import BotError, Forfeit
from sixtysix.game.hand import Hand
from sixtysix.server.clocks import ClockScheduler
from sixtysix.server.computers import ComputerPlayers
from sixtysix.server.errors import GameError, Reason, error
from sixtysix.server.hall import Hall
from sixtysix.server.service import GameService
from sixtysix.server.status import GameStatus

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["BotDriver"]

log = logging.getLogger("sixtysix.server")


class BotDriver:
    """Lets the computers of the games in ``hall`` play."""

    def __init__(self, hall: Hall, service: GameService, clocks: ClockScheduler,
                 computers: ComputerPlayers) -> None:
        self.hall = hall
        self.service = service
        self.clocks = clocks
        self.computers = computers

    def wake(self, game: Game) -> None:
        """Let the computer play if it is to act (at most one task per game)."""
        if game.bot_seat is None or game.status is not GameStatus.PLAYING or game.to_act != game.bot_seat:
            return
        if not self.computers.offered(game):
            return  # the opponent is not offered here (the hall tells the players)
        if game.bot_task is not None and not game.bot_task.done():
            return
        game.bot_task = asyncio.get_running_loop().create_task(self._moves(game))

    async def _moves(self, game: Game) -> None:
        try:
            await self._plays(game)
        finally:
            if not game.connections:
                game.bot_task = None  # this task is ending: nothing holds the game any more
                self.hall.forget(game)

    def _to_act(self, game: Game) -> bool:
        playing = game.status is GameStatus.PLAYING
        return playing and game.bot_seat is not None and game.to_act == game.bot_seat

    async def _plays(self, game: Game) -> None:
        while self._to_act(game) and await self._move(game):
            pass

    async def _move(self, game: Game) -> bool:
        """One action of the computer (or a hand it forfeits), everybody told; ``False``
        when it stops."""
        seat = game.bot_seat
        player = self.computers.player(game)
        hand = game.hand
        if seat is None or player is None or hand is None:
            return False
        seen = (len(game.match.hands), len(hand.actions))
        try:
            action = await player.choose(hand.view(seat))
        except Forfeit as exc:
            # An external engine failed (crashed, timed out, sent an illegal action):
            # it loses the hand, and the match goes on (docs/protocol.md).
            # The server's count of the hand: the engine's own may start later (a game
            # resumed after a restart, a hand told again after a takeback).
            log.warning("game %s: %s", game.id, exc.at(seen[0]))
            return self._forfeit(game, hand, seat)
        except Exception:
            # A boundary: a computer player is code of its own (a bot, an engine's program
            # behind it); whatever it raises, the game is kept as it was, and the computer
            # tries again when a client connects.
            log.exception("the computer failed in game %s", game.id)
            self._stuck(game)
            return False
        if game.hand is not hand or (len(game.match.hands), len(hand.actions)) != seen:
            return True  # cannot happen (only the computer acts now); never apply a stale choice
        return self._apply(game, seat, action)

    def _forfeit(self, game: Game, hand: Hand, seat: int) -> bool:
        if game.hand is not hand or hand.is_over() or not self.service.forfeit(game, seat):
            return False
        self._played(game)
        return True

    def _played(self, game: Game) -> None:
        game.broadcast()
        self.clocks.schedule(game)

    def _apply(self, game: Game, seat: int, action: object) -> bool:
        try:
            chosen = game.table.check(seat, action)  # a choice outside the legal ones: BotError
            self.service.apply(game, seat, chosen)
        except GameError as exc:
            if exc.code == "time":  # it thought too long: the clock's rule was applied
                return True
            if exc.code != "moved":  # else another process serves the game now
                log.error("the computer's action %s was refused in game %s: %s", action, game.id, exc)
                self._stuck(game)
            return False
        except BotError as exc:
            log.error("the computer's action %s was refused in game %s: %s", action, game.id, exc)
            self._stuck(game)
            return False
        self._played(game)
        return True

    @staticmethod
    def _stuck(game: Game) -> None:
        """Tell the people at the table that the computer could not move (logged already):
        the game is kept as it was, and the computer tries again when a client connects."""
        for conn in game.connections:
            conn.push(error(Reason.COMPUTER_FAILED))

    async def close(self, games: list[Game]) -> None:
        """At shutdown: stop the computers' tasks and close every computer player; an
        engine's program is killed at once, also one that is thinking (its game resumes
        after the restart at the same turn: an action not made is not stored)."""
        tasks = [g.bot_task for g in games if g.bot_task is not None]
        for task in tasks:
            task.cancel()  # first: a choice the kill below ends is no forfeit
        for game in games:
            if game.player is not None:
                game.player.interrupt()
        for task in tasks:
            # The tasks' own failures were logged where they happened (see _move).
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for game in games:
            self.computers.close(game)
        await self.computers.closed()
