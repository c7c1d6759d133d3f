"""When time decides something in a game: the players' clocks started after each change
and the moment a clock may fall or an absent player's grace ends, with one timer per
game that fires then (what time decided is applied by the game service)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix.play.clock import Clock
from sixtysix.server.status import GameKind, GameStatus

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["GRACE", "HAND_BREAK", "ClockScheduler"]

#: Seconds between a hand's deal (or the start of the match) and the moment the first
#: player's clock starts: time to read the last hand's result.
HAND_BREAK = 5.0
#: Seconds a player of a game against a person may be away (no connection) while the
#: opponent is at the table, before losing the match (``left``); a setting of the server.
GRACE = 60.0


class ClockScheduler:
    """The clocks and absent players of the games in ``games``; ``due`` is called with a
    game when its timer fires (the game still in memory)."""

    def __init__(self, games: dict[str, Game], now: Callable[[], float], *, grace: float = GRACE,
                 hand_break: float = HAND_BREAK) -> None:
        self.games = games
        #: The time, in seconds since the epoch (clocks are stored so and survive a restart).
        self.now = now
        #: Seconds an absent player of a game against a person has to come back (:data:`GRACE`).
        self.grace = grace
        #: Seconds before the first player's clock of a hand starts (:data:`HAND_BREAK`).
        self.hand_break = hand_break
        #: What to do when a game's timer fires (set by the game manager).
        self.due: Callable[[Game], object] = lambda game: None

    def start_clock(self, game: Game, clock: Clock, at: float) -> None:
        """Start ``clock`` for the seat to act, if nobody's runs: after :data:`HAND_BREAK`
        when the hand has just been dealt."""
        seat = game.to_act
        hand = game.hand
        if seat is None or hand is None or clock.running is not None:
            return
        clock.start(seat, at + (self.hand_break if not hand.actions else 0.0))

    def run_clock(self, game: Game, at: float) -> None:
        """After a change: the seat to act's clock runs (if the game has one and is played)."""
        if game.clock is not None and game.status is GameStatus.PLAYING and not game.over:
            self.start_clock(game, game.clock, at)

    def update_away(self, game: Game, at: float) -> None:
        """Note which players of a game against a person hold no connection (since ``at``,
        for those newly gone) and forget the ones back."""
        if game.kind is not GameKind.PERSON or game.status is not GameStatus.PLAYING or game.over:
            game.away.clear()
            return
        present = game.present()
        for seat in (0, 1):
            if seat in present:
                game.away.pop(seat, None)
            elif seat not in game.away:
                game.away[seat] = at + self.grace

    def schedule(self, game: Game) -> None:
        """Arrange for :attr:`due` to run when the next clock may fall or an absent
        player's grace period ends (one timer per game, replaced at each change)."""
        self.cancel(game)
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
        game.timer = loop.call_later(delay, self._fired, game)

    @staticmethod
    def cancel(game: Game) -> None:
        """Stop the game's timer, if one is set."""
        if game.timer is not None:
            game.timer.cancel()
            game.timer = None

    def _fired(self, game: Game) -> None:
        game.timer = None
        if self.games.get(game.id) is game:
            self.due(game)
