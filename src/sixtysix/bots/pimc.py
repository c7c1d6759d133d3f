"""Perfect Information Monte Carlo: sample the hidden cards, solve each world,
play the action with the best average game points.

Closing, declaring, the exchange and marriages are searched like any other
action. See :mod:`sixtysix.bots.analysis` for how worlds are evaluated.

With ``prior="heuristic"`` the bot starts from the heuristic bot's choice and
leaves it only for an action whose advantage, measured on the same worlds
(a paired comparison), exceeds ``z`` standard errors: search noise then never
makes it play worse than the heuristic, while the search still overrules the
heuristic where it is sure.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=8)
>>> bot = PIMCBot(seed=1, worlds=4)
>>> hand.is_legal(bot.choose(hand.view(hand.to_act), hand.legal_actions()))
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from sixtysix.bots.analysis import DEFAULT_SOLVE_STOCK, Budget, sample_values
from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.game.actions import Action
from sixtysix.game.player import BaseBot, Event
from sixtysix.game.views import View

__all__ = ["PIMCBot"]


class PIMCBot(BaseBot):
    """PIMC with exact solving of small worlds and playouts of large ones.

    ``worlds`` and ``time`` (seconds per decision) bound the search; with
    ``worlds`` only, the same seed gives the same move. ``playout`` is
    ``heuristic`` or ``fast`` (see :func:`sixtysix.bots.analysis.evaluate_world`);
    ``prior`` is ``none`` or ``heuristic`` with confidence ``z``.
    """

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int | None = None,
        time: float | None = None,
        solve_stock: int = DEFAULT_SOLVE_STOCK,
        playout: str = "heuristic",
        prior: str = "none",
        z: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        if worlds is None and time is None:
            worlds = 32
        if prior not in ("none", "heuristic"):
            raise ValueError(f"prior must be none or heuristic, not {prior!r}")
        self.budget = Budget(worlds=worlds, time=time)
        self.solve_stock = solve_stock
        self.playout = playout
        self.rng = rng if rng is not None else random.Random(seed)
        self.prior = HeuristicBot(rng=random.Random(self.rng.random())) if prior == "heuristic" else None
        self.z = z

    def new_hand(self, view: View) -> None:
        if self.prior is not None:
            self.prior.new_hand(view)

    def observe(self, event: Event) -> None:
        if self.prior is not None:
            self.prior.observe(event)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        samples, exact = sample_values(view, self.budget, rng=self.rng,
                                       solve_stock=self.solve_stock, playout=self.playout)
        means = {a: sum(v) / len(v) for a, v in samples.items()}
        # Best first; among equals a declaration (it ends the hand at once, R8.2).
        best = max(legal, key=lambda a: (means[a], a.is_declaration))
        if self.prior is None or exact:
            return best
        baseline = self.prior.choose(view, legal)
        if best is baseline:
            return best
        diffs = [x - y for x, y in zip(samples[best], samples[baseline], strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return baseline
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > self.z * math.sqrt(var / n):
            return best
        return baseline
