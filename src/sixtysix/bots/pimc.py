"""Perfect Information Monte Carlo: sample the hidden cards, solve each world,
play the action with the best average game points.

Closing, declaring, the exchange and marriages are searched like any other
action. See :func:`sixtysix.analysis.analyse` for how worlds are evaluated.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=8)
>>> bot = PIMCBot(seed=1, worlds=4)
>>> hand.is_legal(bot.choose(hand.view(hand.to_act), hand.legal_actions()))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sixtysix.actions import Action
from sixtysix.analysis import DEFAULT_SOLVE_STOCK, Budget, analyse
from sixtysix.bots.base import BaseBot
from sixtysix.views import View

__all__ = ["PIMCBot"]


class PIMCBot(BaseBot):
    """PIMC with exact solving of small worlds and heuristic playouts of large ones.

    ``worlds`` and ``time`` (seconds per decision) bound the search; with
    ``worlds`` only, the same seed gives the same move.
    """

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int | None = None,
        time: float | None = None,
        solve_stock: int = DEFAULT_SOLVE_STOCK,
        rng: random.Random | None = None,
    ) -> None:
        if worlds is None and time is None:
            worlds = 32
        self.budget = Budget(worlds=worlds, time=time)
        self.solve_stock = solve_stock
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        lines = analyse(view, self.budget, rng=self.rng, solve_stock=self.solve_stock)
        return lines[0].action
