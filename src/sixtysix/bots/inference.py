"""Inference about the opponent's hand from what he did (the ``infer`` option of the
search bots): how likely his last action was for each hand he may have held, if
he played like the fast playout policy (or a model bot), judging by what he
could see, with a probability ``epsilon`` of an action at random instead.

Worlds are then drawn by that weight (:class:`sixtysix.bots.worlds.Worlds`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sixtysix.actions import EXCHANGE
from sixtysix.bots.rollout import policy_code
from sixtysix.cards import CARDS, iter_mask, mask_of
from sixtysix.hand import Hand
from sixtysix.player import Bot
from sixtysix.sampling import Constraints
from sixtysix.views import View

__all__ = ["likelihood"]

#: Action codes that play a card (with or without a marriage announced).
_CARD_ACTIONS = sum(1 << code for code in range(EXCHANGE))


def likelihood(evidence: View | None, view: View, epsilon: float,
               model: Bot | None = None) -> Callable[[int], float] | None:
    """How likely the opponent's last action is for each hand he may hold now (a card
    mask), given ``evidence``, the seat's view just before that action.

    The opponent is taken to choose as ``model`` would (default: the playout
    policy), with probability ``epsilon`` of an action at random instead. ``None``
    when nothing can be learnt: no evidence, another hand, an exchange, or more
    than one draw since.
    """
    before = evidence
    if before is None or before.seat != view.seat or before.dealer != view.dealer or \
            before.dealt_trump_card != view.dealt_trump_card or before.match_score != view.match_score:
        return None
    n = len(before.history)
    if len(view.history) <= n or view.history[:n] != before.history:
        return None
    who, action = view.history[n]
    if who != view.opponent or any(s == who for s, _ in view.history[n + 1:]):
        return None
    draws = before.stock_size - view.stock_size
    if draws not in (0, 2) or (draws and before.closed_by is not None):
        return None
    played = action.card.mask if action.card is not None and action.code < EXCHANGE else 0
    if action.code == EXCHANGE:
        return None  # the nine for the face-up trump: nothing about the rest of his hand
    # What he could hold then: the cards unseen from our seat then (and those he was
    # known to hold); the stock's last card lies apart (R2.3, R4.1).
    then = Constraints.from_view(before)
    known_before = mask_of(then.must_hold)
    hidden = mask_of(then.unseen) | known_before
    last = [then.stock_last] if then.stock_last is not None else []
    # He lost the trick before the last draw: he drew that last card (R3.4).
    face_up = last[0].mask if draws and before.stock_size == 2 and view.tricks[-1].winner == view.seat \
        else 0
    observed = action.code
    rng = random.Random(0)  # unused: the policy is asked without random choices

    def weigh(mask: int) -> float:
        base = mask | played
        if draws:
            if face_up:
                candidates = [base & ~face_up] if mask & face_up else []
            else:
                candidates = [base & ~(1 << i) for i in iter_mask(mask & ~known_before)]
        else:
            candidates = [base]
        total = 0.0
        for opp in candidates:
            stock = [CARDS[i] for i in iter_mask(hidden & ~opp)] + last
            try:
                world = Hand.from_view(before, [CARDS[i] for i in iter_mask(opp)], stock)
            except ValueError:
                continue  # not a hand he could have held then
            legal = world.legal_mask()
            if model is not None:
                seen = world.view(who)
                chosen = model.choose(seen, seen.legal).code
            else:
                chosen = policy_code(world, rng, 0.0, True)
            options = (legal & _CARD_ACTIONS).bit_count() or legal.bit_count()
            total += (1 - epsilon) * (chosen == observed) + epsilon / options
        return total / len(candidates) if candidates else 0.0

    return weigh
