"""Speed of determinization (sixtysix.game.worlds) for search bots (one core).

Run:  python benchmarks/sampling.py [--worlds N] [--repeat R]

Three positions from a seeded random hand, each seen by the seat to act:
the first lead (12 cards in the stock), mid phase 1 (three tricks played,
6 in the stock) and after a close (two tricks, a close, two more tricks).
For each: deriving the constraints, raw layouts (opponent hand and stock
order), whole worlds (``Hand`` objects via ``Hand.from_view``), and calls of
``worlds(view, N)`` as a search bot makes them at every decision.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from machine import machine  # benchmarks/machine.py

from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.views import View
from sixtysix.game.worlds import Constraints, sample_worlds, worlds


def play_cards(hand: Hand, rng: random.Random, tricks: int) -> None:
    """Play ``tricks`` tricks at random (cards and draws only)."""
    target = hand.tricks_won(0) + hand.tricks_won(1) + tricks
    while hand.tricks_won(0) + hand.tricks_won(1) < target:
        legal = [a for a in hand.legal_actions() if a.card is not None or str(a) == "D"]
        hand.push(rng.choice(legal))
    if hand.state == "draw":
        hand.push(Action.parse("D"))


def positions(seed: int) -> list[tuple[str, View]]:
    rng = random.Random(seed)
    first = Hand.random(seed=seed)
    mid = first.copy()
    play_cards(mid, rng, 3)
    closed = Hand.random(seed=seed)
    play_cards(closed, rng, 2)
    closed.push(Action.parse("C"))
    play_cards(closed, rng, 2)
    out = []
    for name, hand in (("first lead", first), ("mid phase 1", mid), ("after a close", closed)):
        seat = hand.to_act
        assert seat is not None
        out.append((name, hand.view(seat)))
    return out


def rate(fn: Callable[[], int], seconds: float, repeat: int) -> float:
    """Best of ``repeat`` runs of items per second, each run about ``seconds`` long."""
    best = 0.0
    for _ in range(repeat):
        items = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            items += fn()
        best = max(best, items / elapsed)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--worlds", type=int, default=64, help="worlds per call (default 64)")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one run")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    n = args.worlds
    print(f"machine: {machine()}")
    rng = random.Random(args.seed)
    for name, view in positions(args.seed):
        c = Constraints.from_view(view)
        print(f"{name}: stock {view.stock_size}{' (closed)' if view.closed_by is not None else ''}, "
              f"{len(c.unseen)} unseen, opponent {c.opponent_hand_size} ({len(c.must_hold)} known, "
              f"{len(c.cannot_hold)} unseen ruled out), {c.count():,} layouts")

        def derive(view: View = view) -> int:
            Constraints.from_view(view)
            return 1

        def layouts(c: Constraints = c) -> int:
            for _ in range(100):
                c.sample(rng)
            return 100

        def hands(view: View = view) -> int:
            return len(sample_worlds(view, n, rng))

        def calls(view: View = view) -> int:
            worlds(view, n, rng)
            return 1

        print(f"  constraints from a view: {rate(derive, args.seconds, args.repeat):>10,.0f} /s")
        print(f"  layouts:                 {rate(layouts, args.seconds, args.repeat):>10,.0f} /s")
        print(f"  worlds (Hand objects):   {rate(hands, args.seconds, args.repeat):>10,.0f} /s")
        print(f"  worlds(view, {n}) calls: {rate(calls, args.seconds, args.repeat):>10,.0f} /s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
