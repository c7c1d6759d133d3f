"""Hints: the analysis the terminal game gives (every legal action with the game points
it is worth, from the seat's own view: :func:`sixtysix.bots.analysis.analyse`), worked out
in a worker thread and sent to the connection that asked. Only against the computer
(against a person it would be help from outside), only at the seat's turn, one at a
time per game."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from sixtysix.bots.analysis import Budget, advise, analyse
from sixtysix.bots.net_bot import shipped_network
from sixtysix.game.views import View
from sixtysix.server.connection import Connection
from sixtysix.server.errors import Reason, error
from sixtysix.server.messages import ErrorMessage, HintLine, HintMessage
from sixtysix.server.status import GameKind, GameStatus

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["HINT_BUDGET", "ask_hint"]

log = logging.getLogger("sixtysix.server")

#: What a hint may cost: about a second of one core (the terminal game's hint budget).
HINT_BUDGET = Budget(worlds=200, time=1.0)


def ask_hint(game: Game, seat: int | None, conn: Connection) -> ErrorMessage | None:
    """Start working out a hint for ``seat``; it reaches ``conn`` as a ``hint`` message.
    Returns an error reply, or ``None``."""
    if seat is None:
        return error(Reason.SPECTATOR_HINT)
    if game.rated:
        return error(Reason.NO_HINTS_RATED)
    if game.kind is not GameKind.COMPUTER:
        return error(Reason.NO_HINTS)
    hand = game.hand
    if game.status is not GameStatus.PLAYING or hand is None or hand.is_over() or hand.to_act != seat:
        return error(Reason.NOT_YOUR_TURN)
    if game.hint_task is not None and not game.hint_task.done():
        return error(Reason.HINT_BUSY)
    view = hand.view(seat)
    where = (len(game.match.hands), len(hand.actions))
    game.hint_task = asyncio.get_running_loop().create_task(_hint(game.id, view, where, conn))
    return None


async def _hint(game_id: str, view: View, where: tuple[int, int], conn: Connection) -> None:
    rng = random.Random(f"sixtysix-hint-{game_id}-{where[0]}-{where[1]}")
    try:
        lines = await asyncio.to_thread(analyse, view, HINT_BUDGET, rng=rng, network=shipped_network())
    except Exception:
        # A boundary: the search runs on its own in a worker thread; whatever it raises,
        # the player is told and the game goes on.
        log.exception("the hint for game %s failed", game_id)
        conn.push(error(Reason.HINT_FAILED))
        return
    advice = advise(lines)
    conn.push(HintMessage(type="hint", hand=where[0], index=where[1], lines=[
        HintLine(action=str(line.action), value=round(line.value, 3), error=round(line.error, 3),
                 samples=line.samples, exact=line.exact,
                 network=None if line.network is None else round(line.network, 3),
                 interval=[round(line.low, 3), round(line.high, 3)] if line.clipped else None)
        for line in lines], certainty=advice.certainty.value,
        rival=None if advice.rival is None else str(advice.rival.action)))
