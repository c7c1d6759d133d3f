"""A bot that plays uniformly at random among the legal actions, but never
declares 66 falsely (it can count its own points)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sixtysix.game.actions import Action
from sixtysix.game.player import BaseBot
from sixtysix.game.views import View
from sixtysix.kernel.tables import WINNING_TOTAL

__all__ = ["RandomBot"]


class RandomBot(BaseBot):
    """Uniform random play among legal actions, excluding false declarations."""

    name = "random"

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        choices = [a for a in legal if not a.is_declaration or view.declared_total(a) >= WINNING_TOTAL]
        return self.rng.choice(choices or list(legal))
