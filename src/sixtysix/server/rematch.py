"""Rematches: a new match with the same players and settings once a match is over,
made once however many times it is asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sixtysix.server.bot_driver import BotDriver
from sixtysix.server.errors import GameError, Reason
from sixtysix.server.messages import RematchMessage
from sixtysix.server.seating import Seating
from sixtysix.server.status import GameStatus

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["Rematches"]


class Rematches:
    """Makes rematches through ``seating``; the computer of a new one is woken by ``bots``."""

    def __init__(self, seating: Seating, bots: BotDriver) -> None:
        self.seating = seating
        self.bots = bots

    def make(self, game: Game, seat: int) -> Game:
        """A new match with the same players and settings; both clients are told its id."""
        if not game.over or game.status is GameStatus.ABORTED:
            raise GameError(Reason.NOT_OVER)
        if game.rematch is not None:
            new = self.seating.host.get(game.rematch)
        else:
            new, _ = self.seating.create(rules=game.rules, kind=game.kind, level=game.level, rematch_of=game)
            game.rematch = new.id
            self.bots.wake(new)
        for conn in game.connections:
            conn.push(RematchMessage(type="rematch", game=new.id))
        return new
