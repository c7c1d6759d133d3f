"""Inference about the opponent's hand from everything he did this hand (the ``infer``
option of the search bots): policy-based inference, after Rebstock, Solinas, Buro and
Sturtevant (2019).

A world (the opponent's hand now and the stock) is as likely as the opponent's actual
actions were with it: each action he had a choice at, judged by a model of him from
what he could see then (his hand then, the public actions, never the searching seat's
cards), gets a chance, and the world's weight is the product of those chances over the
hand, raised to a power ``T`` below 1 (tempered) so that one surprising action does not
rule a world out. His hand *then* is not part of a world: which of his cards he was
dealt and which he drew when is drawn for each world, every way equally likely
(:class:`sixtysix.game.worlds.Packs`), and the hand is replayed from that deal in the rules
kernel (:meth:`State.likelihood <sixtysix.kernel.State.likelihood>`, the same values in
both kernels). The models: the learned network's policy, or the fast playout policy
with a share ``epsilon`` of the chance spread evenly over the legal actions (the
network's probabilities get that share too: no action is ruled out).

The worlds are then drawn by weight from a pool of uniformly sampled ones (importance
resampling: :class:`sixtysix.bots.worlds.Worlds`).

>>> import random
>>> from sixtysix import Action, Hand
>>> hand = Hand.random(seed=3)
>>> for token in ("9D", "JD", "D", "X", "JC", "TC", "D"):
...     hand.push(Action.parse(token))
>>> view = hand.view(1)
>>> inference = Inference(view, random.Random(1), power=1.0)
>>> truth = (hand.kernel.hand(0), hand.kernel.stock_cards())
>>> inference.log_weight(truth, random.Random(2)) <= 0.0
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sixtysix import kernel
from sixtysix.game.views import View
from sixtysix.game.worlds import Packs
from sixtysix.kernel.tables import config

if TYPE_CHECKING:
    from sixtysix.kernel import Net

__all__ = ["EPSILON", "Inference"]

#: The share of each chance spread evenly over the legal actions (the model's own
#: chance gets the rest).
EPSILON = 0.1
#: What the network reads of the past at the deal (kernel.PAST before the dealer): nothing
#: won, shown, exchanged or played yet.
_AT_THE_DEAL = (0, 0, 0, 0, -1, -1, 0, -1, 0, -1)
_DEALER = kernel.PAST.index("dealer")


class Inference:
    """The log-weights of the worlds of ``view``: the tempered log-likelihood of the
    opponent's actions this hand under the playout policy, or ``net``'s policy (``past``:
    the view's :func:`~sixtysix.game.views.past_of`, whose dealer and match it reads)
    mixed with ``mix`` of the playout policy."""

    def __init__(self, view: View, rng: random.Random, power: float, epsilon: float = EPSILON,
                 net: Net | None = None, past: Sequence[int] | None = None, mix: float = 0.0) -> None:
        if not power > 0:
            raise ValueError(f"the inference's power must be positive, not {power}")
        if not 0 < epsilon <= 1:
            raise ValueError(f"epsilon must be above 0 and at most 1, not {epsilon}")
        if net is not None and past is None:
            raise ValueError("inference with a network needs the view's past")
        if not 0 <= mix <= 1:
            raise ValueError(f"mix must be between 0 and 1, not {mix}")
        self.mix = mix
        self._packs = Packs(view, rng)
        self._codes = [action.code for _, action in view.history]
        self._config = config(view.rules)
        self._dealer = view.dealer
        self._opponent = 1 - view.seat
        self.power = power
        self.epsilon = epsilon
        self._net = net
        self._past = None if past is None else (*_AT_THE_DEAL, *past[_DEALER:])

    def log_likelihood(self, layout: tuple[int, Sequence[int]], rng: random.Random) -> float:
        """The logarithm of how likely the opponent's actions were in the world of
        ``layout`` (his hand as a mask, the stock), with his past drawn by ``rng``."""
        deck = self._packs.pack(layout[0], layout[1], rng)
        state = kernel.State.deal(deck, self._dealer, self._config)
        return state.likelihood(self._codes, self._opponent, self.epsilon, self._net, self._past, self.mix)

    def log_weight(self, layout: tuple[int, Sequence[int]], rng: random.Random) -> float:
        """The world's log-weight: the log-likelihood times the power (``-inf``: a world his
        actions rule out)."""
        value = self.log_likelihood(layout, rng)
        return value * self.power if value > -math.inf else value
