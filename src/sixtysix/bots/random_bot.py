"""A bot that plays uniformly at random among the legal actions, but never
declares 66 falsely (it can count its own points)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sixtysix.actions import Action, ActionKind
from sixtysix.bots.base import BaseBot
from sixtysix.kernel.tables import marriage_value
from sixtysix.views import View

__all__ = ["RandomBot"]


def declaration_total(view: View, action: Action) -> int:
    """The total the seat would declare with ``action`` (a marriage adds its value, R5.5)."""
    total = view.scores[view.seat]
    if action.kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
        total += marriage_value(action.suit, view.trump)
    return total


class RandomBot(BaseBot):
    """Uniform random play among legal actions, excluding false declarations."""

    name = "random"

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        choices = [a for a in legal if not a.is_declaration or declaration_total(view, a) >= 66]
        return self.rng.choice(choices or list(legal))
