"""The computer players of the games in memory: each made the first time it is to act,
shown the hand from its seat, and closed (an engine's program stopped) once it has
heard everything."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Future
from typing import TYPE_CHECKING

from sixtysix.bots import make_bot
from sixtysix.game.player import Hooks
from sixtysix.server.opponents import Opponents
from sixtysix.server.players import ComputerPlayer

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["ComputerPlayers"]


class ComputerPlayers:
    """The computer opponents offered (``opponents``), and the players made of them."""

    def __init__(self, opponents: Opponents, rng: random.Random) -> None:
        self.opponents = opponents
        #: Seeds the players' own generators.
        self.rng = rng
        #: Computer players being closed (their last calls still running): waited for at shutdown.
        self._closing: set[Future[None]] = set()

    def offered(self, game: Game) -> bool:
        """Whether this server offers the game's computer opponent now."""
        return game.level in self.opponents

    def player(self, game: Game) -> ComputerPlayer | None:
        """The game's computer player, made the first time it is to act (after a restart,
        too): it is shown the current hand from its seat, action by action, as the
        runner would have (:func:`sixtysix.play.runner.play_hand`). ``None`` when the game
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

    def close(self, game: Game) -> None:
        """Close the computer player (an engine's program is stopped) once it has heard everything."""
        player, game.player = game.player, None
        if player is not None:
            game.table.seat_hooks(player.seat, Hooks())
            # Kept until done (pruned here, on the event loop: the set is never touched by a thread).
            self._closing = {f for f in self._closing if not f.done()}
            self._closing.add(player.close())

    def stop(self, game: Game) -> None:
        """The game ends: the computer stops thinking (unless this is its own task, which
        ends by itself) and its player is closed."""
        task = game.bot_task
        if task is not None and not task.done() and task is not _current_task():
            task.cancel()  # the computer was thinking; its loop ends itself otherwise
        self.close(game)

    async def closed(self) -> None:
        """Wait until every computer player closed so far has closed."""
        await asyncio.gather(*(asyncio.wrap_future(f) for f in list(self._closing)), return_exceptions=True)


def _current_task() -> asyncio.Task[object] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop running (a test driving the manager)
        return None
