"""Inference with the opponent's own policy as the model: the ceiling of policy-based
inference (benchmarks/inference.py, benchmarks/heuristic_ceiling.py).

:class:`sixtysix.bots.inference.Inference` judges the opponent's actions by a model of
*a* player (the playout policy, the network). How much could inference give if the
model were the opponent himself? Against the ``heuristic`` player we can know: replay
the hand in each world and ask the heuristic player what he would have done from his
view there. Its few random tie-breaks (a hundredth of a point) and anything else are
covered by ``epsilon``, spread evenly over his legal actions, as the search's models do.

This knows the opponent's program, which no honest player does: it measures the room
above the models we have, it is no bot to play with.

>>> import random
>>> from sixtysix import Action, Hand
>>> hand = Hand.random(seed=3)
>>> for token in ("9D", "JD", "D", "X", "JC", "TC", "D"):
...     hand.push(Action.parse(token))
>>> view = hand.view(1)
>>> model = HeuristicModel(view, random.Random(1), power=1.0, epsilon=0.1)
>>> truth = (hand.kernel.hand(0), hand.kernel.stock_cards())
>>> model.log_weight(truth, random.Random(2)) <= 0.0
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.game.cards import CARDS
from sixtysix.game.hand import Hand
from sixtysix.game.views import View
from sixtysix.game.worlds import Packs


class HeuristicModel:
    """The log-weights of the worlds of ``view`` under the heuristic player as the model
    of the opponent (duck-typed as :class:`~sixtysix.bots.inference.Inference`, so that
    :class:`~sixtysix.bots.worlds.Worlds` weighs with it)."""

    def __init__(self, view: View, rng: random.Random, power: float, epsilon: float, pasts: int = 1) -> None:
        self._packs = Packs(view, rng)
        self._view = view
        self._opponent = 1 - view.seat
        self.power = power
        self.epsilon = epsilon
        self.pasts = pasts
        self._bot = HeuristicBot(seed=0)

    def log_likelihood(self, layout: tuple[int, Sequence[int]], rng: random.Random) -> float:
        """How likely the opponent's actions were in the world of ``layout``: the mean
        over ``pasts`` pasts drawn by ``rng`` (which of his cards he was dealt, which he
        drew when) of the chance of his actions with that past."""
        if self.pasts == 1:
            return self._with_past(layout, rng)
        logs = [self._with_past(layout, rng) for _ in range(self.pasts)]
        top = max(logs)
        if top == -math.inf:
            return top
        return top + math.log(math.fsum(math.exp(v - top) for v in logs) / len(logs))

    def _with_past(self, layout: tuple[int, Sequence[int]], rng: random.Random) -> float:
        """The log-chance of the opponent's actions with a past drawn by ``rng``:
        ``1 - epsilon`` for the heuristic's choice, plus ``epsilon`` spread over his
        legal actions."""
        view = self._view
        deck = self._packs.pack(layout[0], layout[1], rng)
        hand = Hand.deal([CARDS[i] for i in deck], view.dealer, view.rules)
        hand.match_score, hand.match_bonus = view.match_score, view.match_bonus
        total = 0.0
        for seat, action in view.history:
            if seat == self._opponent:
                legal = hand.legal_actions()
                if len(legal) > 1:
                    chosen = self._bot.choose(hand.view(seat), legal)
                    p = (1.0 - self.epsilon) * (chosen == action) + self.epsilon / len(legal)
                    total += math.log(p)
            hand.push(action)
        return total

    def log_weight(self, layout: tuple[int, Sequence[int]], rng: random.Random) -> float:
        """The world's log-weight: the log-likelihood times the power."""
        return self.log_likelihood(layout, rng) * self.power
