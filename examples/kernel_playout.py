"""A custom playout on the rules kernel: docs/kernel.md walks through it."""

import random

from sixtysix.game.hand import Hand
from sixtysix.kernel import CARD_BITS, DECLARE, DRAW, POINTS, Phase, State


def greedy_playout(state: State) -> int:
    """Declare 66 when it holds, play the highest card, draw when no card may be played."""
    while state.phase != Phase.OVER:
        legal = state.legal_mask()
        if legal >> DECLARE & 1 and state.score(state.to_act) >= 66:
            state.push(DECLARE)
        elif legal & CARD_BITS:
            cards = [c for c in range(24) if legal >> c & 1]
            state.push(max(cards, key=lambda c: (POINTS[c], c)))
        else:
            state.push(DRAW)
    return state.value()


rng = random.Random(1)
values = [greedy_playout(Hand.random(rng=rng).kernel) for _ in range(1000)]
print(f"seat 0 averages {sum(values) / len(values):+.3f} game points a hand")
