"""Oracle players for the ceiling studies (benchmarks/course_ceiling.py,
benchmarks/heuristic_ceiling.py): searches told what an honest player cannot know.

They cheat on purpose and are no bots to play with: they bound what any honest
player can reach.
"""

from __future__ import annotations

import argparse

from sixtysix.bots.ismcts import ISMCTSBot, Worlds
from sixtysix.game.views import View

#: Random stock orders behind the true hand for a search told the hand only.
STOCK_ORDERS = 256
#: The ``hard`` level's search options (its time budget replaced by iterations).
OPTIONS: dict[str, float] = {"c": 0.4, "bias": 2.0}


class Told(ISMCTSBot):
    """ISMCTS whose worlds all hold the true opponent's hand (``hand``, a card mask) and,
    with ``stock`` (card indices, next to be drawn first), the true stock order, while
    the stock is open. Set both before each decision."""

    hand: int | None = None
    stock: list[int] | None = None

    def _prepare(self, view: View) -> Worlds:
        worlds = super()._prepare(view)
        hand, order = self.hand, self.stock
        if hand is not None and view.stock_open:
            # Every world has the true hand, and the true stock or one of many random orders.
            # Given as the worlds' layouts, which the kernel's search deals in turn.
            if order is not None:
                worlds.layouts = [(hand, list(order))]
            else:
                worlds.layouts = [(hand, worlds._stock_for(hand)) for _ in range(STOCK_ORDERS)]
            worlds.count = len(worlds.layouts)
        return worlds


def search_spec(iterations: int) -> str:
    """The arena spec of ``hard``'s search at ``iterations`` per decision."""
    return f"ismcts:iterations={iterations}," + ",".join(f"{k}={v}" for k, v in OPTIONS.items())


def parse_players(parser: argparse.ArgumentParser, text: str, known: tuple[str, ...]) -> list[str]:
    """The comma-separated players of ``--players``, each one of ``known``."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in known]
    if unknown:
        parser.error(f"unknown player {', '.join(unknown)}: expected some of {', '.join(known)}")
    return kinds
